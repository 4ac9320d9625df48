"""Reading a referee's event (rules_core/events.py): every field checked by its exact type and
range, and a malformed one refused with a code and the words the board shows the referee
(`Refused.text`), never taken. A 1.0 or a True is no player 1; a ball listed twice or not on
the table is refused by number."""

from __future__ import annotations

import pytest

from rules_core import events as ev
from rules_core.match import Match
from rules_core.refusal import Refused

TABLE = [1, 2, 3, 9, 15]


def refusal(read, *args) -> tuple[str, str]:
    with pytest.raises(Refused) as caught:
        read(*args)
    return caught.value.code, caught.value.text


@pytest.mark.parametrize("event, code, text", [
    ([], "bad_event", "an event must be a JSON object"),
    ({}, "bad_event", "an event needs a type in field 't'"),
    ({"t": 3}, "bad_event", "an event needs a type in field 't'"),
    ({"t": "shot", "at": 1.5}, "bad_field", "'at' must be whole seconds"),
    ({"t": "shot", "at": True}, "bad_field", "'at' must be whole seconds"),
])
def test_an_event_needs_an_object_with_a_type(event, code, text):
    assert refusal(ev.kind, event) == (code, text)


def test_the_type_and_the_time_are_read():
    assert ev.kind({"t": "shot"}) == "shot"
    assert ev.kind({"t": "shot", "at": 1700000000}) == "shot"
    assert ev.kind({"t": "shot", "at": None}) == "shot"


def test_only_the_fields_of_the_type_and_the_common_ones():
    ev.only({"t": "shot", "at": 5, "first": 1}, ("first",))
    assert refusal(ev.only, {"t": "shot", "first": 1, "safety": True}, ("first",)) == (
        "bad_field", "a 'shot' event has no field 'safety' here")


@pytest.mark.parametrize("value", [2, -1, 1.0, 0.0, True, False, "1", [0]])
def test_a_player_is_exactly_0_or_1(value):
    assert refusal(ev.player, {"p": value}, "p") == ("bad_player", "'p' must be player 0 or 1")


def test_players_read():
    assert ev.player({"p": 0}, "p") == 0 and ev.player({"p": 1}, "p") == 1
    assert ev.player({}, "p", required=False) is None
    assert refusal(ev.player, {}, "p") == ("bad_player", "'p' must be player 0 or 1")


def test_flags():
    assert ev.flag({}, "f") is False and ev.flag({"f": True}, "f") is True
    for value in (1, 0, "true", None):
        assert refusal(ev.flag, {"f": value}, "f") == ("bad_field", "'f' must be true or false")


def test_whole_numbers_within_their_range():
    assert ev.integer({"n": 3}, "n", 3, 5) == 3 and ev.integer({"n": 5}, "n", 3, 5) == 5
    assert ev.integer({}, "n", 3, 5) is None and ev.integer({}, "n", 3, 5, default=4) == 4
    for value in (2, 6, 4.0, True, "4"):
        assert refusal(ev.integer, {"n": value}, "n", 3, 5) == (
            "bad_field", "'n' must be a whole number from 3 to 5")


def test_texts():
    assert ev.text({"s": "Anna"}, "s") == "Anna"
    assert ev.text({}, "s", required=False) is None
    for event in ({}, {"s": ""}, {"s": "  "}, {"s": 5}):
        assert refusal(ev.text, event, "s") == ("bad_field", "'s' must be a non-empty text")


def test_one_of():
    allowed = ("break", "pass")
    assert ev.one_of({"c": "pass"}, "c", allowed) == "pass"
    assert ev.one_of({}, "c", allowed) is None
    assert ev.one_of({}, "c", allowed, default="break") == "break"
    for value in ("Pass", "", 1, ["pass"]):
        assert refusal(ev.one_of, {"c": value}, "c", allowed) == (
            "bad_field", "'c' must be one of: break, pass")


def test_balls_are_distinct_numbers_on_the_table():
    assert ev.balls({}, "pocketed", TABLE) == []
    assert ev.balls({"pocketed": [9, 1, 15]}, "pocketed", TABLE) == [9, 1, 15]
    for value in ("9", [9, "1"], [1.0], [True]):
        assert refusal(ev.balls, {"pocketed": value}, "pocketed", TABLE) == (
            "bad_field", "'pocketed' must be a list of ball numbers")
    assert refusal(ev.balls, {"pocketed": [2, 9, 2]}, "pocketed", TABLE) == (
        "bad_ball", "ball 2 is listed twice in 'pocketed'")
    assert refusal(ev.balls, {"pocketed": [2, 4]}, "pocketed", TABLE) == (
        "bad_ball", "ball 4 is not on the table")


def test_pairs_of_numbers():
    assert ev.pair_of_ints({"s": [0, 60]}, "s", 0, 60) == [0, 60]
    assert ev.pair_of_ints({}, "s", 0, 60) is None
    for value in ([1], [1, 2, 3], "1,2", (1, 2)):
        assert refusal(ev.pair_of_ints, {"s": value}, "s", 0, 60) == (
            "bad_field", "'s' must be a list of two numbers")
    for value in ([-1, 0], [0, 61], [1.0, 2], [True, 2]):
        assert refusal(ev.pair_of_ints, {"s": value}, "s", 0, 60) == (
            "bad_field", "'s' values must be from 0 to 60")


def test_a_call_names_a_ball_on_the_table_and_maybe_a_pocket():
    assert ev.call({}, TABLE) is None
    assert ev.call({"call": {"ball": 9, "pocket": 6}}, TABLE) == (9, 6)
    assert ev.call({"call": {"ball": 15}}, TABLE) == (15, None)
    for value in ([9, 6], {"ball": 9, "side": 1}):
        assert refusal(ev.call, {"call": value}, TABLE) == (
            "bad_field", "'call' is {\"ball\": b, \"pocket\": 1-6}")
    assert refusal(ev.call, {"call": {"pocket": 2}}, TABLE) == (
        "bad_field", "a call names a ball")
    assert refusal(ev.call, {"call": {"ball": 4}}, TABLE) == (
        "bad_ball", "ball 4 is not on the table")
    assert refusal(ev.call, {"call": {"ball": 16}}, TABLE) == (
        "bad_field", "'ball' must be a whole number from 1 to 15")
    assert refusal(ev.call, {"call": {"ball": 9, "pocket": 7}}, TABLE) == (
        "bad_field", "'pocket' must be a whole number from 1 to 6")


def test_the_referee_reads_the_words_through_the_match():
    match = Match({"game": "9ball", "players": ["Anna", "Ben"], "race_to": 5, "breaker": 0})
    before = match.state.to_dict()
    with pytest.raises(Refused) as caught:
        match.apply({"t": "shot", "first": 1, "pocketed": [3, 3]})
    assert (caught.value.code, caught.value.text) == (
        "bad_ball", "ball 3 is listed twice in 'pocketed'")
    assert match.state.to_dict() == before and len(match.log) == 0
