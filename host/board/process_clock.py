"""A board that is a process on this laptop (the virtual board: the unix port) keeps no clock
of its own apart from the laptop's, but a busy laptop keeps it from running: waiting for a CPU
it answers nothing, through no fault of its own. Its own time, for the laptop's waits on it
(host/board/port_clock.py), is the laptop's time less the time its process spent ready to run
and not running (or stopped), as Linux counts it (/proc/PID/schedstat, /proc/PID/stat):

    clock = ProcessClock(pid)
    clock()        # seconds; the laptop's once the process is gone, or where /proc is not
    clock.follow(new_pid)   # the board powered up again: its time goes on

Linux adds a wait for a CPU to the process's count only once the wait is over, so a wait still
going on is seen from the process being runnable ("R") while its CPU time stands still; that
part is not counted twice when the count catches up. The clock never goes back.
"""

from __future__ import annotations

import threading
import time

# Linux adds a running process's CPU time up at its scheduler tick (10 ms at the most): a
# runnable process whose CPU time has not moved for longer than this is waiting for a CPU.
TICK_S = 0.02


class ProcessClock:
    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._lock = threading.Lock()
        self._wall = time.monotonic()
        self._value = 0.0
        self._last = self._read()
        self._pending = 0.0  # seconds of a wait for a CPU left out, not yet in its count

    def follow(self, pid: int) -> None:
        """Count the time of another process (the board's, powered up again) from now on."""
        self()
        with self._lock:
            self.pid = pid
            self._last = self._read()
            self._pending = 0.0

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
            if now is None or last is None:  # gone (a power cut): the laptop's time
                self._wall, self._last = wall, now
                self._value += step
                return self._value
            state, ran, waited = now
            if state == "R" and ran == last[1] and step < TICK_S:
                return self._value  # running or waiting? told apart once a tick has passed
            self._wall = wall
            counted = max(0.0, waited - last[2])  # waits for a CPU over since the last look
            hidden = max(0.0, counted - self._pending)
            self._pending = max(0.0, self._pending - counted)
            if state in "Tt":  # stopped: it does nothing, and Linux counts no wait
                pass
            elif state == "R" and ran == last[1]:  # waiting for a CPU now
                self._pending += step
            else:
                self._value += max(0.0, step - hidden)
            self._last = now
            return self._value
