"""`pilkku bench` on the emulated Raspberry Pi Pico (host/board/pico: the stock MicroPython
v1.28.0 UF2 on rp2040js, pilkku flashed onto it by `pilkku flash`): boot, key to display,
resume, flash, sync and heap figures on the chip's own 32-bit port, its littlefs on NOR flash
and its ROM partition. Times are the board's emulated clock (ms), which follows the
instructions the emulated Cortex-M0+ runs and adds the flash chip's datasheet erase and
program times; so they are what a real Pico would take, whatever the laptop's load. The
emulator's own speed (emulated ms per wall ms) is given beside them.

    why = missing()                        # '' when the Pico can run here
    figures = pico_figures(folder, FULL, say)

The boards start from flash images made once per UF2 and firmware (host/board/pico/ready.py),
kept in CACHE between runs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from host.bench import board as bench_board
from host.board.pico import ready
from host.board.pico.board import PicoBoard, missing

DEBOUNCE_MS = 20  # hardware/keys.py: a level counts once it has held this long
DOWN_MS = 120  # a referee's press (tests/pico/twin.py: shorter ones are lost to flash writes)
UP_MS = 180
FINE_MS = 300  # stepped 1 ms at a time for this long after a key could be seen, then 5 ms
WINDOW_MS = 1500  # a key whose display has not changed by then changed nothing
LONG_STEP_MS = 500
SETTLE_MS = 1000  # after boot, before the first key: the menu's first frames are drawn
Say = Callable[[str], None]

__all__ = ["missing", "pico_figures", "FULL", "QUICK", "PicoSizes"]


@dataclass(frozen=True)
class PicoSizes:
    key_repeats: int = 2  # of the sim demo's 9-ball race, for key to display
    key_steps: int = 0  # 0: every step of the demo; else only the first this many
    boot_files: bool = True  # also boot the plain image (the code as .mpy files in littlefs)


FULL = PicoSizes()
QUICK = PicoSizes(key_repeats=1, key_steps=8, boot_files=False)


def cache_folder() -> Path:
    """Where the flashed images are kept between runs (named for the UF2's and the
    firmware's hashes, so a new build flashes anew)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pilkku" / "pico"


class Clock:
    """The emulated ms and wall seconds a board's steps took, for the emulator's speed: over
    every step, and over the long ones alone (LONG_STEP_MS or more: the emulator's own speed,
    without the round trip each short step costs)."""

    def __init__(self) -> None:
        self.emulated = self.emulated_long = 0
        self.wall = self.wall_long = 0.0

    def step(self, board: PicoBoard, ms: int) -> None:
        start = time.monotonic()
        board.step(ms)
        spent = time.monotonic() - start
        self.wall += spent
        self.emulated += ms
        if ms >= LONG_STEP_MS:
            self.wall_long += spent
            self.emulated_long += ms

    def speed(self, long: bool = False) -> float:
        """Emulated ms per wall ms."""
        emulated, wall = (self.emulated_long, self.wall_long) if long else (self.emulated,
                                                                            self.wall)
        return emulated / (wall * 1000) if wall else 0.0


def _percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def booted(image: Path, folder: Path, fine: bool = False) -> tuple[PicoBoard, int]:
    """A board of its own on a copy of `image`, powered up stepped and showing: the board
    and its boot's ms (power on to the first display showing anything; 1 ms steps if
    `fine`)."""
    board = ready.board_from(image, folder)
    board.start(stepped=True)
    try:
        return board, ready.boot(board, step=1 if fine else 50)
    except BaseException:
        board.close()
        raise


def press_to_display(board: PicoBoard, key: str, down: int, clock: Clock) -> list[int]:
    """Press `key` for `down` ms, let it go for UP_MS: the ms from each moment the firmware
    could see a gesture (the press, or a long press held to bench_board.LONG_MS, each after
    the keypad's debounce) to the first display write that changed what the displays show.
    A gesture that changed nothing within WINDOW_MS gives no figure."""
    began = board.now
    board.key(key, True)
    seen_at = [began + DEBOUNCE_MS]
    if down >= bench_board.LONG_MS:
        seen_at.append(began + DEBOUNCE_MS + bench_board.LONG_MS)
    latencies = []
    released = False
    for at in seen_at:
        while board.now < at:
            if not released and board.now >= began + down:
                board.key(key, False)
                released = True
            clock.step(board, min(10, at - board.now))
        before = board.texts()
        while board.now - at < WINDOW_MS:
            if not released and board.now >= began + down:
                board.key(key, False)
                released = True
            clock.step(board, 1 if board.now - at < FINE_MS else 5)
            if board.texts() != before:
                latencies.append(board.now - at)
                break
    if not released:
        end = began + down
        if board.now < end:
            clock.step(board, end - board.now)
        board.key(key, False)
    rest = max(0, began + down + UP_MS - board.now)
    if rest:
        clock.step(board, rest)
    return latencies


def key_figures(image: Path, folder: Path, sizes: PicoSizes, say: Say) -> dict:
    """Boot the ROMFS board (1 ms steps) and play the sim demo's 9-ball race at its keypad
    `key_repeats` times: the boot's ms, key to display p50/p99 (emulated ms) and the
    emulator's speed over the whole run."""
    clock = Clock()
    start = time.monotonic()
    board, boot_ms = booted(image, folder / "keys", fine=True)
    boot_wall = time.monotonic() - start
    try:
        clock.step(board, SETTLE_MS)
        steps = bench_board._script(bench_board.SCRIPT)
        if sizes.key_steps:
            steps = steps[:sizes.key_steps]
        latencies: list[int] = []
        for repeat in range(sizes.key_repeats):
            say("  the 9-ball demo at the Pico's keypad, %d of %d ..."
                % (repeat + 1, sizes.key_repeats))
            for action, key, ms in steps:
                if action == "wait":
                    clock.step(board, ms)
                else:
                    latencies += press_to_display(board, key, max(ms, DOWN_MS), clock)
    finally:
        board.close()
    return {
        "pico_boot_ms_romfs": boot_ms,
        "pico_boot_wall_s_romfs": boot_wall,
        "pico_key_to_display_ms_p50": _percentile(latencies, 0.5),
        "pico_key_to_display_ms_p99": _percentile(latencies, 0.99),
        "pico_key_to_display_ms_max": max(latencies),
        "pico_key_to_display_samples": len(latencies),
        "pico_emulated_ms_per_wall_ms": clock.speed(long=True),
        "pico_emulated_ms_per_wall_ms_stepped": clock.speed(),
    }


def pico_figures(folder: Path, sizes: PicoSizes, say: Say) -> dict:
    """Every Pico figure, or {} with `pico_not_measured` saying why when the Pico cannot run
    here (no node/rp2040js, or no UF2s and boot ROM named by the environment)."""
    why = missing()
    if why:
        say("the emulated Pico: not measured (%s)" % why)
        return {"pico_not_measured": why}
    folder = Path(folder) / "pico"
    folder.mkdir(parents=True, exist_ok=True)
    cache = cache_folder()
    cache.mkdir(parents=True, exist_ok=True)
    say("the emulated Pico: pilkku flashed onto the ROMFS image (kept in %s) ..." % cache)
    romfs = ready.flashed(cache, romfs=True)
    figures = key_figures(romfs, folder, sizes, say)
    if sizes.boot_files:
        say("the emulated Pico: pilkku flashed as files (littlefs) ...")
        files = ready.flashed(cache, romfs=False)
        board, ms = booted(files, folder / "boot-files")
        board.close()
        figures["pico_boot_ms_files"] = ms
    return figures
