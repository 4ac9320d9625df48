"""9-ball (rules_core/nineball.py, docs/games/nine-ball.md) step by step through Match.apply,
with every note and the words of each refusal: the break's cushions, the push out and what
it excuses, fouls the engine sees in the facts, the 9 spotted after a foul or a push, and the
fouls the referee may call only when they can happen."""

from __future__ import annotations

import pytest
from steps import step

from rules_core.match import Match

NINE = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 3, "breaker": 0}
BROKEN = {"t": "shot", "first": 1, "pocketed": [2]}  # Anna breaks and pockets the 2


def after_break(**rules) -> Match:
    m = Match(dict(NINE, rules=rules))
    step(m, BROKEN, ["continue"], push_out_allowed=True, shooter=0)
    return m


@pytest.mark.parametrize("needed, cushions, notes", [
    (1, 1, ["turn:1"]), (1, 0, ["foul:bad_break", "turn:1"]),
    (3, 3, ["turn:1"]), (3, 2, ["foul:bad_break", "turn:1"]),
    (4, 4, ["turn:1"]), (4, 3, ["foul:bad_break", "turn:1"]),
])
def test_a_dry_break_must_drive_the_clubs_number_of_balls_to_cushions(needed, cushions, notes):
    m = Match(dict(NINE, rules={"break_cushions": needed}))
    foul = len(notes) > 1
    step(m, {"t": "shot", "first": 1, "cushions": cushions}, notes, shooter=1,
         ball_in_hand="anywhere" if foul else None, push_out_allowed=not foul,
         fouls_in_a_row=[1, 0] if foul else [0, 0])


def test_cushions_are_counted_on_the_break_only_and_a_failed_break_called_only_there():
    m = Match(NINE)
    step(m, {"t": "shot", "first": 1, "foul": "bad_break"}, ["foul:bad_break", "turn:1"])
    m = after_break()
    step(m, {"t": "shot", "first": 1, "cushions": 3},
         refused=("bad_field", "'cushions' is only counted on the break"))
    step(m, {"t": "shot", "first": 1, "foul": "bad_break"},
         refused=("bad_foul", "a failed break is only called on the break"))


def test_a_head_string_foul_needs_ball_in_hand_behind_it():
    m = after_break()
    step(m, {"t": "shot", "first": 1, "foul": "head_string"},
         refused=("bad_foul", "no head string foul: ball in hand is not behind the head string"))
    step(m, {"t": "adjust", "reason": "the referee's ruling", "ball_in_hand": "behind_head"},
         ["adjusted"])
    step(m, {"t": "shot", "first": 1, "foul": "head_string"}, ["foul:head_string", "turn:1"],
         ball_in_hand="anywhere")


@pytest.mark.parametrize("kind", ["wrong_ball", "no_hit", "no_rail"])
def test_a_push_out_needs_no_contact_and_no_cushion(kind):
    m = after_break()
    step(m, {"t": "shot", "first": 3, "push": True, "foul": kind},
         refused=("bad_foul", "a push out needs no contact and no cushion: '%s' is no foul"
                  % kind))


def test_the_push_out_its_option_and_the_nine_spotted():
    m = after_break()
    step(m, {"t": "shot", "first": 3, "push": True, "pocketed": [9], "rail": False},
         ["spot:9", "push", "turn:1", "option:1:play/pass"], on_table=[1, 3, 4, 5, 6, 7, 8, 9],
         push_out_allowed=False, fouls_in_a_row=[0, 0], ball_in_hand=None)
    step(m, {"t": "choose", "choice": "play"}, ["chose:play"], shooter=1)
    step(m, {"t": "shot", "first": 4, "push": True},
         refused=("no_push", "a push out is only allowed on the first shot after a legal break"))
    m = after_break()
    step(m, {"t": "shot", "first": 3, "push": True, "foul": "scratch"},
         ["foul:scratch", "turn:1"], ball_in_hand="anywhere", pending_option=None)


