"""8-ball (rules_core/eightball.py, docs/games/eight-ball.md) step by step through
Match.apply, with every note and the words of each refusal: the break and its options, the
open table and the groups, called shots and pockets, fouls and which pocketed balls come back,
and each way the 8 ends a rack."""

from __future__ import annotations

import pytest
from steps import step

from rules_core.match import Match

EIGHT = {"game": "8ball", "players": ["Anna", "Ben"], "race_to": 3, "breaker": 0}
FULL = list(range(1, 16))


def broken(**rules) -> Match:
    """Anna broke (the 2 down: table open) and then called and pocketed the 1: solids."""
    m = Match(dict(EIGHT, rules=rules))
    m.apply({"t": "shot", "first": 1, "pocketed": [2]})
    m.apply({"t": "shot", "first": 1, "pocketed": [1], "call": {"ball": 1, "pocket": 1}})
    assert m.state.groups == ["solids", "stripes"]
    return m


def on_the_eight(table=(8, 9, 10)) -> Match:
    m = broken()
    m.apply({"t": "adjust", "reason": "test", "on_table": list(table)})
    return m


def test_the_break_is_neither_called_nor_a_safety_nor_a_push():
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "push": True}, refused=("no_push", "8-ball has no push out"))
    for fact in ({"call": {"ball": 1}}, {"safety": True}):
        step(m, dict({"t": "shot", "first": 1}, **fact),
             refused=("bad_field", "the break is neither called nor a safety"))
    step(m, {"t": "shot", "first": 1, "pocketed": [3, 11]}, ["continue"], groups=[None, None],
         shooter=0, breaking=False)
    step(m, {"t": "shot", "first": 1, "cushions": 4},
         refused=("bad_field", "'cushions' is only counted on the break"))


def test_a_failed_or_fouled_break_and_the_incoming_players_options():
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "cushions": 3},
         ["foul:bad_break", "turn:1", "option:1:accept/bih/rerack"], on_table=FULL,
         pending_option={"player": 1, "choices": ["accept", "bih", "rerack"]})
    step(m, {"t": "choose", "choice": "rerack", "breaker": 1}, ["chose:rerack", "rack:1:1"],
         shooter=1, breaker=1, breaking=True, on_table=FULL)
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "cushions": 4}, ["turn:1"])  # enough cushions: legal
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "pocketed": [3], "foul": "scratch"},
         ["spot:3", "foul:scratch", "turn:1", "option:1:bih/rerack"], on_table=FULL)
    step(m, {"t": "choose", "choice": "bih"}, ["chose:bih"], ball_in_hand="behind_head")
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "off": [5]},
         ["spot:5", "foul:ball_off", "turn:1", "option:1:accept/bih/rerack"], on_table=FULL)
    step(m, {"t": "choose", "choice": "accept"}, ["chose:accept"], shooter=1, on_table=FULL)


def test_the_eight_on_the_break():
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "pocketed": [8]}, ["rebreak", "rack:1:0"], rack=1,
         on_table=FULL, breaking=True)
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "pocketed": [8, 2]}, ["spot:8", "continue"],
         on_table=[n for n in FULL if n != 2])
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "pocketed": [3, 8], "foul": "scratch"},
         ["foul:scratch", "turn:1", "option:1:break"])
    step(m, {"t": "choose", "choice": "break", "breaker": 1}, ["chose:break", "rack:1:1"],
         on_table=FULL, score=[0, 0])


def test_the_open_table_the_groups_and_called_pockets():
    m = Match(EIGHT)
    m.apply({"t": "shot", "first": 1, "pocketed": [2]})
    step(m, {"t": "shot", "first": 8, "call": {"ball": 8}},
         refused=("bad_call", "Anna cannot call the 8 now"))
    step(m, {"t": "shot", "first": 3, "pocketed": [3], "call": {"ball": 3, "pocket": 3},
             "into": 3}, ["groups:0:solids", "continue"], groups=["solids", "stripes"])
    step(m, {"t": "shot", "first": 9, "call": {"ball": 9, "pocket": 1}},
         refused=("bad_call", "Anna cannot call the 9 now"))
    step(m, {"t": "shot", "first": 9, "call": {"ball": 9}},  # (docs/match-log.md)
         refused=("bad_field", "'call' is {\"ball\": b, \"pocket\": 1-6} (only the 8 may be "
                               "called without a pocket, by a panel without pocket keys)"))
    step(m, {"t": "shot", "first": 1, "pocketed": [1], "into": 2},
         refused=("bad_field", "'into' and 'wrong_pocket' say where the called ball fell"))
    step(m, {"t": "shot", "first": 4, "pocketed": [4], "call": {"ball": 4, "pocket": 3},
             "into": 5}, ["turn:1"], shooter=1)  # the wrong pocket: no foul, the turn ends
    step(m, {"t": "shot", "first": 9, "pocketed": [9, 5], "foul": "scratch"},
         ["spot:9", "foul:scratch", "turn:0"], ball_in_hand="anywhere")  # his own comes back
    assert 9 in m.state.on_table and 5 not in m.state.on_table
    step(m, {"t": "shot", "first": 9, "pocketed": [9], "safety": True},
         ["foul:wrong_ball", "turn:1"])  # a stripe of Ben's: it stays down
    assert 9 not in m.state.on_table
    step(m, {"t": "shot", "first": 10, "pocketed": [10, 6], "safety": True},
         ["spot:10", "safety", "turn:0"])  # his own comes back from a safety, Anna's not


