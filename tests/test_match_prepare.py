"""The trial copy made ahead (`Match.prepare`, between keys on a board): a prepared match
plays exactly as one that is not, a refusal never leaks into the next event, and a copy of
a state that has since been replaced (an undo) is never used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_core import refusal
from rules_core.match import Match
from rules_core.refusal import Refused

SETTINGS = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 3, "breaker": 0}
SCENARIOS = sorted(p for p in Path(__file__).parent.glob("scenarios/*/*.json")
                   if not p.name.startswith("_"))  # '_' files list a game's rules


def _steps(path: Path) -> tuple[dict, list]:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    return scenario["settings"], scenario["steps"]


def _outcome(match: Match, step: dict) -> str:
    try:
        if "undo" in step:
            for _ in range(step["undo"]):
                match.undo()
        elif "redo" in step:
            for _ in range(step["redo"]):
                match.redo()
        elif "event" in step:
            match.apply(step["event"])
    except Refused as refused:
        return "refused " + refused.code
    return "ok"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.parent.name + "/" + p.stem)
def test_a_prepared_match_plays_every_scenario_as_an_unprepared_one(path):
    settings, steps = _steps(path)
    plain, prepared = Match(settings), Match(settings)
    for step in steps:
        prepared.prepare()
        assert _outcome(prepared, step) == _outcome(plain, step)
        assert prepared.state.to_dict() == plain.state.to_dict()


class _Clumsy:
    """A game that changes the state it is given before it refuses one event: what a rule
    checked late in a game's apply does."""

    def __init__(self, game):
        self.game = game

    def __getattr__(self, name):
        return getattr(self.game, name)

    def apply(self, state, event):
        if event.get("t") == "clumsy":
            state.score[0] += 5
            refusal.refuse("not_now", "refused after a change")
        self.game.apply(state, event)


def test_a_refused_event_leaves_nothing_in_the_next_events_copy():
    match = Match(SETTINGS)
    match.game = _Clumsy(match.game)
    match.prepare()
    with pytest.raises(Refused):
        match.apply({"t": "clumsy"})
    assert match.state.score == [0, 0]
    match.prepare()
    match.apply({"t": "shot", "first": 1, "pocketed": [1, 9]})  # the 9 on the break
    assert match.state.score == [1, 0]


def test_the_copy_of_a_state_undone_since_is_not_used():
    plain, prepared = Match(SETTINGS), Match(SETTINGS)
    break_and_nine = [{"t": "shot", "first": 1, "pocketed": [2]},
                      {"t": "shot", "first": 1, "pocketed": [1, 9]}]
    for event in break_and_nine:
        plain.apply(event)
        prepared.apply(event)
    prepared.prepare()  # a copy of the state after the rack
    plain.undo()
    prepared.undo()  # ... which is not the state any more
    miss = {"t": "shot", "first": 1, "pocketed": []}
    plain.apply(miss)
    prepared.apply(miss)
    assert prepared.state.to_dict() == plain.state.to_dict()
    assert prepared.state.score == [0, 0]


def test_preparing_twice_copies_once():
    match = Match(SETTINGS)
    match.prepare()
    spare = match._spare
    match.prepare()
    assert match._spare is spare


class _CountingLog(list):
    """A list-like event store that counts the events read back (a board's journal reads
    each from flash)."""

    reads = 0

    def __getitem__(self, index):
        self.reads += 1
        return super().__getitem__(index)

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]


def _demo_pair() -> tuple[list, _CountingLog, Match, Match]:
    """The 9-ball demo's first 21 events; a match whose log counts the events read back, and
    a plain one to compare it with (snapshots every 8 events)."""
    doc = json.loads((Path(__file__).parents[1] / "examples" / "demo-9ball.json").read_text())
    log = _CountingLog()
    return (doc["events"][:21], log, Match(doc["settings"], log=log, snapshot_every=8),
            Match(doc["settings"], snapshot_every=8))


def test_undo_of_the_last_event_replays_nothing():
    """Issue 31: undoing the last event (the referee's usual undo) takes the state from
    before it, kept since: no event is read back and applied again (on the Pico a replay
    from the last in-RAM snapshot was 55-59 ms, the slowest key). A second undo in a row,
    and an undo after a refused event, replay as before, to the same states."""
    events, log, match, plain = _demo_pair()
    for count, event in enumerate(events, 1):
        match.apply(event)
        plain.apply(event)
        match.prepare()
        if count in (5, 13, 21):
            log.reads = 0
            match.undo()
            plain.undo()
            assert log.reads == 0, count
            assert match.state.to_dict() == plain.state.to_dict()
            match.undo()  # a second one in a row: from the snapshot, as before
            plain.undo()
            assert match.state.to_dict() == plain.state.to_dict()
            match.redo()
            match.redo()
            plain.redo()
            plain.redo()
            assert match.state.to_dict() == plain.state.to_dict()
    with pytest.raises(Refused):
        match.apply({"t": "lag", "winner": 0})
    match.undo()
    plain.undo()
    assert match.state.to_dict() == plain.state.to_dict()


def test_a_shed_match_holds_one_state_and_plays_and_undoes_as_before():
    """Issue 31: a board short of heap lets go of the copy made ahead and of the state before
    the last event (Match.shed): the match then plays on, and an undo replays from the last
    snapshot, to the same states as a match that kept them."""
    events, log, match, plain = _demo_pair()
    for count, event in enumerate(events, 1):
        match.apply(event)
        plain.apply(event)
        match.prepare()
        match.shed()
        assert match._spare is None and match._before is None
        if count in (5, 13, 21):
            log.reads = 0
            match.undo()
            plain.undo()
            assert log.reads == count - 1 - (count - 1) // 8 * 8  # replayed from the snapshot
            assert match.state.to_dict() == plain.state.to_dict()
            match.redo()
            plain.redo()
        assert match.state.to_dict() == plain.state.to_dict()
