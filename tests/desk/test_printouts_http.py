"""The printouts' pages over HTTP, in-process (no browser): only the director gets them, a
match the tournament has not or a query that is not what it should be gets a plain message
saying what to ask instead, and a name is shown as text whatever it holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from host.hall.app import COOKIE, Hall
from host.tournament import night
from host.tournament.store import Store
from tests.desk.printing import get
from tests.hall import night as nights

PAGES = ("/print/sheets?matches=R1-01", "/print/sheets/blank?count=2", "/print/draw",
         "/print/results")
HOSTILE = "<script>alert('x')</script>"


@pytest.fixture
def hall(tmp_path: Path) -> Hall:
    db = tmp_path / "desk.db"
    tid = nights.cup(db, "round_robin", players=["Äijälä Öhman", "Åsa Ek", HOSTILE, "Caisa"])
    with Store.open(db) as store:
        nights.play(store, tid, "R1-01")
    return Hall(str(db), None)


@pytest.mark.parametrize("path", PAGES)
def test_only_the_director_gets_a_printout(hall, path):
    status, body = get(hall, path, director=False)
    assert status == 403 and "only the director prints" in body and "<" not in body
    status, body = get(hall, path)
    assert status == 200 and body.startswith("<!doctype html>")


def test_a_pre_filled_sheet_names_its_match_round_table_and_players(hall):
    status, body = get(hall, "/print/sheets?matches=R1-02,R2-01,R1-02")
    assert status == 200
    sheets = re.findall(r'<span class="code">([^<]*)</span>', body)
    assert sheets == ["R1-02", "R2-01"]  # in the order asked, each once
    assert "Äijälä Öhman" in body and "Åsa Ek" in body
    assert "9-ball, race to <b>2</b>" in body
    assert "2 sheets, 4 a page: 1 page" in body


def test_a_name_is_shown_as_text_never_run(hall):
    for path in ("/print/sheets?matches=open", "/print/draw", "/print/results"):
        status, body = get(hall, path)
        assert status == 200
        assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in body, path
        assert "<script>alert" not in body, path


@pytest.mark.parametrize("query, words", [
    ("matches=R9-99", "no match 'R9-99' in Kevät Cup"),
    ("matches=R1-01,NOPE,R1-02", "no match 'NOPE'"),
    ("matches=%s" % ("X" * 21), "is not a match code"),
    ("matches=R1%07-01", "is not a match code"),
    ("matches=R1/01", "is not a match code"),
    ("matches=", "name the matches to print"),
    ("", "name the matches to print"),
    ("matches=" + ",".join("R%d" % i for i in range(300)), "at most 200 sheets"),
    ("matches=" + "R1-01," * 1000, "too many matches"),
])
def test_sheets_for_matches_not_there_say_so(hall, query, words):
    status, body = get(hall, "/print/sheets?" + query)
    assert status in (400, 404) and words in body, (status, body)
    assert status == (404 if words.startswith("no match") else 400)


@pytest.mark.parametrize("query", ["count=99999999999999999999", "count=201", "count=0",
                                   "count=-1", "count=4.5", "count=four", "count=%D9%A3",
                                   "count=%EF%BC%93", "count=+3", "count=", "count=1e3"])
def test_a_blank_count_that_is_not_1_to_200_says_so(hall, query):
    status, body = get(hall, "/print/sheets/blank?" + query)
    assert status == 400 and "count is a whole number from 1 to 200" in body, (query, body)


def test_blank_sheets_of_any_game(hall):
    status, body = get(hall, "/print/sheets/blank?game=carom")
    assert status == 400 and body == "game is one of 8ball, 9ball, kaisa, 14.1 (got 'carom')"
    status, body = get(hall, "/print/sheets/blank?game=kaisa&count=3")
    assert status == 200 and "3 sheets, 2 a page: 2 pages" in body
    assert "45v-35" in body and "Kaisa, to <span class=\"fill\">" in body  # race left blank
    status, body = get(hall, "/print/sheets/blank")  # the tournament's game, four
    assert status == 200 and "4 sheets, 4 a page: 1 page" in body
    assert "9-ball, race to <b>2</b>" in body
    assert "Äijälä" not in body  # nothing filled in


def test_sheets_for_the_matches_waiting_and_none_when_none_waits(hall):
    status, body = get(hall, "/print/sheets?matches=open")
    assert status == 200 and "5 sheets, 4 a page: 2 pages" in body  # R1-01 is played
    assert "R1-01" not in body
    with Store.open(hall.db) as store:
        nights.play_out(store, store.tournaments.get()["id"])
    status, body = get(hall, "/print/sheets?matches=open")
    assert status == 404
    assert body == "no match is waiting to be played in Kevät Cup: nothing to print"


def test_a_withdrawn_player_is_marked_in_the_ranking(hall):
    with Store.open(hall.db) as store:
        tid = store.tournaments.get()["id"]
        night.withdraw(store, tid, "Caisa", "went home")
    status, body = get(hall, "/print/results")
    assert status == 200 and "Caisa (withdrawn)" in body and "went home" not in body
    assert body.count(">walkover<") == 2  # Caisa's two matches not played


def test_the_desks_app_serves_the_printouts_to_the_director_only(hall):
    from host.desk.app import make
    from tests.desk.client import call

    app = make(hall)
    cookie = [("cookie", "%s=%s" % (COOKIE, hall.token))]
    for path in PAGES:
        status, body = call(app, "GET", path, headers=cookie)
        assert status == 200 and "<title>" in body, path
        assert call(app, "GET", path)[0] == 403, path
    status, body = call(app, "GET", "/print/print.js")
    assert status == 200 and "window.print()" in body


def test_a_store_without_a_tournament_says_so(tmp_path):
    empty = Hall(str(tmp_path / "empty.db"), None)
    status, body = get(empty, "/print/draw")
    assert status == 503 and "no tournament" in body
