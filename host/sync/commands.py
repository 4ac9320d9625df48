"""`pilkku sync` and `pilkku pair`: the tournament store (host/tournament/store.py) meets the boards
(host/sync/session.py). Several boards are synced at once, one thread each, each with its own
connection to the store (SQLite serialises the writes)."""

from __future__ import annotations

import argparse
import os
import threading
import time
from pathlib import Path

from host.board.registry import found_ports
from host.sync.session import Link, Pulled, SyncError, sync_board
from host.tournament.store import ResultRefused, Store


class Desk:
    """One board's view of the store during a sync."""

    def __init__(self, db: str | None, tournament: dict) -> None:
        self.db = db
        self.tournament = tournament
        self.archive = Path(db or os.environ.get("PILKKU_DB") or "pilkku.db").resolve().parent

    def store_result(self, board: str, pulled: Pulled) -> str:
        if not pulled.verified:
            return ("kept: not signed with this tournament's key (pair the board: "
                    "pilkku pair --port PORT)")
        match_id = pulled.document.get("meta", {}).get("match_id")
        if match_id is None:
            return self._archive_free_game(board, pulled)
        meta = pulled.document["meta"]
        try:
            with Store.open(self.db) as store:
                new = store.record_result(match_id, pulled.text, board, pulled.board_mac,
                                          meta.get("started"), meta.get("ended"),
                                          tournament_id=self.tournament["id"])
        except ResultRefused as refused:
            return "kept: %s" % refused
        return "stored" if new else "duplicate"

    def _archive_free_game(self, board: str, pulled: Pulled) -> str:
        """A game not in the tournament is kept as a file beside the store, then freed."""
        folder = self.archive / "free-games"
        folder.mkdir(parents=True, exist_ok=True)
        name = "%s-%s-%d.json" % (board, pulled.document["meta"].get("started"), pulled.seq)
        path = folder / name
        if path.exists() and path.read_text() == pulled.text:
            return "duplicate"
        path.write_text(pulled.text)
        return "stored"

    def schedule_for(self, table: int) -> list:
        """The table's next matches; an idle table first gets the next waiting match."""
        with Store.open(self.db) as store:
            matches = store.table_schedule(self.tournament["id"], table)
            if not matches and table in store.table_numbers(self.tournament["id"]):
                store.assign_free_tables(self.tournament["id"])
                matches = store.table_schedule(self.tournament["id"], table)
            return matches[:8]

    def note(self, board: str, table: int | None) -> None:
        with Store.open(self.db) as store:
            store.note_board(self.tournament["id"], board, table)


def _sync_one(port: str, desk: Desk, key: bytes, table: int | None, lock: threading.Lock,
              outcomes: dict) -> None:
    def say(text: str) -> None:
        with lock:
            print(text, flush=True)

    try:
        link = Link(port, key)
    except SyncError as error:
        outcomes[port] = str(error)
        say(str(error))
        return
    try:
        summary = sync_board(link, desk.store_result, desk.schedule_for, say, table)
        desk.note(summary["board"], summary["table"])
        outcomes[port] = summary
    except SyncError as error:
        outcomes[port] = str(error)
        say(str(error))
    finally:
        link.close()


def cmd_sync(args: argparse.Namespace) -> int:
    with Store.open(args.db) as store:
        tournament = store.tournament(args.tournament)
        key = store.pairing_key(tournament["id"])
    ports = args.port or found_ports()
    if not ports:
        print("pilkku sync: no boards found: plug one in, or give --port (a virtual board's "
              "port is printed by `pilkku board start`)")
        return 2
    if args.table is not None and len(ports) != 1:
        print("pilkku sync: --table names the table of one board: give one --port")
        return 2
    desk = Desk(args.db, tournament)
    lock = threading.Lock()
    outcomes: dict = {}
    started = time.monotonic()
    threads = [threading.Thread(target=_sync_one, args=(p, desk, key, args.table, lock, outcomes))
               for p in ports]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [p for p, o in outcomes.items() if not isinstance(o, dict)]
    done = [o for o in outcomes.values() if isinstance(o, dict)]
    print("synced %d board(s) in %.1f s: %d result(s) stored, %d already stored, %d kept on "
          "the boards; %s" % (
              len(done), time.monotonic() - started, sum(o["stored"] for o in done),
              sum(o["duplicates"] for o in done), sum(o["kept"] for o in done),
              ("%d failed: run pilkku sync again" % len(failed)) if failed else "all done"))
    return 1 if failed else 0


def cmd_pair(args: argparse.Namespace) -> int:
    from host.board.mpremote_link import LinkError
    from host.sync.pair import pair

    with Store.open(args.db) as store:
        tournament = store.tournament(args.tournament)
        key = store.pairing_key(tournament["id"])
    try:
        board = pair(args.port, key)
    except LinkError as error:
        print("pilkku pair: %s" % error)
        return 2
    print("board %s on %s is paired with tournament '%s'"
          % (board, args.port, tournament["name"]))
    return 0


def add_commands(sub) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="PATH",
                        help="the tournament store (default: $PILKKU_DB, else ./pilkku.db)")
    common.add_argument("--tournament", metavar="NAME",
                        help="the tournament (default: the latest created)")
    sync = sub.add_parser(
        "sync", parents=[common], help="pull results from the boards, push what they play next",
        description="Sync the tournament with its boards over USB: each board's finished "
                    "results are pulled, checked against the tournament's key, stored and only "
                    "then freed on the board; each table gets its next matches. Several boards "
                    "at once; without --port, every board found (USB, and virtual boards).")
    sync.add_argument("--port", action="append",
                      help="a board's serial port (repeat for several)")
    sync.add_argument("--table", type=int, help="make the board on --port this table first")
    sync.set_defaults(func=cmd_sync)
    pair_parser = sub.add_parser(
        "pair", parents=[common], help="give a board the tournament's pairing key",
        description="Write the tournament's pairing key to the board on --port (over its REPL, "
                    "with mpremote), so its results are signed and the laptop may write to it.")
    pair_parser.add_argument("--port", required=True, help="the board's serial port")
    pair_parser.set_defaults(func=cmd_pair)
