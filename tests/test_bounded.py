"""Bounded decoding and exact types: nesting, size and number range are refused before they
cost heap or stack; a float or a bool is never taken for a whole number or a player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_core import bounded, matchlog
from rules_core.match import Match
from rules_core.refusal import Refused

EXAMPLES = sorted(Path(__file__).parent.parent.glob("examples/*.json"))


@pytest.mark.parametrize("text", [
    "[" * 700 + "]" * 700,  # the MemoryError of issue 13
    '{"a":' * 20 + "1" + "}" * 20,
    "1.5", '{"winner": 1.0}', "1e400", "1180591620717411303424", "-%d" % 2**63,
    '{"a": NaN}', "[1,", '"\\ud800', "", "nul",
])
def test_what_is_out_of_bounds_is_malformed(text):
    with pytest.raises(bounded.Malformed):
        bounded.loads(text, 4096, 8)


def test_limits_hold_exactly():
    assert bounded.loads("[" * 8 + "]" * 8, 100, 8) == [[[[[[[[]]]]]]]]
    with pytest.raises(bounded.Malformed):
        bounded.loads("[" * 9 + "]" * 9, 100, 8)
    assert bounded.loads('["[[[[[[[[[["]', 100, 2) == ["[[[[[[[[[["]  # inside a string
    assert bounded.loads(str(bounded.MAX_INT), 100, 1) == bounded.MAX_INT
    with pytest.raises(bounded.Malformed):
        bounded.loads(str(bounded.MAX_INT + 1), 100, 1)
    with pytest.raises(bounded.Malformed):
        bounded.loads(" " * 101, 100, 1)


def test_a_deeply_nested_log_is_a_bad_log_not_a_crash():
    with pytest.raises(matchlog.BadLog):
        matchlog.loads('{"format": "pilkku.match/1", "events": ' + "[" * 5000 + "]" * 5000 + "}")


def _inexact(value):
    """Values equal to `value` that are not an int: what a sloppy check lets through."""
    out = [float(value)]
    if value in (0, 1):
        out.append(bool(value))
    return out


def _int_fields(event):
    """(key, wrong value) for each whole number in the event, at the top or in a list."""
    for key, value in event.items():
        if isinstance(value, int) and not isinstance(value, bool) and key != "at":
            for wrong in _inexact(value):
                yield key, wrong
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, int) and not isinstance(item, bool):
                    for wrong in _inexact(item):
                        yield key, value[:i] + [wrong] + value[i + 1:]


NUMBERED = [p for p in EXAMPLES if any(True for e in json.loads(p.read_text())["events"]
                                        for _ in _int_fields(e))]


@pytest.mark.parametrize("path", NUMBERED, ids=[p.stem for p in NUMBERED])
def test_a_float_or_bool_for_a_whole_number_is_a_clean_refusal(path):
    doc = json.loads(path.read_text())
    match = Match(doc["settings"])
    tried = 0
    for event in doc["events"]:
        for key, wrong in _int_fields(event):
            tried += 1
            with pytest.raises(Refused):
                match.apply(dict(event, **{key: wrong}))
        match.apply(event)
    assert tried > 0


@pytest.mark.parametrize("event", [{"t": "lag", "winner": 1.0}, {"t": "lag", "winner": True},
                                   {"t": "lag", "winner": 0.0}])
def test_the_lag_of_issue_13_is_refused(event):
    with pytest.raises(Refused) as refused:
        Match({"game": "9ball", "players": ["A", "B"], "race_to": 2}).apply(event)
    assert refused.value.code == "bad_player"


@pytest.mark.parametrize("breaker", [1.0, True, 0.0, False, "1"])
def test_a_breaker_must_be_player_0_or_1_exactly(breaker):
    with pytest.raises(Refused):
        Match({"game": "9ball", "players": ["A", "B"], "race_to": 2, "breaker": breaker})


def test_a_ruleset_option_is_taken_only_with_its_own_type():
    settings = {"game": "14.1", "players": ["A", "B"], "race_to": 50}
    options = Match(settings).settings["rules"]
    number = next(k for k, v in options.items() if isinstance(v, int) and
                  not isinstance(v, bool))
    with pytest.raises(Refused):
        Match(dict(settings, rules={number: float(options[number])}))
