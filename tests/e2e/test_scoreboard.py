"""The scoreboard end to end: the firmware in the MicroPython unix port on the virtual board,
played through its keypad, read from its displays (decoded HT16K33 RAM)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from displays import cuts_in_flight, marked, seen

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))

from desk_board import DeskBoard  # noqa: E402


def test_a_nine_ball_race_through_the_keypad(board):
    """Each key, the displays, and whose score display carries the shooter's mark (nobody's
    in the menu, the lag and the choice of who breaks, or once the match is won)."""
    steps = [
        ("2", ("PL 1", "PL 2", "  r2", "9BALL GO"), None),
        ("#", ("   0", "   0", "  -2", "LAG 1/2?"), None),
        ("2", ("   0", "   0", "  -2", "PL 2 BRK"), None),
        ("1", ("   0", "   0", "  r1", "PL 1 BRK"), 1),
        ("A", ("   0", "   0", "  r1", "PL 2"), 2),  # a dry break
        ("C", ("   0", "   0", "  r1", "PUSH"), 2),
        ("A", ("   0", "   0", "  r1", "PL 1 1 P"), 1),  # "PL 1 1 PLAY 2 PASS" scrolls
        ("2", ("   0", "   0", "  r1", "PL 2"), 2),  # PL 1 passes the push back
        ("B", ("   0", "   0", "  r1", "FSCR"), 2),
        ("A", ("   0", "   0", "  r1", "PL 1 BIH"), 1),
        ("9", ("   0", "   0", "  r1", "IN 9"), 1),
        ("A", ("   1", "   0", "  r2", "PL 1 BRK"), 1),  # the 9 on a legal shot
        ("9", ("   1", "   0", "  r2", "IN 9"), 1),
        ("A", ("   2", "   0", "  r2", "PL 1 WON"), None),  # the 9 on the break
        ("#", ("PL 1", "PL 2", "  r2", "9BALL GO"), None),
    ]
    for key, expected, mark in steps:
        board.tap(key)
        assert seen(board)[:3] == expected[:3], key
        assert seen(board)[3].startswith(expected[3]), (key, seen(board))
        assert marked(board) == mark, (key, seen(board), marked(board))


def test_a_refused_key_press_shows_why_and_changes_nothing(board):
    for key in "5#11":
        board.tap(key)
    board.tap("A")  # a dry break
    board.tap("A")  # PL 2 misses
    before = seen(board)
    board.tap("C")
    board.tap("A")  # a push out now: refused
    assert seen(board)[3] == "NO PUSH"
    board.run(3000)
    assert seen(board) == before


def test_long_press_of_undo(board):
    for key in "5#11":
        board.tap(key)
    board.tap("#")  # the 1 on the break
    assert seen(board)[3] == "PL 1"
    board.hold("D")
    assert seen(board)[3] == "PL 1 BRK"


def _expected_frames(actions: list[str]) -> list[tuple]:
    """The frames the same firmware shows on CPython (a desk board) after each action, with
    the shooter's mark: after every power cut it must be back where it was."""
    desk = DeskBoard().boot(100)
    for key in "20#11":
        desk.tap(key)
    frames = [_view(desk)]
    for key in actions:
        desk.tap(key)
        frames.append(_view(desk))
    return frames


def _view(board) -> tuple:
    """The displays and whose score display is marked as the shooter's."""
    return seen(board) + (marked(board),)


def test_power_cut_at_fifty_random_points(board):
    rng = random.Random(20261130)
    actions = [rng.choice("##A") for _ in range(400)]
    frames = _expected_frames(actions)
    for key in "20#11":  # race to 20, PL 1 wins the lag and breaks
        board.tap(key)
    assert _view(board) == frames[0]

    def cut(key: str) -> None:
        # The press is in flight when the power goes: held for 10 to 90 ms of ticks.
        board.key(key, True)
        board.run(rng.choice((10, 20, 30, 40, 60, 90)))
        board.kill()
        board.start()
        board.run(100)

    # The displays must tell whether the press in flight landed: tap on past presses that
    # would not change them (a pot by a player who stays at the table).
    _done, landed = cuts_in_flight(frames, actions, 50, lambda: rng.randint(0, 4), board.tap,
                                   cut, lambda: _view(board))
    assert 0 < landed < 50  # the cuts fell both before and after the journal had the event
