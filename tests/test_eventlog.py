"""The packed event log (rules_core/eventlog.py): a list of event dicts kept as canonical text
in 256-byte chunks, so a long match's log costs its text, not three times it in dicts. Undo
pops from it and replay reads it by index, across chunk boundaries; a wrong offset would give
the referee another match."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import canon
from rules_core.eventlog import PackedLog


def event_of_length(length: int, n: int = 0) -> dict:
    """An event whose canonical text is exactly `length` bytes."""
    base = {"t": "shot", "n": n, "x": ""}
    pad = length - len(canon.dumps(base))
    base["x"] = "a" * pad
    assert len(canon.dumps(base)) == length
    return base


def test_events_fill_each_chunk_exactly_then_open_the_next():
    events = [event_of_length(32, n) for n in range(17)]  # 8 fit a chunk exactly
    log = PackedLog(events)
    assert log.text_size() == 3 * 256
    assert list(log) == events
    log = PackedLog(events[:16])
    assert log.text_size() == 2 * 256
    log.append(events[16])
    assert log.text_size() == 3 * 256 and log[16] == events[16]


def test_an_event_longer_than_a_chunk_gets_a_chunk_of_its_size():
    small, big = event_of_length(40), event_of_length(300, 1)
    log = PackedLog([small, big, small])
    assert log.text_size() == 256 + 300 + 256
    assert [log[0], log[1], log[2]] == [small, big, small]
    assert log.pop() == small and log.text_size() == 256 + 300
    assert log.pop() == big and log.text_size() == 256


def test_popping_a_chunk_empty_frees_it_and_appends_start_there_again():
    events = [event_of_length(32, n) for n in range(9)]
    log = PackedLog(events)
    assert log.pop() == events[8] and log.text_size() == 256 and len(log) == 8
    assert log[-1] == events[7]
    log.append(events[0])
    assert log.text_size() == 512 and log[8] == events[0]


def test_indexing_at_and_past_both_ends():
    events = [event_of_length(50, n) for n in range(12)]
    log = PackedLog(events)
    for index in range(-12, 12):
        assert log[index] == events[index], index
    for index, named in ((12, 12), (13, 13), (-13, -1)):
        with pytest.raises(IndexError, match="^no event %d$" % named):
            log[index]
    assert len(PackedLog()) == 0 and list(PackedLog()) == []
    with pytest.raises(IndexError):
        PackedLog()[0]


EVENTS = st.builds(lambda n, pad: {"t": "shot", "n": n, "x": "ä" * pad},
                   st.integers(0, 99), st.integers(0, 160))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(EVENTS, st.none()), max_size=40))
def test_appends_and_pops_behave_as_a_list(steps):
    """None pops (when there is something to pop), an event appends; the log reads back as
    the list it models, at every index."""
    log, model = PackedLog(), []
    for step in steps:
        if step is None:
            if model:
                assert log.pop() == model.pop()
        else:
            log.append(step)
            model.append(step)
        assert len(log) == len(model)
    assert [log[i] for i in range(len(model))] == model == list(log)
