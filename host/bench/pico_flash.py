"""`pilkku bench` on the emulated Pico, the flash figures: `pilkku flash` of the whole firmware
onto blank chips given each stock UF2, against `mpremote romfs deploy` and `mpremote cp -r`
of the same files onto the same kind of chip (wall and emulated seconds, and their ratios).
Called by host/bench/pico.py."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from host.board import firmware_image, flash, flash_rom
from host.board.pico import ready
from host.board.pico.board import PicoBoard
from host.board.pico.chip import PicoError
from host.board.pico.ready import uf2

Say = Callable[[str], None]


def _quiet(_line: str) -> None:
    pass


def _blank(folder: Path, romfs: bool) -> PicoBoard:
    """A blank chip given the stock UF2, powered up free-running, its REPL answering
    mpremote (an mpremote that opens the port before the stock firmware's USB is up can
    wait for ever: seen once in 3 tries, so the clock starts on a board that answers)."""
    board = PicoBoard(folder)
    board.flash_uf2(uf2(romfs))
    board.start()
    board.wait_ms(ready.USB_UP_MS)
    for attempt in range(3):
        try:
            _mpremote(["connect", board.pty_path, "exec", "pass"], timeout=30)
            return board
        except (PicoError, subprocess.TimeoutExpired):
            if attempt == 2:
                board.close()
                raise PicoError("the emulated Pico's stock firmware did not answer mpremote") \
                    from None
            board.wait_ms(ready.USB_UP_MS)
    return board


def _timed(board: PicoBoard, work: Callable, *args, **kwargs) -> tuple[object, float, int]:
    """What `work(*args, **kwargs)` returned, and the wall seconds and the board's emulated
    ms it took."""
    board.wait_ms(0)
    began, start = board.now, time.monotonic()
    result = work(*args, **kwargs)
    wall = time.monotonic() - start
    board.wait_ms(0)
    return result, wall, board.now - began


def _mpremote(args: list[str], cwd: Path | None = None, timeout: float = 600) -> None:
    mpremote = shutil.which("mpremote", path=str(Path(sys.executable).parent)) or "mpremote"
    done = subprocess.run([mpremote] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise PicoError("mpremote %s failed: %s" % (args[2], (done.stdout + done.stderr)[-500:]))


def flash_figures(folder: Path, say: Say) -> dict:
    """`pilkku flash` onto a blank chip given the stock ROMFS UF2 (the ROM way), against
    `mpremote romfs deploy` of the same firmware's ROMFS image onto another; and onto a
    blank chip given the plain UF2 (files in littlefs) against `mpremote cp -r` of the same
    files. Wall seconds (what the person flashing waits, with the emulator's slowness in the
    board's share) and the board's emulated seconds."""
    figures: dict = {}
    files = firmware_image.image("armv6m", "rp2")
    for romfs, name in ((True, "romfs"), (False, "files")):
        say("  pilkku flash onto a blank chip (%s) ..." % name)
        board = _blank(folder / ("flash-pilkku-" + name), romfs)
        try:
            done, wall, emulated = _timed(board, flash.flash, board.pty_path, say=_quiet)
        finally:
            board.close()
        where = getattr(done, "where", "")
        if where != ("rom" if romfs else "files"):
            raise PicoError("pilkku flash put the firmware in %s" % where)
        say("  mpremote %s onto a blank chip ..." % ("romfs deploy" if romfs else "cp -r"))
        staging = folder / ("flash-staging-" + name)
        board = _blank(folder / ("flash-mpremote-" + name), romfs)
        try:
            if romfs:
                image = staging.with_suffix(".romfs")
                image.write_bytes(flash_rom.image(files))
                _, theirs, their_emulated = _timed(
                    board, _mpremote, ["connect", board.pty_path, "romfs", "deploy", str(image)])
            else:
                for path, data in files.items():
                    (staging / path).parent.mkdir(parents=True, exist_ok=True)
                    (staging / path).write_bytes(data)
                tops = sorted({path.split("/")[0] for path in files})
                _, theirs, their_emulated = _timed(
                    board, _mpremote, ["connect", board.pty_path, "cp", "-r"] + tops + [":"],
                    staging)
        finally:
            board.close()
        key = "pico_flash_full" if romfs else "pico_flash_files_full"
        other = "romfs_deploy" if romfs else "cp"
        figures[key + "_s"] = wall
        figures[key + "_emulated_s"] = emulated / 1000
        figures["pico_flash_mpremote_%s_s" % other] = theirs
        figures["pico_flash_mpremote_%s_emulated_s" % other] = their_emulated / 1000
        figures[key + "_vs_mpremote_ratio"] = wall / theirs
    return figures
