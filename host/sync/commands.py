"""`pilkku sync` and `pilkku pair`: the tournament store (host/tournament/store/) meets the boards
(host/sync/session.py). Several boards are synced at once, one thread each, each with its own
connection to the store, taken in turn (Desk.store): a thread waits for another's write on the
lock, however long a loaded disk makes it, and SQLite's busy timeout is left for other
commands."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from host.arguments import store_options, whole
from host.board.registry import check_port, found_ports
from host.i18n import N_, _, ngettext
from host.sync.collect import synced_line
from host.sync.session import Link, Pulled, SyncError, sync_board
from host.tournament import night
from host.tournament.store import ResultRefused, Store, StoreError
from rules_core import bounded
from rules_core import sync_protocol as sp


class Desk:
    """One board's view of the store during a sync."""

    def __init__(self, db: str | None, tournament: dict) -> None:
        self.db = db
        self.tournament = tournament
        self.archive = Path(db or os.environ.get("PILKKU_DB") or "pilkku.db").resolve().parent
        self.claims_lock = threading.Lock()
        self.store_lock = threading.RLock()  # the sync's threads use the store in turn
        self.claims: dict[int, str] = {}  # table -> the board that has it in this sync
        self.firmware: dict[str, str] = {}  # board -> its firmware, as it said hello

    @contextmanager
    def store(self) -> Iterator[Store]:
        """The store, for one of this sync's threads at a time."""
        with self.store_lock, Store.open(self.db) as store:
            yield store

    def store_result(self, board: str, pulled: Pulled) -> str:
        """What became of one pulled result; only "stored" and "duplicate" free it."""
        if not pulled.verified or pulled.n is None:
            return "kept: " + _("not signed with this tournament's key (pair the board: "
                                "pilkku pair --port PORT)")
        meta = pulled.document.get("meta", {})
        match_id = meta.get("match_id")
        try:
            with self.store() as store:
                store.chains.record(self.tournament["id"], board, pulled.n, pulled.prev,
                                  pulled.board_mac, pulled.text)
                if match_id is None:
                    return self._archive_free_game(board, pulled)
                if meta.get("abandoned") is True:
                    # Not a result: the match stays unplayed here and scheduled; the log is
                    # kept for the director and freed, so the board does not fill up.
                    return self._archive_free_game(board, pulled, "abandoned")
                if not isinstance(match_id, str):
                    return "kept: " + _("the result names no match code")
                new = night.record_result(store, match_id, pulled.text, board, pulled.board_mac,
                                          meta.get("started"), meta.get("ended"),
                                          tournament_id=self.tournament["id"],
                                          chain_n=pulled.n)
        except ResultRefused as refused:
            return "kept: %s" % refused
        except StoreError as error:
            return "kept: %s" % error.text
        if isinstance(new, str):  # kept in the history, not counted: freed on the board
            return "stored, %s" % new
        return "stored" if new else "duplicate"

    def store_damaged(self, board: str, seq: int, data: bytes) -> str:
        """A result the board set aside as damaged: its bytes kept once in the store, with
        what can be read of them (host/tournament/store/damaged.py); only then is it freed."""
        try:
            with self.store() as store:
                new = store.damaged.record(self.tournament["id"], board, seq, data)
        except StoreError as error:
            return "kept: %s" % error.text
        return "stored" if new else "duplicate"

    def _archive_free_game(self, board: str, pulled: Pulled, kind: str = "free-games") -> str:
        """A game not in the tournament (or an abandoned match) is kept as a file beside the
        store, in the folder `kind`, then freed. The name is made of checked parts only (the
        board id by its fixed alphabet, numbers)."""
        if not sp.board_id_ok(board):
            return "kept: " + _("the board's id is not a valid file name")
        folder = self.archive / kind
        folder.mkdir(parents=True, exist_ok=True)
        started = pulled.document.get("meta", {}).get("started")
        when = "%d" % started if bounded.whole(started, 0, 1 << 40) else "unknown"
        path = folder / ("%s-%s-%d.json" % (board, when, pulled.n or pulled.seq))
        if path.resolve().parent != folder.resolve():
            return "kept: " + _("the board's id is not a valid file name")
        if path.exists() and path.read_text() == pulled.text:
            return "duplicate"
        path.write_text(pulled.text)
        return "stored"

    def schedule_for(self, table: int) -> list:
        """The table's next matches; an idle table first gets the next waiting match."""
        with self.store() as store:
            matches = store.tables.schedule(self.tournament["id"], table)
            if not matches and table in store.tables.numbers(self.tournament["id"]):
                night.assign_free_tables(store, self.tournament["id"])
                matches = store.tables.schedule(self.tournament["id"], table)
            return matches[:8]

    def board_language(self) -> str:
        """The language of the tournament's boards (sent with each schedule)."""
        with self.store() as store:
            return store.tournaments.board_language(self.tournament["id"])

    def claim(self, board: str, table: int | None, hello: dict) -> str | None:
        """One board per table, one table per board: None if `board` may be `table`, else why
        not. Boards in one sync claim at the same time, so the claims are taken under a lock."""
        with self.claims_lock:
            self.firmware[board] = str(hello.get("firmware"))
            if table is None:
                return None
            tid = self.tournament["id"]
            with self.store() as store:
                numbers = store.tables.numbers(tid)
                if table not in numbers:
                    return _("the tournament has no table %(table)s (tables: %(tables)s): give "
                             "the board one with pilkku sync --port PORT --table N") % {
                                 "table": table,
                                 "tables": ", ".join(map(str, numbers)) or _("none yet")}
                holder = self.claims.get(table) or store.boards.holder(tid, table, but=board)
                if holder is not None and holder != board:
                    return _("table %(table)d is held by board %(holder)s: give this board "
                             "another table with --table N, or if %(holder)s is out of use: "
                             "pilkku tables --release %(table)d") % {
                                 "table": table, "holder": holder}
                self.claims[table] = board
                store.boards.note(tid, board, table, self.firmware[board])
        return None

    def last_link(self, board: str) -> tuple[int, str]:
        """(n, MAC) of the board's last link in the store: the head a board whose chain was
        lost on its flash goes on from (host/sync/mend.py)."""
        with self.store() as store:
            return store.chains.last(board)

    def chain_note(self, board: str, hello: list, head: list) -> str | None:
        """What is wrong when the board's chain of results and the links the store keeps of
        it disagree (None when they agree): `hello` is the board's last link as it said hello,
        `head` the last it has signed by the end of the sync. The board's word is only
        compared: nothing is changed by it, nothing is looped over by its numbers
        (docs/security.md)."""
        with self.store() as store:
            kept = store.chains.links(board)
        notes = []
        for n, mac in (hello, head):
            if n in kept and kept[n] != mac:
                notes.append(_("its result #%(n)d is not the one the store holds: the board's "
                               "chain was started again and signed anew (wiped, or replaced by "
                               "a board with its id)") % {"n": n})
                break
        n = hello[0]
        if n > 0 and n not in kept:
            below = max([k for k in kept if k < n], default=0)
            said = {"n": n, "first": below + 1}
            notes.append(_("the store is missing its result #%(n)d, which the board signed and "
                           "had acknowledged: it went to another store, or this store is an "
                           "older copy (pilkku results lists what is here)") % said
                         if n == below + 1 else
                         _("the store is missing its results #%(first)d to #%(n)d, which the "
                           "board signed and had acknowledged: they went to another store, or "
                           "this store is an older copy (pilkku results lists what is here)")
                         % said)
        top = max(kept, default=0)
        if top > head[0]:
            notes.append(_("its chain ends at #%(head)d, the store holds its results up to "
                           "#%(top)d: the board was wiped or replaced; what is stored is safe, "
                           "but results it signs under numbers the store holds are refused and "
                           "stay on the board (docs/security.md)") % {"head": head[0], "top": top})
        if not notes:
            return None
        return _("warning: board %(board)s's results and the store disagree: %(notes)s") % {
            "board": board, "notes": "; ".join(notes)}

    def note(self, board: str, table: int | None) -> None:
        with self.store() as store:
            store.boards.note(self.tournament["id"], board, table, self.firmware.get(board))

    def firmware_note(self) -> str | None:
        """A warning when the tournament's boards run different firmware."""
        with self.store() as store:
            known = {b["board_id"]: b["firmware"] for b in store.boards.all(self.tournament["id"])
                     if b["firmware"]}
        known.update(self.firmware)
        versions: dict[str, list[str]] = {}
        for board, version in sorted(known.items()):
            versions.setdefault(version, []).append(board)
        if len(versions) < 2:
            return None
        return _("note: the boards run different firmware (%(versions)s): flash them all with "
                 "the same pilkku (pilkku flash --port PORT) so every table plays by the same "
                 "rules") % {"versions": "; ".join(
                     _("%(version)s on %(boards)s") % {"version": v, "boards": ", ".join(b)}
                     for v, b in sorted(versions.items()))}


