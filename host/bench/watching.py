"""`pilkku bench --watch MINUTES`: the watcher's false alarms on a busy laptop. Four virtual
boards (the firmware in the MicroPython unix port, on ptys, run by this process: their waits
in their own clocks, host/board/process_clock.py), each a table of a 9-ball round robin with
its match in play and a shot played on one of them every few seconds, watched by `pilkku sync
--watch`'s watcher (host/sync/watch.py, live state every second) for MINUTES while SPINNERS
processes spin at full load. Every board answers all along, so every report of a board not
answering is a false alarm, and so is every look at the hall's tables page that shows one red.

    false_alarms(folder, firmware, minutes) -> {"watch_false_alarms", ...}

Counted: the watcher's reports ("has not answered", "gone from", "no answer"), each second the
store's rows marked silent and the tables the hall shows red (host/hall/data.py's judgement),
the polls missed (the watcher's patience at work) and the longest run of them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from host.board.virtual_board import VirtualBoard
from host.hall import data as hall_data
from host.sync.watch import Watcher
from host.tournament import night
from host.tournament.store import Store, StoreError

BOARDS = 4
SPINNERS = 2
SHOT_EVERY_S = 5.0  # a shot played on one of the boards (each in turn)
ALARMS = ("has not answered", "gone from", "no answer")
Say = Callable[[str], None]


def _tournament(db: Path, tables: int) -> tuple[dict, bytes]:
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Watch bench", "9ball", 50)
        night.import_players(store, tid, [(n, "Pelaaja %02d" % n, "")
                                          for n in range(1, 2 * tables + 1)])
        night.draw_round_robin(store, tid)
        night.set_tables(store, tid, tables)
        return store.tournaments.by_id(tid), store.tournaments.key(tid)


def _board(folder: Path, firmware: dict[str, bytes], key: bytes, table: int) -> VirtualBoard:
    files = dict(firmware)
    files["config.json"] = json.dumps({"board": "pk-bench-%d" % table, "table": table,
                                       "key": key.hex()}).encode()
    board = VirtualBoard(folder / ("board-%d" % table))
    board.install(files)
    board.start()
    board.run(100)
    return board


def _spin(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(count)]


def _play(boards: list[VirtualBoard], stop: threading.Event, errors: list[str]) -> None:
    """A shot (a miss: the turn passes, the match goes on) on each board in turn."""
    turn = 0
    while not stop.wait(SHOT_EVERY_S):
        try:
            boards[turn % len(boards)].tap("A")
        except Exception as error:  # a board that did not take a key: counted, not fatal
            errors.append("%s: %s" % (type(error).__name__, error))
        turn += 1


def false_alarms(folder: Path, firmware: dict[str, bytes], minutes: float,
                 spinners: int = SPINNERS, say: Say = print) -> dict:
    db = folder / "watch-bench.db"
    t, key = _tournament(db, BOARDS)
    boards = [_board(folder, firmware, key, table) for table in range(1, BOARDS + 1)]
    said: list[str] = []
    watcher = Watcher(str(db), ports=[b.pty_path for b in boards], interval=1.0,
                      say=said.append)
    running = threading.Thread(target=watcher.run, daemon=True)
    stop = threading.Event()
    errors: list[str] = []
    load = [os.getloadavg()[0]]
    spinning: list[subprocess.Popen] = []
    figures: dict = {}
    try:
        running.start()
        _until(lambda: sum("gets" in s for s in said) >= BOARDS, "every board's first sync")
        for board in boards:
            for key_name in "#11":  # the table's match: lag to player 1, who breaks
                board.tap(key_name)
        _until(lambda: all(_rows(db, t["id"]).get(b, {}).get("state") for b in watcher.boards),
               "every match in play in the store")
        said.clear()
        spinning = _spin(spinners)
        say("the watcher and %d boards for %g min, %d processes spinning ..."
            % (BOARDS, minutes, spinners))
        player = threading.Thread(target=_play, args=(boards, stop, errors), daemon=True)
        player.start()
        samples = silent = red = 0
        worst = 0
        missed_before = sum(b.missed_total for b in watcher.boards.values())
        ends = time.monotonic() + 60 * minutes
        busy = 0
        while time.monotonic() < ends:
            time.sleep(1.0)
            try:
                rows = _rows(db, t["id"])
                with Store.open(db) as store:
                    cards = hall_data.tables(store, t, int(time.time() * 1000))
            except (StoreError, sqlite3.Error):  # the disk holding the store's writes
                busy += 1
                continue
            samples += 1
            silent += sum(1 for row in rows.values() if row["silent"])
            red += sum(1 for card in cards if not card["answering"])
            worst = max([worst] + [b.misses for b in watcher.boards.values()])
            if samples % 60 == 0:
                load.append(os.getloadavg()[0])
                say("  %d looks: %d false alarm(s), load %.1f, %.0f s to go" % (
                    samples, _alarms(said), load[-1], ends - time.monotonic()))
        figures = {
            "watch_minutes": minutes, "watch_boards": BOARDS, "watch_spinners": spinners,
            "watch_false_alarms": _alarms(said),
            "watch_silent_samples": silent, "watch_hall_red_samples": red,
            "watch_samples": samples * BOARDS,
            "watch_store_busy_looks": busy,  # looks the store was too busy to answer (10 s)
            "watch_polls_missed": sum(b.missed_total for b in watcher.boards.values())
            - missed_before,
            "watch_most_polls_missed_in_a_row": worst,
            "watch_shot_errors": len(errors),
            "watch_load_average": [round(x, 1) for x in (load[0], max(load[1:] or load),
                                                         os.getloadavg()[0])],
            "watch_said": [s for s in said if any(a in s for a in ALARMS)][:10],
        }
    finally:
        stop.set()
        for spinner in spinning:
            spinner.kill()
            spinner.wait()
        watcher.stop.set()
        running.join(timeout=30)
        for board in boards:
            board.close()
    return figures


def _alarms(said: list[str]) -> int:
    return sum(1 for s in said if any(a in s for a in ALARMS))


def _rows(db: Path, tid: int) -> dict[str, dict]:
    with Store.open(db) as store:
        return {row["board_id"]: row for row in store.live.states(tid)}


def _until(check: Callable[[], object], what: str, limit: float = 300.0) -> None:
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError("the watch bench: never came: %s" % what)
        time.sleep(0.2)


def command(minutes: float, as_json: bool) -> int:
    """`pilkku bench --watch MINUTES`."""
    import tempfile

    from host.board import firmware_image

    if not 0 < minutes <= 600:
        print("pilkku bench: --watch takes minutes, from 0 to 600", file=sys.stderr)
        return 2
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pilkku-bench-watch-") as folder:
        figures = false_alarms(Path(folder), firmware_image.image(), minutes,
                               say=lambda line: print(line, file=sys.stderr, flush=True))
    figures["bench_seconds"] = round(time.monotonic() - began)
    figures["date"] = time.strftime("%Y-%m-%d %H:%M")
    figures["cores"] = os.cpu_count()
    if as_json:
        print(json.dumps(figures, indent=2, sort_keys=True))
    else:
        for name, value in figures.items():
            print("%-34s %s" % (name, value))
    return 0
