"""Play on a journal for the journal's tests on CPython (test_journal*.py, test_snapshot.py):
a new match with its first events applied; and a match's events applied, undone and redone
at random, the power cut at random moments (the journal left as a cut leaves it, opened
again and its match resumed), the match's log checked after every step."""

from __future__ import annotations

import random
from collections.abc import Callable

from firmware.journal import Journal
from rules_core.match import Match


def playing(journal: Journal, events: list, settings: dict, meta: dict | None = None
            ) -> Match:
    """`journal`'s new match (Journal.start with `settings` and `meta`), `events` applied."""
    match = journal.start(settings) if meta is None else journal.start(settings, meta)
    for event in events:
        match.apply(event)
    return match


def played_at_random(rng: random.Random, opened: Callable[[], Journal], settings: dict,
                     events: list, steps: int, apply_below: float, undo_below: float,
                     undo_most: int, cut_odds: float) -> tuple[Journal, Match, int]:
    """`steps` rolls of `rng`: below `apply_below` the next event applied, below
    `undo_below` up to `undo_most` undone, else one redone where it can be; a cut with
    `cut_odds` after each (`opened()` the journal again). (The journal, its match, how many
    events the match holds.)"""
    journal = opened()
    match = journal.start(settings)
    applied = 0
    for _ in range(steps):
        roll = rng.random()
        if roll < apply_below and applied < len(events):
            match.apply(events[applied])
            applied += 1
        elif roll < undo_below and applied:
            for _ in range(rng.randint(1, undo_most) if undo_most > 1 else 1):
                if applied:
                    match.undo()
                    applied -= 1
        elif match.can_redo():
            match.redo()
            applied += 1
        if rng.random() < cut_odds:  # a power cut between two events
            journal.close()
            journal = opened()
            match = journal.resume()
        assert list(match.log) == events[:applied]
    return journal, match, applied
