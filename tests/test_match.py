"""The match engine's own mechanics: the packed log, snapshots and deep undo."""

from __future__ import annotations

import pytest

from rules_core.eventlog import PackedLog
from rules_core.match import Match
from rules_core.refusal import Refused

SETTINGS = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 50, "breaker": 0}


def test_packed_log_behaves_like_a_list():
    events = [{"t": "shot", "pocketed": [n]} for n in range(1, 6)] + [{"t": "lag", "winner": 1}]
    log = PackedLog(events)
    assert len(log) == 6 and list(log) == events and log[-1] == events[-1]
    assert log.pop() == events[-1] and list(log) == events[:-1]
    log.append({"t": "warn", "player": 0})
    assert log[5] == {"t": "warn", "player": 0}
    with pytest.raises(IndexError):
        log[6]


def _racks(count: int) -> list[dict]:
    """Each rack: a legal break pocketing the 9 (won on the break by the winner, who breaks)."""
    events = []
    for _ in range(count):
        events.append({"t": "shot", "first": 1, "pocketed": [2]})
        events.append({"t": "shot", "first": 1, "pocketed": [1, 9]})
    return events


def test_undo_from_any_depth_restores_the_exact_state():
    match = Match(SETTINGS, snapshot_every=4, snapshots_kept=2)
    states = [match.state.to_dict()]
    for event in _racks(20):
        match.apply(event)
        states.append(match.state.to_dict())
    for depth in range(len(states) - 1, 0, -1):
        match.undo()
        assert match.state.to_dict() == states[depth - 1]
    with pytest.raises(Refused):
        match.undo()
    for depth in range(1, len(states)):
        match.redo()
        assert match.state.to_dict() == states[depth]


def test_snapshots_are_bounded():
    match = Match(SETTINGS, snapshot_every=4, snapshots_kept=3)
    for event in _racks(20):
        match.apply(event)
    assert len(match._snapshots) <= 4


def test_a_match_resumes_from_a_stored_log():
    played = Match(SETTINGS)
    for event in _racks(3):
        played.apply(event)
    resumed = Match(SETTINGS, log=PackedLog(list(played.log)))
    assert resumed.state.to_dict() == played.state.to_dict()
    resumed.undo()
    assert resumed.state.score == [2, 0]