def _sync_one(port: str, desk: Desk, key: bytes, table: int | None, lock: threading.Lock,
              outcomes: dict, received: dict) -> None:
    """One board's sync in its thread: its summary (or why it failed) into `outcomes`, and
    what the store made of each result pulled into `received`, counted as it happens, so a
    sync that fails after storing some still reports them."""
    counts = received[port] = {"stored": 0, "duplicates": 0, "kept": 0, "damaged": 0}

    def say(text: str) -> None:
        with lock:
            print(text, flush=True)

    def store_result(board: str, pulled: Pulled) -> str:
        outcome = desk.store_result(board, pulled)
        counts["duplicates" if outcome == "duplicate" else "stored"
               if outcome.startswith("stored") else "kept"] += 1  # ("stored, not counted")
        return outcome

    def store_damaged(board: str, seq: int, data: bytes) -> str:
        outcome = desk.store_damaged(board, seq, data)
        counts["damaged" if outcome in ("stored", "duplicate") else "kept"] += 1
        return outcome

    try:
        link = Link(port, key)
    except SyncError as error:
        outcomes[port] = str(error)
        say(str(error))
        return
    try:
        summary = sync_board(link, store_result, desk.schedule_for, say, table,
                             claim=desk.claim, store_damaged=store_damaged,
                             last_link=desk.last_link, lang=desk.board_language())
        if not summary["refused"]:
            desk.note(summary["board"], summary["table"])
        disagree = desk.chain_note(summary["board"], summary["chain"], summary["head"])
        if disagree:
            say("%s: %s" % (port, disagree))
        outcomes[port] = summary
        if summary["retransmissions"]:
            say(ngettext("%(port)s: %(count)d frame sent again (a poor line)",
                         "%(port)s: %(count)d frames sent again (a poor line)",
                         summary["retransmissions"]) % {
                             "port": port, "count": summary["retransmissions"]})
    except (SyncError, StoreError) as error:
        outcomes[port] = str(error)
        say(str(error))
    except Exception as error:  # a bug of ours: this board failed, the others go on
        outcomes[port] = _("%(port)s: sync failed (%(kind)s: %(error)s); nothing unsynced is "
                           "lost: run pilkku sync again") % {
                               "port": port, "kind": type(error).__name__, "error": error}
        say(outcomes[port])
    finally:
        link.close()


