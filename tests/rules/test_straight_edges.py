"""14.1 continuous (rules_core/straight.py) at the rack's edge: the rack is due only when the
14th ball is down (one ball left), a rack entered with no places means both lie elsewhere,
and what the referee is told to place shows from the rack until the match ends."""

from __future__ import annotations

from steps import step

from rules_core.match import Match

STRAIGHT = {"game": "14.1", "players": ["Anna", "Ben"], "race_to": 4, "breaker": 0}


def pot(ball: int) -> dict:
    return {"t": "shot", "first": ball, "call": {"ball": ball}, "pocketed": [ball]}


def test_the_rack_is_due_at_the_fourteenth_ball_and_nothing_is_placed_outside_it():
    m = Match(STRAIGHT)
    assert m.state.to_dict()["placement"] is None
    step(m, {"t": "shot", "break": "called", "call": {"ball": 1}, "pocketed": [1]},
         ["points:0:1", "continue"], placement=None)
    step(m, {"t": "adjust", "reason": "the table as it lies", "on_table": [5, 6, 7]},
         ["adjusted"])
    step(m, pot(5), ["points:0:1", "continue"], score=[2, 0])  # two left: no rack yet
    step(m, {"t": "rack"}, refused=("no_rack", "no rack due: the 14th ball is not down"))
    step(m, pot(6), ["points:0:1", "continue", "rack_due"],
         runs=[{"current": 3, "high": 3}, {"current": 0, "high": 0}])
    step(m, {"t": "rack"}, ["racked:2:14"], rack=2, ball_in_hand=None,
         placement={"racked": 14, "ball15": None, "cue": None})
    step(m, pot(3), ["points:0:1", "match_won:0"], placement=None, finished=True)


def test_a_rack_with_no_places_is_both_elsewhere():
    def due() -> Match:
        m = Match(STRAIGHT)
        m.apply({"t": "shot", "break": "called", "call": {"ball": 1}, "pocketed": [1]})
        m.apply({"t": "adjust", "reason": "the table as it lies", "on_table": [6, 7]})
        m.apply(pot(6))
        return m
    plain, named = due(), due()
    plain.apply({"t": "rack"})
    named.apply({"t": "rack", "ball15": "elsewhere", "cue": "elsewhere"})
    assert plain.state.to_dict() == named.state.to_dict()
    only_ball, only_cue = due(), due()
    only_ball.apply({"t": "rack", "ball15": "elsewhere"})
    only_cue.apply({"t": "rack", "cue": "elsewhere"})
    assert only_ball.state.to_dict() == only_cue.state.to_dict() == plain.state.to_dict()
