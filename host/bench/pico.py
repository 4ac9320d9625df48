"""`pilkku bench` on the emulated Raspberry Pi Pico (host/board/pico: the stock MicroPython
v1.28.0 UF2 on rp2040js, pilkku flashed onto it by `pilkku flash`): boot, key to display,
resume and sync figures (flash ones from host/bench/pico_flash.py, the smallest heap from
host/bench/pico_heap.py) on the chip's own
32-bit port, its littlefs on NOR flash and its ROM partition. Times are the board's
emulated clock (ms), which follows the instructions the emulated Cortex-M0+ runs and adds
the flash chip's datasheet erase and program times; so they are what a real Pico would
take, whatever the laptop's load. The emulator's own speed (emulated ms per wall ms) is
given beside them.

    why = missing()                        # '' when the Pico can run here
    figures = pico_figures(folder, FULL, say)

The boards start from flash images made once per UF2 and firmware (host/board/pico/ready.py),
kept in ready.cache_folder() between runs.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware.journal import Journal
from host.bench import board as bench_board
from host.bench import logs as bench_logs
from host.bench import pico_flash, pico_heap
from host.bench import syncing as bench_syncing
from host.board import flash_files
from host.board.mpremote_link import Link
from host.board.pico import ready
from host.board.pico.board import PRESS_MS, RELEASE_MS, PicoBoard
from host.board.pico.chip import PicoError, missing
from host.sync.commands import Desk
from host.sync.pair import pair
from host.sync.session import Link as SyncLink
from host.sync.session import Pulled, sync_board
from host.tournament.store import Store
from rules_core.match import Match

DEBOUNCE_MS = 20  # hardware/keys.py: a level counts once it has held this long
DOWN_MS, UP_MS = PRESS_MS, RELEASE_MS  # a referee's press (host/board/pico/board.py)
FINE_MS = 300  # stepped 1 ms at a time for this long after a key could be seen, then 5 ms
WINDOW_MS = 1500  # a key whose display has not changed by then changed nothing
LONG_STEP_MS = 500
SETTLE_MS = 1000  # after boot, before the first key: the menu's first frames are drawn
Say = Callable[[str], None]

__all__ = ["missing", "pico_figures", "FULL", "QUICK", "PicoSizes"]


@dataclass(frozen=True)
class PicoSizes:
    key_repeats: int = 2  # of the sim demo's 9-ball race (it ends in the menu), for key to display
    # then a 9-ball match of this many misses: its journal grows past littlefs' inline size
    # (the demo's stays near it), as every real match's does after a dozen shots
    long_shots: int = 64
    boot_files: bool = True  # also boot the plain image (the code as .mpy files in littlefs)
    resume_events: tuple[int, int] = (300, 3000)  # a 14.1 match cut after these many events
    resume_cuts: int = 4  # cuts RESUME_STEP events apart from each count (a snapshot period)
    sync_matches: int = 6  # finished matches pulled by pilkku sync
    flash: bool = True  # pilkku flash against mpremote on blank chips (a few minutes)
    heap_step_kb: int = 4  # the smallest heap's ballast bisected to this (0: not measured)


FULL = PicoSizes()
QUICK = PicoSizes(key_repeats=1, long_shots=8, boot_files=False,
                  resume_events=(40, 320),
                  resume_cuts=1, sync_matches=1, flash=False, heap_step_kb=0)
SYNC_TIMEOUT_S = 5.0  # the link's wait for a reply: the emulated chip runs ~4x slower
RESUME_STEP = 8  # events between two cuts: 4 cuts span the journal's snapshot period (32)
RESUME_LIMIT_MS = 30000


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
        for key in LONG_MATCH + "A" * sizes.long_shots:
            for took in press_to_display(board, key, DOWN_MS, clock):
                long.append(took)
                by_key.append([key, took])
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
        "pico_key_to_display_ms_by_key": by_key,
        "pico_emulated_ms_per_wall_ms": clock.speed(long=True),
        "pico_emulated_ms_per_wall_ms_stepped": clock.speed(),
    }


# --- resume ----------------------------------------------------------------------------

MORE = """import json
from firmware.journal import Journal
_m = Journal('journal').resume()
for _x in json.loads(%r):
    _m.apply(_x)
