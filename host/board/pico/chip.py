"""What the emulated Pico needs before it can run (host/board/pico/board.py runs it): node and
rp2040js, the stock firmware images named by the environment, the UF2 format a firmware image
comes in, and the errors a board reports."""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path

from host.i18n import _

HERE = Path(__file__).resolve().parent
FLASH_SIZE = 2 * 1024 * 1024
FLASH_BASE = 0x10000000
ENV_UF2 = "PILKKU_PICO_UF2"
ENV_ROMFS_UF2 = "PILKKU_PICO_ROMFS_UF2"
ENV_BOOTROM = "PILKKU_PICO_BOOTROM"
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
RP2040_FAMILY = 0xE48BFF56


class PicoError(RuntimeError):
    pass


class ClockRanOut(PicoError):
    """A wait on the chip ran out of the time of the chip's clock it was given."""


def node_binary() -> str:
    node = shutil.which("node")
    if node is None:
        raise PicoError(_("the emulated Pico needs node (apt-get install nodejs npm)"))
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        raise PicoError(_("the emulated Pico needs rp2040js: run `make venv` (it runs "
                          "npm ci --prefix host/board/pico)"))
    return node


def ready_to_start(bootrom: Path | None, image: Path, folder: Path) -> tuple[str, Path]:
    """The node binary to run the chip with and the boot ROM, once the boot ROM and the flash
    image are there (PicoError says which is not)."""
    if bootrom is None or not bootrom.is_file():
        raise PicoError(_("the emulated Pico needs the RP2040 boot ROM: set %(variable)s")
                        % {"variable": ENV_BOOTROM})
    if not image.exists():
        raise PicoError(_("%(folder)s has no flash image: flash a UF2 first")
                        % {"folder": folder})
    return node_binary(), bootrom


def missing() -> str:
    """Why the emulated Pico cannot run here ('' when it can): tests skip with this."""
    try:
        node_binary()
    except PicoError as error:
        return str(error)
    unset = [name for name in (ENV_UF2, ENV_ROMFS_UF2, ENV_BOOTROM)
             if not os.environ.get(name) or not Path(os.environ[name]).is_file()]
    if unset:
        return ("no Pico firmware images: set %s (see docs/pico.md)" % ", ".join(unset))
    return ""


def uf2_blocks(data: bytes) -> list[tuple[int, bytes]]:
    """The (flash offset, bytes) of each RP2040 block of a UF2 file (ValueError if bad)."""
    if not data or len(data) % 512:
        raise ValueError(_("not a UF2 file (its size is not a multiple of 512)"))
    blocks = []
    for at in range(0, len(data), 512):
        block = data[at:at + 512]
        magic0, magic1, flags, target, size, _no, _count, family = struct.unpack_from(
            "<8I", block)
        (magic_end,) = struct.unpack_from("<I", block, 508)
        if (magic0, magic1, magic_end) != UF2_MAGIC or size > 476:
            raise ValueError(_("not a UF2 file (block %(block)d has no UF2 magic)")
                             % {"block": at // 512})
        if flags & 1:
            continue  # "not main flash"
        if flags & 0x2000 and family != RP2040_FAMILY:
            raise ValueError(_("a UF2 for another chip (family %(family)s), not an RP2040")
                             % {"family": "0x%08x" % family})
        offset = target - FLASH_BASE
        if offset < 0 or offset + size > FLASH_SIZE:
            raise ValueError(_("UF2 block %(block)d is outside the Pico's 2 MB flash")
                             % {"block": at // 512})
        blocks.append((offset, block[32:32 + size]))
    return blocks


def missed_cut(frame: bytes) -> str:
    """What the bridge's M frame says: a power cut asked for that could not land."""
    op, offset, count, units, pages, more = struct.unpack(">6I", frame)
    what = ("a program of %d page%s" if op else "an erase of %d sector%s") % (
        units, "" if units == 1 else "s")
    return ("the power cut asked for could not land: the flash operation it named was %s "
            "(%d bytes at 0x%06x), with no room for %d whole %s and %d bytes more; the chip "
            "ran on" % (what, count, offset, pages, "pages" if op else "sectors", more))
