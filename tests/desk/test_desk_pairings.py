"""The hakukaavio's next pairings at the desk (issue 28, item 2): each game still to play with
why the search drew it (the opening's rule, the fast search's searcher and the partners it
passed over, the director's pairing with its reason), and the manual pairing form doing what
`pilkku opponent` does: a breach the director may set aside asked about and confirmed by the
game's code typed, one no one may set aside refused with its words, a stale form refused;
nothing changed by any refusal. `pilkku results --history --json` lists the pairings too."""

from __future__ import annotations

import json

import pytest

from host.desk.app import make
from host.hall.app import Hall
from host.tournament.night.pairing import pairings
from host.tournament.store import Store
from tests.desk.client import Browser, hidden
from tests.hall.asgi import text
from tests.host.correction_night import code_of, new_night, opening_played
from tests.host.test_store import dump


@pytest.fixture
def round_three(tmp_path):
    """An 8-player hakukaavio, rounds 1 and 2 played: round 3 is 1-4, 2-7, 5-8 (by number)."""
    db = tmp_path / "haku.db"
    with Store.open(db) as store:
        tid = new_night(store, "hakukaavio", 8, tables=2)
        names = opening_played(store, tid)
    hall = Hall(str(db), None)
    return Browser(make(hall), hall), db, tid, names


def codes(db, tid: int, names: dict, a: int, b: int) -> str:
    with Store.open(db) as store:
        return code_of(store, tid, names[a], names[b])


def test_the_next_pairings_say_why_the_search_drew_them(round_three):
    browser, db, tid, names = round_three
    assert 'href="/desk/pairings"' in browser.get("/desk")[1]  # the night's screen links it
    status, page = browser.get("/desk/pairings")
    assert status == 200
    one_four = text(page, "p-" + codes(db, tid, names, 1, 4))
    # 1 searches first (two games, as everyone in; the lowest number); 2 and 3 come before
    # 4 in (games, number) order: 2 he met in round 1, 3 in round 2 (3 is out, so not tried)
    assert "the search: %s has the fewest games (2) of those still in (of those with as " \
        "few, the lowest number)" % names[1] in one_four
    assert "%s is the first of the others, by games and number, whom he has not met and " \
        "with whom the rest of the round can still be paired" % names[4] in one_four
    assert "passed over: %s (met before)" % names[2] in one_four
    assert "the search: %s has the fewest games (2)" % names[2] in text(
        page, "p-" + codes(db, tid, names, 2, 7))
    assert "the opening" not in text(page, "pairings")  # (the opening is played)


def test_the_opening_and_a_round_robin_say_what_they_are(tmp_path):
    db = tmp_path / "haku.db"
    with Store.open(db) as store:
        tid = new_night(store, "hakukaavio", 6)
        first = store.matches.all(tid)[0]["code"]
    hall = Hall(str(db), None)
    page = Browser(make(hall), hall).get("/desk/pairings")[1]
    assert "the opening: round 1 pairs the numbers in order" in text(page, "p-" + first)
    rr = tmp_path / "rr.db"
    with Store.open(rr) as store:
        new_night(store, "double", 4)
    hall = Hall(str(rr), None)
    page = Browser(make(hall), hall).get("/desk/pairings")[1]
    assert "are the hakukaavio's" in text(page, "not-hakukaavio")


def test_a_manual_pairing_at_the_desk_is_made_and_shown_with_its_reason(round_three):
    browser, db, tid, names = round_three
    code = codes(db, tid, names, 1, 4)
    taken = codes(db, tid, names, 5, 8)
    page = browser.get("/desk/pairings")[1]
    status, said = browser.post("/desk/pair", {
        "match": code, "state": hidden(page, "pair-" + code), "player": names[8],
        "instead_of": names[4], "reason": "4 leaves early"})
    assert status == 200, said
    assert "%s: %s plays it instead of %s; %s's game %s is taken out" % (
        code, names[8], names[4], names[8], taken) in text(said, "said")
    with Store.open(db) as store:
        kept = pairings(store, tid)
    assert [(p["match"], p["reason"]) for p in kept] == [(code, "4 leaves early")]
    page = browser.get("/desk/pairings")[1]
    assert "paired by the director: 4 leaves early" in text(page, "p-" + code)
    assert "instead of %s" % names[4] in text(page, "made")


