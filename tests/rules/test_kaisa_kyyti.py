"""Kaisa's 55-point kyyti rule (seed §3, /work/shared/RULES.md "Ending"): a player on 55 or
more who pockets a white by kyyti while a red and/or the kaisa also falls ends the game, even
short of 60. On 54 the same shot scores and the inning goes on. With the default table a
white and a red make 5, so on 55 the shot reaches 60 anyway: a club's table of 1-point balls
is what shows the rule itself, on the board's message row (the notes) and in the result."""

from __future__ import annotations

import pytest
from steps import step

from rules_core.match import Match

# A club's table where the white and the red are worth 1 each in the corners: the shot below
# scores 2, so only the 55-point rule can end the game.
CLUB = {"points": {"corner": {"white": {"-": 1}, "red": {"-": 1}, "kaisa": {"-": 1}}}}


def on(points: int, rules: dict | None = None) -> Match:
    """Eero (player 1, at the table) on `points`, Aino on 20."""
    match = Match({"game": "kaisa", "players": ["Aino", "Eero"], "race_to": 60,
                   "breaker": 1, "rules": rules or {}})
    match.apply({"t": "adjust", "reason": "points carried over", "score": [20, points]})
    return match


def white_by_kyyti(*others: str) -> dict:
    return {"t": "shot", "call": "white", "pocket": "corner", "way": "kyyti",
            "corner": ["white", *others]}


def test_on_54_a_white_by_kyyti_with_the_red_scores_and_the_inning_goes_on():
    match = on(54)
    step(match, white_by_kyyti("red"), ["points:5", "continue"], score=[20, 59],
         finished=False, shooter=1, result=None,
         last={"player": 1, "inning": 1, "points": 5,
               "why": "white corner by kyyti (2) + red corner (3)"})


@pytest.mark.parametrize("other", ["red", "kaisa"])
def test_on_exactly_55_the_shot_ends_the_game_short_of_60(other):
    match = on(55, CLUB)
    step(match, white_by_kyyti(other), ["points:2", "won:1"], score=[20, 57], finished=True,
         winner=1, result=[20, 60])


@pytest.mark.parametrize("points, ends", [(53, False), (54, False), (55, True), (56, True)])
def test_the_rule_starts_at_55_and_not_a_point_below(points, ends):
    match = on(points, CLUB)
    notes = ["points:2", "won:1"] if ends else ["points:2", "continue"]
    step(match, white_by_kyyti("red"), notes, score=[20, points + 2], finished=ends,
         result=[20, 60] if ends else None)


def test_on_55_a_white_by_kyyti_alone_does_not_end_the_game():
    match = on(55, CLUB)
    step(match, white_by_kyyti(), ["points:1", "continue"], score=[20, 56], finished=False)
