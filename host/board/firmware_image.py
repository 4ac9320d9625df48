"""What goes on a board's flash: rules_core, hardware and firmware compiled with mpy-cross,
and /boot.py and /main.py. One definition for `pilkku flash` (over mpremote) and for installing the
virtual board's flash directly.

Made per target, by the board's `sys.platform`: a real board ("rp2": a Pico, "esp32") gets
only board code, its own board file and none of the virtual board's (hardware/boards/
virtual.py and the register-level models it drives, hardware/fakes.py and
hardware/ht16k33_model.py), which it would never import (hardware.boards.detect picks the
board file by platform); the virtual board (the unix port, CPython: any other platform)
gets every module, its own and the real boards' files."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from host.board import toolchain

VERSION_FILE = "pilkku_version.py"
# The virtual board's ROM is not firmware: it stands for a board's C firmware and silicon.
NOT_ON_FLASH = ("hardware/boards/virtual_rom.py", "hardware/boards/virtual_flash.py",
                "hardware/boards/virtual_vfs.py", "hardware/boards/virtual_wdt.py",
                "hardware/boards/virtual_usb.py",
                "firmware/manifest.py")  # what a firmware build freezes, not a module
# The virtual board's own modules: a real board never imports them.
VIRTUAL_ONLY = ("hardware/boards/virtual.py", "hardware/fakes.py", "hardware/ht16k33_model.py")
# sys.platform -> the board file hardware.boards.detect() imports there; any other platform
# is the virtual board.
BOARD_FILES = {"rp2": "hardware/boards/pico.py", "esp32": "hardware/boards/esp32.py"}
# The scripts a board runs from its filesystem's root, not imported from the packages.
SCRIPTS = ("boot.py", "main.py")


def image(arch: str | None = None, platform: str | None = None) -> dict[str, bytes]:
    """Board path -> contents, for every file of the firmware a board of `platform` (its
    sys.platform; None: the virtual board) runs, and the version stamp."""
    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as staging:
        for relative in modules(platform):
            target = Path(staging) / relative.with_suffix(".mpy")
            toolchain.compile_file(toolchain.ROOT / relative, target,
                                   toolchain.module_name(relative), arch)
            files[str(relative.with_suffix(".mpy"))] = target.read_bytes()
    for script in SCRIPTS:
        files[script] = (toolchain.ROOT / "firmware" / script).read_bytes()
    files[VERSION_FILE] = ("VERSION = %r\n" % version(files)).encode()
    return files


def sources() -> dict[str, bytes]:
    """The same firmware as source files, for the virtual board under CPython (which cannot
    run .mpy files)."""
    files: dict[str, bytes] = {}
    for relative in modules(None):
        files[str(relative)] = (toolchain.ROOT / relative).read_bytes()
    for script in SCRIPTS:
        files[script] = (toolchain.ROOT / "firmware" / script).read_bytes()
    files[VERSION_FILE] = ("VERSION = %r\n" % version(files)).encode()
    return files


def modules(platform: str | None) -> list[Path]:
    """The source files (relative to the repository) of the modules a board of `platform`
    gets, boot.py and main.py not among them."""
    return [relative for relative in toolchain.board_sources()
            if not _not_a_module(relative) and _for(relative, platform)]


def for_board(platform: str | None) -> bool:
    """True for a real board's platform (only board code goes there)."""
    return platform in BOARD_FILES


def _for(relative: Path, platform: str | None) -> bool:
    """Whether a board of `platform` gets this module."""
    path = str(relative)
    if not for_board(platform):
        return True
    return path not in VIRTUAL_ONLY and (path == BOARD_FILES[platform]  # type: ignore[index]
                                         or path not in BOARD_FILES.values())


def _not_a_module(relative: Path) -> bool:
    return str(relative) in NOT_ON_FLASH or str(relative) in ["firmware/" + s for s in SCRIPTS]


def version(files: dict[str, bytes]) -> str:
    """The firmware's version: a hash of what is on the flash, so any change shows."""
    digest = hashlib.sha256()
    for path in sorted(files):
        if path != VERSION_FILE:
            digest.update(path.encode() + b"\0" + files[path])
    return digest.hexdigest()[:12]
