"""Kaisa's game clock (rules_core/kaisa_clock.py, seed §6) at its edges: the words of every
refusal the referee can meet at the clock keys, a break's time credited to the game time up
to its 5 minutes and no more, and the clock carried across a power cut unchanged."""

from __future__ import annotations

import pytest

from rules_core.kaisa_clock import BREAK_MS, GAME_MS, WARN_MS, Clock
from rules_core.refusal import Refused

MIN = 60 * 1000


def refused(call, *args) -> tuple[str, str]:
    with pytest.raises(Refused) as caught:
        call(*args)
    return caught.value.code, caught.value.text


def test_the_seeds_times():
    assert (GAME_MS, BREAK_MS, WARN_MS) == (60 * MIN, 5 * MIN, 5 * MIN)
    clock = Clock()
    clock.start(0)
    assert clock.left(0) == 60 * MIN and clock.played(0) == 0
    assert Clock().left(5) == 60 * MIN  # not started: nothing played


@pytest.mark.parametrize("player", [2, -1, True, 1.0, None])
def test_a_break_is_taken_by_player_0_or_1(player):
    clock = Clock()
    clock.start(0)
    assert refused(clock.take_break, player, 10) == ("bad_player",
                                                     "'player' must be player 0 or 1")


def test_the_refusals_at_the_clock_keys():
    clock = Clock()
    assert refused(clock.take_break, 0, 0) == ("no_break",
                                               "a break is taken during the game time")
    assert refused(clock.end_break, 0) == ("no_break", "nobody is on a break")
    clock.start(0)
    assert refused(clock.start, 5) == ("clock_started", "the game clock is already running")
    clock.take_break(0, MIN)
    assert refused(clock.take_break, 1, MIN) == ("no_break", "a break is already on")
    clock.end_break(2 * MIN)
    assert refused(clock.take_break, 0, 3 * MIN) == ("no_break", "each player has one break")
    clock.take_break(1, 3 * MIN)
    clock.end_break(4 * MIN)
    late = Clock()
    late.start(0)
    assert late.poll(60 * MIN) == ["five_left", "time_up"]
    assert refused(late.take_break, 0, 60 * MIN) == ("no_break",
                                                     "a break is taken during the game time")
    ended = Clock()
    ended.start(0)
    assert refused(ended.take_break, 1, 61 * MIN) == ("no_break",
                                                      "a break is taken during the game time")


def test_a_break_counts_up_to_five_minutes_and_signals_its_end_once():
    clock = Clock()
    clock.start(0)
    clock.take_break(1, 10 * MIN)
    assert clock.break_left(12 * MIN) == 3 * MIN
    assert clock.played(12 * MIN) == 10 * MIN
    assert clock.poll(15 * MIN) == ["break_over:1"]
    assert clock.poll(16 * MIN) == []
    assert clock.played(17 * MIN) == 12 * MIN  # 7 minutes away: 5 credited, 2 played
    clock.end_break(17 * MIN)
    assert clock.on_break is None and clock.break_left(17 * MIN) == 0
    assert clock.played(20 * MIN) == 15 * MIN
    assert clock.left(20 * MIN) == 45 * MIN


def test_the_clock_comes_back_from_the_journal_as_it_was():
    clock = Clock()
    clock.start(1000)
    clock.take_break(0, 2000)
    clock.poll(2000)
    saved = clock.to_dict()
    assert saved == {"game_ms": GAME_MS, "break_ms": BREAK_MS, "warn_ms": WARN_MS,
                     "started": 1000, "credited": 0, "breaks": [True, False],
                     "on_break": 0, "break_from": 2000, "said": []}
    again = Clock.from_dict(saved)
    saved["breaks"][1] = True  # the saved copy is not the clock's own list
    assert again.to_dict()["breaks"] == [True, False]
    assert again.played(5000) == clock.played(5000) and again.on_break == 0
    clock.breaks[1] = True
    assert saved["breaks"] == [True, True] and again.breaks == [True, False]
