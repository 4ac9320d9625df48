"""Kaisa step by step through Match.apply (rules_core/kaisa.py), with the notes each event
leaves (the tokens the board's message row and `pilkku replay` word) and the line that
explains the last shot's points (the board's "last shot"): the lag and the choice of ball,
a miss and a pot not as called, the fouls and the calls that only void a pot, the ball in
hand's limits, the shootout's points from a club's table, the +2 for a white without nakki
on 59, a concession by either player, and the settings refused. The scenarios name the
fields a rule is about; these pin what they leave open."""

from __future__ import annotations

import pytest
from steps import step

from rules_core.match import Match
from rules_core.refusal import Refused

PLAYERS = ["Aino", "Eero"]
MISS = {"t": "shot"}


def kaisa(breaker: int | None = 0, rules: dict | None = None, race_to: int = 60) -> Match:
    return Match({"game": "kaisa", "players": PLAYERS, "race_to": race_to, "breaker": breaker,
                  "rules": rules or {}})


def pot(ball: str, pocket: str = "corner", **more) -> dict:
    return dict({"t": "shot", "call": ball, "pocket": pocket, pocket: [ball]}, **more)


def why(points: int, words: str, player: int, inning: int) -> dict:
    return {"player": player, "inning": inning, "points": points, "why": words}


def test_a_fresh_game_waits_for_the_lag_with_nothing_counted():
    state = kaisa(breaker=None).state.to_dict()
    zero = {"innings": 0, "points": 0, "run": 0, "best": 0, "fouls": 0, "white": 0, "red": 0,
            "kaisa": 0}
    assert state["stats"] == [zero, zero]
    assert (state["phase"], state["middle_run"], state["to_spot"], state["in_hand"]) == (
        "lag", False, [], [False, False])


def test_the_lag_and_the_choice_of_ball():
    match = kaisa(breaker=None)
    step(match, {"t": "lag", "winner": 1}, ["lag:1"],
         pending_option={"player": 1, "choices": ["one_dot", "two_dot"]})
    step(match, {"t": "choose"},
         refused=("bad_field", "'choice' must be one of: one_dot, two_dot"))
    step(match, {"t": "choose", "choice": "two_dot"}, ["chose:two_dot", "inning:0"],
         shooter=0, breaker=0, phase="play")


def test_a_miss_a_pot_not_as_called_and_the_fouls_words():
    match = kaisa()
    step(match, MISS, ["points:0", "inning:1"], last=why(0, "no pot", 0, 1))
    step(match, {"t": "shot", "call": "red", "pocket": "corner", "corner": ["kaisa"]},
         ["points:0", "inning:0"], last=why(0, "no pot as called", 1, 2))
    step(match, {"t": "shot", "first": "red", "foul": "jump"}, ["points:0", "inning:1"],
         last=why(0, "jump: no score", 0, 3), fouls_in_a_row=[0, 0])
    step(match, {"t": "shot", "first": "kaisa", "foul": "cue_in"},
         ["foul:cue_in", "points:-6", "inning:0"], last=why(-6, "FOUL cue_in first kaisa", 1, 4),
         score=[0, -6], fouls_in_a_row=[0, 1])


@pytest.mark.parametrize("value", [5, "red", {"red": 1}])
def test_balls_are_given_as_a_list(value):
    step(kaisa(), {"t": "shot", "call": "red", "pocket": "corner", "corner": value},
         refused=("bad_field", "'corner' is a list of balls: white, red, kaisa"))


def test_from_hand_a_straight_middle_pot_ends_the_inning_and_the_opponents_white_is_off():
    match = kaisa()
    step(match, {"t": "shot", "foul": "cue_in", "first": "red"},
         ["foul:cue_in", "points:-3", "inning:1"], in_hand=[True, True])
    words = ("bad_ball", "the opponent's white is in hand, off the table")
    step(match, {"t": "shot", "call": "red", "pocket": "corner", "corner": ["white"]},
         refused=words)
    step(match, {"t": "shot", "call": "red", "pocket": "corner", "corner": ["red"],
                 "off": ["white"]}, refused=words)
    step(match, pot("red", "middle"), ["points:0", "inning:0"],
         last=why(0, "from hand: middle needs cushion", 1, 2))


def test_the_straight_middle_kaisa_twice_in_a_row_and_the_white_on_59():
    match = kaisa()
    step(match, MISS, ["points:0", "inning:1"])
    step(match, pot("kaisa", "middle"), ["points:6", "continue"], middle_run=True)
    step(match, pot("kaisa", "middle"), ["points:0", "inning:0"],
         last=why(0, "kaisa middle twice in a row", 1, 2))
    step(match, MISS, ["points:0", "inning:1"])
    match.apply({"t": "adjust", "reason": "carried over", "score": [20, 59]})
    step(match, pot("white"), ["points:2", "inning:0"], score=[20, 61], finished=False,
         last=why(2, "white without nakki on 59: +2", 1, 4))


def test_a_white_by_kyyti_alone_reaching_60_does_not_end_the_game_nakki_or_not():
    match = kaisa()
    match.apply({"t": "adjust", "reason": "carried over", "score": [58, 20]})
    step(match, pot("white", way="kyyti", nakki=["red"]), ["points:2", "continue"],
         score=[60, 20], finished=False)


CLUB = {"points": {"corner": {"kaisa": {"-": 4}}, "middle": {"kaisa": {"-": 5}}}}


def test_the_shootout_opens_with_6_then_scores_from_the_clubs_table():
    match = kaisa(rules=CLUB)
    match.apply({"t": "time_up"})
    for _ in range(4):
        match.apply(MISS)
    step(match, {"t": "lag", "winner": 0}, ["lag:0"])
    step(match, {"t": "choose", "choice": "first"}, ["chose:first", "inning:0"], shooter=0)
    step(match, pot("kaisa"), ["points:6", "continue"], last=why(6, "kaisa corner", 0, 5))
    step(match, pot("kaisa"), ["points:4", "continue"], last=why(4, "kaisa corner", 0, 5))
    step(match, pot("kaisa", "middle"), ["points:5", "continue"],
         last=why(5, "kaisa middle", 0, 5), score=[15, 0])


@pytest.mark.parametrize("player, winner", [(0, 1), (1, 0)])
def test_either_player_concedes(player, winner):
    step(kaisa(), {"t": "concede", "player": player}, ["won:%d" % winner], winner=winner,
         finished=True)


@pytest.mark.parametrize("race_to, accepted", [(9, False), (10, True), (11, True)])
def test_a_race_to_of_10_or_more(race_to, accepted):
    if accepted:
        assert kaisa(race_to=race_to).state.race_to == race_to
        return
    with pytest.raises(Refused) as refused:
        kaisa(race_to=race_to)
    assert (refused.value.code, refused.value.text) == (
        "bad_settings", "Kaisa's race_to: 10 or more (normally 60)")
