"""`pilkku sync --watch`: every board kept in sync while the tournament runs, followed by who
it is, not by its port.

Every RESCAN_S the watcher looks for ports (the ports given with --port, or every board found
as `pilkku sync` finds them: USB devices by vendor, the virtual boards announced on this
machine) and puts a thread on each new one (host/sync/watch_port.py): the hello there says
which board it is, and only a board paired with the watched tournament is kept. Boards are
followed by their id (host/sync/followed.py): a board unplugged and plugged in again on
another port goes on as itself, and a port that now answers with another board id is that
other board. A port with nothing of ours on it is looked at again after REST_S (at once when
its device changes). The watched tournament is the one named, or the newest in the store: a
tournament created while the watcher runs is taken up (every board says hello again with its
key).

Each board's live state goes into the store's `live` table (host/tournament/store/live.py),
where the hall reads it; while the watcher holds a board to be answering (its silences are
judged in followed.py) its row's heartbeat is kept fresh even when a poll is slow. A board
found not answering is marked silent there, and reported once.

Other pilkku commands reach the running watcher through its door (host/sync/door.py):
`pilkku sync` has it sync now, `pilkku pair` and `pilkku flash` borrow a port
(host/sync/watch_orders.py)."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from host.board.registry import found_ports
from host.i18n import _, language
from host.sync import door, watch_orders
from host.sync.followed import Followed
from host.sync.live_state import BadLive, check_live  # noqa: F401  (the hall's tests use them)
from host.sync.watch_orders import identity as _identity
from host.sync.watch_port import HEARTBEAT_S, WATCH_ATTEMPTS, NotOurs, PortWatch  # noqa: F401
from host.tournament.store import Store, StoreError

RESCAN_S = 2.0  # seconds between looks for new ports and a newer tournament
REST_S = 15  # seconds before a port with nothing of ours on it is looked at again
LOOK_S = 0.25  # the watcher's own loop


class Watcher:
    def __init__(self, db: str | None, follow: str | None = None,
                 ports: list[str] | None = None, table: int | None = None,
                 interval: float = 1.0, sync_every: float = 30.0,
                 say: Callable[[str], None] = print, rest_s: int = REST_S) -> None:
        self.db = db
        self.follow = follow  # the tournament's name; None: the newest in the store
        self.fixed = ports  # the ports given; None: every board found, looked for again
        self.table = table  # --table: the board on the one port given gets it
        self.interval = interval
        self.sync_every = sync_every
        self.rest_s = rest_s
        self._say = say
        self.lock = threading.RLock()
        self.said_lock = threading.Lock()
        self.stop = threading.Event()
        self.generation = 0
        self.desk: Any = None
        self.key = b""
        self.boards: dict[str, Followed] = {}
        self.threads: dict[str, PortWatch] = {}
        self.resting: dict[str, tuple] = {}  # port -> (its device, laptop time to look again)
        self.told: dict[str, str] = {}  # port -> why it is not watched, as last said
        self.lent: set[str] = set()
        self.strangers: dict[str, tuple[str | None, str]] = {}  # port -> (board, why not ours)

    def say(self, text: str) -> None:
        with self.said_lock:
            self._say(text)

    def stopping(self) -> bool:
        return self.stop.is_set()

    def current(self) -> tuple[Any, bytes, int]:
        with self.lock:
            return self.desk, self.key, self.generation

    # --- the tournament ---------------------------------------------------------------

    def take_tournament(self, store: Store, desk: Any = None, key: bytes | None = None) -> None:
        """Follow the tournament named (or the newest): a newer one than the one followed is
        taken up, and every board says hello again with its key."""
        from host.sync.commands import Desk

        t = store.tournaments.get(self.follow)
        if self.desk is not None and self.desk.tournament["id"] == t["id"]:
            return
        with self.lock:
            first = self.desk is None
            self.desk = desk if desk is not None else Desk(self.db, t)
            self.key = key if key is not None else store.tournaments.key(t["id"])
            self.generation += 1
            self.boards = {}
            for thread in self.threads.values():
                thread.wake.set()
            self.resting.clear()  # a board paired with it may be resting as not ours
        if not first:
            self.say(_("now watching the boards of tournament '%(tournament)s' (the newest in "
                       "the store)") % {"tournament": t["name"]})

    # --- boards, by their id ------------------------------------------------------------

    def arrived(self, board_id: str, holder: PortWatch, previous: Followed | None) -> Followed:
        """The board `board_id` said hello on `holder`'s port: the board followed by that id
        (its table, its state go on), now held there."""
        port = holder.port
        with self.lock:
            if previous is not None and previous.id != board_id:
                if previous.holder is holder:
                    previous.left()
                self.say(_("%(port)s: board %(board)s answers here now, not board %(before)s "
                           "(a port name used again): %(before)s is followed wherever it "
                           "turns up") % {"port": port, "board": board_id,
                                          "before": previous.id})
            self.strangers.pop(port, None)
            board = self.boards.get(board_id)
            if board is None:
                board = self.boards[board_id] = Followed(board_id,
                                                         self.desk.tournament["id"])
            with board.lock:
                note = board.arrived(holder, port)
        if note:
            self.say(note)
        return board

    def left(self, board: Followed, lent: bool = False) -> None:
        """`board`'s port went away (or was lent): it is followed on no port for now."""
        with self.lock, board.lock:
            board.left()
            board.lent = lent
            desk = self.desk
        with desk.claims_lock:  # its table may be claimed by another board now
            for table in [t for t, b in desk.claims.items() if b == board.id]:
                del desk.claims[table]

    def _judge(self, store: Store) -> None:
        """Boards on no port: reported once when gone too long. Boards held to be
        answering: their rows' heartbeats kept fresh."""
        now = time.monotonic()
        with self.lock:
            boards = list(self.boards.values())
        for board in boards:
            with board.lock:
                report = board.silence() if board.holder is None else None
            if report:
                self.say(report)  # (said before the store is written: a busy store loses it)
            with board.lock:
                if report:
                    store.live.silent(board.id)
                elif (board.confirmed and not board.reported and not board.lent
                      and board.holder is not None and now - board.put_at >= HEARTBEAT_S):
                    store.live.put(board.id, board.tournament_id, board.table, board.state)
                    board.put_at = time.monotonic()

    # --- ports --------------------------------------------------------------------------

    def _look(self) -> None:
        """Reap the ports' threads that ended, and put one on every port not yet watched."""
        now = time.monotonic()
        with self.lock:
            for port, thread in list(self.threads.items()):
                if thread.is_alive():
                    continue
                del self.threads[port]
                why = thread.ended
                if isinstance(why, NotOurs):
                    self.resting[port] = (_identity(port), now + self.rest_s)
                    self.strangers[port] = (why.board if why.board != "?" else None,
                                            str(why))
                    if self.told.get(port) != str(why):
                        self.told[port] = str(why)
                        self.say(str(why))
                else:  # gone, or lent: looked at again as soon as it is there
                    self.resting[port] = (_identity(port), now + RESCAN_S)
        wanted = list(self.fixed) if self.fixed is not None else found_ports()
        with self.lock:  # a port gone (or its device replaced) is no stranger any more
            for port in [p for p in self.strangers if p not in wanted or (
                    p not in self.threads and p in self.resting
                    and self.resting[p][0] != _identity(p))]:
                del self.strangers[port]
        seen = set()
        for port in wanted:
            real = os.path.realpath(port)
            if real in seen:
                continue  # two names of one device: one thread
            seen.add(real)
            with self.lock:
                if port in self.threads or port in self.lent:
                    continue
                identity = _identity(port)
                if identity is None:
                    continue
                rest = self.resting.get(port)
                if rest is not None and rest[0] == identity and now < rest[1]:
                    continue
                self._start(port)

    def _start(self, port: str, orders: list | None = None) -> PortWatch:
        table = self.table if self.fixed is not None and len(self.fixed) == 1 else None
        self.table = None if table is not None else self.table
        thread = self.threads[port] = PortWatch(self, port, table, orders)
        self.resting.pop(port, None)
        thread.start()
        return thread

    # --- the watcher's loop ---------------------------------------------------------------

    def run(self, desk: Any = None, key: bytes | None = None) -> None:
        """Watch until `stop` is set. StoreError at the start: no tournament to watch."""
        with Store.open(self.db) as store:
            self.take_tournament(store, desk, key)
            looked = 0.0
            try:
                while not self.stop.is_set():
                    try:
                        if time.monotonic() - looked >= RESCAN_S:
                            looked = time.monotonic()
                            self.take_tournament(store)
                            self._look()
                        self._judge(store)
                    except (sqlite3.Error, StoreError) as error:
                        self.say(_("the store: %(error)s (still trying)")
                                 % {"error": getattr(error, "text", error)})
                    self.stop.wait(LOOK_S)
            finally:
                self.stop.set()
                with self.lock:
                    threads = list(self.threads.values())
                for thread in threads:
                    thread.let_go()
                for thread in threads:
                    thread.join(timeout=10)

    # --- the door: `pilkku sync`, `pilkku pair`, `pilkku flash` while the watcher runs ----

    def handle(self, request: dict, conn: socket.socket) -> None:
        watch_orders.handle(self, request, conn)

    def view(self) -> dict:
        """What the director's desk shows (host/desk/boards.py): every board followed, and
        every port where something not ours answers, with why; taken under the locks."""
        with self.lock:
            boards = list(self.boards.values())
            strangers = [dict(port=port, board=board, why=why)
                         for port, (board, why) in sorted(self.strangers.items())]
            lent = sorted(self.lent)
            tournament = self.desk.tournament["id"] if self.desk is not None else None
        rows = []
        for board in boards:
            with board.lock:
                rows.append(board.view())
        return {"tournament": tournament, "boards": rows, "strangers": strangers,
                "lent": lent}


