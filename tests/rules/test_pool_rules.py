"""What the pool games share (rules_core/pool.py), step by step through Match.apply, with the
notes each event leaves (the tokens the board's message row and `pilkku replay` word,
docs/match-log.md) and the words of each refusal: the lag and the choice of breaker, turns,
fouls in a row and the warning, the three-foul rack, concessions, the referee's adjustments,
who breaks the next rack under each break rule, and the break statistics.

The scenarios (tests/scenarios) name the fields a rule is about; these tests pin what they
leave open: every note, the words, and adjustments at their edges."""

from __future__ import annotations

import pytest
from steps import step

from rules_core.match import Match

NINE = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 3}
DRY = {"t": "shot", "first": 1, "pocketed": []}
SCRATCH = {"t": "shot", "first": 1, "foul": "scratch"}


def test_lag_choice_turns_fouls_warning_and_the_three_foul_rack():
    m = Match(NINE)
    step(m, DRY, refused=("need_lag", "lag first: who won the lag?"))
    step(m, {"t": "choose", "choice": "break", "breaker": 0},
         refused=("no_option", "there is no option to choose now"))
    step(m, {"t": "lag", "winner": 1}, ["lag:1"], shooter=None, rack=0,
         pending_option={"player": 1, "choices": ["break"]})
    step(m, {"t": "lag", "winner": 0},
         refused=("no_lag", "the lag is only before the first break"))
    step(m, DRY, refused=("need_breaker", "the lag winner must first choose who breaks"))
    step(m, {"t": "choose", "choice": "play"},
         refused=("bad_field", "'choice' must be one of: break"))
    step(m, {"t": "choose", "choice": "break"},
         refused=("bad_player", "'breaker' must be player 0 or 1"))
    step(m, {"t": "choose", "choice": "break", "breaker": 0}, ["chose:break", "rack:1:0"],
         shooter=0, breaker=0, rack=1, inning=1, breaking=True, pending_option=None)
    step(m, DRY, ["turn:1"], shooter=1, inning=2, breaking=False)
    step(m, SCRATCH, ["foul:scratch", "turn:0"], shooter=0, inning=3, fouls_in_a_row=[0, 1],
         ball_in_hand="anywhere")
    step(m, DRY, ["turn:1"], shooter=1, ball_in_hand=None)
    step(m, SCRATCH, ["foul:scratch", "turn:0"], fouls_in_a_row=[0, 2], warned=[False, False])
    step(m, {"t": "warn", "player": 0},
         refused=("no_warning", "a warning is given to a player on two fouls in a row, once"))
    step(m, {"t": "warn", "player": 1}, ["warned:1"], warned=[False, True])
    step(m, {"t": "warn", "player": 1},
         refused=("no_warning", "a warning is given to a player on two fouls in a row, once"))
    step(m, DRY, ["turn:1"])
    step(m, SCRATCH, ["foul:scratch", "three_fouls", "rack_won:0:three_fouls", "rack:2:0"],
         score=[1, 0], fouls_in_a_row=[0, 0], warned=[False, False], shooter=0, rack=2,
         inning=1)
    stats = m.state.to_dict()["stats"]
    assert [s["fouls"] for s in stats] == [0, 3]
    assert [s["innings"] for s in stats] == [4, 3]


def test_an_option_pending_names_who_chooses_and_what():
    m = Match(dict(NINE, breaker=0))
    step(m, {"t": "shot", "first": 1, "pocketed": [2]}, ["continue"], push_out_allowed=True)
    step(m, {"t": "shot", "first": 3, "push": True}, ["push", "turn:1", "option:1:play/pass"],
         pending_option={"player": 1, "choices": ["play", "pass"]})
    step(m, DRY, refused=("option_pending", "Ben must first choose: play, pass"))
    step(m, {"t": "choose", "choice": "play", "breaker": 0},
         refused=("bad_field", "only 'break' and 'rerack' name a breaker"))
    step(m, {"t": "choose", "choice": "pass"}, ["chose:pass", "turn:0"], shooter=0,
         pending_option=None)


def test_concessions_of_a_rack_and_of_the_match():
    m = Match(NINE)
    step(m, {"t": "concede", "player": 0}, refused=("no_rack", "no rack is being played yet"))
    step(m, {"t": "concede", "player": 0, "scope": "set"},
         refused=("bad_field", "'scope' must be one of: rack, match"))
    m = Match(dict(NINE, breaker=1))
    step(m, {"t": "concede", "player": 0}, ["rack_won:1:concede", "rack:2:1"], score=[0, 1])
    step(m, {"t": "concede", "player": 1, "scope": "match"}, ["conceded:1", "match_won:0"],
         winner=0, finished=True, score=[0, 1], breaking=False, pending_option=None,
         ball_in_hand=None)
    step(m, DRY, refused=("match_over", "the match is over: Anna won"))
    m = Match(NINE)  # a match may be conceded before the lag
    step(m, {"t": "concede", "player": 1, "scope": "match"}, ["conceded:1", "match_won:0"],
         winner=0)


def warned_player_0() -> Match:
    m = Match(dict(NINE, breaker=0))
    for event in (SCRATCH, SCRATCH, SCRATCH, SCRATCH):  # Anna fouls, Ben fouls, twice
        m.apply(event)
    m.apply({"t": "warn", "player": 0})
    assert m.state.warned[0] is True
    return m


