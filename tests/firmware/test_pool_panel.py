"""Every way an 8-ball or 9-ball rack or match ends, entered on the keypad of a desk board
(real journal on disk), read back from the displays; and the entry rules: a half-entered shot
never outlives its rack, a long UNDO with an entry pending clears only the entry, typing is
never hidden by a notice, and a key the panel does not take says why."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard
from displays import seen, shown

OFF = ("B",) * 5  # the foul cycle to OFF: SCR WRNG RAIL CUE OFF


@pytest.fixture
def board(tmp_path) -> DeskBoard:
    return DeskBoard(tmp_path).boot()


def start(board: DeskBoard, game: str = "8ball", race: str = "3") -> None:
    while not board.app.menu.frame()[3].startswith(game.upper()):
        board.tap("C")
    board.tap(race, "#")
    board.tap("1", "1")  # PL 1 won the lag and breaks


def row(board: DeskBoard) -> str:
    return seen(board)[3]


def scores(board: DeskBoard) -> tuple[str, str]:
    return seen(board)[0].strip(" :'"), seen(board)[1].strip(" :'")


def solids_for_player_1(board: DeskBoard) -> None:
    board.tap("1", "A")  # the 1 on the break: the table stays open
    board.tap("2", "A")  # the 2 (an obvious shot: called) gives PL 1 the solids
    assert row(board) == "PL 1 SOL"


def solids_cleared(board: DeskBoard) -> None:
    solids_for_player_1(board)
    board.tap("3", "4", "5", "6", "7", "A")
    assert board.app.match.state.on_table == [8, 9, 10, 11, 12, 13, 14, 15]


# --- 8-ball: every end of a rack -------------------------------------------------------------

def lost_by_player_1(board: DeskBoard) -> None:
    assert scores(board) == ("0", "1")
    assert row(board) == "PL 2 BRK"  # the rack winner breaks the next
    assert board.app.match.state.rack == 2


def test_early_eight_at_an_open_table_loses_the_rack(board):
    start(board)
    board.tap("1", "A")
    board.tap("8")
    assert row(board) == "IN 8"
    board.tap("A")
    lost_by_player_1(board)
    assert board.app.match.log[-1]["call"] == {"ball": 8}


def test_early_eight_called_with_groups_set_loses_the_rack(board):
    start(board)
    solids_for_player_1(board)
    board.tap("8", "A")
    lost_by_player_1(board)


def test_eight_on_a_foul_loses_the_rack(board):
    start(board)
    solids_cleared(board)
    board.tap("B", "8", "A")
    lost_by_player_1(board)


def test_eight_in_the_wrong_pocket_loses_the_rack(board):
    start(board)
    solids_cleared(board)
    board.tap("8", "C", "C")
    assert row(board) == "8WRG 8"
    board.tap("A")
    lost_by_player_1(board)


def test_eight_not_called_and_not_accepted_loses_the_rack(board):
    start(board)
    solids_cleared(board)
    board.tap("8", "C", "C", "C")
    assert row(board) == "8UNC 8"
    board.tap("A")
    lost_by_player_1(board)
    assert "call" not in board.app.match.log[-1]


def test_eight_off_the_table_loses_the_rack(board):
    start(board)
    solids_for_player_1(board)
    board.tap(*OFF)
    board.tap("8")
    assert row(board) == "OUT 8"
    board.tap("A")
    lost_by_player_1(board)
    assert board.app.match.log[-1]["off"] == [8]


def test_eight_in_the_called_pocket_wins_the_rack(board):
    start(board)
    solids_cleared(board)
    board.tap("8", "A")
    assert scores(board) == ("1", "0")
    assert row(board) == "PL 1 BRK"


def test_eight_alone_on_the_break_is_a_rebreak(board):
    start(board)
    board.tap("8", "A")
    assert (scores(board), row(board), board.app.match.state.rack) == (("0", "0"), "PL 1 BRK", 1)


def test_eight_on_a_fouled_break_gives_the_choice_of_breaker(board):
    start(board)
    board.tap("B", "8", "A")
    assert row(board) == "PL 2 1 B"  # PL 2 1 BRK: who breaks the new rack
    board.tap("2")
    assert row(board) == "PL 2 BRK"


def test_eight_with_others_on_the_break_is_spotted_and_play_goes_on(board):
    start(board)
    board.tap("3", "8", "A")
    assert row(board) == "PL 1"
    assert 8 in board.app.match.state.on_table


def test_eight_off_the_table_on_the_break_is_spotted_and_fouls_the_break(board):
    start(board)
    board.tap(*OFF)
    board.tap("8", "A")
    assert 8 in board.app.match.state.on_table
    assert shown(board) == "PL 2 1 ACPT 2 BIH 3 RRCK"
    board.tap("2")  # ball in hand behind the head string
    assert row(board) == "PL 2 BIH"


def test_groups_show_for_each_shooter(board):
    start(board)
    solids_for_player_1(board)
    board.tap("A")  # a miss
    assert row(board) == "PL 2 STR"
    board.tap("B", "A")  # a scratch: ball in hand for PL 1
    assert shown(board) == "PL 1 SOL BIH"


# --- 9-ball ------------------------------------------------------------------------------------

def test_nine_ball_three_fouls_lose_the_rack(board):
    start(board, "9ball")
    board.tap("A")  # a dry break: PL 2
    for _ in range(2):
        board.tap("B", "A")  # PL 2 fouls
        board.tap("A")  # PL 1 misses
    assert shown(board) == "PL 2 WARN"
    board.tap("*", "B")  # the warning
    assert row(board) == "PL 2 2F"
    board.tap("B", "A")
    assert scores(board) == ("1", "0")
    assert row(board) == "PL 1 BRK"


def test_nine_on_a_foul_is_spotted(board):
    start(board, "9ball")
    board.tap("A")
    board.tap("B", "9", "A")
    assert 9 in board.app.match.state.on_table
    assert (scores(board), row(board)) == (("0", "0"), "PL 1 BIH")


def test_nine_on_a_fouled_break_is_spotted(board):
    start(board, "9ball")
    board.tap("B", "9", "A")
    assert 9 in board.app.match.state.on_table
    assert (scores(board), row(board)) == (("0", "0"), "PL 2 BIH")


# --- every game: concede and abandon ---------------------------------------------------------

def test_concede_the_rack_and_the_match(board):
    start(board, "9ball")
    board.tap("*", "1")  # PL 1 gives up the rack
    assert scores(board) == ("0", "1")
    board.tap("*", "#")
    assert shown(board) == "GIVE UP 1/2?"
    board.tap("2")  # PL 2 concedes the match
    assert row(board) == "PL 1 WON"
    assert board.app.match.state.finished


def test_abandon_files_the_match_away_unfinished(board):
    start(board, "9ball")
    board.tap("3", "A")
    board.hold("*")
    assert shown(board) == "ABANDON? # YES"
    board.tap("#")
    assert board.app.match is None
    assert row(board) == "ABANDONE"  # ABANDONED, then the menu
    board.run(3000)
    assert row(board) == "9BALL GO"
    (seq,) = board.app.store.finished()
    meta = board.app.store.meta(seq)
    assert meta["abandoned"] is True and meta["winner"] is None


def test_abandon_is_kept_by_any_other_key(board):
    start(board, "9ball")
    board.hold("*")
    board.tap("A")
    assert row(board) == "KEPT"
    assert board.app.match is not None and len(board.app.match.log) == 2  # lag, choice


# --- entries stay honest -----------------------------------------------------------------------

def test_an_entry_pending_at_a_concession_is_cleared_and_says_so(board):
    start(board, "9ball")
    board.tap("3", "5")
    assert row(board) == "IN 3 5"
    board.tap("*", "1")
    assert row(board) == "CLEARED"
    assert not board.app.panel.busy()
    board.run(3000)
    assert row(board) == "PL 2 BRK"
    board.tap("A")  # the dry break records nothing from the old entry
    assert "pocketed" not in board.app.match.log[-1]


def test_an_entry_pending_at_the_end_of_the_match_is_cleared(board):
    start(board, "9ball", race="1")
    board.tap("3", "*", "#")
    board.tap("1")  # PL 1 concedes the match with the 3 still entered
    assert row(board) == "CLEARED"
    assert not board.app.panel.busy()


def test_long_undo_with_an_entry_pending_clears_only_the_entry(board):
    start(board, "9ball")
    board.tap("A")  # a dry break
    events = len(board.app.match.log)
    board.tap("4", "B")
    board.hold("D")
    assert row(board) == "CLEARED"
    assert len(board.app.match.log) == events  # nothing undone
    board.run(3000)
    board.hold("D")  # nothing pending now: the long press undoes the break
    assert len(board.app.match.log) == events - 1
    assert row(board) == "PL 1 BRK"


def test_a_notice_gives_way_to_what_is_typed(board):
    start(board, "9ball")
    board.tap("A", "A", "C", "A")  # a push out after the first shot: refused
    assert row(board) == "NO PUSH"
    board.tap("3")
    assert row(board) == "IN 3"


def test_a_key_refused_while_typing_gives_the_entry_back_in_a_moment(board):
    start(board, "9ball")
    board.tap("3", "0")  # the 3 entered, then a ball 9-ball does not have
    assert row(board).startswith("NO BALL")
    board.run(1000)
    assert row(board) == "IN 3"


@pytest.mark.parametrize(("keys", "why"), [
    (("0",), "NO BALL"),  # 9-ball has no ball 0
    (("*", "7"), "NO *7"),
    (("*", "B"), "NO WARN"),
    (("#", "1"), "NO BALL"),  # the 1 went in: it is no longer on the table
])
def test_ignored_keys_say_why(board, keys, why):
    start(board, "9ball")
    for key in keys:
        board.tap(key)
    assert row(board).startswith(why)


def test_keys_ignored_at_the_lag_and_after_the_match_say_why(board):
    while not board.app.menu.frame()[3].startswith("9BALL"):
        board.tap("C")
    board.tap("1", "#")
    board.tap("5")
    assert row(board) == "KEY 1/2"
    board.tap("1", "1", "9", "A")  # the 9 on the break wins the race to 1
    board.tap("5")
    assert row(board) == "# = MENU"
    board.run(3000)
    board.tap("#")
    assert row(board) == "9BALL GO"