def _tournament_and_key(args: argparse.Namespace) -> tuple[dict, bytes]:
    with Store.open(args.db) as store:
        tournament = store.tournaments.get(args.tournament)
        return tournament, store.tournaments.key(tournament["id"])


def cmd_sync(args: argparse.Namespace) -> int:
    try:
        tournament, key = _tournament_and_key(args)
    except StoreError as error:
        print("pilkku sync: %s" % error.text, file=sys.stderr)
        return 2
    for port in args.port or []:
        try:
            check_port(port)
        except ValueError as bad:
            print("pilkku sync: %s" % bad, file=sys.stderr)
            return 2
    if args.table is not None and len(args.port or []) != 1:
        print("pilkku sync: " + _("--table names the table of one board: give one --port"))
        return 2
    if args.watch:  # boards found as they come (or the ports given), from none at first
        from host.sync.watch import command

        return command(args.port, args.db, args.tournament, args.table, args.interval)
    from host.sync import door

    asked = door.ask_to_sync(args.db, args.port, args.table, args.tournament)
    if asked is not None:
        return asked
    ports = args.port or found_ports()
    if not ports:
        print("pilkku sync: " + _("no boards found: plug one in, or give --port (a virtual "
                                  "board's port is printed by `pilkku board start`)"))
        return 2
    desk = Desk(args.db, tournament)
    lock = threading.Lock()
    outcomes: dict = {}
    received: dict[str, dict[str, int]] = {}
    started = time.monotonic()
    threads = [threading.Thread(target=_sync_one,
                                args=(p, desk, key, args.table, lock, outcomes, received))
               for p in ports]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [p for p in ports if not isinstance(outcomes.get(p), dict)]
    refused = [p for p, o in outcomes.items() if isinstance(o, dict) and o["refused"]]
    done = [o for o in outcomes.values() if isinstance(o, dict)]
    warning = desk.firmware_note()
    if warning:
        print(warning)
    # What the store received from every board, those whose sync then failed too.
    counted = list(received.values())
    damaged = sum(c["damaged"] for c in counted)
    print(synced_line(len(done), time.monotonic() - started, sum(c["stored"] for c in counted),
                      sum(c["duplicates"] for c in counted), sum(c["kept"] for c in counted),
                      "; ".join(filter(None, (
                          _("%(count)d came damaged: their bytes are stored, pilkku results "
                            "says what to do") % {"count": damaged} if damaged else "",
                          _("%(count)d failed: run pilkku sync again") % {"count": len(failed)}
                          if failed else "",
                          _("%(count)d refused a table (see above)") % {"count": len(refused)}
                          if refused else ""))) or _("all done")))
    return 1 if failed or refused else 0