def test_a_rematch_is_asked_about_and_needs_the_code_typed(round_three):
    browser, db, tid, names = round_three
    code = codes(db, tid, names, 1, 4)
    page = browser.get("/desk/pairings")[1]
    form = {"match": code, "state": hidden(page, "pair-" + code), "player": names[2],
            "instead_of": names[4], "reason": "asked"}
    before = dump(db)
    status, asked = browser.post("/desk/pair", form)
    assert status == 200
    assert "have met already" in text(asked, "question") and "a rematch" in text(asked,
                                                                                "question")
    assert "--yes" not in asked  # the CLI's words are not the desk's
    assert dump(db) == before
    assert hidden(asked, "ask", "yes") == "1"
    status, said = browser.post("/desk/pair", dict(form, yes="1", confirm="R9"))
    assert status == 400 and "type %s to confirm" % code in text(said, "said")
    assert dump(db) == before
    status, said = browser.post("/desk/pair", dict(form, yes="1", confirm=code))
    assert status == 200, said
    assert "set aside: %s and %s have met already" % (names[1], names[2]) in text(said, "said")


@pytest.mark.parametrize("player, says", [
    (3, "is out of the tournament"), ("Nobody", "no player"),
])
def test_a_pairing_no_one_may_make_is_refused_with_its_words(round_three, player, says):
    browser, db, tid, names = round_three
    code = codes(db, tid, names, 1, 4)
    page = browser.get("/desk/pairings")[1]
    before = dump(db)
    status, said = browser.post("/desk/pair", {
        "match": code, "state": hidden(page, "pair-" + code),
        "player": names.get(player, player), "instead_of": names[4], "reason": "x",
        "yes": "1", "confirm": code})
    assert status == 400 and says in text(said, "said")
    assert "--yes" not in said
    assert dump(db) == before


def test_a_stale_or_replayed_pairing_form_changes_nothing(round_three):
    browser, db, tid, names = round_three
    code = codes(db, tid, names, 1, 4)
    page = browser.get("/desk/pairings")[1]
    form = {"match": code, "state": hidden(page, "pair-" + code), "player": names[8],
            "instead_of": names[4], "reason": "x"}
    with Store.open(db) as store:
        from host.tournament import night
        night.assign(store, tid, code, 2)  # another browser moved it meanwhile
    before = dump(db)
    status, said = browser.post("/desk/pair", form)
    assert status == 409 and "changed since your page was loaded" in text(said, "said")
    stranger = Browser(browser.app, browser.hall, cookie=False)
    assert stranger.post("/desk/pair", form)[0] == 403
    assert browser.post("/desk/pair", form, csrf=None)[0] == 403
    assert stranger.get("/desk/pairings")[0] == 403
    assert dump(db) == before


def test_results_history_json_lists_the_pairings(round_three, capsys):
    from host import cli

    browser, db, tid, names = round_three
    code = codes(db, tid, names, 1, 4)
    page = browser.get("/desk/pairings")[1]
    browser.post("/desk/pair", {"match": code, "state": hidden(page, "pair-" + code),
                                "player": names[8], "instead_of": names[4],
                                "reason": "4 leaves early"})
    capsys.readouterr()
    assert cli.main(["results", "--history", "--json", "--db", str(db)]) == 0
    listed = json.loads(capsys.readouterr().out)
    paired = [row for row in listed if row["kind"] == "pairing"]
    assert [(p["match"], p["players"], p["instead_of"], p["reason"], p["who"])
            for p in paired] == [(code, [names[1], names[8]], names[4], "4 leaves early",
                                  "the director")]
    assert all("result" in row for row in listed if row["kind"] != "pairing")
