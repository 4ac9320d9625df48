"""The people screen at the director's desk over HTTP (host/desk/season_people.py, the app
called in-process): the people across the nights listed; two spellings of one person joined
with a reason, the join taken back, a club and licence number set — the same rows as `pilkku
people join|split|set` make on a copy of the store; and every form fed bad input, sent without
the form token or stale, refused with the store's revision unchanged."""

from __future__ import annotations

import pytest

from host.season import series
from tests.desk.client import hidden
from tests.desk.test_desk_season import desk, pilkku, revision, rows, season_of
from tests.desk.test_desk_season import stores as stores  # noqa: F401  (the fixture)


@pytest.fixture
def linked(stores):  # noqa: F811
    """The two stores with the three nights in a series: A, B, C and D are people."""
    from host.tournament.store import Store

    for db in stores:
        with Store.open(db) as store:
            series.new_series(store, "Syksy", "kaisa")
            series.add_nights(store, "Syksy", ["Ilta 1", "Ilta 2", "Ilta 3"], "1.9.2026")
    return stores


def ids(db: str) -> dict[str, int]:
    from host.tournament.store import Store

    with Store.open(db) as store:
        return {p["name"]: p["id"] for p in store.people.all()}


def refused(browser, db: str, path: str, fields: dict, status: int, words: str,
            **how) -> None:
    before = revision(db)
    got, page = browser.post(path, fields, **how)
    assert got == status, page[-800:]
    assert words in page, page[-1500:]
    assert revision(db) == before, "the store changed on a refused form"


def test_the_people_screen_joins_splits_and_sets_as_the_cli_does(linked):
    desk_db, cli_db = linked
    browser = desk(desk_db)
    status, page = browser.get("/desk")
    assert 'href="/desk/people"' in page  # the menu's link
    status, page = browser.get("/desk/people")
    assert status == 200
    listed = {r[1]: r for r in rows(page, "people-list")}
    assert set(listed) == {"A", "B", "C", "D"} and listed["C"][-1] == "3"  # nights played
    who = ids(desk_db)
    status, page = browser.post("/desk/people/join", {
        "state": hidden(page, "join"), "kept": "#%d" % who["A"], "joined": "#%d" % who["B"],
        "reason": "kirjoitusvirhe"})
    assert status == 400 and "both played" in page  # A and B played Ilta 1: two people
    status, page = browser.get("/desk/people")
    with_d = {"state": hidden(page, "join"), "kept": "#%d" % who["B"],
              "joined": "#%d" % who["D"], "reason": "the same person"}
    before = revision(desk_db)
    status, page = browser.post("/desk/people/join", dict(with_d))
    assert status == 400 and revision(desk_db) == before  # B and D met on Ilta 2
    # people who never met: a person of his own made for the join
    assert pilkku(desk_db, "people", "add", "Bea") == 0
    assert pilkku(cli_db, "people", "add", "Bea") == 0
    who = ids(desk_db)
    status, page = browser.get("/desk/people")
    status, page = browser.post("/desk/people/join", {
        "state": hidden(page, "join"), "kept": "#%d" % who["B"], "joined": "#%d" % who["Bea"],
        "reason": "a typo on the sheet"})
    assert status == 200, page[-600:]
    assert "#%d joined into #%d" % (who["Bea"], who["B"]) in page
    assert pilkku(cli_db, "people", "join", "#%d" % who["B"], "#%d" % who["Bea"],
                  "--reason", "a typo on the sheet") == 0
    assert "Bea" not in {r[1] for r in rows(page, "people-list")}
    assert "a typo on the sheet" in page.split('id="join-history"')[1]
    status, page = browser.post("/desk/people/split", {
        "state": hidden(page, "details"),
        "joined": "#%d" % who["Bea"], "reason": "two people after all"})
    assert status == 200, page[-600:]
    assert pilkku(cli_db, "people", "split", "#%d" % who["Bea"], "--reason",
                  "two people after all") == 0
    status, page = browser.post("/desk/people/details", {
        "state": hidden(page, "details"), "person": "#%d" % who["C"], "club": "BK Kuopio",
        "licence": "2231"})
    assert status == 200 and "BK Kuopio" in page, page[-600:]
    assert pilkku(cli_db, "people", "set", "#%d" % who["C"], "--club", "BK Kuopio",
                  "--licence", "2231") == 0
    assert season_of(desk_db)["people"] == season_of(cli_db)["people"]
    assert ([{k: v for k, v in j.items() if k != "undone"}
             for j in season_of(desk_db)["people_joins"]]
            == [{k: v for k, v in j.items() if k != "undone"}
                for j in season_of(cli_db)["people_joins"]])


def test_bad_input_on_the_people_screen_changes_nothing(linked):
    desk_db, _cli_db = linked
    browser = desk(desk_db)
    who = ids(desk_db)
    _status, page = browser.get("/desk/people")
    state = hidden(page, "join")
    good = {"state": state, "kept": "#%d" % who["A"], "joined": "#%d" % who["D"],
            "reason": "typo"}
    for bad, words in (({"reason": ""}, "say why"), ({"reason": "x" * 201}, "say why"),
                       ({"kept": ""}, "choose"), ({"joined": "D"}, "choose"),
                       ({"joined": "#%d" % who["A"]}, "the same person already"),
                       ({"joined": "#999"}, "no person #999"),
                       ({"state": "old"}, "changed since")):
        refused(browser, desk_db, "/desk/people/join", dict(good, **bad),
                409 if "state" in bad else 400, words)
    refused(browser, desk_db, "/desk/people/join", good, 403, "form", csrf=None)
    refused(browser, desk_db, "/desk/people/split", {"state": state, "joined": "#%d" % who["A"],
                                                     "reason": "oops"}, 400,
            "was not joined into anybody")
    refused(browser, desk_db, "/desk/people/details", {"state": state, "person": "#%d" % who["A"],
                                                       "club": "<b>", "licence": ""}, 400,
            "no &lt; or &gt;")
    refused(browser, desk_db, "/desk/people/details", {"state": state, "person": "#%d" % who["A"],
                                                       "club": "x" * 41, "licence": ""}, 400,
            "at most 40")
    refused(browser, desk_db, "/desk/people/nothing", {"state": state}, 404, "no form")
    outsider = desk(desk_db, cookie=False)
    assert outsider.get("/desk/people")[0] == 403
