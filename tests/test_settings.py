"""A match's settings: each bad one refused with the code `bad_settings` and words that say
what is wanted (what the board's menu and `pilkku replay` show); good ones completed with
the ruleset's defaults. Written against mutation testing's survivors (docs/testing.md)."""

from __future__ import annotations

import pytest

from rules_core.match import Match, check_settings
from rules_core.refusal import Refused

GOOD = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 5}

BAD = [
    (["9ball"], "settings must be an object"),
    (dict(GOOD, colour="red"), "unknown setting 'colour'"),
    (dict(GOOD, game="snooker"), "'game' must be one of: 14.1, 8ball, 9ball, kaisa"),
    ({"players": ["Anna", "Ben"], "race_to": 5}, "'game' must be one of"),
    (dict(GOOD, players=["Anna"]), "'players' must be a list of two names"),
    (dict(GOOD, players="Anna, Ben"), "'players' must be a list of two names"),
    (dict(GOOD, players=["Anna", "Ben", "Cid"]), "'players' must be a list of two names"),
    (dict(GOOD, players=["Anna", " "]), "a player's name must be 1 to 40 characters"),
    (dict(GOOD, players=["Anna", 7]), "a player's name must be 1 to 40 characters"),
    (dict(GOOD, players=["A" * 41, "Ben"]), "a player's name must be 1 to 40 characters"),
    (dict(GOOD, race_to=0), "'race_to' must be a whole number from 1 to 1000"),
    (dict(GOOD, race_to=1001), "'race_to' must be a whole number from 1 to 1000"),
    (dict(GOOD, race_to="5"), "'race_to' must be a whole number from 1 to 1000"),
    (dict(GOOD, race_to=True), "'race_to' must be a whole number from 1 to 1000"),
    (dict(GOOD, breaker=2), "'breaker' must be 0, 1 or null (decided by the lag)"),
    (dict(GOOD, breaker=True), "'breaker' must be 0, 1 or null (decided by the lag)"),
]


@pytest.mark.parametrize("settings,words", BAD, ids=[words[:30] for _s, words in BAD])
def test_bad_settings_are_refused_with_words_that_say_what_is_wanted(settings, words):
    with pytest.raises(Refused) as refused:
        Match(settings)
    assert refused.value.code == "bad_settings"
    assert refused.value.text.startswith(words)


def test_good_settings_are_completed_with_the_defaults():
    done = check_settings(dict(GOOD, players=["A" * 40, "Ben"], race_to=1000, breaker=1))
    assert done["game"] == "9ball" and done["players"] == ["A" * 40, "Ben"]
    assert done["race_to"] == 1000 and done["breaker"] == 1
    assert isinstance(done["rules"], dict) and done["rules"]
    assert check_settings(dict(GOOD, race_to=1))["breaker"] is None