def test_adjustments_change_only_what_they_name():
    m = Match(NINE)  # before the lag: a score, but no shooter or balls
    step(m, {"t": "adjust", "reason": "x", "at": 5},
         refused=("bad_field", "an adjustment must change something"))
    step(m, {"t": "adjust", "reason": "x", "shooter": 1},
         refused=("no_rack", "no rack is being played yet"))
    step(m, {"t": "adjust", "reason": "x", "on_table": [1, 9]},
         refused=("no_rack", "no rack is being played yet"))
    step(m, {"t": "adjust", "reason": "x", "score": [1, 2]}, ["adjusted"], score=[1, 2],
         shooter=None)
    step(m, {"t": "adjust", "score": [1, 1]},
         refused=("bad_field", "'reason' must be a non-empty text"))
    m = warned_player_0()
    step(m, {"t": "adjust", "reason": "x", "on_table": [1, 2]},
         refused=("bad_ball", "the 9 stays on the table until the rack is decided"))
    step(m, {"t": "adjust", "reason": "x", "score": [3, 3]},
         refused=("bad_field", "only one player can reach race_to"))
    step(m, {"t": "adjust", "reason": "x", "fouls_in_a_row": [2, 1]}, ["adjusted"],
         fouls_in_a_row=[2, 1], warned=[True, False])  # two in a row: the warning stands
    step(m, {"t": "adjust", "reason": "x", "fouls_in_a_row": [1, 2]}, ["adjusted"],
         fouls_in_a_row=[1, 2], warned=[False, False])
    step(m, {"t": "adjust", "reason": "x", "on_table": [9, 2], "shooter": 1,
             "ball_in_hand": "behind_head"}, ["adjusted"], on_table=[2, 9], shooter=1,
         ball_in_hand="behind_head", score=[0, 0])
    step(m, {"t": "adjust", "reason": "x", "ball_in_hand": None}, ["adjusted"],
         ball_in_hand=None)
    step(m, {"t": "adjust", "reason": "x", "score": [1, 3]}, ["adjusted", "match_won:1"],
         finished=True, winner=1)


def test_a_warning_stands_for_the_player_adjusted_to_two_fouls():
    m = warned_player_0()
    assert m.state.warned[0] is True
    step(m, {"t": "adjust", "reason": "x", "fouls_in_a_row": [0, 2]}, ["adjusted"],
         warned=[False, m.state.warned[1]])


@pytest.mark.parametrize("rule, breakers", [
    ("winner", [0, 1, 1]), ("loser", [1, 0, 0]), ("alternate", [1, 0, 1]),
])
def test_who_breaks_the_next_rack(rule, breakers):
    """Rack 1 won by Anna (the 9 on the break), racks 2 and 3 by Ben (he concedes no rack:
    Anna concedes); the breaker of racks 2, 3 and 4 follows the rule."""
    m = Match(dict(NINE, race_to=5, breaker=0, rules={"break_rule": rule}))
    m.apply({"t": "shot", "first": 1, "pocketed": [9]})
    seen = [m.state.breaker]
    for _ in range(2):
        m.apply({"t": "concede", "player": 0})
        seen.append(m.state.breaker)
    assert seen == breakers
    assert m.state.shooter == breakers[-1]


def test_break_wins_and_break_and_runs_are_counted_for_the_breaker():
    m = Match(dict(NINE, race_to=9, breaker=0))
    m.apply({"t": "shot", "first": 1, "pocketed": [9]})  # the 9 on the break
    step(m, {"t": "shot", "first": 1, "pocketed": [2]}, ["continue"])
    step(m, {"t": "shot", "first": 1, "pocketed": [1, 9]}, ["rack_won:0:run", "rack:3:0"])
    m.apply({"t": "shot", "first": 1, "pocketed": [3]})
    m.apply({"t": "shot", "first": 1, "pocketed": [1, 9]})  # a second break and run
    m.apply({"t": "shot", "first": 1, "pocketed": []})  # dry: Ben to the table
    m.apply({"t": "shot", "first": 1, "pocketed": [1, 9]})  # Ben runs out: no break and run
    stats = m.state.to_dict()["stats"]
    assert [s["break_wins"] for s in stats] == [1, 0]
    assert [s["break_and_runs"] for s in stats] == [2, 0]
    assert m.state.score == [3, 1]


def test_a_choice_must_be_named():
    m = Match(NINE)
    m.apply({"t": "lag", "winner": 0})
    step(m, {"t": "choose"}, refused=("bad_field", "'choice' must be one of: break"))
    m = Match(dict(NINE, breaker=0))
    m.apply({"t": "shot", "first": 1, "pocketed": [2]})
    m.apply({"t": "shot", "first": 3, "push": True})
    step(m, {"t": "choose"}, refused=("bad_field", "'choice' must be one of: play, pass"))


def test_an_unwarned_third_foul_counts_as_the_second():
    m = Match(dict(NINE, breaker=0))
    for _ in range(4):  # Anna and Ben foul twice each; nobody warns
        m.apply(SCRATCH)
    step(m, SCRATCH, ["unwarned", "foul:scratch", "turn:1"], fouls_in_a_row=[2, 2],
         score=[0, 0])
    m = Match(dict(NINE, breaker=0, rules={"warning_required": False}))
    for _ in range(4):
        m.apply(SCRATCH)
    step(m, SCRATCH, ["foul:scratch", "three_fouls", "rack_won:1:three_fouls", "rack:2:1"],
         score=[0, 1])
