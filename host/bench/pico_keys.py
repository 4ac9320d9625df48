"""`pilkku bench` on the emulated Pico, the keys (host/bench/pico.py has the rest): key to
display over the sim demo's 9-ball race and a long match, and apart over a Kaisa game with
its clock; taps missed (80 ms taps at random moments of a 14.1 match, against the desk
board's count). Times are the board's emulated clock (ms)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from host.bench import board as bench_board
from host.bench.pico_twin import DeskBoard
from host.board.pico import ready
from host.board.pico.board import PRESS_MS, RELEASE_MS, PicoBoard

if TYPE_CHECKING:
    from host.bench.pico import PicoSizes

DOWN_MS, UP_MS = PRESS_MS, RELEASE_MS  # a referee's press (host/board/pico/board.py)
FINE_MS = 300  # stepped 1 ms at a time for this long after a key could be seen, then 5 ms
WINDOW_MS = 1500  # a key whose display has not changed by then changed nothing
LONG_STEP_MS = 500
SETTLE_MS = 1000  # after boot, before the first key: the menu's first frames are drawn
Say = Callable[[str], None]

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
    could see a gesture (the press, or a long press held to bench_board.LONG_MS) to the
    first display write that changed what the displays show.
    A gesture that changed nothing within WINDOW_MS gives no figure. From the press itself:
    the keypad's edge latch (hardware/keypad_latch.py) takes it at the next scan, with no
    20 ms debounce first."""
    began = board.now
    board.key(key, True)
    seen_at = [began]
    if down >= bench_board.LONG_MS:
        seen_at.append(began + bench_board.LONG_MS)
    latencies = []
    released = False
    # A press held long is two gestures: the press's window ends where the long press's
    # begins (what the long press draws is not the press's).
    ends = seen_at[1:] + [seen_at[-1] + WINDOW_MS]
    for at, end in zip(seen_at, ends, strict=True):
        while board.now < at:
            if not released and board.now >= began + down:
                board.key(key, False)
                released = True
            clock.step(board, min(10, at - board.now))
        before = board.texts()
        while board.now < end:
            if not released and board.now >= began + down:
                board.key(key, False)
                released = True
            clock.step(board, min(1 if board.now - at < FINE_MS else 5, end - board.now))
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


LONG_MATCH = "2#11"  # from the menu: 9-ball, race to 2; the lag to PL 1, who breaks


def key_figures(image: Path, folder: Path, sizes: PicoSizes, say: Say) -> dict:
    """Boot the ROMFS board (1 ms steps), play the sim demo's 9-ball race at its keypad
    `key_repeats` times, then a match of `long_shots` misses: the boot's ms, key to display
    p50/p90/p99 over every key (emulated ms), the long match's apart, and the emulator's
    speed over the whole run."""
    clock = Clock()
    start = time.monotonic()
    board, boot_ms = booted(image, folder / "keys", fine=True)
    boot_wall = time.monotonic() - start
    try:
        clock.step(board, SETTLE_MS)
        steps = bench_board._script(bench_board.SCRIPT)
        latencies: list[int] = []
        by_key: list[list] = []  # [key, ms] in the order pressed, for the reader
        for repeat in range(sizes.key_repeats):
            say("  the 9-ball demo at the Pico's keypad, %d of %d ..."
                % (repeat + 1, sizes.key_repeats))
            for action, key, ms in steps:
                if action == "wait":
                    clock.step(board, ms)
                else:
                    for took in press_to_display(board, key, max(ms, DOWN_MS), clock):
                        latencies.append(took)
                        by_key.append([key, took])
        say("  a 9-ball match of %d misses at the Pico's keypad ..." % sizes.long_shots)
        long: list[int] = []
        for number, key in enumerate(LONG_MATCH + "A" * sizes.long_shots):
            if number == len(LONG_MATCH):
                ops = board.flash_ops
            for took in press_to_display(board, key, DOWN_MS, clock):
                long.append(took)
                by_key.append([key, took])
        clock.step(board, 2 * WINDOW_MS)  # the quiet ticks' flash work after the last one
        ops = board.flash_ops - ops
        latencies += long
    finally:
        board.close()
    return {
        "pico_boot_ms_romfs": boot_ms,
        "pico_boot_wall_s_romfs": boot_wall,
        "pico_key_to_display_ms_p50": _percentile(latencies, 0.5),
        "pico_key_to_display_ms_p90": _percentile(latencies, 0.9),
        "pico_key_to_display_ms_p99": _percentile(latencies, 0.99),
        "pico_key_to_display_ms_max": max(latencies),
        "pico_key_to_display_ms_long_p50": _percentile(long, 0.5),
        "pico_key_to_display_ms_long_p99": _percentile(long, 0.99),
        "pico_key_to_display_samples": len(latencies),
        # erases and programs per shot of the long match, the quiet ticks' included (the
        # ring's erase ahead, its filing to littlefs 64 records at a time, snapshots)
        "pico_flash_ops_per_event": ops / max(1, sizes.long_shots),
        "pico_key_to_display_ms_by_key": by_key,
        "pico_emulated_ms_per_wall_ms": clock.speed(long=True),
        "pico_emulated_ms_per_wall_ms_stepped": clock.speed(),
    }


