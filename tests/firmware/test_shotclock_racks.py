"""The shot clock's extension is the player's once a rack (firmware/app.py with
firmware/shotclock.py): used in one rack, it is there again in the next, for both players.
Desk board, CPython: the referee's keys in, the clock display and message row out."""

from __future__ import annotations

from desk_board import DeskBoard


def texts(board: DeskBoard) -> tuple[str, str]:
    shown = board.texts()
    return shown["clock"], shown["message"]


def extend(board: DeskBoard) -> tuple[str, str]:
    """The shooter's extension (* C): the clock and message row after it."""
    before = int(board.texts()["clock"])
    board.tap("*", "C")
    clock, message = texts(board)
    return ("+%d" % (int(clock) - before) if message != "NO EXT" else clock), message


def test_each_player_has_an_extension_again_in_every_new_rack():
    board = DeskBoard().boot()
    board.tap("B")  # the shot clock on
    board.tap("3", "#", "1", "1")  # race to 3; PL 1 won the lag and breaks
    board.tap("A")  # a dry break: PL 2 to the table
    board.run(5000)
    assert extend(board) == ("+25", "PL 2")
    assert extend(board)[1] == "NO EXT"  # once a rack
    board.tap("A")  # PL 2 misses: PL 1 to the table
    assert extend(board) == ("+25", "PL 1")
    assert extend(board)[1] == "NO EXT"
    board.tap("9", "A")  # PL 1 pockets the 9: the rack is his, and he breaks the next
    assert board.app.match.state.rack == 2 and texts(board) == ("  35", "PL 1 BRK")
    board.run(5000)
    assert extend(board) == ("+25", "PL 1 BRK")  # his extension is back
    board.tap("A")  # a dry break
    assert extend(board) == ("+25", "PL 2")  # and PL 2's
    assert extend(board)[1] == "NO EXT"
    board.tap("A")
    board.tap("9", "A")  # PL 1 takes rack 2 too; rack 3
    board.tap("A")
    assert extend(board) == ("+25", "PL 2")