print(len(_m.log))
"""
META = {"board": "pk-bench", "table": 3, "match_id": "BENCH", "started": 1700000000}


def laptop_journal(doc: dict, count: int, version: str) -> dict[str, bytes]:
    """The journal files of a 14.1 match of `count` events as the firmware's own Journal
    writes them (run here under CPython: the same code, the same bytes, in seconds rather
    than the Pico's minutes): {path in the journal folder: bytes} (its empty folders are
    made by the firmware at boot)."""
    with tempfile.TemporaryDirectory(prefix="pilkku-pico-journal-") as where:
        root = Path(where) / "journal"
        match = Journal(str(root), version=version).start(doc["settings"], dict(META))
        for event in doc["events"][:count]:
            match.apply(event)
        return {path.relative_to(root).as_posix(): path.read_bytes()
                for path in sorted(root.rglob("*")) if path.is_file()}


def shows_score(board: PicoBoard, score: list[int]) -> bool:
    texts = board.texts()
    try:
        return [int(texts["score_1"]), int(texts["score_2"])] == list(score)
    except ValueError:
        return False


def resume_ms(board: PicoBoard, score: list[int]) -> int:
    """Power on after a cut, stepped 1 ms at a time, to the score displays showing the
    resumed match's score."""
    board.kill()
    board.start(stepped=True)
    began = board.now
    while not shows_score(board, score):
        if board.now - began > RESUME_LIMIT_MS:
            raise PicoError("the emulated Pico did not show the resumed score %r in %d ms: %r"
                            % (score, RESUME_LIMIT_MS, board.texts()))
        board.step(1)
    return board.now - began