def cmd_pair(args: argparse.Namespace) -> int:
    from host.board.mpremote_link import LinkError
    from host.sync.pair import pair

    try:
        tournament, key = _tournament_and_key(args)
    except StoreError as error:
        print("pilkku pair: %s" % error.text, file=sys.stderr)
        return 2
    with Store.open(args.db) as store:  # where each board was last seen: a board whose
        tables = {b["board_id"]: b["table"] for b in store.boards.all(tournament["id"])  # config
                  if b["table"] is not None}  # was damaged gets its table back
        lang = store.tournaments.board_language(tournament["id"])
    from host.sync import door

    try:
        check_port(args.port)
        with door.borrowed(args.db, args.port):  # from a running watcher, if it holds it
            paired = pair(args.port, key, tables, lang)
    except (LinkError, ValueError, door.DoorError) as error:
        print("pilkku pair: %s" % error, file=sys.stderr)
        return 2
    print(_("board %(board)s on %(port)s is paired with tournament '%(tournament)s'") % {
        "board": paired.board, "port": args.port, "tournament": tournament["name"]})
    if paired.mended:
        print(_("board %(board)s had lost its settings (its config was damaged on its flash): "
                "%(what)s") % {"board": paired.board, "what": _(
                    "table %(table)d given back, where the store last saw it") % {
                        "table": paired.table} if paired.table is not None else _(
                    "give it its table: pilkku sync --port %(port)s --table N") % {
                        "port": args.port}})
    return 0


def add_commands(sub) -> None:
    common = store_options()
    sync = sub.add_parser(
        "sync", parents=[common],
        help=N_("pull results from the boards, push what they play next"),
        description=_("Sync the tournament with its boards over USB: each board's finished "
                      "results are pulled, checked against the tournament's key, stored and "
                      "only then freed on the board; each table gets its next matches. Several "
                      "boards at once; without --port, every board found (USB, and virtual "
                      "boards)."))
    sync.add_argument("--port", action="append", metavar="PORT",
                      help=_("a board's serial port (repeat for several)"))
    sync.add_argument("--table", type=whole(), metavar=_("TABLE"),
                      help=_("make the board on --port this table first"))
    sync.add_argument("--watch", action="store_true",
                      help=_("keep syncing until Ctrl-C, and pull each board's live state for "
                             "the hall (`pilkku hall`)"))
    sync.add_argument("--interval", type=float, default=1.0, metavar="S",
                      help=_("with --watch: seconds between live pulls (default 1)"))
    sync.set_defaults(func=cmd_sync)
    pair_parser = sub.add_parser(
        "pair", parents=[common], help=N_("give a board the tournament's pairing key"),
        description=_("Write the tournament's pairing key to the board on --port (over its "
                      "REPL, with mpremote), so its results are signed and the laptop may write "
                      "to it."))
    pair_parser.add_argument("--port", required=True, metavar="PORT",
                             help=_("the board's serial port"))
    pair_parser.set_defaults(func=cmd_pair)
