"""The clock the laptop's waits on a board are counted in, found by the board's port.

A real board's waits are in the laptop's own seconds (`time.monotonic`), as they always were.
A board run by this process registers its own clock for its pty: an emulated Pico the chip's
time (host/board/pico/board.py), a virtual board the time its process was let run
(host/board/process_clock.py). A wait for its answer (the sync's timeouts, mpremote's raw
REPL) then lasts as long for the board however little of the CPU a loaded laptop gives it,
and a failure is the board's, not the machine's load.

    port_clock.register(pty_path, board.seconds)
    clock = port_clock.clock_for(port)     # time.monotonic unless a board registered one
    port_clock.forget(pty_path, board.seconds)
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

Clock = Callable[[], float]

_clocks: dict[str, Clock] = {}
_lock = threading.Lock()


def _key(port: str) -> str:
    return os.path.realpath(port) if port.startswith("/") else port


def register(port: str, clock: Clock) -> None:
    """Waits on `port` count `clock`'s seconds from now on."""
    with _lock:
        _clocks[_key(port)] = clock


def forget(port: str, clock: Clock) -> None:
    """The board behind `port` is gone: its waits are the laptop's again (if `clock` is still
    the one registered: a pty's name is reused by the next board that opens one)."""
    with _lock:
        if _clocks.get(_key(port)) == clock:
            del _clocks[_key(port)]


def clock_for(port: str) -> Clock:
    """The clock to count waits on `port` in (seconds, never going back)."""
    with _lock:
        return _clocks.get(_key(port), time.monotonic)


def is_emulated(port: str) -> bool:
    """Whether a board in this process keeps its own clock for `port`."""
    return clock_for(port) is not time.monotonic
