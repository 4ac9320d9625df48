"""One port under `pilkku sync --watch`, in a thread of its own: it keeps the line open, says
hello to learn which board is there (a board paired with the watched tournament is followed;
anything else ends the thread, and the watcher looks at the port again later), syncs it whole
when a sync is due (at the start, when a match has ended, every `sync_every` seconds, when
`pilkku sync` asks), and asks for its live state about once an interval.

Every hello says which board answers: a port where another board answers now (a port number
reused) is that other board, never the one that was there. A poll met by silence is counted
against the board (host/sync/followed.py decides when that is "not answering"); a reply that
does not check out, or a session the board no longer knows (it was reset), is met by a new
hello; a port that went away hands the board back to the watcher, which finds it on its next
port."""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

from host.i18n import _
from host.sync import mend
from host.sync.followed import Followed
from host.sync.live_state import BadLive, check_live, ended, unsynced
from host.sync.replies import LineLost, NoAnswer, PortBusy
from host.sync.session import Link, SyncError, sync_board
from host.tournament.store import Store, StoreError
from rules_core import sync_protocol as sp

# Requests in the watch give up sooner than a sync's: a poll missed is only counted (the
# board's silence is judged over many, followed.py), and the next poll comes soon.
WATCH_ATTEMPTS = 4
RETRY_S = 10.0  # seconds before a whole sync that failed is tried again
HEARTBEAT_S = 5.0  # a board's row rewritten at least this often while it answers (the hall
# shows a row older than 15 s red: host/hall/data.py)


class NotOurs(Exception):
    """No board of the watched tournament answers on this port (says why); `board`: the id
    of the board that does answer there, when it said one (the desk offers to pair it)."""

    def __init__(self, text: str, board: str | None = None) -> None:
        super().__init__(text)
        self.board = board


class Gone(Exception):
    """The port itself went away."""


