"""What the menu's tests on a desk board share (test_menu_panel.py, test_menu_abandon.py):
two scheduled 9-ball races to one in the board's config on disk, the menu's choices as it
offers them, and the first of them started."""

from __future__ import annotations

from pathlib import Path

from desk_board import DeskBoard

from firmware.config import Config


def scheduled(match_id: str, players: list[str]) -> dict:
    return {"match_id": match_id,
            "settings": {"game": "9ball", "players": players, "race_to": 1}}


SCHEDULE = [scheduled("R1-01", ["Anna", "Bert"]), scheduled("R1-02", ["Cay", "Dora"])]


def with_the_schedule(folder: Path) -> Path:
    """The board's folder with SCHEDULE in its config, as the laptop's sync leaves it."""
    Config(str(folder) + "/").set_schedule(SCHEDULE)
    return folder


def offered(desk: DeskBoard) -> list[str]:
    """Every choice the menu offers, read by stepping through it with C."""
    menu = desk.app.menu
    seen = []
    for _ in range(len(menu.schedule) + len(menu.games)):
        seen.append(menu.frame()[3])
        desk.tap("C")
    return seen


def start_the_first_match(desk: DeskBoard) -> None:
    """R1-01 offered first and started; ANNA won the lag and breaks."""
    assert offered(desk)[0].startswith("R1-01 ANNA-BERT")
    desk.tap("#")  # start R1-01
    desk.tap("1", "1")
