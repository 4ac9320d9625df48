"""14.1 continuous on the desk board (CPython): the referee's keys in, the decoded displays
out, and the events the panel gave the engine (firmware/referee_straight.py)."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard
from displays import last, seen, shown

from firmware.referee_straight import Panel
from rules_core.match import Match


@pytest.fixture
def board() -> DeskBoard:
    desk = DeskBoard().boot()
    return desk





def start(board, race: str = "10", breaker: str = "1") -> None:
    board.tap("C", "C")  # 9-ball, 8-ball, 14.1
    assert seen(board)[3] == "14.1 GO"
    board.tap(*race)
    board.tap("#")
    board.tap("1", breaker)  # PL 1 won the lag and gives the break to `breaker`


def keys(board, text: str) -> None:
    board.tap(*text)


def test_the_board_loads_the_straight_panel_only_for_a_straight_match(board):
    board.tap("2", "#", "1", "1")  # a 9-ball match
    assert type(board.app.panel).__module__ == "firmware.referee"
    board.tap("*", "1", "*", "1", "#")  # PL 1 concedes two racks: the match is over
    start(board)
    assert isinstance(board.app.panel, Panel)


def test_the_opening_break_and_the_balls_left_on_the_clock_display(board):
    board.tap("C", "C", "1", "0", "#")
    assert seen(board) == ("   0", "   0", " -10", "LAG 1/2?")  # the race before the break
    board.tap("1", "1")
    assert seen(board) == ("   0", "   0", "b 15", "PL 1 BRK")


def test_a_legal_safety_break_passes_the_turn(board):
    start(board)
    keys(board, "A")
    assert seen(board) == ("   0", "   0", "b 15", "PL 2")
    assert last(board) == {"t": "shot", "break": "safety", "cushions": 2, "cue_cushion": True}


def test_a_failed_safety_break_and_the_rebreak_choice(board):
    start(board)
    keys(board, "B")
    assert seen(board)[3] == "FAIL"
    keys(board, "A")
    assert seen(board)[:3] == ("  -2", "   0", "b 15")
    assert shown(board) == "PL 2 1 ACPT 2 RBRK"  # it scrolls
    assert last(board) == {"t": "shot", "break": "safety", "foul": "bad_break"}
    keys(board, "2")  # PL 2 demands the re-break
    assert seen(board) == ("  -2", "   0", "b 15", "PL 1 BRK")
    keys(board, "BA1")  # failed again; PL 2 accepts the table
    assert seen(board) == ("  -4", "   0", "b 15", "PL 2")


def test_a_called_break_made_then_pots_and_the_run(board):
    start(board)
    keys(board, "#")  # the called ball went in: one press
    assert seen(board) == ("   1", "   0", "b 14", "PL 1 1")
    assert last(board) == {"t": "shot", "break": "called", "call": {"ball": 1},
                           "pocketed": [1]}
    keys(board, "#")
    assert last(board) == {"t": "shot", "pocketed": [2]}  # no call: the referee accepted it
    keys(board, "3")
    assert seen(board)[3] == "IN 3"
    keys(board, "#")  # a combination: three balls, all score
    assert seen(board) == ("   5", "   0", "b 10", "PL 1 5")
    keys(board, "A")  # a miss: the run ends
    assert seen(board) == ("   5", "   0", "b 10", "PL 2")
    assert board.app.match.state.runs[0] == {"current": 0, "high": 5}


def test_a_called_break_failed_as_a_miss_and_as_a_foul(board):
    start(board)
    keys(board, "C")
    assert seen(board)[3] == "CALL"
    keys(board, "A")  # the called ball missed, the break legal: a plain miss
    assert seen(board) == ("   0", "   0", "b 15", "PL 2")
    assert last(board) == {"t": "shot", "break": "called", "call": {"ball": 1},
                           "cushions": 2, "cue_cushion": True}
    board.hold("D")  # undo
    keys(board, "CBA")  # a failed called break: -2 and the choice
    assert seen(board)[:2] == ("  -2", "   0")
    assert shown(board) == "PL 2 1 ACPT 2 RBRK"
    assert last(board) == {"t": "shot", "break": "called", "call": {"ball": 1},
                           "foul": "bad_break"}


def test_fouls_on_the_break(board):
    start(board)
    keys(board, "BB")
    assert seen(board)[3] == "FSCR"  # a scratch on an otherwise legal break
    keys(board, "A")
    assert seen(board) == ("  -1", "   0", "b 15", "PL 2 BIH")
    board.hold("D")
    keys(board, "BBB")
    assert shown(board) == "FAIL FSCR"  # a scratch on a failed break (seed: -1 -2)
    keys(board, "A")
    assert seen(board)[:2] == ("  -3", "   0")
    assert last(board) == {"t": "shot", "break": "safety", "foul": "scratch", "cushions": 0,
                           "cue_cushion": False}
    assert board.app.match.state.pending_option == {"player": 1,
                                                    "choices": ["accept", "rebreak"]}


def test_a_miss_with_balls_down_spots_them_and_a_safety(board):
    start(board)
    keys(board, "#")
    keys(board, "2A")  # two balls fell, not the called one
    assert seen(board) == ("   1", "   0", "b 14", "PL 2")
    assert last(board) == {"t": "shot", "pocketed": [2, 3], "call": {"ball": 4}}
    keys(board, "CA")  # PL 2 plays safe
    assert seen(board) == ("   1", "   0", "b 14", "PL 1")
    assert last(board) == {"t": "shot", "safety": True}


def test_three_fouls_with_the_warning(board):
    start(board)
    keys(board, "A")  # a legal safety break
    keys(board, "BA")  # PL 2 scratches
    assert seen(board) == ("   0", "  -1", "b 15", "PL 1 BIH")
    keys(board, "A")  # PL 1 misses
    assert seen(board)[3] == "PL 2 1F"
    keys(board, "BBA")  # PL 2: no rail
    assert seen(board)[1] == "  -2"
    keys(board, "A")
    assert shown(board) == "PL 2 WARN"  # it scrolls
    keys(board, "*B")  # the warning
    assert seen(board)[3] == "PL 2 2F"
    keys(board, "BA")  # the third foul: -1 -15
    assert seen(board)[:2] == ("   0", " -18")
    assert shown(board) == "PL 1 1 ACPT 2 RBRK"
    keys(board, "2")  # PL 1 makes PL 2 break again
    assert seen(board) == ("   0", " -18", "b 15", "PL 2 BRK")


def test_a_continuation_rack_tells_the_referee_where_the_balls_go(board):
    start(board, race="30")
    keys(board, "#9#3#")  # 13 balls down
    assert seen(board) == ("  13", "   0", "b  2", "PL 1 13")
    keys(board, "#")  # the 14th
    assert seen(board)[2] == "b  1"
    assert shown(board) == "RACK DUE 15? 1 RACK 2 HEAD 3 BHND # ELSE"
    keys(board, "1")  # the 15th ball lies in the rack area
    assert shown(board) == "15 RACK, CUE? 1 RACK 2 HEAD 3 BHND # ELSE"
    keys(board, "#")  # the cue ball elsewhere
    assert last(board) == {"t": "rack", "ball15": "rack", "cue": "elsewhere"}
    assert seen(board)[2] == "b 15"
    assert shown(board) == "RACK 14, 15 HEAD SPOT"
    keys(board, "#")  # the next shot: the instruction is gone, the run goes on
    assert seen(board) == ("  15", "   0", "b 14", "PL 1 15")


def test_continuation_racks_in_one_press_and_with_the_cue_ball_in_the_way(board):
    start(board, race="60")
    keys(board, "#9#4#")  # 14 balls down
    keys(board, "#")  # neither ball in the way: one press
    assert last(board) == {"t": "rack", "ball15": "elsewhere", "cue": "elsewhere"}
    assert shown(board) == "RACK 14"
    keys(board, "9#4##")
    keys(board, "31")  # the 15th behind the head string, the cue ball in the rack area
    assert shown(board) == "RACK 14, CUE HEAD SPOT"
    keys(board, "9#4#2#")  # the 14th and the 15th together
    assert shown(board) == "RACK DUE CUE? 1 RACK 2 HEAD 3 BHND # ELSE"
    keys(board, "1")
    assert last(board) == {"t": "rack", "cue": "rack"}
    assert shown(board) == "RACK 15, CUE BEHIND"
    assert seen(board)[:3] == ("  43", "   0", "b 15")


def test_refusals_change_nothing(board):
    start(board)
    keys(board, "A")
    before = board.app.match.state.to_dict()
    keys(board, "B" * 11)  # to "head string": there is no ball in hand behind it
    assert seen(board)[3] == "FHEAD"
    keys(board, "A")
    assert seen(board)[3] == "BAD FOUL"
    assert board.app.match.state.to_dict() == before
    board.run(3000)
    assert seen(board) == ("   0", "   0", "b 15", "PL 2")
    keys(board, "*B")  # no one to warn: nothing happens
    assert board.app.match.state.to_dict() == before
    keys(board, "*C")  # no shot clock
    assert seen(board)[3] == "NO EXT"


def test_undo_and_redo(board):
    start(board)
    keys(board, "#2#")
    assert seen(board)[:3] == ("   3", "   0", "b 12")
    board.hold("D")
    assert seen(board) == ("   1", "   0", "b 14", "PL 1 1")
    board.hold("D")
    assert seen(board) == ("   0", "   0", "b 15", "PL 1 BRK")
    keys(board, "*D")
    assert seen(board) == ("   1", "   0", "b 14", "PL 1 1")


def test_a_score_correction_may_go_below_zero(board):
    start(board)
    keys(board, "*A2")
    keys(board, "C12")
    assert shown(board) == "SET P2 -12"
    keys(board, "#")
    assert seen(board)[:2] == ("   0", " -12")
    assert last(board)["score"] == [0, -12]


def test_the_race_is_won_and_a_concession(board):
    start(board)
    keys(board, "#9#")
    assert seen(board) == ("  10", "   0", "b  5", "PL 1 WON")
    board.hold("D")  # the last shot can still be undone
    assert seen(board)[3] == "PL 1 1"
    keys(board, "*2")  # PL 2 concedes the match
    assert seen(board)[3] == "PL 1 WON"
    assert last(board) == {"t": "concede", "player": 1}
    keys(board, "#")
    assert seen(board)[3] == "14.1 GO"


def test_the_panel_alone():
    match = Match({"game": "14.1", "players": ["Anna", "Ben"], "race_to": 20, "breaker": 0})
    panel = Panel(match)
    for _ in range(21):  # on the break: FAIL, then each kind on a legal and a failed break
        panel.press("B")
    assert panel.entry_text() == "FAIL FHEAD"
    panel.press("B")
    assert panel.entry_text() == "FAIL"
    panel.press("D")
    assert panel.press("7") is None and panel.entry_text() == "IN 7"
    panel.press("0")
    assert not panel.busy() and panel.entry_text() is None
    event = panel.press("#")
    assert event == {"t": "shot", "break": "called", "call": {"ball": 1}, "pocketed": [1]}
    match.apply(event)
    match.apply({"t": "shot", "pocketed": list(range(2, 13))})
    assert match.state.on_table == [13, 14, 15]
    panel.press("4")  # more balls than the table holds: not taken
    assert panel.entry_text() is None
    panel.press("3")  # all three fell, none of them the called one in its pocket
    assert panel.press("A") == {"t": "shot", "pocketed": [13, 14, 15], "call": {"ball": 13},
                                "wrong_pocket": True}
