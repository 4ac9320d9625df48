"""The menu between matches on a desk board with a real journal and config on disk: a
scheduled match played to its end is never offered again while its result is on the board."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard

from firmware.config import Config


def scheduled(match_id: str, players: list[str]) -> dict:
    return {"match_id": match_id,
            "settings": {"game": "9ball", "players": players, "race_to": 1}}


SCHEDULE = [scheduled("R1-01", ["Anna", "Bert"]), scheduled("R1-02", ["Cay", "Dora"])]


def boot(folder) -> DeskBoard:
    return DeskBoard(folder).boot()


def offered(desk: DeskBoard) -> list[str]:
    """Every choice the menu offers, read by stepping through it with C."""
    menu = desk.app.menu
    seen = []
    for _ in range(len(menu.schedule) + len(menu.games)):
        seen.append(menu.frame()[3])
        desk.tap("C")
    return seen


@pytest.fixture
def folder(tmp_path):
    Config(str(tmp_path) + "/").set_schedule(SCHEDULE)
    return tmp_path


def play_first_match_to_the_end(desk: DeskBoard) -> None:
    assert offered(desk)[0].startswith("R1-01 ANNA-BERT")
    desk.tap("#")  # start R1-01
    desk.tap("1", "1")  # ANNA won the lag and breaks
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
