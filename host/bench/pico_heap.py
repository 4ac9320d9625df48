"""`pilkku bench` on the emulated Pico: the smallest heap pilkku runs a full match in. The
free heap is shrunk by a ballast that main.py takes before the firmware is imported (a
bytearray kept referenced for the whole run), and each trial plays the Kaisa game of
tests/pico/test_pico_play.py at the keypad to its end with its game clock, then syncs its
result into a real store with `pilkku sync`'s own laptop end. The ballast is bisected
between none and the whole free heap; the figure is the free heap less the largest ballast
that passed, in KB (to the bisection's step). The firmware does not know it is measured: only
its main.py has a line more, as a person could write one.

    figures = heap_figures(image, folder, "romfs", step_kb=4, say=print)

A trial passes only if the displays end on the Kaisa result (24-17, "PL 1 WON"), the watchdog
never reset the chip, the message display never showed an error ("MEMORY", "ERROR") after
any key, and the sync stored exactly one verified result (the game, a free game, is archived
beside the store and its link kept in the board's chain there). `bisect` is the pure search,
tested with a predicate (tests/host/test_pico_heap.py).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

from host.bench import syncing as bench_syncing
from host.board.mpremote_link import Link, LinkError
from host.board.pico import ready
from host.board.pico.board import PRESS_MS, RELEASE_MS, PicoBoard
from host.board.pico.chip import PicoError
from host.sync.commands import Desk
from host.sync.pair import pair
from host.sync.replies import SyncError
from host.sync.session import Link as SyncLink
from host.sync.session import Pulled, sync_board
from host.tournament.store import Store

Say = Callable[[str], None]

# The Kaisa game of tests/pico/test_pico_play.py (KAISA): to 20 points with the game clock on,
# the lag to PL 2, who takes two-dot; PL 1 reaches 20 and wins 24-17.
KAISA_KEYS = "CCCB20#22A3A33A72A3A3A3"
KAISA_END = ("  24", "  17")
SYNCED_SCORE = [24, 17]  # the result's meta, as the laptop pulls it (winner 0: PL 1)
WON = "PL 1 WON"
FILE_KEY = "#"  # at the result: file it and go back to the menu (firmware/app.py _menu_key)
TAKEN_MS = 3000  # a key the displays have not answered by then was not taken
STEP_MS = 10  # the steps a key's answer is looked for in (the firmware's tick)
# On the message display: a failure the firmware caught ("FLASH ERROR ..." scrolls: after its
# key the row may show "FLASH ER" or "LASH ERR").
ALARMS = ("MEMORY", "ERR", "FULL", "FLASH")
SETTLE_MS = 1000  # after the first frame, before the first key: the menu's frames are drawn
AFTER_MS = 5000  # after the last key, at most: the shot's points leave the message row
SYNC_TIMEOUT_S = 5.0  # the sync link's wait for a reply: the emulated chip runs ~4x slower
KB = 1024

# main.py's first lines in a trial: a collection, then the ballast, before any import of
# the firmware; a module global, so it is referenced as long as the board runs.
BALLAST = "import gc\ngc.collect()\n_pk_ballast = bytearray(%d)\n"
FREE = "import gc\ngc.collect()\nprint(gc.mem_free())\n"
READ_MAIN = "import binascii\nprint(binascii.hexlify(open('main.py', 'rb').read()).decode())\n"
WRITE_MAIN = ("f = open('main.py', 'w')\nf.write(%r)\nf.close()\n"
              "print(len(open('main.py').read()))\n")


def bisect(passes: Callable[[int], bool], lo: int, hi: int, step: int) -> int | None:
    """The largest x of lo, lo + step, ... below hi for which passes(x), or None if not even
    passes(lo). `passes` is taken to be monotonic (true up to some x, false beyond) and
    false at hi, which is not tried: log2((hi - lo) / step) trials and one at lo."""
    if step <= 0 or hi <= lo:
        raise ValueError("bisect needs step > 0 and lo < hi")
    if not passes(lo):
        return None
    fits, fails = 0, -(-(hi - lo) // step)  # in steps from lo; `fails` is hi or beyond
    while fails - fits > 1:
        middle = (fits + fails) // 2
        if passes(lo + middle * step):
            fits = middle
        else:
            fails = middle
    return lo + fits * step


class Base:
    """What every trial starts from: the flashed image paired with a tournament in a real
    store (a copy of each per trial), the firmware's main.py as `pilkku flash` wrote it, and
    the free heap the board has before main.py runs (gc.mem_free() after a soft reset into
    the raw REPL: only boot.py has run)."""

    def __init__(self, image: Path, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.db = folder / "base.db"
        self.db.unlink(missing_ok=True)
        self.held, self.key, _matches = bench_syncing.tournament(self.db, 1)
        board = ready.board_from(image, folder / "base")
        board.start()
        try:
            ready.up(board)
            self.board_id = pair(board.pty_path, self.key).board
            ready.up(board)
            with Link.open(board.pty_path) as link:
                link.raw_repl(soft_reset=True)
                self.main = bytes.fromhex(link.run(READ_MAIN).strip()).decode()
                self.free = int(link.run(FREE).strip())
        finally:
            board.close()
        self.image = folder / "paired.img"
        shutil.copyfile(board.image, self.image)


def face(texts: dict[str, str]) -> tuple:
    """What a key can change on the displays: all of them, but a running game clock (it
    changes by itself each second)."""
    clock = texts["clock"].strip()
    running = ":" in clock and clock.lstrip("b")[:1].isdigit()
    return tuple(text for name, text in sorted(texts.items())
                 if not (name == "clock" and running))


def press(board: PicoBoard, key: str) -> int | None:
    """A referee's press, stepped: down PRESS_MS, then let go, looking at the displays until
    they answer, and RELEASE_MS more before the next key (a referee sees each key taken
    before the next; a key pressed while the board is still busy with the last one would be
    lost, and that is key to display, not the heap). The ms from the press to the answer,
    or None if the displays did not answer within TAKEN_MS."""
    before = face(board.texts())
    began = board.now
    board.key(key, True)
    taken = None
    while taken is None and board.now - began < TAKEN_MS:
        if board.now - began >= PRESS_MS:
            board.key(key, False)
        board.step(STEP_MS)
        if face(board.texts()) != before:
            taken = board.now - began
    if board.now - began < PRESS_MS:
        board.step(PRESS_MS - (board.now - began))
    board.key(key, False)
    board.step(RELEASE_MS)
    return taken


def alarm(texts: dict[str, str]) -> str:
    message = texts.get("message", "")
    return message if any(word in message for word in ALARMS) else ""


def shows_result(board: PicoBoard) -> dict[str, str]:
    """Step until the message display shows the result (the shot's points scroll off it
    first), AFTER_MS at most; the displays then."""
    began = board.now
    texts = board.texts()
    while texts["message"] != WON and board.now - began < AFTER_MS:
        board.step(STEP_MS * 5)
        texts = board.texts()
    return texts


def play(board: PicoBoard) -> tuple[str, int]:
    """Power up stepped, play KAISA_KEYS to the end and file the result (FILE_KEY, as a
    referee leaves it; only a filed result is the laptop's): '' if every key was taken, the
    displays ended on the result, then the menu, with no alarm and no reset on the way,
    else what went wrong; and the ms the slowest key took to be answered."""
    resets = board.resets
    board.start(stepped=True)
    ready.boot(board)
    board.step(SETTLE_MS)
    clock_seen = False
    slowest = 0
    for number, key in enumerate(KAISA_KEYS + FILE_KEY):
        if key == FILE_KEY and number == len(KAISA_KEYS):
            texts = shows_result(board)
            if (texts["score_1"], texts["score_2"]) != KAISA_END or texts["message"] != WON:
                return "the game ended showing %r" % texts, slowest
        taken = press(board, key)
        texts = board.texts()
        clock = texts["clock"].strip()
        clock_seen = clock_seen or (":" in clock and clock[:1].isdigit())
        if taken is None or alarm(texts) or board.resets != resets:
            return "key %d (%s): %s, %d watchdog resets, the message %r" % (
                number + 1, key, "not answered in %d ms" % TAKEN_MS if taken is None else
                "answered", board.resets - resets, texts["message"]), slowest
        slowest = max(slowest, taken)
    if texts["message"] == WON:
        return "the result was not filed: %r" % texts, slowest
    if not clock_seen:
        return "the game clock was never seen running", slowest
    return "", slowest


def synced(board: PicoBoard, base: Base, folder: Path) -> str:
    """Power up free-running and sync into a copy of the base's store: '' if exactly one
    verified result (the Kaisa game's) was stored and nothing kept, else what went wrong."""
    db = folder / "trial.db"
    shutil.copyfile(base.db, db)
    resets = board.resets
    board.start()
    ready.up(board)
    board.wait_ms(1000)  # the firmware in its loop, answering
    desk = Desk(str(db), base.held)
    pulled: list[Pulled] = []

    def store(board_id: str, result: Pulled) -> str:
        said = desk.store_result(board_id, result)
        if said == "stored" and result.verified:
            pulled.append(result)
        return said

    link = SyncLink(board.pty_path, base.key, timeout=SYNC_TIMEOUT_S)
    try:
        summary = sync_board(link, store, desk.schedule_for, say=lambda _line: None)
    except SyncError as error:
        return "the sync failed: %s (the message display %r, %d watchdog resets)" % (
            error, board.texts()["message"], board.resets - resets)
    finally:
        link.close()
    if board.resets != resets:
        return "%d watchdog resets in the sync" % (board.resets - resets)
    if summary["stored"] != 1 or summary["kept"] or len(pulled) != 1:
        return "the sync stored %d (%d verified), kept %d" % (
            summary["stored"], len(pulled), summary["kept"])
    document = pulled[0].document
    meta, settings = document.get("meta") or {}, document.get("settings") or {}
    if settings.get("game") != "kaisa" or meta.get("score") != SYNCED_SCORE or meta.get(
            "winner") != 0:
        return "the synced result is not the game: %r, %r" % (settings.get("game"), meta)
    with Store.open(db) as stored:
        links = stored.chains.links(summary["board"])
        linked = pulled[0].n in links and stored.chains.ok(summary["board"], pulled[0].n)
    if not linked:
        return "the store has no verified link %r of the board's chain" % pulled[0].n
    return ""


def trial(base: Base, folder: Path, ballast: int) -> tuple[str, int]:
    """One trial on a board of its own: '' if it passes, else why not; and the ms the
    slowest key took to be answered (0 if the game was not played)."""
    shutil.rmtree(folder, ignore_errors=True)
    board = ready.board_from(base.image, folder)
    board.start()
    try:
        ready.up(board)
        with Link.open(board.pty_path) as link:
            link.raw_repl(soft_reset=True)
            text = (BALLAST % ballast if ballast else "") + base.main
            wrote = link.run(WRITE_MAIN % text).strip()
        if wrote != str(len(text)):
            return "main.py did not write (%r)" % wrote, 0
        board.kill()
        why, slowest = play(board)
        board.kill()
        why = why or synced(board, base, folder)
        return why, slowest
    except PicoError as error:  # it names the chip's log itself
        return str(error), 0
    except LinkError as error:
        return "%s (see %s)" % (error, folder / "pico.log"), 0
    finally:
        board.close()


def heap_figures(image: Path, folder: Path, name: str, step_kb: int, say: Say) -> dict:
    """The figures for one image (`name`: romfs or files): pico_free_heap_kb_<name>,
    pico_min_heap_kb_<name> and pico_min_heap_trials_<name> (ballast KB -> outcome)."""
    folder = Path(folder)
    start = time.monotonic()
    base = Base(image, folder)
    free_kb = base.free // KB
    say("    %s: %d KB free before main.py; ballast bisected in %d KB steps"
        % (name, free_kb, step_kb))
    trials: dict[str, str] = {}

    def passes(ballast_kb: int) -> bool:
        began = time.monotonic()
        why, slowest = trial(base, folder / ("trial-%d" % ballast_kb), ballast_kb * KB)
        trials[str(ballast_kb)] = why or "passes (the slowest key answered in %d ms)" % slowest
        say("    %s: %d KB ballast (%d KB left): %s (%.0f s)" % (
            name, ballast_kb, free_kb - ballast_kb, trials[str(ballast_kb)],
            time.monotonic() - began))
        return not why

    largest = bisect(passes, 0, free_kb, step_kb)
    if largest is None:
        raise PicoError("the Kaisa game and its sync fail on the Pico's whole heap (%s): %s"
                        % (name, trials["0"]))
    say("    %s: %d trials in %.0f s" % (name, len(trials), time.monotonic() - start))
    return {"pico_free_heap_kb_" + name: free_kb,
            "pico_min_heap_kb_" + name: free_kb - largest,
            "pico_min_heap_trials_" + name: trials}