def resume_figures(image: Path, folder: Path, sizes: PicoSizes, say: Say) -> dict:
    """A 14.1 match cut after each count of events, power on to the resumed score: the
    median over `resume_cuts` cuts RESUME_STEP events apart (the events after the last
    snapshot differ from cut to cut; one boot each, the emulated clock does not vary). The
    journal is written by the laptop (laptop_journal) onto the board's littlefs over its
    USB (pilkku flash's file writer), the later cuts' events applied on the board itself."""
    figures: dict = {"pico_resume_events": list(sizes.resume_events), "pico_resume_ms_cuts": {}}
    found = {}
    for count in sizes.resume_events:
        say("  resume after a cut at %d events ..." % count)
        cuts = [count + RESUME_STEP * k for k in range(sizes.resume_cuts)]
        doc = bench_logs.straight_log(cuts[-1])
        board = ready.board_from(image, folder / ("resume-%d" % count))
        board.start()
        try:
            board.wait_ms(ready.USB_UP_MS)
            with Link.open(board.pty_path) as link:
                link.raw_repl(soft_reset=True)
                version = link.run("from pilkku_version import VERSION\nprint(VERSION)").strip()
                link.run(flash_files.HASH + flash_files.WRITE)
                for name, data in laptop_journal(doc, count, version).items():
                    flash_files.write_file(link, "journal/" + name, data, deflate=True)
            times = []
            for cut in cuts:
                if cut != count:
                    board.kill()
                    board.start()
                    board.wait_ms(ready.USB_UP_MS)
                    with Link.open(board.pty_path) as link:
                        link.raw_repl(soft_reset=True)
                        done = link.run(MORE % json.dumps(doc["events"][cut - RESUME_STEP:cut]))
                    if done.strip() != str(cut):
                        raise PicoError("the Pico's journal holds %r events, not %d" % (done, cut))
                match = Match(doc["settings"])
                for event in doc["events"][:cut]:
                    match.apply(event)
                took = resume_ms(board, match.state.score)
                figures["pico_resume_ms_cuts"][str(cut)] = took
                times.append(took)
        finally:
            board.close()
        found[count] = sorted(times)[len(times) // 2]
    short, long = sizes.resume_events
    figures["pico_resume_ms_300"] = found[short]  # the keys name the full sizes (--quick: less)
    figures["pico_resume_ms_3000"] = found[long]
    figures["pico_resume_3000_vs_300"] = found[long] / found[short]
    return figures


# --- sync ------------------------------------------------------------------------------

def sync_figures(image: Path, folder: Path, count: int) -> dict:
    """`count` finished tournament matches (host/bench/syncing.py's, written into the
    journal on the board by the firmware's Journal) pulled by `pilkku sync`'s own laptop end
    into the real store over the board's USB: the board's clock over the sync per result,
    and beside it the laptop's own time in the store per result (wall ms, which passes
    while the free-running board's clock moves at the emulator's speed)."""
    db = folder / "sync.db"
    held, key, matches = bench_syncing.tournament(db, count)
    board = ready.board_from(image, folder / "sync")
    board.start()
    try:
        ready.up(board)
        pair(board.pty_path, key)
        bench_syncing.fill_journal(board.pty_path, matches, batch=1)
        ready.up(board)
        board.wait_ms(1000)  # the firmware back in its loop after the restart
        desk = Desk(str(db), held)
        in_store = [0.0]

        def store(board_id: str, result: Pulled) -> str:
            start = time.monotonic()
            try:
                return desk.store_result(board_id, result)
            finally:
                in_store[0] += time.monotonic() - start

        link = SyncLink(board.pty_path, key, timeout=SYNC_TIMEOUT_S)
        try:
            board.wait_ms(0)
            began, wall = board.now, time.monotonic()
            summary = sync_board(link, store, desk.schedule_for, say=lambda _line: None)
            wall = time.monotonic() - wall
            board.wait_ms(0)
            emulated = board.now - began
        finally:
            link.close()
    finally:
        board.close()
    with Store.open(db) as stored:
        recorded = len([r for r in stored.results.all(held["id"]) if r["verified"]])
    if summary["stored"] != count or recorded != count:
        raise PicoError("the sync stored %d of %d results (%d in the store)"
                        % (summary["stored"], count, recorded))
    return {"pico_sync_matches": count, "pico_sync_ms_per_result": emulated / count,
            "pico_sync_wall_s": wall, "pico_sync_store_ms_per_result": in_store[0] * 1000 / count,
            "pico_sync_retransmissions": link.retransmissions}


def pico_figures(folder: Path, sizes: PicoSizes, say: Say) -> dict:
    """Every Pico figure, or {} with `pico_not_measured` saying why when the Pico cannot run
    here (no node/rp2040js, or no UF2s and boot ROM named by the environment)."""
    why = missing()
    if why:
        say("the emulated Pico: not measured (%s)" % why)
        return {"pico_not_measured": why}
    folder = Path(folder) / "pico"
    folder.mkdir(parents=True, exist_ok=True)
    cache = ready.cache_folder()
    cache.mkdir(parents=True, exist_ok=True)
    say("the emulated Pico: pilkku flashed onto the ROMFS image (kept in %s) ..." % cache)
    romfs = ready.flashed(cache, romfs=True)
    figures = key_figures(romfs, folder, sizes, say)
    say("the emulated Pico: resume after a power cut at %d and %d events ..."
        % sizes.resume_events)
    figures.update(resume_figures(romfs, folder, sizes, say))
    say("the emulated Pico: pulling %d finished matches with pilkku sync ..."
        % sizes.sync_matches)
    figures.update(sync_figures(romfs, folder, sizes.sync_matches))
    if sizes.flash:
        say("the emulated Pico: pilkku flash against mpremote on blank chips ...")
        figures.update(pico_flash.flash_figures(folder, say))
    if sizes.boot_files:
        say("the emulated Pico: pilkku flashed as files (littlefs) ...")
        files = ready.flashed(cache, romfs=False)
        board, ms = booted(files, folder / "boot-files")
        board.close()
        figures["pico_boot_ms_files"] = ms
    for name in ("romfs", "files") if sizes.heap_step_kb else ():
        say("the emulated Pico: the smallest heap for a Kaisa game and a sync (%s) ..." % name)
        figures.update(pico_heap.heap_figures(ready.flashed(cache, romfs=name == "romfs"),
                                              folder / ("heap-" + name), name,
                                              sizes.heap_step_kb, say))
    return figures
