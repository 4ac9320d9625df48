"""The club's season in Finnish and Swedish: the desk's season pages (/desk/season, its money
and texts page, the people screen), the hall's /series.html, a form answered in the page's
language, and the CLI's season commands under LANG=fi_FI.UTF-8 and sv_FI.UTF-8 (their output,
their refusals and their help: no English left, as tests/i18n/test_cli_languages.py finds
it). The texts to post follow the tournament's language, not the page's or the CLI's
(tests/season/test_prize.py)."""

from __future__ import annotations

import re

import pytest

from host.cli import main
from host.desk.app import make
from host.hall.app import Hall
from host.season import prize, series
from host.tournament.store import Store
from tests.desk.client import hidden
from tests.desk.test_desk_season import stores as stores  # noqa: F401  (the fixture)
from tests.i18n.test_cli_languages import english_in, speaking
from tests.i18n.test_desk_languages import Speaking, _check
from tests.i18n.test_hall_languages import LANGUAGES, english_left


@pytest.fixture
def season(stores):  # noqa: F811
    """The desk's store with a series of the three nights (one a later date left out), a
    point table, prize money saved and printed, a person with a club, and a join."""
    db = stores[0]
    with Store.open(db) as store:
        series.new_series(store, "Syksy", "kaisa", points_name="club", best_of=2)
        for night, day in (("Ilta 1", "1.9.2026"), ("Ilta 2", "8.9.2026")):
            series.add_nights(store, "Syksy", [night], day)
        tid = store.tournaments.get("Ilta 1")["id"]
        store.series.save_prize(tid, prize.settings_from("10", 3, paid="70,30"), True)
        store.people.set_details("A", "BK Kuopio", "2231")
        extra = store.people.add("Bea")
        store.people.join("B", "#%d" % extra, "kirjoitusvirhe")
    return db


ACTIONS = ("new", "add", "remove", "table", "close", "points", "list", "complete", "set",
           "link", "join", "split", "history", "invitation", "results")
PAGES = ["/desk/season", "/desk/season?series=Syksy&date=1.9.2026", "/desk/people",
         "/desk/season/money?invite=1&date=1.10.2026&time=18:00&place=Sali&fee=10&series=Syksy",
         "/desk/season/money?link=https://bk.example/ilta&results_series=Syksy",
         "/series.html", "/series.html?series=Syksy&date=1.9.2026"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_seasons_pages_in_finnish_and_swedish(season, language):
    left = english_left(language)
    hall = Hall(season, "Ilta 1")
    browser = Speaking(make(hall), hall, language)
    for path in PAGES:
        status, html = browser.get(path)
        _check(html, status, language, left, path)
    # a form answered in the page's language, and the season's own refusal too
    _status, page = browser.get("/desk/season")
    status, html = browser.post("/desk/season/points", {
        "tournament": hidden(page, "points", "tournament"), "state": hidden(page, "points"),
        "table": "club", "win": "3"})
    _check(html, status, language, left, "points")
    status, html = browser.post("/desk/season/new", {
        "tournament": hidden(page, "points", "tournament"), "state": hidden(page, "points"),
        "name": "Syksy", "game": "kaisa"})
    assert status in (400, 409)
    _check(html, 200, language, left, "refused")
    _status, page = browser.get("/desk/people")
    status, html = browser.post("/desk/people/details", {
        "state": hidden(page, "details"), "person": "#1", "club": "PK", "licence": ""})
    _check(html, status, language, left, "people")


def _season_calls(db: str) -> list[list[str]]:
    return [
        ["people"], ["people", "complete", "a"], ["people", "history"],
        ["people", "set", "C", "--club", "BK"],
        ["series"], ["series", "table", "Syksy"], ["series", "table", "Syksy", "--date",
                                                    "1.9.2026"],
        ["series", "points"], ["series", "points", "club", "--win", "2"],
        ["series", "new", "Kevät", "--game", "kaisa", "--from", "1.1.2027"],
        ["series", "add", "Kevät", "Ilta 3", "--date", "2.2.2027"],
        ["series", "remove", "Kevät", "Ilta 3"],
        ["prize", "--tournament", "Ilta 2", "--fee", "10", "--save"],
        ["tournament", "language", "--tournament", "Ilta 2"],
        ["series", "close", "Kevät"],
        # refusals
        ["series", "new", "Syksy", "--game", "kaisa"],
        ["series", "add", "Syksy", "Ilta 1"],
        ["series", "table", "Nothing"],
        ["series", "new", "X", "--game", "kaisa", "--from", "31.2.2026"],
        ["series", "new", "X", "--game", "kaisa", "--tie-break", "luck"],
        ["series", "points", "club", "--places", "a,b"],
        ["people", "join", "A", "B", "--reason", "x"],
        ["people", "split", "A", "--reason", "x"],
        ["people", "set", "Nobody", "--club", "x"],
        ["prize", "--fee", "ten"],
        ["prize", "--fee", "10", "--paid", "50,20"],
        ["prize", "--fee", "10", "--print"],
        ["post", "invitation", "--time", "six"],
        ["post", "results", "--series", "Nothing"],
        # help
        ["series", "--help"], ["series", "new", "--help"], ["series", "add", "--help"],
        ["series", "points", "--help"], ["people", "--help"], ["people", "join", "--help"],
        ["people", "link", "--help"], ["prize", "--help"], ["post", "invitation", "--help"],
        ["post", "results", "--help"], ["tournament", "language", "--help"],
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_seasons_commands_speak_the_environments_language(season, monkeypatch, capsys,
                                                              lang):
    speaking(monkeypatch, lang)
    failures = []
    for argv in _season_calls(season):
        try:
            code = main(["--db", season, *argv])
        except SystemExit as exit_:
            code = exit_.code
        out = capsys.readouterr()
        text = out.out + out.err
        if "--help" in argv:  # (the actions' own names, listed as typed: series table, ...)
            text = re.sub(r"(?m)^    (%s)\b" % "|".join(ACTIONS), " ", text)
        left = english_in(text, lang)
        if "Traceback" in text or left or code not in (0, 2):
            failures.append("%s: exit %s, English %s: %r" % (" ".join(argv), code, left,
                                                               text[:300]))
    assert not failures, "\n".join(failures)
