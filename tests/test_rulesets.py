"""Ruleset options in the match settings (rules_core/rulesets.py): each game's defaults, a
club's choice taken only when it is one the game allows (of the same type: no 1.0 for 1, no
True for 1), and a bad one refused with the code `bad_rules` and words naming what is
allowed, as the board's menu and `pilkku replay` show them. Also what every match starts
with (rules_core/state.begin) and the refusal's own words."""

from __future__ import annotations

import pytest

from rules_core import games, rulesets
from rules_core.match import Match
from rules_core.refusal import Refused

NINE = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 60}


def refused(settings) -> Refused:
    with pytest.raises(Refused) as caught:
        Match(settings)
    return caught.value


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_each_option_defaults_to_its_first_allowed_value(game):
    options = games.get(game).OPTIONS
    rules = Match(dict(NINE, game=game)).settings["rules"]
    assert rules == {name: allowed[0] for name, allowed in options.items()}
    assert Match(dict(NINE, game=game, rules={})).settings["rules"] == rules


def test_a_clubs_choice_is_taken():
    rules = Match(dict(NINE, rules={"break_cushions": 4, "warning_required": False})) \
        .settings["rules"]
    assert rules["break_cushions"] == 4 and rules["warning_required"] is False
    assert rules["break_rule"] == games.get("9ball").OPTIONS["break_rule"][0]


@pytest.mark.parametrize("rules, words", [
    ([1], "'rules' must be an object of option names and values"),
    ("alternate", "'rules' must be an object of option names and values"),
    ({"colour": "red"}, "unknown ruleset option 'colour' (known: break_cushions, break_rule, "
                        "warning_required)"),
    ({"break_cushions": 5}, "option 'break_cushions' must be one of 1, 2, 3, 4"),
    ({"break_cushions": 4.0}, "option 'break_cushions' must be one of 1, 2, 3, 4"),
    ({"break_cushions": True}, "option 'break_cushions' must be one of 1, 2, 3, 4"),
    ({"warning_required": 1}, "option 'warning_required' must be one of True, False"),
    ({"warning_required": "yes"}, "option 'warning_required' must be one of True, False"),
])
def test_a_bad_choice_is_refused_saying_what_is_allowed(rules, words):
    refusal = refused(dict(NINE, rules=rules))
    assert (refusal.code, refusal.text) == ("bad_rules", words)
    assert str(refusal) == words  # what a laptop prints for an exception


def test_a_shaped_option_takes_any_value_of_its_type_and_names_it_when_refused():
    kaisa = dict(NINE, game="kaisa", race_to=60)
    assert Match(kaisa).settings["rules"]["points"] is None
    refusal = refused(dict(kaisa, rules={"points": [1, 2]}))
    assert (refusal.code, refusal.text) == (
        "bad_rules", "option 'points' must be one of None, a point table (object)")


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_every_match_starts_with_nothing_scored_and_nobody_warned(game):
    state = Match(dict(NINE, game=game, race_to=17)).state.to_dict()
    assert state["players"] == ["Anna", "Ben"] and state["race_to"] == 17
    assert state["score"] == [0, 0] and state["fouls_in_a_row"] == [0, 0]
    assert state["warned"] == [False, False]
    assert state["finished"] is False and state["winner"] is None
    assert state["notes"] == []


def test_a_shape_made_for_a_clubs_own_option():
    spec = {"table": (None, rulesets.Shape(dict, "a table of points (object)"))}
    assert rulesets.resolve(spec, None) == {"table": None}
    assert rulesets.resolve(spec, {"table": {"red": 3}}) == {"table": {"red": 3}}
    with pytest.raises(Refused) as caught:
        rulesets.resolve(spec, {"table": [3]})
    assert (caught.value.code, caught.value.text) == (
        "bad_rules", "option 'table' must be one of None, a table of points (object)")
