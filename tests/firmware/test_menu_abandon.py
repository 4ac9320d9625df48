"""An abandoned scheduled match is no result (firmware/app.py, firmware/menu.py): the board
files it away for the laptop, marked abandoned, but does not hold it as the scheduled match's
result, so the menu offers the match again at once, after the laptop sends the schedule
again, and after a restart (where the menu reads which match each held result is for from
flash). A match played to its end is held (test_menu_panel.py). Desk board, real journal and
config on disk."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard
from displays import shown
from menu_setup import SCHEDULE, offered, start_the_first_match, with_the_schedule


@pytest.fixture
def folder(tmp_path):
    return with_the_schedule(tmp_path)


def abandon_the_first_match(desk: DeskBoard) -> None:
    start_the_first_match(desk)
    desk.tap("A")  # a dry break: the match is under way
    desk.hold("*")
    assert shown(desk) == "ABANDON? # YES"
    desk.tap("#")  # abandoned: filed away for the laptop, unfinished
    assert desk.app.match is None
    assert desk.app.store.finished() == [1]
    assert desk.app.store.meta(1)["abandoned"] is True


def test_an_abandoned_scheduled_match_is_offered_again(folder):
    desk = DeskBoard(folder).boot()
    abandon_the_first_match(desk)
    assert offered(desk)[0].startswith("R1-01 ANNA-BERT")
    # The laptop sends the schedule again (it has not taken the abandoned log yet).
    desk.app.config.set_schedule(SCHEDULE)
    desk.app.schedule_changed()
    assert offered(desk)[0].startswith("R1-01 ANNA-BERT")


def test_after_a_restart_the_abandoned_match_is_still_offered(folder):
    abandon_the_first_match(DeskBoard(folder).boot())
    again = DeskBoard(folder).boot()  # reads its held results' matches from flash
    assert again.app.store.finished() == [1]
    assert offered(again)[0].startswith("R1-01 ANNA-BERT")
    assert [c for c in offered(again) if c.startswith("R1-02")]
