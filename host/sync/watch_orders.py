"""What other pilkku commands ask of the running watcher (host/sync/watch.py), through its
door (host/sync/door.py) or, in `pilkku desk`'s own process, directly:

- a sync now of some ports (`pilkku sync`; the desk's "move to table N" is `pilkku sync
  --port P --table N`): `sync_ports`, carried out by the ports' own threads;
- a port lent (`pilkku pair`, `pilkku flash`, the desk's pair and flash buttons):
  `borrowed`, for as long as the borrower uses it; the watcher takes it up again after. For
  a flash the board held there is synced first (`sync_first`), so that every result it
  holds is in the store before its firmware changes (flashing leaves its results on it in
  any case: host/board/flash.py touches only the firmware's files).
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from host.i18n import _
from host.sync import door


class NotLent(RuntimeError):
    """The watcher could not lend the port (says why)."""


def identity(port: str) -> tuple | None:
    """The device behind a port's name now (None: no such device): a name reused by another
    device (a pty's number) is another identity."""
    try:
        st = os.stat(port)
    except OSError:
        return None
    return st.st_rdev, st.st_ino, st.st_ctime_ns


class Order:
    """`pilkku sync`'s request, as the watcher carries it out: what the sync says goes to the
    asking command as it comes, the outcome of each port when it is done."""

    def __init__(self, conn: socket.socket | None, ports: list[str], table: int | None,
                 heard: Callable[[str], None] | None = None) -> None:
        self.conn = conn
        self.heard = heard  # in the same process: what the sync says, as it comes
        self.table = table
        self.lock = threading.Lock()
        self.waiting = set(ports)
        self.outcomes: dict[str, Any] = {}
        self.counts = {"stored": 0, "duplicates": 0, "kept": 0, "damaged": 0}
        self.finished = threading.Event()
        if not ports:
            self.finished.set()

    def say(self, text: str) -> None:
        with self.lock:
            if self.heard is not None:
                try:
                    self.heard(text)
                except OSError:  # (a borrower's door gone): the sync goes on, told no more
                    self.heard = None
            if self.conn is not None:
                try:
                    door.send(self.conn, {"say": text})
                except OSError:
                    self.conn = None  # the asking command went away; the sync goes on

    def count(self, outcome: str, damaged: bool = False) -> None:
        kind = "duplicates" if outcome == "duplicate" else "stored" if outcome.startswith(
            "stored") else "kept"  # ("stored, not counted: ..." is stored and freed too)
        with self.lock:
            self.counts["damaged" if damaged and kind != "kept" else kind] += 1

    def done(self, port: str, outcome: Any) -> None:
        with self.lock:
            self.outcomes.setdefault(port, outcome)
            self.waiting.discard(port)
            if not self.waiting:
                self.finished.set()

    def answer(self, tournament: str) -> dict:
        synced = [o for o in self.outcomes.values() if isinstance(o, dict)]
        return dict(self.counts, done=True, tournament=tournament, synced=len(synced),
                    failed=[o for o in self.outcomes.values() if not isinstance(o, dict)],
                    refused=sum(1 for o in synced if o["refused"]))


def handle(watcher: Any, request: dict, conn: socket.socket) -> None:
    """A request that came through the door."""
    if request.get("do") == "sync":
        _sync_asked(watcher, request, conn)
    elif request.get("do") == "lend" and isinstance(request.get("port"), str):
        _lend(watcher, request["port"], conn, request.get("sync") is True)
    else:
        door.send(conn, {"done": True, "error": _("not a request this watcher knows")})


def _sync_asked(watcher: Any, request: dict, conn: socket.socket) -> None:
    name = watcher.current()[0].tournament["name"]
    asked = request.get("tournament")
    if asked is not None and asked != name:
        door.send(conn, {"done": True, "error": _(
            "the running `pilkku sync --watch` watches tournament '%(watched)s', not "
            "'%(asked)s': stop it to sync '%(asked)s' by hand") % {
                "watched": name, "asked": asked}})
        return
    ports = request.get("ports")
    if not isinstance(ports, list) or not all(isinstance(p, str) for p in ports):
        ports = None
    table = request.get("table") if type(request.get("table")) is int else None
    order = sync_ports(watcher, ports, table, conn=conn)
    door.send(conn, order.answer(name))


def sync_ports(watcher: Any, ports: list[str] | None, table: int | None,
               conn: socket.socket | None = None,
               heard: Callable[[str], None] | None = None) -> Order:
    """Sync `ports` now (None: every port with a board of ours), the board on a single port
    given `table` first, as `pilkku sync --port P --table N` does; the order, once done."""
    with watcher.lock:
        if ports is None:
            ports = [p for p, t in watcher.threads.items() if t.board is not None]
        order = Order(conn, ports, table, heard)
        for port in ports:
            thread = watcher.threads.get(port)
            if port in watcher.lent:
                order.done(port, _("%(port)s is lent to another pilkku command")
                           % {"port": port})
            elif thread is not None and thread.is_alive():
                thread.give(order)
            elif identity(port) is None:
                order.done(port, _("%(port)s: no such port: is the board plugged in?")
                           % {"port": port})
            else:
                watcher._start(port, [order])
    order.finished.wait()
    return order


def sync_held(watcher: Any, port: str, heard: Callable[[str], None] | None = None) -> Any:
    """A sync now of the board the watcher holds on `port`: its outcome (the sync's summary,
    or why it failed); None when no board of ours is held there."""
    with watcher.lock:
        thread = watcher.threads.get(port)
        held = thread is not None and thread.is_alive() and thread.board is not None
    if not held:
        return None
    return sync_ports(watcher, [port], None, heard=heard).outcomes.get(port)


def synced_words(outcome: Any) -> str | None:
    """A sync-first's outcome as the director reads it."""
    if outcome is None:
        return None
    if isinstance(outcome, dict):
        return _("synced first: %(stored)d result(s) stored, %(duplicates)d already stored, "
                 "%(kept)d kept on the board") % {"stored": outcome["stored"],
                                                  "duplicates": outcome["duplicates"],
                                                  "kept": outcome["kept"]}
    return _("could not be synced first (%(why)s): its results stay on the board, which "
             "flashing does not touch; pilkku sync takes them later") % {"why": outcome}


@contextmanager
def borrowed(watcher: Any, port: str, sync_first: bool = False,
             heard: Callable[[str], None] | None = None) -> Iterator[Any]:
    """`port` let go of by the watcher for the duration; yields the sync-first's outcome (see
    sync_held; None without one). NotLent: it is lent already, or its board would not let go."""
    synced = sync_held(watcher, port, heard) if sync_first else None
    with watcher.lock:
        if port in watcher.lent:
            raise NotLent(_("%(port)s is lent to another pilkku command already (a pair or a "
                            "flash under way): try again when it is done") % {"port": port})
        watcher.lent.add(port)
        thread = watcher.threads.pop(port, None)
    try:
        if thread is not None:
            thread.let_go()
            thread.join(timeout=60)  # a request under way ends within its give-up
            if thread.is_alive():
                raise NotLent(_("its board did not let go of the line"))
        yield synced
    finally:
        with watcher.lock:
            watcher.lent.discard(port)
            watcher.resting.pop(port, None)
            watcher.strangers.pop(port, None)  # looked at again: who answers there now


def _lend(watcher: Any, port: str, conn: socket.socket, sync_first: bool) -> None:
    try:
        with borrowed(watcher, port, sync_first,
                      heard=lambda text: door.send(conn, {"say": text})) as synced:
            door.send(conn, {"lent": True, "synced": synced_words(synced)})
            while conn.recv(4096):  # until the borrower closes its end
                pass
    except NotLent as why:
        door.send(conn, {"error": str(why)})
    except OSError:
        pass
