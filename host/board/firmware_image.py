"""What goes on a board's flash: rules_core, hardware and firmware compiled with mpy-cross,
and /boot.py and /main.py. One definition for `pilkku flash` (over mpremote) and for installing the
virtual board's flash directly."""

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
# The scripts a board runs from its filesystem's root, not imported from the packages.
SCRIPTS = ("boot.py", "main.py")


def image(arch: str | None = None) -> dict[str, bytes]:
    """Board path -> contents, for every file of the firmware, and the version stamp."""
    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as staging:
        for relative in toolchain.board_sources():
            if _not_a_module(relative):
                continue
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
    for relative in toolchain.board_sources():
        if _not_a_module(relative):
            continue
        files[str(relative)] = (toolchain.ROOT / relative).read_bytes()
    for script in SCRIPTS:
        files[script] = (toolchain.ROOT / "firmware" / script).read_bytes()
    files[VERSION_FILE] = ("VERSION = %r\n" % version(files)).encode()
    return files


def _not_a_module(relative: Path) -> bool:
    return str(relative) in NOT_ON_FLASH or str(relative) in ["firmware/" + s for s in SCRIPTS]


def version(files: dict[str, bytes]) -> str:
    """The firmware's version: a hash of what is on the flash, so any change shows."""
    digest = hashlib.sha256()
    for path in sorted(files):
        if path != VERSION_FILE:
            digest.update(path.encode() + b"\0" + files[path])
    return digest.hexdigest()[:12]
