"""The match log file (rules_core/matchlog.py, docs/match-log.md): what the board journals and
sync sends, and what the laptop replays before it believes a result. A log must come back as
the same match, and a damaged or foreign one must be refused saying what is wrong (which
event, which code), never taken and never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_core import canon, matchlog
from rules_core.match import Match
from rules_core.refusal import Refused

EXAMPLES = sorted(Path(__file__).parent.parent.glob("examples/*.json"))
SETTINGS = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 2, "breaker": 0}
EVENTS = [{"t": "shot", "first": 1, "pocketed": [9]}, {"t": "shot", "first": 1, "pocketed": [2]}]


def played() -> Match:
    match = Match(SETTINGS)
    for event in EVENTS:
        match.apply(event)
    return match


def log_text(**changes) -> str:
    doc = {"format": "pilkku.match/1", "settings": SETTINGS, "events": EVENTS, "meta": {}}
    doc.update(changes)
    return json.dumps({k: v for k, v in doc.items() if v is not ...})


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_an_example_log_comes_back_as_the_same_match(path):
    match = matchlog.loads(path.read_text())
    meta = json.loads(path.read_text())["meta"]
    text = matchlog.dumps(match, meta)
    again = matchlog.loads(text)
    assert canon.dumps(again.state.to_dict()) == canon.dumps(match.state.to_dict())
    assert list(again.log) == list(match.log)
    assert json.loads(text)["meta"] == meta
    assert matchlog.dumps(again, meta) == text  # canonical: the same bytes again


def test_the_document_holds_the_completed_settings_every_event_and_a_copy_of_meta():
    match = played()
    meta = {"board": "pöytä-1", "table": 3, "notes": ["a"]}
    doc = matchlog.document(match, meta)
    assert doc["format"] == "pilkku.match/1"
    assert doc["settings"] == match.settings and doc["settings"]["rules"]  # defaults filled
    assert doc["events"] == EVENTS and doc["meta"] == meta
    doc["settings"]["players"][0] = "X"
    doc["meta"]["notes"].append("b")
    assert match.settings["players"][0] == "Anna" and meta["notes"] == ["a"]
    assert matchlog.document(match)["meta"] == {}
    assert json.loads(matchlog.dumps(match)) == matchlog.document(match)


def test_steps_replay_one_event_at_a_time():
    """Each step is seen as it happens: the match after the event, the state before it."""
    doc = json.loads(log_text())
    replay = Match(SETTINGS)
    seen = 0
    for match, before, event in matchlog.steps(doc):
        if seen == 0:
            assert before is None and event is None
        else:
            assert event == EVENTS[seen - 1]
            assert before.to_dict() == replay.state.to_dict()
            replay.apply(event)
        assert match.state.to_dict() == replay.state.to_dict()
        assert len(match.log) == seen
        seen += 1
    assert seen == 1 + len(EVENTS)
    assert matchlog.load(doc).state.to_dict() == played().state.to_dict()


@pytest.mark.parametrize("text, words", [
    ("[1, 2]", "a match log is a JSON object"),
    (log_text(format="pilkku.match/2"), 'format must be "pilkku.match/1" (found "pilkku.match/2")'),
    (log_text(format=...), 'format must be "pilkku.match/1" (found null)'),
    (log_text(extra=1), "unknown top-level field 'extra'"),
    (log_text(events={"t": "lag"}), "'events' must be a list"),
    (log_text(events=...), "'events' must be a list"),
    (log_text(meta=[]), "'meta' must be an object"),
    ("{", "not a pilkku match log (not JSON): the file is damaged or is something else"),
    ('{"format": 1.5}', "not a pilkku match log (only whole numbers are allowed): the file is "
                        "damaged or is something else"),
])
def test_a_document_that_is_not_a_log_is_refused_saying_why(text, words):
    with pytest.raises(matchlog.BadLog) as bad:
        matchlog.loads(text)
    assert bad.value.text == words and bad.value.index is None
    assert bad.value.code == "bad_log" and str(bad.value) == bad.value.text


def test_a_log_without_meta_is_taken():
    assert matchlog.loads(log_text(meta=...)).state.to_dict() == played().state.to_dict()


def test_bad_settings_are_refused_with_the_engines_code():
    with pytest.raises(matchlog.BadLog) as bad:
        matchlog.loads(log_text(settings=dict(SETTINGS, race_to=0)))
    assert bad.value.code == "bad_settings" and bad.value.index is None
    assert bad.value.text == "settings: 'race_to' must be a whole number from 1 to 1000"


def test_a_refused_event_is_named_by_its_index_and_code():
    events = EVENTS[:1] + [{"t": "shot", "first": 1, "pocketed": [10]}] + EVENTS[1:]
    with pytest.raises(matchlog.BadLog) as bad:
        matchlog.loads(log_text(events=events))
    match = Match(SETTINGS)
    match.apply(events[0])
    with pytest.raises(Refused) as refused:
        match.apply(events[1])
    assert bad.value.index == 1
    assert bad.value.text == "event 1 refused: " + refused.value.text
    assert bad.value.code == refused.value.code == "bad_ball"


def test_size_and_nesting_limits():
    assert matchlog.MAX_TEXT == 1 << 20 and matchlog.MAX_DEPTH == 12
    padded = log_text(meta={"note": "x" * ((1 << 20) - len(log_text(meta={"note": ""})))})
    assert len(padded.encode()) == 1 << 20
    assert matchlog.loads(padded).state.to_dict() == played().state.to_dict()
    with pytest.raises(matchlog.BadLog, match="longer than 1048576 bytes"):
        matchlog.loads(padded.replace('"x', '"xx'))
    nested: object = 1
    for _ in range(10):  # the document and meta are two levels: 12 in all
        nested = [nested]
    matchlog.loads(log_text(meta={"n": nested}))
    with pytest.raises(matchlog.BadLog, match="nested deeper than 12"):
        matchlog.loads(log_text(meta={"n": [nested]}))
