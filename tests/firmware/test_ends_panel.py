"""How 14.1 matches and Kaisa games end, entered on a desk board's keypad (real journal on
disk) and read from its displays: the keys docs/referee.md lists for each end."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard
from displays import seen, shown


@pytest.fixture
def board(tmp_path) -> DeskBoard:
    return DeskBoard(tmp_path).boot()


def start(board: DeskBoard, game: str, race: str) -> None:
    while not board.app.menu.frame()[3].startswith(game):
        board.tap("C")
    board.tap(*race)
    board.tap("#", "1", "1")  # PL 1 won the lag and breaks (Kaisa: takes the one-dot)


def won(board: DeskBoard) -> int:
    state = board.app.match.state
    assert state.finished
    return state.winner


# --- 14.1 ------------------------------------------------------------------------------------

def test_straight_race_reached_on_a_called_break_and_pots(board):
    start(board, "14.1", "3")
    board.tap("#", "#")  # a called break made, then a pot: 2 points
    assert seen(board)[:2] == ("   2", "   0")
    board.tap("#")  # the third point: the race, mid-inning
    assert seen(board)[3] == "PL 1 WON" and won(board) == 0


def test_straight_race_reached_by_several_balls_on_one_shot(board):
    start(board, "14.1", "3")
    board.tap("A")  # a legal safety break: PL 2
    board.tap("3", "#")  # three balls on one pot
    assert seen(board)[:2] == ("   0", "   3") and won(board) == 1


def test_straight_concede_the_match_with_an_entry_pending(board):
    start(board, "14.1", "3")
    board.tap("A", "2", "*", "#")
    assert shown(board) == "GIVE UP 1/2?"
    board.tap("2")  # PL 2 concedes, the count 2 still entered
    assert seen(board)[3] == "CLEARED" and won(board) == 0


# --- Kaisa -----------------------------------------------------------------------------------

def test_kaisa_white_without_nakki_on_the_last_point_gives_two_and_goes_on(board):
    start(board, "KAISA", "10")
    for _ in range(3):
        board.tap("2")  # a red into a corner: 3 points
        board.run(2600)
    board.tap("1")  # on 9 (the race 10, less one) the white alone: +2, the turn passes
    board.run(2600)
    assert seen(board)[:2] == ("  11", "   0")
    assert not board.app.match.state.finished and seen(board)[3] == "PL 2 BIH"
    board.tap("A")  # PL 2 misses
    board.run(2600)
    board.tap("2")  # a red ends it
    assert shown(board) == "PL 1 WON 10-0" and won(board) == 0  # recorded as the race


def test_kaisa_white_by_kyyti_with_a_red_on_55_of_60_ends_the_game(board):
    start(board, "KAISA", "10")
    for _ in range(2):
        board.tap("2")
        board.run(2600)
    board.tap("C", "C", "0", "2")  # by kyyti; a red fell too
    assert shown(board) == "KYYT +RC"
    board.tap("1")  # the white into a corner
    assert won(board) == 0


def test_kaisa_concede(board):
    start(board, "KAISA", "10")
    board.tap("*", "2")
    assert won(board) == 0


@pytest.mark.parametrize(("game", "race"), [("14.1", "3"), ("KAISA", "10")])
def test_abandon_every_game(board, game, race):
    start(board, game, race)
    board.hold("*")
    assert shown(board) == "ABANDON? # YES"
    board.tap("#")
    assert board.app.match is None
    (seq,) = board.app.store.finished()
    assert board.app.store.meta(seq)["abandoned"] is True
