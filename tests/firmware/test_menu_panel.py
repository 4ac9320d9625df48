"""The menu between matches on a desk board with a real journal and config on disk: a
scheduled match played to its end is never offered again while its result is on the board."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard
from menu_setup import SCHEDULE, offered, start_the_first_match, with_the_schedule


def boot(folder) -> DeskBoard:
    return DeskBoard(folder).boot()


@pytest.fixture
def folder(tmp_path):
    return with_the_schedule(tmp_path)


def play_first_match_to_the_end(desk: DeskBoard) -> None:
    start_the_first_match(desk)
    desk.tap("9", "A")  # the 9 on the break: the race to 1 is won
    assert desk.app.match.state.finished
    desk.tap("#")  # leave the result: the match is closed in the journal


def test_a_finished_scheduled_match_leaves_the_menu(folder):
    desk = boot(folder)
    play_first_match_to_the_end(desk)
    choices = offered(desk)
    assert not [c for c in choices if "R1-01" in c]
    assert choices[0].startswith("R1-02 CAY-DORA")
    assert desk.app.store.finished() == [1]


def test_a_resent_match_is_not_offered_while_its_result_is_held(folder):
    desk = boot(folder)
    play_first_match_to_the_end(desk)
    # The laptop sends the schedule again before it has taken the result.
    desk.app.config.set_schedule(SCHEDULE)
    desk.app.schedule_changed()
    assert not [c for c in offered(desk) if "R1-01" in c]
    # A restarted board reads which match its held result is for from flash.
    again = boot(folder)
    assert not [c for c in offered(again) if "R1-01" in c]
    assert offered(again)[0].startswith("R1-02")
    # Once the laptop has acknowledged the result, its schedule is the truth again.
    assert again.app.store.acknowledge(1)
    again.app.schedule_changed()
    assert offered(again)[0].startswith("R1-01")
