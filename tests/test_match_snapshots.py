"""What the match engine promises the board about undo and resume (rules_core/match.py):

- an undo costs a few events' replay however long the match has run (snapshots every 32
  events, the last four kept; docs/performance.md's undo budget rests on it);
- a log that keeps snapshots (the board's journal) is handed each one as it is taken;
- a match resumed from the journal's snapshot replays only the events after it, and undo
  reaches back past it;
- the panel's REDO key is lit exactly when there is something to redo.

Costs are counted, not timed: the events the engine reads back from its log."""

from __future__ import annotations

import pytest

from rules_core.eventlog import PackedLog
from rules_core.match import Match
from rules_core.refusal import Refused

SETTINGS = {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 500, "breaker": 0}


def racks(count: int) -> list[dict]:
    """Two events a rack: a legal break, then the 9 with the 1 (the breaker wins, breaks)."""
    events = []
    for _ in range(count):
        events.append({"t": "shot", "first": 1, "pocketed": [2]})
        events.append({"t": "shot", "first": 1, "pocketed": [1, 9]})
    return events


class CountingLog(PackedLog):
    """The packed log, counting the events read back and keeping what it is handed as
    snapshots, as the board's journal does."""

    def __init__(self, events=None):
        super().__init__(events)
        self.reads = 0
        self.snapshots: list[tuple[int, dict]] = []

    def __getitem__(self, index):
        self.reads += 1
        return super().__getitem__(index)

    def keep_snapshot(self, count, state):
        self.snapshots.append((count, state.to_dict()))


def played(events: list[dict], **options) -> tuple[Match, CountingLog, list[dict]]:
    log = CountingLog()
    match = Match(SETTINGS, log=log, **options)
    states = [match.state.to_dict()]
    for event in events:
        match.apply(event)
        states.append(match.state.to_dict())
    return match, log, states


def test_undo_replays_at_most_a_snapshots_worth_of_events_however_long_the_match():
    match, log, states = played(racks(150))  # 300 events
    # snapshots every 32, the last four kept: 96 undos back from 300 stay within them
    for count in range(299, 299 - 96, -1):
        log.reads = 0
        match.undo()
        assert match.state.to_dict() == states[count]
        assert log.reads <= 32, (count, log.reads)  # the popped event, then < 32 replayed


@pytest.mark.parametrize("every, kept", [(4, 3), (8, 2), (5, 1)])
def test_the_last_snapshots_kept_make_undo_cheap_back_to_the_oldest(every, kept):
    match, log, states = played(racks(30), snapshot_every=every, snapshots_kept=kept)
    oldest = (60 // every - kept + 1) * every  # the oldest snapshot still kept
    log.reads = 0
    match.undo()  # the last event: the state before it was kept, nothing replayed
    assert match.state.to_dict() == states[59] and log.reads <= 1
    for count in range(58, oldest - 1, -1):
        log.reads = 0
        match.undo()
        assert match.state.to_dict() == states[count]
        assert log.reads <= every, (count, log.reads)
    last = min(58, oldest - 1)
    log.reads = 0
    match.undo()  # past the oldest kept: replayed from the start, and still exact
    assert match.state.to_dict() == states[last]
    assert log.reads == last + 1  # the popped event, then every one before it


def test_a_journal_is_handed_every_snapshot_as_it_is_taken():
    match, log, states = played(racks(40))  # 80 events: snapshots at 32 and 64
    assert log.snapshots == [(32, states[32]), (64, states[64])]
    _, log, states = played(racks(6), snapshot_every=5)
    assert log.snapshots == [(5, states[5]), (10, states[10])]


def test_a_resumed_match_replays_only_the_events_after_its_snapshot():
    events = racks(20)
    match, _, states = played(events)
    start = Match(SETTINGS)
    for event in events[:32]:
        start.apply(event)
    log = CountingLog(events)
    resumed = Match(SETTINGS, log=log, start=(32, start.state))
    assert log.reads == 8  # events 32..39
    assert resumed.state.to_dict() == states[40]
    for count in range(39, -1, -1):  # undo reaches back past the snapshot to the start
        resumed.undo()
        assert resumed.state.to_dict() == states[count], count
    with pytest.raises(Refused):
        resumed.undo()
    assert start.state.to_dict() == states[32]  # the snapshot given is not changed


def test_redo_is_offered_exactly_when_there_is_something_to_redo():
    match, _, _ = played(racks(2))
    assert not match.can_redo()
    match.undo()
    match.undo()
    assert match.can_redo()
    match.redo()
    assert match.can_redo()  # one left
    match.redo()
    assert not match.can_redo()
    match.undo()
    match.apply({"t": "shot", "first": 1, "pocketed": []})  # a new event: no redo now
    assert not match.can_redo()
    with pytest.raises(Refused) as refused:
        match.redo()
    assert (refused.value.code, refused.value.text) == ("nothing_to_redo", "nothing to redo")
    fresh = Match(SETTINGS)
    with pytest.raises(Refused) as refused:
        fresh.undo()
    assert (refused.value.code, refused.value.text) == ("nothing_to_undo", "nothing to undo")


def test_the_state_before_the_first_event_is_not_held_and_an_undo_to_it_replays_from_the_settings():
    """A match holds no copy of its opening state for the whole match (on a board that is a
    state's heap, ~670 bytes for Kaisa on a Pico, at its fullest moment, issue 31): the
    snapshots are only those taken every 32 events, and undoing every event makes the
    opening state again from the settings."""
    log = CountingLog()
    match = Match(SETTINGS, log=log)
    fresh = Match(SETTINGS).state.to_dict()
    for event in racks(20):  # 40 events: one snapshot, at 32
        match.apply(event)
    assert sorted(match._snapshots) == [32]
    while match.log:
        match.undo()
    assert match.state.to_dict() == fresh
    assert sorted(match._snapshots) == []
