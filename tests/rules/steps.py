"""One step of a game through Match.apply, checked: the notes it leaves and the fields named,
or the refusal's code and words with nothing changed."""

from __future__ import annotations

import pytest

from rules_core.match import Match
from rules_core.refusal import Refused


def step(match: Match, event: dict, notes=None, refused=None, **fields):
    """Apply `event`; it must leave `notes` and `fields`, or be refused with (code, words)
    and change nothing."""
    before = match.state.to_dict()
    if refused is not None:
        with pytest.raises(Refused) as caught:
            match.apply(event)
        assert (caught.value.code, caught.value.text) == refused, event
        assert match.state.to_dict() == before
        return
    match.apply(event)
    state = match.state.to_dict()
    assert state["notes"] == notes, event
    for name, value in fields.items():
        assert state[name] == value, (event, name)
