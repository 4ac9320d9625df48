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

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware.journal import Journal
from host.bench import board as bench_board
from host.bench import logs as bench_logs
from host.bench import syncing as bench_syncing
from host.board import firmware_image, flash, flash_files, flash_rom
from host.board.mpremote_link import Link
from host.board.pico import ready
from host.board.pico.board import PicoBoard, PicoError, missing
from host.board.pico.ready import uf2
from host.sync.commands import Desk
from host.sync.pair import pair
from host.sync.session import Link as SyncLink
from host.sync.session import Pulled, SyncError, sync_board
from host.tournament.store import Store
from rules_core.match import Match

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
    resume_events: tuple[int, int] = (300, 3000)  # a 14.1 match cut after these many events
    resume_cuts: int = 4  # cuts RESUME_STEP events apart from each count (a snapshot period)
    sync_matches: int = 6  # finished matches pulled by pilkku sync
    flash: bool = True  # pilkku flash against mpremote on blank chips (a few minutes)
    # The bisection's resolution (0: no bisection). Off: min_heap_kb ran no full bisection
    # before the session's deadline (docs/performance.md); 4 turns it on.
    heap_kb_step: int = 0


FULL = PicoSizes()
QUICK = PicoSizes(key_repeats=1, key_steps=8, boot_files=False, resume_events=(40, 320),
                  resume_cuts=1, sync_matches=1, flash=False, heap_kb_step=0)