def watch(ports: list[str] | None, desk: Any, key: bytes, stop: threading.Event, *,
          table: int | None = None, interval: float = 1.0, sync_every: float = 30.0,
          say: Callable[[str], None] = print) -> None:
    """Watch the ports given (None: every board found, looked for again) for `desk`'s
    tournament until `stop` is set."""
    watcher = Watcher(desk.db, desk.tournament["name"], ports, table, interval, sync_every,
                      say)
    watcher.stop = stop
    watcher.run(desk, key)


def command(ports: list[str] | None, db: str | None, tournament: str | None,
            table: int | None, interval: float) -> int:
    """`pilkku sync --watch`."""
    if not 0.2 <= interval <= 60:
        print("pilkku sync: " + _("--interval is seconds between live pulls, from 0.2 to 60"))
        return 2
    watcher = Watcher(db, tournament, ports, table, interval,
                      say=lambda text: print(text, flush=True))
    entrance = door.Door(db, watcher.handle)
    try:
        with Store.open(db) as store:
            t = store.tournaments.get(tournament)
        entrance.open()
    except StoreError as error:
        print("pilkku sync: %s" % error.text)
        return 2
    except (door.DoorError, OSError) as error:
        print("pilkku sync: %s" % error)
        return 2
    where = _("%(count)d port(s)") % {"count": len(ports)} if ports else _(
        "every board found (looked for every %(seconds)g s)") % {"seconds": RESCAN_S}
    print((_("watching %(where)s for tournament '%(tournament)s', live state every %(seconds)s "
             "s; stop with Ctrl-C") if tournament else
           _("watching %(where)s for tournament '%(tournament)s' (the newest: a newer one is "
             "taken up when it is made), live state every %(seconds)s s; stop with Ctrl-C")) % {
               "where": where, "tournament": t["name"], "seconds": _tenths(interval)},
          flush=True)
    signal.signal(signal.SIGTERM, lambda *_: watcher.stop.set())
    try:
        watcher.run()
    except KeyboardInterrupt:
        watcher.stop.set()
    except StoreError as error:
        print("pilkku sync: %s" % error.text)
        return 2
    finally:
        entrance.close()
    print(_("stopped watching"), flush=True)
    return 0


def _tenths(seconds: float) -> str:
    text = "%.1f" % seconds
    return text if language() == "en" else text.replace(".", ",")
