"""14.1 continuous end to end: the firmware in the MicroPython unix port on the virtual board,
a short race played through its keypad, read from its displays (decoded HT16K33 RAM), with
the power pulled twice in the middle."""

from __future__ import annotations

from displays import play, power_cut, seen


def test_a_straight_pool_race_through_the_keypad_with_power_cuts(board):
    play(board, [
        ("CC20", ("PL 1", "PL 2", " r20", "14.1 GO")),
        ("#", ("   0", "   0", " -20", "LAG 1/2?")),
        ("2", ("   0", "   0", " -20", "PL 2 BRK")),  # "PL 2 BRK?": who breaks
        ("2", ("   0", "   0", "b 15", "PL 2 BRK")),
        ("B", ("   0", "   0", "b 15", "FAIL")),
        ("A", ("   0", "  -2", "b 15", "PL 1 1 A")),  # "PL 1 1 ACPT 2 RBRK" scrolls
        ("2", ("   0", "  -2", "b 15", "PL 2 BRK")),  # PL 1 makes PL 2 break again
        ("A", ("   0", "  -2", "b 15", "PL 1")),  # a legal safety break
        ("#", ("   1", "  -2", "b 14", "PL 1 1")),  # the called ball: one press
        ("9#", ("  10", "  -2", "b  5", "PL 1 10")),
        ("A", ("  10", "  -2", "b  5", "PL 2")),  # a miss
        ("BA", ("  10", "  -3", "b  5", "PL 1 BIH")),  # PL 2 scratches
    ])
    before = seen(board)
    power_cut(board)
    assert seen(board) == before
    play(board, [
        ("3#", ("  13", "  -3", "b  2", "PL 1 3")),  # a new run
        ("#", ("  14", "  -3", "b  1", "RACK DUE")),  # "... 15? 1 RACK 2 HEAD ..." scrolls
        ("1", ("  14", "  -3", "b  1", "15 RACK,")),  # the 15th in the rack area
        ("#", ("  14", "  -3", "b 15", "RACK 14,")),  # "RACK 14, 15 HEAD SPOT" scrolls
    ])
    before = seen(board)
    power_cut(board)
    assert seen(board) == before
    board.run(3000)  # the instruction scrolls on after the restart
    assert seen(board)[:3] == before[:3]
    play(board, [
        ("B", ("  14", "  -3", "b 15", "FSCR")),
        ("D", ("  14", "  -3", "b 15", "RACK 14,")),  # cleared
        ("5#", ("  19", "  -3", "b 10", "PL 1 9")),  # the run goes on across racks
        ("#", ("  20", "  -3", "b  9", "PL 1 WON")),
        ("#", ("PL 1", "PL 2", "  r5", "9BALL GO")),  # the menu, as after power-up
    ])


def test_undo_after_a_power_cut(board):
    play(board, [
        ("CC10#11", ("   0", "   0", "b 15", "PL 1 BRK")),
        ("#", ("   1", "   0", "b 14", "PL 1 1")),
        ("2#", ("   3", "   0", "b 12", "PL 1 3")),
    ])
    power_cut(board)
    assert seen(board) == ("   3", "   0", "b 12", "PL 1 3")
    board.hold("D")
    assert seen(board) == ("   1", "   0", "b 14", "PL 1 1")
    board.tap("*")
    board.tap("D")
    assert seen(board) == ("   3", "   0", "b 12", "PL 1 3")
