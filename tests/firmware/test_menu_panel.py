"""The menu between matches on a desk board with a real journal and config on disk: a
scheduled match played to its end is never offered again while its result is on the board."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard
from menu_setup import SCHEDULE, offered, scheduled, start_the_first_match, with_the_schedule

from firmware.between_keys import FLASH_IDLE_MS
from firmware.config import Config


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


def test_the_leave_key_reads_and_writes_no_kept_file_the_quiet_ticks_do(folder, monkeypatch):
    desk = boot(folder)
    start_the_first_match(desk)
    desk.tap("9", "A")
    config = desk.app.config
    kept: list[str] = []
    read, write = config.schedule, config.set_schedule
    monkeypatch.setattr(config, "schedule", lambda: kept.append("read") or read())
    monkeypatch.setattr(config, "set_schedule", lambda m: kept.append("write") or write(m))
    desk.tap("#")  # leave the result
    assert kept == []  # the key: the F record and the menu from its own list, no kept file
    assert offered(desk)[0].startswith("R1-02 CAY-DORA")
    assert [m["match_id"] for m in Config(str(folder) + "/").schedule()] == ["R1-01", "R1-02"]
    desk.run_loop(FLASH_IDLE_MS + 500)  # the keys stop: the played match leaves the kept file
    assert kept == ["read", "write"]
    assert [m["match_id"] for m in Config(str(folder) + "/").schedule()] == ["R1-02"]
    assert offered(boot(folder))[0].startswith("R1-02 CAY-DORA")


def test_a_schedule_sent_during_a_match_is_the_menu_once_the_match_is_left(folder):
    desk = boot(folder)
    start_the_first_match(desk)
    sent = [scheduled("R1-02", ["Cay", "Dora"]), scheduled("R2-01", ["Eve", "Finn"])]
    desk.app.config.set_schedule(sent)  # as the sync endpoint does
    desk.app.schedule_changed()
    assert desk.app.match is not None  # the match stays up
    desk.tap("9", "A")
    desk.tap("#")
    choices = offered(desk)
    assert choices[0].startswith("R1-02 CAY-DORA") and choices[1].startswith("R2-01 EVE-FINN")


def test_two_matches_played_before_the_keys_stop_both_leave_the_kept_schedule(folder):
    desk = boot(folder)
    play_first_match_to_the_end(desk)  # R1-01, left
    assert offered(desk)[0].startswith("R1-02")
    desk.tap("#", "1", "1", "9", "A")  # R1-02 at once: started, the lag, the 9 on the break
    assert desk.app.match.state.finished
    desk.tap("#")
    desk.run_loop(FLASH_IDLE_MS + 500)
    assert Config(str(folder) + "/").schedule() == []
