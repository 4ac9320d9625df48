"""Kaisa on the desk board (CPython): the referee's keys in, the decoded displays out, the
events the panel gave the engine (firmware/referee_kaisa.py), and the game clock with its
buzzer cues (firmware/kaisa_face.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from desk_board import DeskBoard
from displays import last, seen, shown

from firmware import kaisa_face
from firmware.kaisa_face import Face
from firmware.referee_kaisa import Panel, flash
from rules_core.match import Match

MINUTE = 60 * 1000
DOC = Path(__file__).resolve().parents[2] / "docs" / "referee.md"


@pytest.fixture
def board() -> DeskBoard:
    desk = DeskBoard().boot()
    record(desk)
    return desk


def record(desk) -> None:
    """Keep every notice the app gives (refusals, the clock's cues) in desk.notices."""
    desk.notices = []
    notify = desk.app.notify

    def noted(text, now, quiet=False):
        desk.notices.append(text)
        notify(text, now, quiet)

    desk.app.notify = noted





def start(board, race: str = "20", clock: bool = False) -> None:
    """A Kaisa game from the menu; player 1 wins the lag and takes the one-dot ball."""
    board.tap("C", "C", "C")  # 9-ball, 8-ball, 14.1, Kaisa
    assert seen(board)[3] == "KAISA GO"
    if clock:
        board.tap("B")  # the menu's clock: Kaisa's game clock
    board.tap(*race)
    board.tap("#", "1", "1")


def play(board, steps) -> None:
    """Keys, then the displays once the shot's points have been shown (the whole message
    for one that scrolls)."""
    for keys, expected in steps:
        board.tap(*keys)
        board.run(6000)  # the shot's points (a reason scrolls)
        now = seen(board)[:3] + (shown(board),)
        assert now == expected, (keys, now)


def tones(board) -> int:
    return len(board.pwm.log)


# --- the panel, the lag, the displays ----------------------------------------------------

def test_the_board_loads_the_kaisa_panel_only_for_a_kaisa_match(board):
    board.tap("2", "#", "1", "1")  # a 9-ball match
    assert type(board.app.panel).__module__ == "firmware.referee"
    assert board.app.game_clock is None
    board.tap("*", "1", "*", "1", "#")  # PL 1 concedes two racks: the match is over
    start(board)
    assert isinstance(board.app.panel, Panel)
    assert isinstance(board.app.game_clock, Face)
    assert board.app.game_clock.clock is None  # the menu's clock was off


def test_the_lag_and_the_choice_of_cue_ball(board):
    board.tap("C", "C", "C", "2", "0", "#")
    assert seen(board) == ("   0", "   0", " -20", "LAG 1/2?")
    board.tap("2")  # PL 2 won the lag
    assert shown(board) == "PL 2 1 1DOT 2 2DOT"
    board.tap("2")  # ... and takes the two-dot ball: PL 1 opens with the one-dot
    assert last(board) == {"t": "choose", "choice": "two_dot"}
    assert seen(board) == ("   0", "   0", " -20", "PL 1 1D")
    board.tap("A")  # the opening shot misses
    assert seen(board) == ("   0", "   0", " -20", "PL 2 2D")


def test_race_below_ten_is_refused_in_the_menu(board):
    board.tap("C", "C", "C", "9", "#")
    assert board.app.match is None
    assert "10 or more" in board.notices[-1]


# --- every entry of the point table through the keys -------------------------------------

TABLE = [
    # keys (nakki first, the pocket key records), points, the message row's flash
    ("1", 2, "WHT 2"), ("81", 4, "WHT+R 4"), ("881", 7, "WHT+RR 7"), ("91", 7, "WHT+K 7"),
    ("981", 10, "WHT+KR 10"), ("9881", 13, "WHT+KRR 13"),
    ("2", 3, "RED 3"), ("72", 5, "RED+W 5"), ("82", 6, "RED+R 6"), ("782", 8, "RED+RW 8"),
    ("92", 9, "RED+K 9"), ("972", 11, "RED+KW 11"), ("982", 12, "RED+KR 12"),
    ("9872", 14, "RED+KRW 14"),
    ("3", 6, "KAISA 6"), ("73", 8, "KAISA+W 8"), ("83", 9, "KAISA+R 9"),
    ("883", 12, "KAISA+RR 12"), ("783", 11, "KAISA+RW 11"), ("7883", 14, "KAISA+RRW 14"),
    # the middle pockets (the defaults equal the corners), ways and other balls
    ("5", 3, "RED M 3"), ("6", 6, "KAISA M 6"), ("86", 9, "KAISA M+R 9"),
    ("C2", 3, "RED 3"), ("CC2", 3, "RED 3"), ("CCC6", 6, "KAISA M 6"),
    ("CC86", 6, "KAISA M 6"),  # a kaisa into the middle by kyyti: only 6, no nakki
    ("CCCC3", 6, "KAISA 6"),  # off a ball
    ("052", 6, "RED 6"),  # the other red fell in the middle too: + 3
    ("042", 5, "RED 5"),  # the opponent's white fell in the middle too: + 2
]


def _opened(panel_keys: str = "A") -> tuple[Match, Panel]:
    match = Match({"game": "kaisa", "players": ["Aino", "Eero"], "race_to": 60,
                   "breaker": 0})
    panel = Panel(match)
    for key in panel_keys:  # the opening shot (ball-in-hand rules) misses
        match.apply(panel.press(key))
    return match, panel


@pytest.mark.parametrize(("keys", "points", "text"), TABLE, ids=[t[0] for t in TABLE])
def test_each_point_table_entry_from_the_keys(keys, points, text):
    match, panel = _opened()
    action = None
    for key in keys:
        assert action is None  # only the last key records
        action = panel.press(key)
    match.apply(action)
    assert match.state.score == [0, points], match.state.last
    assert flash(action, match.state) == text


def test_what_the_keys_send(board):
    match, panel = _opened()
    events = []
    for keys in ("92", "CCC876", "052", "005A", "B8", "BA", "BBBB2A", "CCCCCC1"):
        action = None
        for key in keys:
            action = panel.press(key)
        events.append(action)
    assert events == [
        {"t": "shot", "call": "red", "pocket": "corner", "corner": ["red"],
         "nakki": ["kaisa"]},
        {"t": "shot", "call": "kaisa", "pocket": "middle", "middle": ["kaisa"], "way": "kyyti",
         "cushion": True, "nakki": ["red", "white"]},
        {"t": "shot", "call": "red", "pocket": "corner", "corner": ["red"], "middle": ["red"]},
        {"t": "shot", "off": ["red"]},
        {"t": "shot", "foul": "cue_in", "first": "red"},
        {"t": "shot", "foul": "cue_in", "first": "none"},
        {"t": "shot", "foul": "push", "corner": ["red"]},  # no HAND: not in hand
        {"t": "shot", "call": "white", "pocket": "corner", "corner": ["white"],
         "as_called": False},
    ]


# --- a short game through the keypad ------------------------------------------------------

def test_a_short_game_to_twenty_through_the_keypad(board):
    start(board)
    play(board, [
        ("A", ("   0", "   0", " -20", "PL 2 2D")),  # the opening shot misses
        ("92", ("   0", "   9", " -20", "PL 2 2D")),  # red + nakki kaisa: 9, PL 2 goes on
        ("A", ("   0", "   9", " -20", "PL 1 1D")),
        ("3", ("   6", "   9", " -20", "PL 1 1D")),  # the kaisa into a corner
        ("81", ("  10", "   9", " -20", "PL 1 1D")),  # white + nakki red
        ("B8", ("   7", "   9", " -20", "PL 2 BIH")),  # scratch, first contact red: -3
        ("2", ("   7", "  12", " -20", "PL 2 2D")),  # from hand, into a corner: scores
        ("A", ("   7", "  12", " -20", "PL 1 BIH")),
        ("6", ("   7", "  12", " -20", "PL 2 2D")),  # from hand straight into the middle: 0
        ("982", ("   7", "  24", " -20", "PL 2 WON 7-20")),  # 12 more: over; recorded: 20
    ])
    assert board.app.match.state.result == [7, 20]
    board.tap("#")
    assert seen(board)[3] == "KAISA GO"  # the menu


def test_the_shot_points_show_for_a_moment(board):
    start(board)
    board.tap("A", "9", "2")
    assert seen(board)[3] == "RED+K 9"
    board.run(2600)
    assert seen(board)[3] == "PL 2 2D"
    board.tap("8", "8")  # entering: nakki on both reds
    assert seen(board)[3] == "NK RR"
    board.tap("1")
    assert seen(board)[3] == "WHT+RR 7"


def test_what_the_row_shows_while_entering(board):
    start(board)
    board.tap("A")
    for keys, text in (("C", "CUSH"), ("C", "KYYT"), ("C", "KYYT+C"), ("9", "KYYT+C NK K"),
                       ("0", "KYYT+C NK K +?"), ("5", "KYYT+C NK K +RM"),
                       ("00", "KYYT+C NK K +RM OUT?"), ("8", "KYYT+C NK K +RM OUT R")):
        board.tap(*keys)
        assert seen(board)[3] == text[:8] and shown(board) == text
    board.tap("D")
    assert seen(board)[3] == "PL 2 2D"
    board.tap("B")
    assert seen(board)[3] == "FSCR"
    board.tap("B")
    assert seen(board)[3] == "FCOFF"  # no HAND: the cue ball is on the table
    for _ in range(3):
        board.tap("B")
    assert seen(board)[3] == "JUMP"  # no foul: the pot does not score


# --- fouls and the end rules ---------------------------------------------------------------

def test_fouls_by_first_contact_and_the_kinds(board):
    start(board, "60")
    board.tap("A")  # PL 2 to the table
    board.tap("B", "9")  # scratch after hitting the kaisa first: -6
    assert seen(board)[:2] == ("   0", "  -6")
    assert last(board) == {"t": "shot", "foul": "cue_in", "first": "kaisa"}
    board.run(2600)
    assert seen(board)[3] == "PL 1 BIH"
    board.tap("B", "B")  # from hand the HAND foul comes second
    assert seen(board)[3] == "FHAND"
    board.tap("A")
    assert last(board) == {"t": "shot", "foul": "hand"}
    assert seen(board)[3] == "FHAND 0"
    board.tap("B", "B", "B", "7")  # PL 2 (in hand): the cue ball off the table, first the white
    assert last(board) == {"t": "shot", "foul": "cue_off", "first": "white"}
    assert seen(board)[:2] == ("   0", "  -8")
    board.tap("B", "B", "B", "B", "B", "B", "B", "2", "A")  # mankeli: the red does not count
    assert last(board) == {"t": "shot", "foul": "mankeli", "corner": ["red"]}
    assert seen(board)[3] == "MANK 0"
    state = board.app.match.state
    assert state.stats[0]["fouls"] == 1 and state.stats[1]["fouls"] == 2


def test_a_white_without_nakki_does_not_end_the_game_and_the_loser_is_capped(board):
    start(board)
    board.tap("*", "A", "2", "1", "8", "#")  # PL 2's score set to 18
    board.tap("A")  # the opening shot: PL 2 to the table
    board.tap("1")  # white alone: 20, the game does not end
    assert board.app.match.state.finished is False
    board.tap("1")  # illegal now: the white is in hand
    board.run(2600)
    board.hold("D")  # (undone: the refusal changed nothing, the undo takes the 20)
    assert seen(board)[:2] == ("   0", "  18")
    board.tap("*", "D")
    assert seen(board)[:2] == ("   0", "  20")


def test_two_points_on_nineteen_and_the_recorded_result(board):
    start(board)
    board.tap("*", "A", "2", "1", "9", "#")  # PL 2 on 19
    board.tap("A", "1")  # a white without nakki on 19: +2, the turn passes
    board.run(2600)
    assert seen(board) == ("   0", "  21", " -20", "PL 1 BIH")  # his white was potted
    assert board.app.match.state.last["why"] == "white without nakki on 19: +2"
    board.tap("*", "A", "1", "1", "9", "#", "2")  # PL 1 on 19 pots a red: over
    assert board.app.match.state.result == [20, 20]  # the loser at most the race
    board.run(2600)
    assert shown(board) == "PL 1 WON 20-20"


def test_a_refused_shot_shows_why_and_changes_nothing(board):
    start(board)
    board.tap("A")
    before = board.app.match.state.to_dict()
    board.tap("8", "8", "2")  # a red called, nakki on two reds: there is one other
    assert board.app.match.state.to_dict() == before
    assert seen(board)[3] == "BAD BALL"
    board.run(3000)
    assert seen(board)[3] == "PL 2 2D"
    board.tap("7", "A")  # nakki without a pot
    assert board.app.match.state.to_dict() == before
    assert "nakki" in board.notices[-1]


def test_long_press_undoes_and_star_d_redoes(board):
    start(board)
    board.tap("A", "9", "2")
    assert seen(board)[1] == "   9"
    board.hold("D")
    board.run(2000)  # the shot's points were still up
    assert seen(board)[1:] == ("   0", " -20", "PL 2 2D")
    board.tap("*", "D")
    assert seen(board)[1] == "   9"


def test_corrections_from_the_panel(board):
    start(board)
    board.tap("*", "A", "1", "1", "2", "C")
    assert seen(board)[3] == "SET P1 -"
    board.tap("#")
    assert seen(board)[0] == " -12"
    board.tap("*", "B")  # ball in hand for the shooter
    assert seen(board)[3] == "PL 1 BIH"
    board.tap("*", "0")  # the other player to the table
    assert seen(board)[3] == "PL 2 2D"
    assert last(board) == {"t": "adjust", "reason": "shooter corrected on the panel",
                           "shooter": 1}
    board.tap("*", "#")  # time is up (the referee's clock)
    assert board.app.match.state.phase == "final"
    assert seen(board)[2] == "F2-2"  # the two-dot player's inning in progress is not counted
    board.tap("*", "3", "1", "1", "#")
    assert seen(board)[2] == "F1-2"
    board.tap("*", "2")  # PL 2 concedes
    assert board.app.match.state.result == [20, 0]


# --- the game clock -------------------------------------------------------------------

def test_the_game_clock_runs_from_the_end_of_the_lag(board):
    board.tap("C", "C", "C", "B")
    assert seen(board)[2] == " r:60"  # the colon: the game clock will run
    board.tap("#")
    assert seen(board) == ("   0", "   0", "60:00", "LAG 1/2?")
    board.run(5000)
    assert seen(board)[2] == "60:00"  # not before the lag is settled
    board.tap("1", "1")
    board.run(61000)
    assert seen(board)[2] == "58:59"
    board.hold("D")
    board.hold("D")  # back before the lag: the clock starts over
    assert seen(board)[2] == "60:00"


def test_a_break_pauses_the_game_clock_and_counts_down_its_own(board):
    start(board, clock=True)
    board.run(10000)
    assert seen(board)[2] == "59:50"
    board.tap("*", "C")
    assert seen(board)[3] == "BREAK 1/"
    board.tap("2")  # PL 2's break
    assert seen(board)[2] == "b5:00" and shown(board) == "PL 2 BREAK"
    board.run(60000)
    assert seen(board)[2] == "b4:00"
    board.tap("C")  # the break ends: the game clock goes on where it was
    assert seen(board)[2] == "59:50"
    assert seen(board)[3] == "PL 1 1D"
    board.tap("*", "C", "2")  # one break each
    assert board.notices[-1] == "each player has one break"
    board.tap("*", "C", "1")  # PL 1's break runs out by itself after 5 minutes
    board.run(5 * MINUTE - 2000)
    assert seen(board)[2] in ("b0:02", "b0:01")
    count = tones(board)
    board.run(2000)
    assert tones(board) > count
    assert seen(board)[2:] == ("59:49", "BREAK OV")  # the game clock runs again


def test_five_minutes_left_and_time_up_enter_the_final_innings(board):
    start(board, clock=True)
    board.tap("A")  # the opening shot: PL 2 to the table
    board.run(55 * MINUTE - 3000, tick=1000)
    assert seen(board)[2] in (" 5:02", " 5:03")
    count = tones(board)
    board.run(3000)
    assert tones(board) > count  # the warning
    assert seen(board)[2:] == (" 5:00", "5 MIN LE")
    board.tap("2")  # PL 2 pots a red: his inning goes on
    board.run(5 * MINUTE - 3000, tick=1000)
    count = tones(board)
    board.run(3000)
    assert tones(board) > count
    assert last(board) == {"t": "time_up"}
    state = board.app.match.state
    assert (state.phase, state.left) == ("final", [2, 2])  # the two-dot player's inning
    assert seen(board)[2:] == ("F2-2", "TIME UP")  # ... in progress does not count
    board.run(2600)
    assert seen(board) == ("   0", "   3", "F2-2", "PL 2 2D")
    # Two final innings each, the two-dot player last; then the shootout.
    for keys, clock in (("A", "F1-2"), ("A", "F1-1"), ("A", "F0-1"), ("A", "F0-0")):
        board.tap(*keys)
        assert seen(board)[2] == clock
    board.tap("A")  # PL 2's last final inning misses: nobody won, the shootout
    assert (state := board.app.match.state).phase == "shootout"
    assert seen(board)[2] == "1010" and shown(board) == "SHOOTOUT LAG 1/2?"
    board.tap("2")  # PL 2 won the shootout's lag
    assert shown(board) == "PL 2 1 1ST 2 2ND"
    board.tap("1")  # ... and shoots first
    board.run(2600)
    assert seen(board) == ("   0", "   3", "10-9", "PL 2 SO")
    board.tap("3")  # the kaisa from the centre into a corner: +6, the inning goes on
    board.tap("6")  # then into the middle: the table's 6
    board.tap("B", "9")  # own white pocketed via the kaisa: -6
    board.run(2600)
    assert seen(board) == ("   0", "   9", " 9-9", "PL 1 SO")
    board.tap("B")
    assert seen(board)[3] == "FSCR"
    board.tap("B")
    assert seen(board)[3] == "FSTOP"  # the shootout's own penalty
    board.tap("D")
    board.tap("*", "A", "2", "1", "8", "#", "A", "3")  # PL 2 on 18: +6 wins at once
    assert board.app.match.state.result == [0, 20]


def test_time_up_waits_for_a_shooter_and_comes_back_after_an_undo(board):
    start(board, clock=True)
    board.run(60 * MINUTE, tick=1000)
    assert last(board) == {"t": "time_up"}
    board.hold("D")  # the referee undoes it to correct the shot before ...
    assert board.app.match.state.phase == "play"
    board.tap("A")  # ... and enters it again: time is still up
    assert last(board) == {"t": "time_up"}
    assert board.app.match.state.phase == "final"


# --- a power cut ---------------------------------------------------------------------

def test_the_game_clock_survives_a_power_cut(tmp_path):
    desk = DeskBoard(tmp_path).boot()  # its journal in tmp_path/journal
    start(desk, clock=True)
    desk.tap("A", "9", "2")
    desk.run(10 * MINUTE + 2500, tick=500)
    before = seen(desk)
    assert before[:2] == ("   0", "   9") and before[2] in ("49:57", "49:58")
    # The power goes: a new board on the same flash; its ticks start again from 0.
    again = DeskBoard(tmp_path)
    again.now = 10 ** 7  # the board's ticks are not those of before the cut
    again.boot()
    after = seen(again)
    assert after[:2] == before[:2] and after[3] == "PL 2 2D"
    left = lambda text: int(text[:2]) * 60 + int(text[3:])  # noqa: E731
    assert 0 <= left(after[2]) - left(before[2]) <= kaisa_face.SAVE_QUIET_MS // 1000
    again.tap("*", "C", "1")  # a break survives too
    again.run(30000)
    third = DeskBoard(tmp_path).boot()
    left_of_break = int(seen(third)[2][1]) * 60 + int(seen(third)[2][3:])  # bM:SS
    assert 270 <= left_of_break <= 270 + kaisa_face.SAVE_QUIET_MS // 1000
    assert shown(third) == "PL 1 BREAK"
    # Leaving the result removes the clock's file.
    third.tap("C", "*", "2", "#")
    assert not (tmp_path / "journal" / kaisa_face.FILE).exists()


def test_a_clock_file_of_another_match_is_ignored(tmp_path):
    root = tmp_path / "journal"
    desk = DeskBoard(tmp_path).boot()
    (root / kaisa_face.FILE).write_text('{"seq": 99}')
    start(desk, clock=True)
    assert seen(desk)[2] == "60:00"


# --- the docs' press counts ------------------------------------------------------------

COMMON = [  # the ten most common shots: keys, the event's facts
    ("2", {"call": "red", "corner": ["red"]}),
    ("A", {}),
    ("3", {"call": "kaisa", "corner": ["kaisa"]}),
    ("72", {"call": "red", "nakki": ["white"]}),
    ("82", {"call": "red", "nakki": ["red"]}),
    ("92", {"call": "red", "nakki": ["kaisa"]}),
    ("81", {"call": "white", "nakki": ["red"]}),
    ("1", {"call": "white", "corner": ["white"]}),
    ("5", {"call": "red", "middle": ["red"]}),
    ("B8", {"foul": "cue_in", "first": "red"}),
]


@pytest.mark.parametrize(("keys", "facts"), COMMON, ids=[c[0] for c in COMMON])
def test_the_common_shots_take_the_presses_the_docs_say(keys, facts):
    match, panel = _opened()
    action = None
    for key in keys:
        action = panel.press(key)
    for field in facts:
        assert action[field] == facts[field]
    match.apply(action)
    kaisa = DOC.read_text().split("\n## Kaisa")[1].split("\n## ")[0]
    row = [line for line in kaisa.splitlines()
           if line.startswith("| ") and " ".join("`%s`" % k for k in keys) + " |" in line
           and line.endswith("| %d |" % len(keys))]
    assert row, keys
