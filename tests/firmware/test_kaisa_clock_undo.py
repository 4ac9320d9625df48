"""Kaisa's game clock when the end of a game is undone (firmware/kaisa_face.py): the time the
result stood on the board is not game time. The referee who undoes the last shot twenty
minutes after it sees the clock where it stopped, and it runs on from there; a break that was
on when the game ended has as long left as it had then. (Desk board, CPython: the referee's
keys in, the clock display out.)"""

from __future__ import annotations

from desk_board import DeskBoard
from displays import seen, shown

MINUTE = 60 * 1000


def seconds(text: str) -> int:
    """The clock display's "M:SS" (or a break's "bM:SS") in seconds."""
    minutes, _, secs = text.strip().lstrip("b").partition(":")
    return int(minutes) * 60 + int(secs)


def kaisa_with_the_clock() -> DeskBoard:
    """A Kaisa game to 20 with the game clock, ten minutes in, PL 2 on 18 at the table."""
    board = DeskBoard().boot()
    board.tap("C", "C", "C")  # 9-ball, 8-ball, 14.1, Kaisa
    board.tap("B")  # the menu's clock: Kaisa's game clock
    board.tap("2", "0", "#", "1", "1")  # race to 20; PL 1 won the lag, takes the one-dot ball
    board.tap("A")  # the opening shot: PL 2 to the table
    board.run(10 * MINUTE, tick=1000)
    board.tap("*", "A", "2", "1", "8", "#")  # the referee sets PL 2's points to 18
    assert seen(board)[1:3] == ("  18", "50:00")
    return board


def test_undoing_the_end_of_a_game_gives_back_the_clock_as_it_stopped():
    board = kaisa_with_the_clock()
    board.tap("3")  # the kaisa into a corner: +6, PL 2 wins
    assert board.app.match.state.finished and shown(board).startswith("PL 2 WON")
    stopped = seen(board)[2]
    board.run(20 * MINUTE, tick=1000)  # the result stands while the referee fills the sheet
    assert seen(board)[2] == stopped
    board.hold("D")  # ... then undoes the last shot: the kaisa did not count
    assert not board.app.match.state.finished and seen(board)[1] == "  18"
    assert 0 <= seconds(stopped) - seconds(seen(board)[2]) <= 1  # not 20 minutes less
    board.run(MINUTE, tick=1000)
    assert 60 <= seconds(stopped) - seconds(seen(board)[2]) <= 61  # the clock runs on


def test_a_break_on_when_the_game_ended_has_its_time_left_after_the_undo():
    board = kaisa_with_the_clock()
    board.tap("*", "C", "1")  # PL 1's break
    board.run(MINUTE, tick=1000)
    assert seen(board)[2] == "b4:00"
    board.tap("3")  # PL 2 plays on and wins during PL 1's break
    assert board.app.match.state.finished
    board.run(20 * MINUTE, tick=1000)
    board.hold("D")
    assert not board.app.match.state.finished
    assert seen(board)[2] == "b4:00" and shown(board) == "PL 1 BREAK"  # not over at once
    board.run(MINUTE, tick=1000)
    assert seen(board)[2] == "b3:00"
    board.tap("C")  # the break ends: the game clock where it stood at the break
    assert 0 <= 50 * 60 - seconds(seen(board)[2]) <= 1
