"""The smallest-heap search of `pilkku bench` on the emulated Pico (host/bench/pico_heap.py),
with a predicate in place of a trial on the chip (a trial takes a minute of emulation; the
real one runs in `pilkku bench`)."""

from __future__ import annotations

import pytest

from host.bench import pico as bench_pico
from host.bench.pico_heap import alarm, bisect


def recorded(limit: int):
    """A trial that passes up to `limit` (inclusive), and the ballasts it was given."""
    tried: list[int] = []

    def passes(ballast: int) -> bool:
        tried.append(ballast)
        return ballast <= limit

    return passes, tried


@pytest.mark.parametrize("limit", [0, 3, 4, 5, 100, 151, 196, 199, 238])
def test_the_largest_passing_ballast_is_found_to_the_step(limit):
    passes, tried = recorded(limit)
    found = bisect(passes, 0, 239, 4)
    assert found == limit - limit % 4  # the step below or at the limit
    assert tried[0] == 0 and len(set(tried)) == len(tried)  # none tried twice
    assert len(tried) <= 1 + 6  # ballast 0, then log2(60 steps) rounded up
    assert all(b % 4 == 0 and 0 <= b < 239 for b in tried)  # never the whole heap


def test_a_trial_failing_without_ballast_gives_none_and_tries_nothing_more():
    passes, tried = recorded(-1)
    assert bisect(passes, 0, 239, 4) is None
    assert tried == [0]


def test_the_search_starts_at_lo_and_stays_below_hi():
    passes, tried = recorded(47)
    assert bisect(passes, 10, 60, 5) == 45
    assert min(tried) == 10 and max(tried) < 60


def test_a_step_as_large_as_the_range_tries_only_lo():
    passes, tried = recorded(1000)
    assert bisect(passes, 0, 8, 8) == 0 and tried == [0]


@pytest.mark.parametrize("lo, hi, step", [(0, 10, 0), (5, 5, 1), (6, 5, 1)])
def test_a_bad_range_or_step_is_refused(lo, hi, step):
    with pytest.raises(ValueError):
        bisect(lambda _b: True, lo, hi, step)


def test_the_heap_search_is_on_in_the_full_bench_and_off_in_quick():
    assert bench_pico.FULL.heap_step_kb > 0
    assert bench_pico.QUICK.heap_step_kb == 0


@pytest.mark.parametrize("message", ["FLASH ER", "LASH ERR", "MEMORY A", "RESULTS FULL"])
def test_a_failure_on_the_message_row_is_an_alarm_as_its_first_cells_show_it(message):
    # "FLASH ERROR MemoryError: RESTART THE BOARD" scrolls: after its key the row shows
    # "FLASH ER", and the trial went on as if the key had been taken.
    assert alarm({"message": message}) == message


def test_the_games_own_words_are_no_alarm():
    assert alarm({"message": "KAISA 6 "}) == alarm({"message": "PL 1 WON"}) == ""
