"""A board that is a process on this laptop (the virtual board: the unix port) keeps no clock
of its own apart from the laptop's, but a busy laptop keeps it from running: waiting for a CPU,
or held in the laptop's kernel (its pty's buffers pushed by a kernel worker that is itself
waiting for a CPU), it answers nothing, through no fault of its own. Its own time, for the
laptop's waits on it (host/board/port_clock.py), is the laptop's time while it runs or sleeps
of its own accord (waiting for input, or its tick), as Linux tells (/proc/PID/stat's state,
/proc/PID/schedstat):

    clock = ProcessClock(pid)
    clock()        # seconds; the laptop's once the process is gone, or where /proc is not
    clock.follow(new_pid)   # the board powered up again: its time goes on

Not counted: runnable and not running ("R" with its CPU time standing still: a wait for a
CPU, which Linux adds to the process's count only once it is over, so that part is not taken
off twice), in the kernel's uninterruptible sleep ("D": the laptop's pty or disk), stopped
("T"). Waits for a CPU seen only afterwards, in the count, are taken off the time that follows.
If the clock has not moved for STALL_S of the laptop's seconds, the laptop's time runs (a
process held that long is hung: a wait on it must end). The clock never goes back.
"""

from __future__ import annotations

import threading
import time

# A running process's CPU time moves within a millisecond or two; a runnable one whose CPU time
# has not moved for this long is waiting for a CPU (in less it is not told apart).
TICK_S = 0.02
STALL_S = 60.0  # the laptop's seconds without the clock moving: then the process is hung


class ProcessClock:
    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._lock = threading.Lock()
        self._wall = time.monotonic()
        self._moved = self._wall  # when the clock last moved (the laptop's time)
        self._value = 0.0
        self._last = self._read()
        self._pending = 0.0  # seconds of a wait for a CPU left out, not yet in its count
        self._owed = 0.0  # seconds of waits counted since, still to take off

    def follow(self, pid: int) -> None:
        """Count the time of another process (the board's, powered up again) from now on."""
        self()
        with self._lock:
            self.pid = pid
            self._last = self._read()
            self._pending = self._owed = 0.0

    def _read(self) -> tuple[str, float, float] | None:
        """(state, CPU seconds, seconds waited for a CPU) of the process, or None if gone."""
        try:
            with open("/proc/%d/stat" % self.pid) as stat:
                state = stat.read().rsplit(")", 1)[1].split()[0]
            with open("/proc/%d/schedstat" % self.pid) as sched:
                ran, waited = sched.read().split()[:2]
        except (OSError, IndexError, ValueError):
            return None
        if state in "ZX":
            return None
        return state, int(ran) / 1e9, int(waited) / 1e9

    def __call__(self) -> float:
        with self._lock:
            wall = time.monotonic()
            step = wall - self._wall
            now, last = self._read(), self._last
            if now is None or last is None or wall - self._moved > STALL_S:
                self._wall, self._last = wall, now  # gone, or hung: the laptop's time
                self._advance(step, wall)
                return self._value
            state, ran, waited = now
            if state == "R" and ran == last[1] and step < TICK_S:
                return self._value  # running or waiting? told apart once a tick has passed
            self._wall, self._last = wall, now
            counted = max(0.0, waited - last[2])  # waits for a CPU over since the last look
            covered = min(counted, self._pending)
            self._pending -= covered
            self._owed += counted - covered
            if state == "R" and ran == last[1]:  # waiting for a CPU now
                self._pending += step
            elif state not in "DTt":  # not held in the kernel, not stopped
                paid = min(self._owed, step)
                self._owed -= paid
                self._advance(step - paid, wall)
            return self._value

    def _advance(self, seconds: float, wall: float) -> None:
        if seconds > 0:
            self._value += seconds
            self._moved = wall
