"""What every game's Hypothesis state machine checks on the engine, defined once."""

from __future__ import annotations

from hypothesis import event

from rules_core import canon
from rules_core.match import Match
from rules_core.refusal import Refused


def try_event(match: Match, referee) -> tuple[dict, dict] | None:
    """Apply one referee event. A refusal must change nothing (None is returned); an
    accepted event must never follow the end, and undo then redo must restore the states
    before and after it exactly. Returns (state before, state after) as dicts."""
    before = match.state.to_dict()
    length = len(match.log)
    try:
        match.apply(referee)
    except Refused as refusal:
        event("refused " + refusal.code)
        assert refusal.code and refusal.text
        assert match.state.to_dict() == before
        assert len(match.log) == length
        return None
    assert not before["finished"], "an event was accepted after the end of the match"
    after = match.state.to_dict()
    match.undo()
    assert match.state.to_dict() == before
    match.redo()
    assert match.state.to_dict() == after
    return before, after


def undo_then_redo(match: Match) -> None:
    if not len(match.log):
        return
    now = canon.dumps(match.state.to_dict())
    match.undo()
    match.redo()
    assert canon.dumps(match.state.to_dict()) == now


def replay_gives_the_same_state(match: Match) -> None:
    twin = Match(match.settings)
    for logged in match.log:
        twin.apply(logged)
    assert canon.dumps(twin.state.to_dict()) == canon.dumps(match.state.to_dict())