def test_fouls_the_engine_sees_in_the_facts():
    m = after_break()
    step(m, {"t": "shot", "first": 3}, ["foul:wrong_ball", "turn:1"], fouls_in_a_row=[1, 0])
    step(m, {"t": "shot", "first": 0}, ["foul:no_hit", "turn:0"], fouls_in_a_row=[1, 1])
    step(m, {"t": "shot", "first": 1, "rail": False}, ["foul:no_rail", "turn:1"],
         fouls_in_a_row=[2, 1])
    step(m, {"t": "shot", "first": 1, "rail": False, "pocketed": [1]}, ["continue"],
         fouls_in_a_row=[2, 0], ball_in_hand=None)  # a ball pocketed: no rail needed
    step(m, {"t": "shot", "first": 3, "off": [3]}, ["foul:ball_off", "turn:0"],
         on_table=[4, 5, 6, 7, 8, 9])
    step(m, {"t": "shot", "first": 4, "rail": "no"},
         refused=("bad_field", "'rail' must be true or false"))
    step(m, {"t": "shot", "first": 4, "pocketed": [5], "off": [5]},
         refused=("bad_ball", "ball 5 cannot be both pocketed and off the table"))
    step(m, {"t": "shot", "first": 3},
         refused=("bad_ball", "ball 3 is not on the table: it cannot be hit first"))


def test_the_nine_on_a_foul_comes_back_and_the_rack_goes_on():
    m = after_break()
    step(m, {"t": "shot", "first": 1, "pocketed": [9], "foul": "scratch"},
         ["spot:9", "foul:scratch", "turn:1"], on_table=[1, 3, 4, 5, 6, 7, 8, 9], score=[0, 0])
    step(m, {"t": "shot", "first": 3, "off": [9]}, ["spot:9", "foul:ball_off", "turn:0"],
         on_table=[1, 3, 4, 5, 6, 7, 8, 9])


def test_the_nine_legally_pocketed_wins_at_any_time():
    m = after_break()
    step(m, {"t": "shot", "first": 1, "pocketed": [9]}, ["rack_won:0:run", "rack:2:0"],
         score=[1, 0], push_out_allowed=False)
    step(m, {"t": "shot", "first": 1, "pocketed": [9]}, ["rack_won:0:break", "rack:3:0"],
         score=[2, 0])


def test_the_push_out_is_off_before_the_first_break_and_after_the_match():
    m = Match(dict(NINE, race_to=1, breaker=None))
    assert m.state.to_dict()["push_out_allowed"] is False
    m.apply({"t": "lag", "winner": 0})
    m.apply({"t": "choose", "choice": "break", "breaker": 0})
    step(m, {"t": "shot", "first": 1, "pocketed": [9]}, ["rack_won:0:break", "match_won:0"],
         push_out_allowed=False, finished=True)


def test_three_fouls_that_end_the_match_leave_no_fouls_counted():
    m = Match(dict(NINE, race_to=1, breaker=0))
    for _ in range(4):
        m.apply({"t": "shot", "first": 1, "foul": "scratch"})
    m.apply({"t": "warn", "player": 0})
    m.apply({"t": "shot", "first": 1, "pocketed": []})  # Anna's legal shot clears hers
    m.apply({"t": "shot", "first": 1, "foul": "scratch"})  # Ben: warned? no: unwarned
    assert m.state.fouls_in_a_row == [0, 2]
    m.apply({"t": "warn", "player": 1})
    m.apply({"t": "shot", "first": 1, "pocketed": []})
    step(m, {"t": "shot", "first": 1, "foul": "scratch"},
         ["foul:scratch", "three_fouls", "rack_won:0:three_fouls", "match_won:0"],
         fouls_in_a_row=[0, 0], finished=True, winner=0)


def test_at_most_nine_balls_reach_a_cushion_on_the_break():
    m = Match(NINE)
    step(m, {"t": "shot", "first": 1, "cushions": 10},
         refused=("bad_field", "'cushions' must be a whole number from 0 to 9"))
    step(m, {"t": "shot", "first": 1, "cushions": 9}, ["turn:1"])
