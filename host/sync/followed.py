"""A board the watcher follows, by its id: on whichever port it answers (a board unplugged
and plugged back in on another port goes on as itself, its table, its state), and the
watcher's judgement of whether it still answers.

A board is "not answering" only once it has missed answers for SILENT_S of its own clock
(host/board/port_clock.py: a virtual board's time is the time its process was let run; a
real board's the laptop's) and at least MIN_MISSES polls in a row: a laptop kept busy holds
a board's bytes in its kernel, or does not run the watcher's thread when the answer comes,
for seconds; a board switched off or unplugged is silent for good. A board gone from its port
(the port itself disappeared) is counted in the laptop's time from then, so that plugged back
in, on any port, within SILENT_S it is never reported. Each silence is reported once, and its
end once."""

from __future__ import annotations

import threading
import time
from typing import Any

from host.board import port_clock
from host.i18n import _

SILENT_S = 15.0  # seconds (the board's own clock) without an answer: then it is not answering
MIN_MISSES = 5  # polls in a row without an answer, at least, before it is


class Followed:
    """One board: where it is, what it last confirmed, and how long it has been quiet."""

    def __init__(self, board: str, tournament_id: int) -> None:
        self.id = board
        self.tournament_id = tournament_id
        self.lock = threading.Lock()  # its row in the store is written by one thread at once
        self.holder: Any = None  # the port's watch that has it, None: on no port now
        self.port: str | None = None  # its port now (or the last one it was on)
        self.table: int | None = None
        self.state: dict | None = None  # the live state it last confirmed
        self.confirmed = False  # it has confirmed a live state (there is a row to keep)
        self.clock = time.monotonic  # the clock its quiet time is counted in
        self.since = self.clock()  # its last answer (or when it left its port), by that clock
        self.misses = 0
        self.missed_total = 0  # polls missed since it was first followed (a bench counts them)
        self.reported = False  # its silence was reported: the hall shows it red
        self.lent = False  # its port is lent to another pilkku command (pilkku pair)
        self.synced_finish: tuple | None = None  # the finished match last pulled
        self.next_sync = 0.0  # laptop time of its next whole sync
        # (table, its matches) as its last good sync sent them, and the store's facts (db.facts)
        # last looked at: a change of them at the desk is sent at once (watch_port.py).
        self.sent: tuple | None = None
        self.looked: int | None = None
        self.put_at = 0.0  # laptop time its row was last written
        # What the director's desk shows of it (host/desk/boards.py): its firmware as it said
        # hello, when it last answered (wall time), and what its last sync left to do.
        self.firmware: str | None = None
        self.answered_at: float | None = None
        self.kept = 0  # results its last sync left on it (not stored: see `trouble`)
        self.damaged = 0  # damaged results its syncs stored (pilkku results names them)
        self.trouble: str | None = None  # why its last sync failed or was refused, or None

    def where(self) -> str:
        if self.table is None:
            return _("board %(board)s (no table)") % {"board": self.id}
        return _("board %(board)s (table %(table)s)") % {"board": self.id, "table": self.table}

    def arrived(self, holder: Any, port: str) -> str | None:
        """The board answered on `port` (held by `holder`): what to say about it, if
        anything (it moved, or came back)."""
        before, was_reported = self.port, self.reported
        self.holder, self.port, self.lent = holder, port, False
        self.clock = port_clock.clock_for(port)
        self.since, self.misses = self.clock(), 0
        self.answered_at = time.time()
        if before is not None and before != port:
            self.reported = False  # said here: its return is not said again
            said = {"board": self.where(), "port": port, "before": before}
            if was_reported:
                return _("%(board)s is on %(port)s now (it was on %(before)s): it answers "
                         "again") % said
            return _("%(board)s is on %(port)s now (it was on %(before)s)") % said
        return None

    def answered(self) -> str | None:
        """A poll was answered: what to say (it answers again), if anything."""
        self.since, self.misses = self.clock(), 0
        self.answered_at = time.time()
        if self.reported:
            self.reported = False
            return _("%(board)s answers again on %(port)s") % {"board": self.where(),
                                                                "port": self.port}
        return None

    def missed(self) -> None:
        self.misses += 1
        self.missed_total += 1

    def left(self) -> None:
        """Its port went away: it is on no port, its quiet time counted by the laptop's."""
        self.holder = None
        self.clock = time.monotonic
        self.since = self.clock()

    def silence(self) -> str | None:
        """The report of its silence, when it is due and not yet made (None otherwise)."""
        if self.reported or self.lent:
            return None
        quiet = self.clock() - self.since
        if quiet < SILENT_S:
            return None
        if self.holder is None:
            self.reported = True
            return _("%(board)s is gone from %(port)s and not seen on any port for %(seconds)d "
                     "s: unplugged? It is taken up again as soon as it is plugged in, on any "
                     "port (still trying)") % {"board": self.where(), "port": self.port,
                                               "seconds": quiet}
        if self.misses < MIN_MISSES:
            return None
        self.reported = True
        own = _(" of its own clock") if port_clock.is_emulated(self.port or "") else ""
        return _("%(board)s on %(port)s has not answered for %(seconds)d s%(clock)s (%(polls)d "
                 "polls): switched off, or its scoreboard stopped? (a board left at the REPL "
                 "needs a reset; check the cable) (still trying)") % {
                     "board": self.where(), "port": self.port, "seconds": quiet, "clock": own,
                     "polls": self.misses}

    def view(self) -> dict:
        """What the desk shows of it (taken under its lock)."""
        return {"board": self.id, "table": self.table, "port": self.port,
                "firmware": self.firmware, "answered_at": self.answered_at,
                "on_port": self.holder is not None, "answering": not self.reported,
                "lent": self.lent, "kept": self.kept, "damaged": self.damaged,
                "trouble": self.trouble, "state": self.state if self.confirmed else None}
