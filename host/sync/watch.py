"""`pilkku sync --watch`: every board kept in sync while the tournament runs. One thread per
board keeps its line open, asks for the board's live state about once a second, checks it
(nothing from a board is trusted before it is checked) and writes it to the store's `live`
table (host/tournament/store/live.py), where the hall reads it. A whole sync (results pulled and
stored, the table's next matches pushed) runs at the start, whenever the board shows a
finished match, and every `sync_every` seconds. A board that stops answering is marked silent
in the store; the watcher keeps trying it and it comes back by itself."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from host.sync.session import Link, SyncError, sync_board
from host.tournament.store import Store, StoreError
from rules_core import sync_protocol as sp
from rules_core.games import GAMES

NAME_MAX = 40
CLOCK_MAX = 8
EVENTS_MAX = 100000
SCORE_MAX = 100000
# Requests in the watch give up sooner than a sync's (a silent board shows within ~1 s).
WATCH_ATTEMPTS = 4


class BadLive(ValueError):
    pass


def _int(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise BadLive("%s must be a whole number from %d to %d" % (what, low, high))
    return value


def _pair(value: Any, low: int, high: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != 2:
        raise BadLive("%s must be two numbers" % what)
    return [_int(v, low, high, what) for v in value]


def _text(value: Any, most: int, what: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= most or not value.isprintable():
        raise BadLive("%s must be printable text of at most %d characters" % (what, most))
    return value


def check_live(payload: Any) -> dict | None:
    """The board's live reply, checked field by field (exact types, ranges, sizes) and cut
    to the fields the hall shows; None: no match on the board. BadLive says what is wrong."""
    if payload is None:
        return None
    if not isinstance(payload, dict):
        raise BadLive("the live state must be an object")
    game = payload.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise BadLive("unknown game %r" % (game,))
    players = payload.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise BadLive("a match has two players")
    shooter = payload.get("shooter")
    if shooter is not None:
        _int(shooter, 0, 1, "the shooter")
    finished = payload.get("finished")
    if not isinstance(finished, bool):
        raise BadLive("'finished' must be true or false")
    return {
        "game": game,
        "players": [_text(p, NAME_MAX, "a player's name") for p in players],
        "score": _pair(payload.get("score"), -SCORE_MAX, SCORE_MAX, "the score"),
        "shooter": shooter,
        "finished": finished,
        "race_to": _int(payload.get("race_to"), 1, SCORE_MAX, "the race"),
        "rack": _int(payload.get("rack"), 0, SCORE_MAX, "the rack"),
        "inning": _int(payload.get("inning"), 0, SCORE_MAX, "the inning"),
        "fouls": _pair(payload.get("fouls"), 0, 99, "fouls in a row"),
        "clock": _text(payload.get("clock"), CLOCK_MAX, "the clock", optional=True),
        "events": _int(payload.get("events"), 0, EVENTS_MAX, "the event count"),
        "match_id": _text(payload.get("match_id"), NAME_MAX, "the match id", optional=True),
    }


class BoardWatch:
    """One board: its line, when it syncs next, and what it last confirmed."""

    def __init__(self, port: str, desk: Any, key: bytes, table: int | None,
                 say: Callable[[str], None], sync_every: float) -> None:
        self.port = port
        self.desk = desk
        self.key = key
        self.table = table  # set on the board at the first sync, then the board's own
        self.say = say
        self.sync_every = sync_every
        self.link: Link | None = None
        self.board: str | None = None
        self.board_table: int | None = None
        self.next_sync = 0.0
        self.synced_finish: tuple | None = None
        self.failing = False

    def round(self, store: Store) -> None:
        """One look at the board: a sync when one is due, then its live state."""
        try:
            if self.link is None:
                self.link = Link(self.port, self.key, attempts=WATCH_ATTEMPTS)
                self.next_sync = 0.0
            if time.monotonic() >= self.next_sync:
                self._sync()
            state = check_live(self.link.call(sp.LIVE).get("live"))
        except (SyncError, BadLive, StoreError) as error:
            self._lost(store, str(error))
            return
        if self.failing:
            self.say("%s: board %s answers again" % (self.port, self.board))
            self.failing = False
        assert self.board is not None
        store.live.put(self.board, self.desk.tournament["id"], self.board_table, state)
        if state is not None and state["finished"]:
            finish = (state["match_id"], state["events"])
            if finish != self.synced_finish:
                self.synced_finish = finish
                self.next_sync = 0.0  # pull the result at once

    def _sync(self) -> None:
        assert self.link is not None
        summary = sync_board(self.link, self.desk.store_result, self.desk.schedule_for,
                             self.say, self.table, claim=self.desk.claim,
                             store_damaged=self.desk.store_damaged,
                             last_link=self.desk.last_link)
        self.table = None
        self.board, self.board_table = summary["board"], summary["table"]
        self.desk.note(self.board, self.board_table)
        self.next_sync = time.monotonic() + self.sync_every

    def _lost(self, store: Store, why: str) -> None:
        if not self.failing:
            said = why if why.startswith(self.port) else "%s: %s" % (self.port, why)
            self.say("%s (still trying)" % said)
            self.failing = True
        if self.board is not None:
            store.live.silent(self.board)
        if self.link is not None:
            self.link.close()
            self.link = None

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None


def _run(watch: BoardWatch, db: str | None, stop: threading.Event, interval: float) -> None:
    with Store.open(db) as store:
        try:
            while not stop.is_set():
                began = time.monotonic()
                try:
                    watch.round(store)
                except sqlite3.Error as error:  # the store busy past its timeout: next round
                    watch.say("%s: the store: %s (still trying)" % (watch.port, error))
                stop.wait(max(0.05, interval - (time.monotonic() - began)))
        finally:
            watch.close()


def watch(ports: list[str], desk: Any, key: bytes, stop: threading.Event, *,
          table: int | None = None, interval: float = 1.0, sync_every: float = 30.0,
          say: Callable[[str], None] = print) -> None:
    """Watch every port until `stop` is set (Ctrl-C in `pilkku sync --watch`)."""
    lock = threading.Lock()

    def said(text: str) -> None:
        with lock:
            say(text)

    threads = [threading.Thread(target=_run, daemon=True, args=(
        BoardWatch(port, desk, key, table, said, sync_every), desk.db, stop, interval))
        for port in ports]
    for thread in threads:
        thread.start()
    try:
        while any(t.is_alive() for t in threads) and not stop.is_set():
            stop.wait(0.2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)


def command(ports: list[str], desk: Any, key: bytes, table: int | None,
            interval: float) -> int:
    """`pilkku sync --watch`, after `pilkku sync` has found the ports and the tournament."""
    if not 0.2 <= interval <= 60:
        print("pilkku sync: --interval is seconds between live pulls, from 0.2 to 60")
        return 2
    stop = threading.Event()
    print("watching %d board(s), live state every %.1f s; stop with Ctrl-C"
          % (len(ports), interval), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        watch(ports, desk, key, stop, table=table, interval=interval,
              say=lambda text: print(text, flush=True))
    except KeyboardInterrupt:
        stop.set()
    print("stopped watching", flush=True)
    return 0
