"""Players' names on a desk board's message row: short, never alike within a match, and the
Finnish and Swedish letters drawn (read back from the displays by the HT16K33 model)."""

from __future__ import annotations

from desk_board import DeskBoard
from displays import seen, shown

from firmware import screens
from firmware.app import App
from firmware.config import Config
from firmware.journal import Journal


def scheduled_board(tmp_path, players: list[str]) -> DeskBoard:
    folder = str(tmp_path) + "/"
    Config(folder).set_schedule([{"match_id": "R1-01", "settings": {
        "game": "9ball", "players": players, "race_to": 3}}])
    desk = DeskBoard()
    desk.app = App(desk, store=Journal(str(tmp_path / "journal")), config=Config(folder))
    desk.run(20)
    desk.tap("#", "1")  # start the scheduled match; the first player won the lag
    return desk


def test_two_annas_are_told_apart_by_their_surnames(tmp_path):
    desk = scheduled_board(tmp_path, ["Anna Aho", "Anna Berg"])
    assert shown(desk) == "ANNA A BRK?"
    desk.tap("2")  # ... and gives the break to the other Anna
    assert shown(desk) == "ANNA B BRK"
    assert seen(desk)[3] == "ANNA B B"  # the row scrolls the rest


def test_finnish_and_swedish_letters_show_on_the_row(tmp_path):
    desk = scheduled_board(tmp_path, ["\u00c4ij\u00e4l\u00e4", "\u00c5str\u00f6m"])
    desk.tap("1")
    assert seen(desk)[3] == "AIJA BRK"  # Äijälä breaks: the glass reads its capitals


def test_short_names_differ_however_alike_the_names_are():
    short = screens._short_names
    assert short(["PL 1", "PL 2"]) == ["PL 1", "PL 2"]
    assert short(["ANNA AHO", "ANNA AHONEN"]) == ["ANNA AHO", "ANNA AHON"]
    assert short(["JOHANNES", "JOHANNA"]) == ["JOHANNE", "JOHANNA"]
    assert short(["ANNA AHO", "ANNA AHO"]) == ["ANNA 1", "ANNA 2"]
    assert short(["", ""]) == ["P1", "P2"]