SYNC_TIMEOUT_S = 5.0  # the link's wait for a reply: the emulated chip runs ~4x slower
RESUME_STEP = 8  # events between two cuts: 4 cuts span the journal's snapshot period (32)
RESUME_LIMIT_MS = 30000
USB_SETTLE_S = ready.SETTLE_S


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
    finally:
        board.close()
    return {
        "pico_boot_ms_romfs": boot_ms,
        "pico_boot_wall_s_romfs": boot_wall,
        "pico_key_to_display_ms_p50": _percentile(latencies, 0.5),
        "pico_key_to_display_ms_p99": _percentile(latencies, 0.99),
        "pico_key_to_display_ms_max": max(latencies),
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
            time.sleep(USB_SETTLE_S)
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
                    time.sleep(USB_SETTLE_S)
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


# --- flash -----------------------------------------------------------------------------

def _quiet(_line: str) -> None:
    pass


def _blank(folder: Path, romfs: bool) -> PicoBoard:
    """A blank chip given the stock UF2, powered up free-running, its REPL answering
    mpremote (an mpremote that opens the port before the stock firmware's USB is up can
    wait for ever: seen once in 3 tries, so the clock starts on a board that answers)."""
    board = PicoBoard(folder)
    board.flash_uf2(uf2(romfs))
    board.start()
    time.sleep(USB_SETTLE_S)
    for attempt in range(3):
        try:
            _mpremote(["connect", board.pty_path, "exec", "pass"], timeout=30)
            return board
        except (PicoError, subprocess.TimeoutExpired):
            if attempt == 2:
                board.close()
                raise PicoError("the emulated Pico's stock firmware did not answer mpremote") \
                    from None
            time.sleep(USB_SETTLE_S)
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
        recorded = len([r for r in stored.results(held["id"]) if r["verified"]])
    if summary["stored"] != count or recorded != count:
        raise PicoError("the sync stored %d of %d results (%d in the store)"
                        % (summary["stored"], count, recorded))
    return {"pico_sync_matches": count, "pico_sync_ms_per_result": emulated / count,
            "pico_sync_wall_s": wall, "pico_sync_store_ms_per_result": in_store[0] * 1000 / count,
            "pico_sync_retransmissions": link.retransmissions}


# --- the smallest heap -----------------------------------------------------------------

# A Kaisa game to 20 points with its game clock, played at the keypad to its end (the one of
# tests/pico/test_pico_play.py): the lag to PL 2, who takes two-dot; PL 1 wins 24-17.
KAISA_KEYS = "CCCB20#22A3A33A72A3A3A3"
KAISA_END = ("  24", "  17")
# main.py, with a ballast bytearray taken from the heap before anything else is imported.
BALLAST = "import gc\ngc.collect()\n_pk_ballast = bytearray(%d)\n"
FREE = "import gc\ngc.collect()\nprint(gc.mem_free())\n"
READ_MAIN = "print(open('/main.py').read())"


def heap_trial(image: Path, folder: Path, ballast: int, main: str, db: Path, held: dict,
               key: bytes) -> str:
    """The board with `ballast` bytes of its heap taken by main.py before the firmware is
    imported: '' if it plays KAISA_KEYS to the end with no reset (a MemoryError ends the
    loop; the watchdog then resets the board), and one sync then frees the result; else
    what went wrong."""
    shutil.rmtree(folder, ignore_errors=True)
    board = ready.board_from(image, folder)
    board.start()
    try:
        time.sleep(USB_SETTLE_S)
        pair(board.pty_path, key)
        with Link.open(board.pty_path) as link:
            link.raw_repl(soft_reset=True)
            link.run(flash_files.HASH + flash_files.WRITE)
            flash_files.write_file(link, "main.py", (BALLAST % ballast + main).encode(),
                                   deflate=True)
        board.kill()
        board.start(stepped=True)
        resets = board.resets
        try:
            ready.boot(board)
            board.step(SETTLE_MS)
            for name in KAISA_KEYS:
                board.key(name, True)
                board.step(DOWN_MS)
                board.key(name, False)
                board.step(UP_MS)
            board.step(3000)  # the shot's points leave the message row
        except PicoError as error:
            return "did not play: %s" % error
        texts = board.texts()
        if board.resets != resets or (texts["score_1"], texts["score_2"]) != KAISA_END:
            return "reset %d times, shows %r" % (board.resets - resets, texts)
        board.kill()
        board.start()
        ready.up(board)
        board.wait_ms(1000)
        desk = Desk(str(db), held)
        sync_link = SyncLink(board.pty_path, key, timeout=SYNC_TIMEOUT_S)
        try:
            summary = sync_board(sync_link, desk.store_result, desk.schedule_for, say=_quiet)
        except SyncError as error:
            return "the sync failed: %s" % error
        finally:
            sync_link.close()
        if board.resets != resets or summary["kept"] or summary["stored"] != 1:
            return "the sync: %d resets, %r" % (board.resets - resets, summary)
        return ""
    finally:
        board.close()


def min_heap_kb(image: Path, folder: Path, step_kb: int, say: Say) -> dict:
    """The smallest free heap (KB) the firmware needs for the Kaisa game and a sync: the
    ballast bisected (to `step_kb`) between none and the whole free heap; the free heap is
    what the board has free before main.py's ballast less the ballast."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "heap.db"
    held, key, _matches = bench_syncing.tournament(db, 1)
    board = ready.board_from(image, folder / "probe")
    board.start()
    try:
        time.sleep(USB_SETTLE_S)
        with Link.open(board.pty_path) as link:
            link.raw_repl(soft_reset=True)
            main = link.run(READ_MAIN).replace("\r\n", "\n")
            free = int(link.run(FREE).strip())
    finally:
        board.close()
    # Ballast in step_kb units: `fits` plays, `fails` does not.
    fits, fails = 0, free // (step_kb * 1024)
    trials = {}
    while fails - fits > 1:
        middle = (fits + fails) // 2
        ballast = middle * step_kb * 1024
        why = heap_trial(image, folder / "trial", ballast, main, db, held, key)
        trials[str((free - ballast) // 1024)] = why or "plays and syncs"
        say("    %d KB free for the firmware: %s" % ((free - ballast) // 1024,
                                                     why or "plays and syncs"))
        if not why:
            fits = middle
        else:
            fails = middle
    why = heap_trial(image, folder / "trial", 0, main, db, held, key) if fits == 0 else ""
    if why:
        raise PicoError("the Kaisa game and its sync fail on the emulated Pico's whole heap: "
                        + why)
    return {"kb": -(-(free - fits * step_kb * 1024) // 1024), "free_kb": free // 1024,
            "trials": trials}


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
    say("the emulated Pico: resume after a power cut at %d and %d events ..."
        % sizes.resume_events)
    figures.update(resume_figures(romfs, folder, sizes, say))
    say("the emulated Pico: pulling %d finished matches with pilkku sync ..."
        % sizes.sync_matches)
    figures.update(sync_figures(romfs, folder, sizes.sync_matches))
    if sizes.flash:
        say("the emulated Pico: pilkku flash against mpremote on blank chips ...")
        figures.update(flash_figures(folder, say))
    if sizes.heap_kb_step:
        images = {"romfs": romfs, "files": ready.flashed(cache, romfs=False)}
        for name, image in images.items():
            say("the emulated Pico: the smallest heap for a Kaisa game and a sync (%s) ..."
                % name)
            least = min_heap_kb(image, folder / ("heap-" + name), sizes.heap_kb_step, say)
            figures["pico_min_heap_kb_" + name] = least["kb"]
            figures["pico_free_heap_kb_" + name] = least["free_kb"]
            figures["pico_min_heap_trials_" + name] = least["trials"]
    if sizes.boot_files:
        say("the emulated Pico: pilkku flashed as files (littlefs) ...")
        files = ready.flashed(cache, romfs=False)
        board, ms = booted(files, folder / "boot-files")
        board.close()
        figures["pico_boot_ms_files"] = ms
    return figures
