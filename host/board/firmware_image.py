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
import re
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
    files[VERSION_FILE] = _stamp(version_of(platform))
    return files


def sources() -> dict[str, bytes]:
    """The same firmware as source files, for the virtual board under CPython (which cannot
    run .mpy files)."""
    files: dict[str, bytes] = {}
    for relative in modules(None):
        files[str(relative)] = (toolchain.ROOT / relative).read_bytes()
    for script in SCRIPTS:
        files[script] = (toolchain.ROOT / "firmware" / script).read_bytes()
    files[VERSION_FILE] = _stamp(version_of(None, compiled=False))
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


def version_of(platform: str | None = None, compiled: bool = True) -> str:
    """The firmware's version for a board of `platform` (its sys.platform; None: the virtual
    board): a hash of what its flash is made from, each file's path there and its source
    (the modules, boot.py and main.py), and for .mpy files (`compiled`; False: the sources
    the virtual board runs under CPython) the compiler that makes them. Any change of what
    goes on the flash shows, and the version is known without compiling (the desk's boards
    page); an image carries it as its stamp, which the board reports. (.mpy files are the
    same bytes whatever the -march: the firmware has no native code.)"""
    digest = hashlib.sha256()
    if compiled:
        digest.update(b"mpy-cross " + _compiler() + b"\0")
    made = [(str(relative.with_suffix(".mpy") if compiled else relative), relative)
            for relative in modules(platform)]
    made += [(script, Path("firmware") / script) for script in SCRIPTS]
    for path, relative in sorted(made):
        source = (toolchain.ROOT / relative).read_bytes()
        digest.update(path.encode() + b"\0" + hashlib.sha256(source).digest())
    return digest.hexdigest()[:12]


def version(files: dict[str, bytes]) -> str:
    """The version an image carries: its stamp (version_of its sources, made with it); ""
    for files without one."""
    found = re.match(r"VERSION = '([^'\\]*)'\n?$", files.get(VERSION_FILE, b"").decode(
        "utf-8", "replace"))
    return found.group(1) if found else ""


def _stamp(made: str) -> bytes:
    return ("VERSION = %r\n" % made).encode()


def _compiler() -> bytes:
    """mpy-cross itself (its binary's hash): another compiler, other .mpy bytes."""
    with open(toolchain.mpy_cross_binary(), "rb") as binary:
        return hashlib.sha256(binary.read()).hexdigest().encode()