# From the menu: Kaisa (three C), its game clock on (B), race to 20; then, once the menu has
# made the start ahead, the start, the lag to PL 1, the one-dot ball (the clock starts); then
# shots KAISA_GAP_MS apart, misses and pots of a kaisa into a corner (6 points each) until
# PL 1 wins with his fourth.
KAISA_MENU = "CCCB20"
KAISA_START = "#11"
KAISA_SHOTS = "A3A3333"
KAISA_IDLE_MS = 3000  # the menu's quiet ticks make the start ahead
KAISA_GAP_MS = 2600  # a shot's points leave the message row


def kaisa_figures(image: Path, folder: Path, say: Say) -> dict:
    """A Kaisa game with its game clock at the keypad of a board of its own (the demo and the
    long match play 9-ball): key to display p50 and max over its start and shots, and each
    key's figure in the order pressed."""
    say("  a Kaisa game with its clock at the Pico's keypad ...")
    clock = Clock()
    board, _boot_ms = booted(image, folder / "kaisa")
    by_key: list[list] = []
    try:
        clock.step(board, SETTLE_MS)
        for key in KAISA_MENU:
            press_to_display(board, key, DOWN_MS, clock)
        clock.step(board, KAISA_IDLE_MS)
        for number, key in enumerate(KAISA_START + KAISA_SHOTS):
            by_key += [[key, took] for took in press_to_display(board, key, DOWN_MS, clock)]
            if number >= len(KAISA_START):
                clock.step(board, KAISA_GAP_MS)
    finally:
        board.close()
    took = [ms for _key, ms in by_key]
    return {"pico_key_to_display_ms_kaisa_p50": _percentile(took, 0.5),
            "pico_key_to_display_ms_kaisa_max": max(took),
            "pico_key_to_display_ms_kaisa_by_key": by_key}



# --- taps missed ------------------------------------------------------------------------

TAP_MS = 80
TAP_MENU = "CC#11"  # from the menu: 14.1, race to 100; the lag to PL 1, who breaks
TAP_GAPS_MS = (30, 700)  # the time between two taps, drawn at random in this range


def missed_figures(image: Path, folder: Path, taps: int, seed: int = 31) -> dict:
    """`taps` taps of # (a ball in: the score goes up; at the rack, the rack's one press)
    TAP_MS long at random moments of a 14.1 match, each TAP_GAPS_MS after the last whatever
    the board is doing (flash work between keys included): how many the board did not take.
    The desk board (the same firmware on CPython) gives what the board shows after each
    number of taps taken (every frame differs: the score only goes up); the Pico's frame
    once it has settled says how many it took."""
    frames = _desk_frames(taps)
    rng = random.Random(seed)
    board, _ms = booted(image, folder / "taps")
    clock = Clock()
    try:
        clock.step(board, SETTLE_MS)
        for key in TAP_MENU:
            board.tap(key)
        if _view(board.texts()) != frames[0]:
            raise RuntimeError("the Pico shows %r before the taps, not %r"
                               % (_view(board.texts()), frames[0]))
        for _tap in range(taps):
            board.key("#", True)
            clock.step(board, TAP_MS)
            board.key("#", False)
            clock.step(board, rng.randint(*TAP_GAPS_MS))
        clock.step(board, 2 * WINDOW_MS)
        last = _view(board.texts())
    finally:
        board.close()
    if last not in frames:
        raise RuntimeError("after %d taps the Pico shows %r, which no count of taps gives"
                           % (taps, last))
    return {"pico_key_missed": taps - frames.index(last), "pico_key_taps": taps}


def _view(texts: dict) -> tuple:
    return texts["score_1"], texts["score_2"], texts["clock"], texts["message"].rstrip()


def _desk_frames(taps: int) -> list[tuple]:
    """What the desk board shows after the menu's keys, then after each tap of #."""
    twin = DeskBoard().boot(400)

    def press(key: str) -> None:
        twin.matrix.press(key)
        twin.run(DOWN_MS)
        twin.matrix.release(key)
        twin.run(UP_MS)

    for key in TAP_MENU:
        press(key)
    frames = [_view(twin.texts())]
    for _tap in range(taps):
        press("#")
        frames.append(_view(twin.texts()))
    return frames
