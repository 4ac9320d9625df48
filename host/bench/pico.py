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
from host.bench import logs as bench_logs
from host.bench import pico_flash, pico_heap, pico_keys
from host.bench import syncing as bench_syncing
from host.bench.pico_keys import booted
from host.board import flash_files
from host.board.mpremote_link import Link
from host.board.pico import ready
from host.board.pico.board import PicoBoard
from host.board.pico.chip import PicoError, missing
from host.sync.commands import Desk
from host.sync.pair import pair
from host.sync.session import Link as SyncLink
from host.sync.session import Pulled, sync_board
from host.tournament.store import Store
from rules_core.match import Match

Say = Callable[[str], None]

__all__ = ["missing", "pico_figures", "FULL", "QUICK", "PicoSizes"]


@dataclass(frozen=True)
class PicoSizes:
    key_repeats: int = 2  # of the sim demo's 9-ball race (it ends in the menu), key to display
    taps: int = 40  # 80 ms taps at random moments of a 14.1 match, for the taps missed
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
QUICK = PicoSizes(key_repeats=1, taps=12, long_shots=8, boot_files=False,
                  resume_events=(40, 320),
                  resume_cuts=1, sync_matches=1, flash=False, heap_step_kb=0)
SYNC_TIMEOUT_S = 5.0  # the link's wait for a reply: the emulated chip runs ~4x slower
RESUME_STEP = 8  # events between two cuts: 4 cuts span the journal's snapshot period (32)
RESUME_LIMIT_MS = 30000


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
    figures = pico_keys.key_figures(romfs, folder, sizes, say)
    figures.update(pico_keys.kaisa_figures(romfs, folder, say))
    say("the emulated Pico: %d taps of 80 ms at random moments of a 14.1 match ..." % sizes.taps)
    figures.update(pico_keys.missed_figures(romfs, folder, sizes.taps))
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
