"""A Pico and a desk board played alike: the same keys, each held as long and let go as
long, the same time between; the desk board (tests/firmware/desk_board.py: the same firmware
and rules engine under CPython, its clock in the test's hands) says what the Pico's displays
must show after each key.

Presses are a referee's (host/board/pico/board.py PRESS_MS down, RELEASE_MS up), not the
virtual board's 60/60 ms taps."""

from __future__ import annotations

import sys
from pathlib import Path

from displays import marked, seen

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))

from desk_board import DeskBoard  # noqa: E402

from host.board.pico.board import PRESS_MS, RELEASE_MS  # noqa: E402

DOWN_MS, UP_MS = PRESS_MS, RELEASE_MS


def view(board) -> tuple:
    """The four displays and whose score display carries the shooter's mark."""
    return seen(board) + (marked(board),)


def press(board, key: str) -> None:
    """A referee's press on a Pico or a desk board."""
    if isinstance(board, DeskBoard):
        board.matrix.press(key)
        board.run(DOWN_MS)
        board.matrix.release(key)
        board.run(UP_MS)
    else:
        board.tap(key)


def desk(boot_ms: int) -> DeskBoard:
    return DeskBoard().boot(boot_ms)


def frames_of(keys: str, actions: str) -> list[tuple]:
    """What the desk board shows after `keys`, then after each of `actions`."""
    twin = desk(400)
    for key in keys:
        press(twin, key)
    frames = [view(twin)]
    for key in actions:
        press(twin, key)
        frames.append(view(twin))
    return frames


def seconds(clock: str) -> int:
    """A game clock's "mm:ss" (the break's "b" before it allowed) in seconds."""
    minutes, secs = clock.strip().lstrip("b").split(":")
    return int(minutes) * 60 + int(secs)


def alike(pico_view: tuple, desk_view: tuple) -> bool:
    """The same displays; a running game clock may differ by the one second it can tick
    between the two boards' ticks (each sees the key within its own 10 ms tick)."""
    if pico_view == desk_view:
        return True
    ours, theirs = pico_view[2], desk_view[2]
    if pico_view[:2] + pico_view[3:] != desk_view[:2] + desk_view[3:] or ":" not in ours \
            or ":" not in theirs or not ours.strip().lstrip("b")[:1].isdigit():
        return False
    return abs(seconds(ours) - seconds(theirs)) <= 1


def play(pico, twin: DeskBoard, keys: str) -> list[tuple]:
    """Press each key on both; after each the Pico must show what the desk board does.
    Returns the views."""
    views = []
    for number, key in enumerate(keys):
        press(pico, key)
        press(twin, key)
        ours, theirs = view(pico), view(twin)
        assert alike(ours, theirs), (number, keys[:number + 1], ours, theirs)
        views.append(ours)
    return views
