"""Emulated Picos with pilkku on them, for the tests and `pilkku bench`: a blank chip given a
stock UF2, powered up, flashed by `pilkku flash` over its USB serial as a user would, checked,
and its flash image kept, so each test or figure starts a board of its own from a copy in
seconds rather than flashing again (a flash takes 20-30 s of emulation).

    image = flashed(cache, romfs=True)        # pico-flash.img with pilkku in its ROM partition
    board = board_from(image, tmp / "pico1")  # a board of its own on a copy, off
    board.start(stepped=True)
    boot(board)                               # stepped on until the displays first show

The cached image is named for the UF2's and the firmware's hashes: a new build flashes anew.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from host.board import firmware_image, flash, toolchain
from host.board.mpremote_link import LinkError
from host.board.pico.board import IMAGE, PicoBoard
from host.board.pico.chip import ENV_ROMFS_UF2, ENV_UF2, PicoError
from host.i18n import _

USB_UP_MS = 1500  # of the emulated clock: the stock firmware's USB is up before mpremote opens it
BOOT_LIMIT_MS = 30000  # of the emulated clock: a board not showing by then does not boot


def cache_folder() -> Path:
    """Where flashed images are kept between runs (`pilkku sim --pico`, `pilkku bench`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pilkku" / "pico"


def uf2(romfs: bool) -> Path:
    """The stock UF2 the environment names (with a ROMFS partition, or plain)."""
    name = ENV_ROMFS_UF2 if romfs else ENV_UF2
    where = os.environ.get(name, "")
    if not where or not Path(where).is_file():
        raise PicoError(_("no Pico firmware image: set %(variable)s (see docs/pico.md)")
                        % {"variable": name})
    return Path(where)


def flashed(cache: Path, romfs: bool, say=lambda _line: None) -> Path:
    """The flash image of a Pico given the stock UF2 and then `pilkku flash` (kept in
    `cache`; made once per UF2 and firmware). The flash must land where the UF2 allows: in
    the ROM partition of the ROMFS image, as files on the plain one."""
    source = uf2(romfs)
    files = firmware_image.image("armv6m", "rp2")
    stamp = hashlib.sha256(source.read_bytes()).hexdigest()[:12] + "-" + \
        firmware_image.version(files)
    kept = Path(cache) / ("pico-%s-%s.img" % ("romfs" if romfs else "files", stamp))
    if kept.is_file():
        return kept
    work = Path(cache) / ("flashing-" + stamp)
    shutil.rmtree(work, ignore_errors=True)
    board = PicoBoard(work)
    board.flash_uf2(source)
    board.start()
    try:
        board.wait_ms(USB_UP_MS)  # the chip's own time: however loaded this machine is
        # (an emulated chip's unique id is all zeros: its carried files kept beside it)
        done = flash.flash(board.pty_path, say=say, carried=work / "carried")
    except (LinkError, flash.FlashError, toolchain.ToolchainError) as failed:
        raise PicoError(_("pilkku flash onto the emulated Pico failed: %(error)s (see %(log)s)")
                        % {"error": failed, "log": work / "pico.log"}) from None
    finally:
        board.close()
    if board.misaligned:  # a real Pico's flash would hold other bytes than were asked
        raise PicoError(_("pilkku flash programmed the flash in pieces that are not whole "
                          "aligned 256-byte pages: %(pieces)s") % {"pieces": board.misaligned[:4]})
    want = "rom" if romfs else "files"
    if done.where != want:
        raise PicoError(_("pilkku flash put the firmware in %(where)s, not %(wanted)s")
                        % {"where": done.where, "wanted": want})
    shutil.move(str(work / IMAGE), str(kept))
    shutil.rmtree(work, ignore_errors=True)
    return kept


def board_from(image: Path, folder: Path) -> PicoBoard:
    """A Pico of its own whose flash is a copy of `image` (powered off)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(image, folder / IMAGE)
    return PicoBoard(folder)


def boot(board: PicoBoard, step: int = 50) -> int:
    """Step a board just powered up (stepped) until its displays show something; the board's
    clock then (ms since this power-up began)."""
    began = board.now
    while not any(text.strip() for text in board.texts().values()):
        if board.now - began > BOOT_LIMIT_MS:
            raise PicoError(_("the emulated Pico showed nothing in %(ms)d ms (see %(log)s)")
                            % {"ms": BOOT_LIMIT_MS, "log": board.folder / "pico.log"})
        board.step(step)
    return board.now - began


def up(board: PicoBoard, limit_ms: int = BOOT_LIMIT_MS) -> None:
    """Wait for a free-running board just powered up to show its first frame (the firmware
    is then in its loop: the sync and mpremote find it answering), within `limit_ms` of the
    chip's clock (PicoError saying so)."""
    board.wait_for(lambda: any(text.strip() for text in board.texts().values()), limit_ms,
                   "the first frame on the displays")