class PortWatch(threading.Thread):
    def __init__(self, watcher: Any, port: str, table: int | None = None,
                 orders: list | None = None) -> None:
        super().__init__(daemon=True, name="watch %s" % port)
        self.watcher = watcher
        self.port = port
        self.table = table  # given to the first board synced here (--table)
        self.orders: list = list(orders or [])  # `pilkku sync`'s requests for a sync now
        self.orders_lock = threading.Lock()
        self.wake = threading.Event()
        self.quit = False  # set by the watcher: let go of the port (lent, or stopping)
        self.link: Link | None = None
        self.board: Followed | None = None
        self.generation = -1  # of the watcher's tournament the link was opened for
        self.ended: Exception | None = None  # why the thread ended (NotOurs, Gone)
        self.told = ""  # the last failure said, so a failure repeating is said once
        # The board's count of results held for the laptop that a sync was last begun for (a
        # sync that fails is not begun again for the same count: RETRY_S); None once one is
        # done.
        self.pulled_for: int | None = None

    # --- the thread -------------------------------------------------------------------

    def run(self) -> None:
        store: Store | None = None
        try:
            while not (self.quit or self.watcher.stopping()):
                began = time.monotonic()
                try:
                    if store is None:
                        store = Store.open(self.watcher.db)
                    self.round(store)
                except (sqlite3.Error, StoreError) as error:
                    # The store busy past its timeout (a loaded disk's writes held for
                    # seconds): this round's writes are lost, the board is watched on.
                    text = _("%(port)s: the store: %(error)s") % {
                        "port": self.port,
                        "error": error.text if isinstance(error, StoreError) else error}
                    if text != self.told:
                        self.say(_("%(problem)s (still trying)") % {"problem": text})
                        self.told = text
                self.wake.wait(max(0.05, self.watcher.interval - (time.monotonic() - began)))
                self.wake.clear()
        except (NotOurs, Gone) as why:
            self.ended = why
        finally:
            if store is not None:
                store.close()
            self.close()
            self._fail_orders(_("%(port)s: the watcher let go of the port (%(why)s)") % {
                "port": self.port, "why": self.ended or _("it stopped")})

    def give(self, order: Any) -> None:
        """`pilkku sync` asks for a sync now (the order is told when it is done)."""
        with self.orders_lock:
            self.orders.append(order)
        self.wake.set()

    def let_go(self) -> None:
        self.quit = True
        self.wake.set()

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
        board = self.board
        if board is not None and board.holder is self:
            self.watcher.left(board, lent=self.quit and not self.watcher.stopping())

    def say(self, text: str) -> None:
        self.watcher.say(text)

    # --- a round: a sync if due, then the live state --------------------------------------

    def round(self, store: Store) -> None:
        try:
            if self.link is None or self.generation != self.watcher.generation or (
                    self.board is not None and self.board.holder is not self):
                if not self.meet(store):
                    return
            assert self.board is not None
            orders = self._take_orders()
            if orders or time.monotonic() >= self.board.next_sync or self._moved(store):
                self.sync(store, orders)
            self.poll(store)
        except LineLost as lost:
            self.gone(str(lost))

    def gone(self, why: str) -> None:
        raise Gone(why)

    def _moved(self, store: Store) -> bool:
        """The board's table has other matches than its last sync sent (the director started
        or undid one, a correction redrew it, a player withdrew): it is told now, not at the
        next whole sync. Looked at only when the store's facts moved (db.facts: not at each
        live score of the night's boards)."""
        board = self.board
        assert board is not None
        facts = store.db.facts()
        if facts == board.looked or board.sent is None:
            return False
        board.looked = facts
        table = board.sent[0]
        return board.sent != (table, repr(store.tables.schedule(board.tournament_id,
                                                                table)[:8]))

    def meet(self, store: Store, orders: list | None = None) -> bool:
        """Open the line and say hello: who is here? False if no answer came from a board
        that was here (a miss, counted against it); NotOurs if nothing of ours is here."""
        if self.link is not None:
            self.link.close()
            self.link = None
        desk, key, generation = self.watcher.current()
        self.generation = generation
        try:
            self.link = Link(self.port, key, attempts=WATCH_ATTEMPTS)
        except PortBusy as busy:
            raise NotOurs(str(busy)) from None
        try:
            hello = self.link.hello()
        except NoAnswer as silent:
            was = self.board
            if was is not None and was.holder is self and (
                    was.tournament_id == desk.tournament["id"]):
                self._missed(store)
                return False
            raise NotOurs(_("%(why)s (not watched; looked at again every %(seconds)d s)") % {
                "why": silent, "seconds": self.watcher.rest_s}) from None
        except LineLost:
            raise
        except SyncError as error:  # another protocol, another tournament's key, malformed
            raise NotOurs(_("%(why)s (not watched; looked at again every %(seconds)d s)") % {
                "why": error, "seconds": self.watcher.rest_s}, self.link.board) from None
        if not hello["paired"]:
            raise NotOurs(mend.unpaired(self.port, hello) or (
                _("%(port)s: board %(board)s is not paired with tournament '%(tournament)s': "
                  "pair it (pilkku pair --port %(port)s) and it is taken up within %(seconds)d "
                  "s") % {"port": self.port, "board": hello["board"],
                          "tournament": desk.tournament["name"],
                          "seconds": self.watcher.rest_s}), hello["board"])
        previous = self.board
        self.board = self.watcher.arrived(hello["board"], self, previous)
        with self.board.lock:
            self.board.firmware = hello["firmware"]
        self.sync(store, self._take_orders() + list(orders or []), hello=hello)
        return True

    def sync(self, store: Store, orders: list, hello: dict | None = None) -> None:
        """A whole sync of the board (results pulled and stored, the table's matches sent),
        told to every order waiting for it."""
        board, link = self.board, self.link
        assert board is not None and link is not None
        desk = self.watcher.current()[0]
        table = self.table
        for order in orders:
            table = order.table if order.table is not None else table

        def said(text: str) -> None:
            self.say(text)
            for order in orders:
                order.say(text)

        kept: list[str] = []  # why results were left on the board, as the sync said it

        def store_result(board_id: str, pulled: Any) -> str:
            outcome = desk.store_result(board_id, pulled)
            if not outcome.startswith("stored") and outcome != "duplicate":
                kept.append(outcome)
            for order in orders:
                order.count(outcome)
            return outcome

        def store_damaged(board_id: str, seq: int, data: bytes) -> str:
            outcome = desk.store_damaged(board_id, seq, data)
            for order in orders:
                order.count(outcome, damaged=True)
            return outcome

        sending: list = []

        def schedule_for(number: int) -> list:
            matches = desk.schedule_for(number)
            sending[:] = [(number, repr(matches))]
            return matches

        board.next_sync = time.monotonic() + RETRY_S
        board.sent = None  # until this sync is done (a failed one is tried after RETRY_S)
        try:
            summary = sync_board(link, store_result, schedule_for, said, table,
                                 claim=desk.claim, store_damaged=store_damaged,
                                 last_link=desk.last_link, hello=hello,
                                 lang=desk.board_language())
        except NoAnswer as silent:
            self._missed(store)
            for order in orders:
                order.done(self.port, str(silent))
            return
        except LineLost as lost:
            for order in orders:
                order.done(self.port, str(lost))
            raise
        except (SyncError, StoreError) as error:
            text = error.text if isinstance(error, StoreError) else str(error)
            with board.lock:
                board.trouble = text
            if text != self.told:
                self.say(_("%(problem)s (the sync is tried again in %(seconds)d s)") % {
                    "problem": text, "seconds": RETRY_S})
                self.told = text
            for order in orders:
                order.done(self.port, text)
            return
        self.told = ""
        self.table = None
        self.pulled_for = None
        if not summary["refused"]:
            desk.note(summary["board"], summary["table"])
        with board.lock:
            board.table = summary["table"]
            board.kept, board.damaged = summary["kept"], board.damaged + summary["damaged"]
            board.trouble = (_("the board refused: %(why)s") % {"why": summary["refused"]}
                             if summary["refused"] else
                             _("%(count)d result(s) kept on the board: %(why)s") % {
                                 "count": len(kept), "why": kept[-1].split("kept: ", 1)[-1]}
                             if kept else None)
        board.next_sync = time.monotonic() + self.watcher.sync_every
        board.sent = sending[0] if sending else None
        self._answered(store, board.state, put=board.confirmed)
        disagree = desk.chain_note(summary["board"], summary["chain"], summary["head"])
        for order in orders:
            if disagree:
                order.say("%s: %s" % (self.port, disagree))
            order.done(self.port, summary)

    def poll(self, store: Store) -> None:
        """The board's live state into the store; a match that ended is pulled at once."""
        board, link = self.board, self.link
        assert board is not None and link is not None
        try:
            reply = link.call(sp.LIVE)
            state, held = check_live(reply.get("live")), unsynced(reply)
        except NoAnswer:
            self._missed(store)
            return
        except LineLost:
            raise
        except (SyncError, BadLive) as error:
            # A session the board no longer knows (it was reset), a refusal, a state that
            # does not check out: say hello again next round; said once if it repeats.
            text = "%s: %s" % (self.port, _("board %(board)s: %(error)s") % {
                "board": board.id, "error": error})
            if isinstance(error, BadLive) and text != self.told:
                self.say(_("%(problem)s (still trying)") % {"problem": text})
                self.told = text
            link.close()
            self.link = None
            return
        before = board.state if board.confirmed else None
        self._answered(store, state)
        finish = (state["match_id"], state["events"]) if state and state["finished"] else None
        # (a result more than the last sync left on the board: a match played whole between
        # two looks, which no poll saw in play)
        more = held is not None and held > board.kept and held != self.pulled_for
        if ended(before, state) or (finish is not None and finish != board.synced_finish) or (
                more):
            board.synced_finish = finish
            self.pulled_for = held
            self.sync(store, self._take_orders())  # its result pulled now, not at the next

    # --- the board's answers and silences -------------------------------------------------

    def _answered(self, store: Store, state: dict | None, put: bool = True) -> None:
        """The board answered (`state`: its live state; put=False: a sync, no state asked).
        Its row is written when what the hall shows changes, or its heartbeat is due: a
        write a second per board is what a loaded disk holds the store with."""
        board = self.board
        assert board is not None
        with board.lock:
            back = board.answered()
            due = time.monotonic() - board.put_at >= HEARTBEAT_S
            if put and (back or due or not board.confirmed or state != board.state):
                board.state, board.confirmed = state, True
                store.live.put(board.id, board.tournament_id, board.table, state)
                board.put_at = time.monotonic()  # (a write the busy store refused: next poll)
        if back:
            self.say(back)

    def _missed(self, store: Store) -> None:
        board = self.board
        assert board is not None
        with board.lock:
            board.missed()
            report = board.silence()
        if report:
            self.say(report)  # (said before the store is written: a busy store loses no word)
            with board.lock:
                store.live.silent(board.id)

    def _take_orders(self) -> list:
        with self.orders_lock:
            orders, self.orders = self.orders, []
        return orders

    def _fail_orders(self, why: str) -> None:
        for order in self._take_orders():
            order.done(self.port, why)