def test_the_break_decides_the_groups_when_the_club_says_so():
    m = Match(dict(EIGHT, rules={"break_decides_group": True}))
    step(m, {"t": "shot", "first": 1, "pocketed": [3, 4]}, ["groups:0:solids", "continue"],
         groups=["solids", "stripes"])
    m = Match(dict(EIGHT, rules={"break_decides_group": True}))
    step(m, {"t": "shot", "first": 1, "pocketed": [3, 12]}, ["continue"], groups=[None, None])
    m = Match(EIGHT)
    step(m, {"t": "shot", "first": 1, "pocketed": [3, 4]}, ["continue"], groups=[None, None])


@pytest.mark.parametrize("shot, notes", [
    ({"first": 3, "pocketed": [3, 8], "call": {"ball": 3, "pocket": 1}}, ["eight_early"]),
    ({"first": 8, "pocketed": [8]}, ["eight_uncalled"]),
    ({"first": 8, "pocketed": [8], "call": {"ball": 8, "pocket": 2}, "into": 3},
     ["eight_wrong_pocket"]),
    ({"first": 8, "pocketed": [8], "call": {"ball": 8, "pocket": 2}, "wrong_pocket": True},
     ["eight_wrong_pocket"]),
    ({"first": 8, "pocketed": [8], "call": {"ball": 8, "pocket": 2}, "foul": "scratch"},
     ["foul:scratch", "eight_on_foul"]),
    ({"first": 8, "off": [8], "call": {"ball": 8, "pocket": 2}}, ["foul:ball_off", "eight_off"]),
])
def test_each_way_the_eight_loses_the_rack(shot, notes):
    m = on_the_eight((3, 8, 9, 10) if "eight_early" in notes else (8, 9, 10))
    reason = notes[-1]
    step(m, dict({"t": "shot"}, **shot), notes + ["rack_won:1:%s" % reason, "rack:2:1"],
         score=[0, 1], groups=[None, None], on_table=FULL, shooter=1)


def test_the_eight_called_into_its_pocket_wins_the_rack():
    m = on_the_eight()
    step(m, {"t": "shot", "first": 8, "pocketed": [8], "call": {"ball": 8, "pocket": 2},
             "into": 2}, ["rack_won:0:run", "rack:2:0"], score=[1, 0], shooter=0)
    m = on_the_eight()
    step(m, {"t": "shot", "first": 8, "pocketed": [8], "call": {"ball": 8}},
         ["rack_won:0:run", "rack:2:0"], score=[1, 0])  # no pocket numbers on the panel


@pytest.mark.parametrize("shot, notes", [
    ({"first": 9}, ["foul:wrong_ball", "turn:1"]),
    ({"first": 8, "rail": False}, ["foul:no_rail", "turn:1"]),
    ({"first": 0}, ["foul:no_hit", "turn:1"]),
    ({"first": 8, "rail": False, "pocketed": [9]}, ["turn:1"]),
])
def test_fouls_seen_in_the_facts_when_only_the_eight_is_left(shot, notes):
    m = on_the_eight()
    step(m, dict({"t": "shot"}, **shot), notes, shooter=1,
         ball_in_hand="anywhere" if len(notes) > 1 else None)


def test_the_eight_on_a_legal_break_is_spotted_and_the_rest_decide_the_groups():
    assert Match(dict(EIGHT, breaker=None)).state.to_dict()["groups"] == [None, None]
    m = Match(dict(EIGHT, rules={"break_decides_group": True}))
    assert m.state.to_dict()["groups"] == [None, None]
    step(m, {"t": "shot", "first": 1, "pocketed": [8, 3, 4]},
         ["spot:8", "groups:0:solids", "continue"], groups=["solids", "stripes"])
    assert 8 in m.state.on_table and 3 not in m.state.on_table
