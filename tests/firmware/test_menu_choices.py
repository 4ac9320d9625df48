"""The menu between matches (firmware/menu.py), choice by choice: what its four displays show
for a scheduled match and for each free game (the race typed, its last three digits, each
game's own default), what a free game starts with, a schedule arriving while the referee is
on a free game, schedule entries without settings skipped, and a held result whose meta
cannot be read. On the desk board: a free game's start the flash refused leaves the menu
working, and a match started without the shot clock says so in its meta."""

from __future__ import annotations

from desk_board import DeskBoard

from firmware.menu import Menu, playable


def scheduled(match_id: str, players: list[str] | None, race_to: int | None = 3) -> dict:
    settings: dict = {"game": "9ball"}
    if players is not None:
        settings["players"] = players
    if race_to is not None:
        settings["race_to"] = race_to
    return {"match_id": match_id, "settings": settings}


def test_a_scheduled_match_shows_its_code_players_and_race():
    menu = Menu([scheduled("R1-01", ["Annabella", "Bertil-Otto"], 7)])
    assert menu.frame() == ("PL 1", "PL 2", "r7", "R1-01 ANNABE-BERTIL GO")
    menu.press("B")  # the shot clock on: the colon says so
    assert menu.frame()[2] == "r7:"
    menu.press("7")  # a scheduled match's race is the tournament's: digits do nothing
    assert menu.frame()[2] == "r7:"
    assert menu.press("#") == (menu.schedule[0]["settings"], {"match_id": "R1-01"})


def test_a_scheduled_match_without_players_or_race_still_shows():
    menu = Menu([scheduled("R1-02", None, None)])
    assert menu.frame() == ("PL 1", "PL 2", "r", "R1-02 ?-? GO")


def test_each_free_game_has_its_own_default_race_and_the_last_three_digits_count():
    menu = Menu()
    shown = []
    for _ in menu.games:
        shown.append(menu.frame()[2:])
        menu.press("C")
    assert shown == [("r5", "9BALL GO"), ("r5", "8BALL GO"), ("r100", "14.1 GO"),
                     ("r60", "KAISA GO")]
    assert menu.frame()[2:] == ("r5", "9BALL GO")  # round again
    for key in "1234":
        menu.press(key)
    assert menu.frame()[2] == "r234"
    menu.press("0")
    assert menu.frame()[2] == "r340"
    assert menu.press("#") == ({"game": "9ball", "players": ["PL 1", "PL 2"], "race_to": 340},
                               {})
    assert menu.frame() == ("PL 1", "PL 2", "r340", "9BALL GO")


def test_an_empty_schedule_leaves_the_free_game_and_race_the_referee_was_on():
    menu = Menu()
    menu.press("7")
    menu.set_schedule([])  # a sync on a free night: nothing scheduled
    assert menu.frame()[2:] == ("r7", "9BALL GO")
    menu.press("C")
    menu.press("C")
    menu.press("9")
    menu.set_schedule([])
    assert menu.frame()[2:] == ("r9", "14.1 GO")


def test_a_schedule_arriving_puts_its_first_match_first():
    menu = Menu()
    menu.press("C")
    menu.press("C")  # on 14.1
    menu.press("9")
    menu.set_schedule([scheduled("R1-01", ["Anna", "Bert"]), scheduled("R1-02", ["Cay", "Dora"])])
    assert menu.frame()[3] == "R1-01 ANNA-BERT GO"
    menu.press("C")
    menu.press("C")
    assert menu.frame()[2:] == ("r5", "9BALL GO")  # the free games' defaults again


def test_schedule_entries_without_settings_are_not_offered():
    menu = Menu([{"match_id": "R1-09"}, "settings", scheduled("R1-01", ["Anna", "Bert"])])
    assert [m["match_id"] for m in menu.schedule] == ["R1-01"]
    assert menu.frame()[3] == "R1-01 ANNA-BERT GO"


class DamagedStore:
    """A journal with one filed result whose meta cannot be read."""

    def finished(self):
        return [1]

    def meta(self, seq):
        raise ValueError("damaged")


def test_a_held_result_whose_meta_cannot_be_read_holds_back_no_match():
    schedule = [scheduled("R1-01", ["Anna", "Bert"])]
    held: dict = {}
    assert playable(schedule, DamagedStore(), held) == schedule
    assert held == {1: None}


def test_a_free_game_the_flash_refused_leaves_the_menu_working():
    board = DeskBoard().boot()

    def full(settings, meta):
        raise OSError(28)  # ENOSPC: the journal could not write

    board.app.store.start = full
    board.tap("4", "#")
    assert board.app.match is None
    board.run(3000)
    board.tap("7")  # the race typed afresh
    assert board.texts()["clock"] == "  r7"


def test_a_match_started_without_the_shot_clock_says_so_in_its_meta():
    board = DeskBoard().boot()
    board.tap("3", "#")
    assert board.app.match_meta["shot_clock"] is False
