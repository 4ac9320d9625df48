"""The desk's forms over HTTP (the app called in-process): every form fed bad input, a POST
without the cookie, without or with a wrong form token, from another site, a stale form after
another browser's change: each answered with a clear message and the store unchanged (its
revision, which every write moves, the same before and after). And each action done right."""

from __future__ import annotations

import pytest

from host.desk.app import make
from host.hall.app import Hall
from host.tournament import night
from host.tournament.store import Store
from tests.desk.client import ORIGIN, Browser, hidden
from tests.hall import night as hall_night
from tests.hall.asgi import text


@pytest.fixture
def desk(tmp_path):
    """(the director's browser, the store's path, the tournament's id): a round robin of
    four on two tables, R1-01 at table 1, nothing played."""
    db = tmp_path / "night.db"
    tid = hall_night.cup(db)
    with Store.open(db) as store:
        night.assign(store, tid, "R1-01", 1)
    hall = Hall(str(db), None)
    return Browser(make(hall), hall), db, tid


def revision(db) -> int:
    with Store.open(db) as store:
        return store.db.revision()


def state_of(browser: Browser, code: str) -> str:
    status, page = browser.get("/desk/match/%s" % code)
    assert status == 200
    return hidden(page, None, "state")


def tables_state(browser: Browser) -> str:
    status, page = browser.get("/desk")
    assert status == 200
    return hidden(page, None, "state") if 'action="/desk/start"' not in page else \
        hidden(page[page.index('action="/desk/start"'):], None, "state")


def refused(browser: Browser, db, path: str, fields: dict, status: int, words: str,
            **how) -> str:
    before = revision(db)
    got, page = browser.post(path, fields, **how)
    said = text(page) if "<main" in page else page
    assert got == status, said
    assert words in said, said
    assert revision(db) == before, "the store changed on a refused form"
    return said


# -- bad input: each kind, on each form it can reach -----------------------------------------

LONG = "x" * 201


def bad_inputs(state: str, tables: str) -> list[tuple[str, dict, str]]:
    """(path, fields, words of the answer) for each kind of bad input."""
    m = {"match": "R1-02", "state": state}
    return [
        ("/desk/score", dict(m, score="", reason="paper"), "give the score"),
        ("/desk/score", dict(m, score="2:1", reason=""), "give the reason"),
        ("/desk/score", dict(m, score="2:1", reason=LONG), "longer than 200 characters"),
        ("/desk/score", dict(m, score="2:1", reason="<script>alert(1)</script>"),
         "may not hold < or >"),
        ("/desk/score", dict(m, score="2:1", reason="two\nlines"), "one line of text"),
        ("/desk/score", dict(m, score="7:1", reason="paper"), "race"),
        ("/desk/score", dict(m, score="two-one", reason="paper"), "'two-one' is not a score"),
        ("/desk/score", dict(m, score="2.5:1", reason="paper"), "'2.5:1' is not a score"),
        ("/desk/score", dict(m, score="2:1", winner="3", reason="paper"), "choose the winner"),
        ("/desk/walkover", dict(m, winner="", reason="absent"), "choose the winner"),
        ("/desk/walkover", dict(m, winner="1.0", reason="absent"), "choose the winner"),
        ("/desk/walkover", dict(m, winner="1", reason=""), "give the reason"),
        ("/desk/walkover", dict(m, match="R9-99", winner="1", reason="absent"),
         "no match R9-99"),
        ("/desk/walkover", dict(m, match="<script>", winner="1", reason="absent"),
         "may not hold < or >"),
        ("/desk/walkover", dict(m, match="R1-0" + "2" * 30, winner="1", reason="absent"),
         "longer than 20 characters"),
        ("/desk/assign", dict(m, table="2.5"), "whole number from 1 to 9999, not 2.5"),
        ("/desk/assign", dict(m, table="two"), "whole number"),
        ("/desk/assign", dict(m, table="٣"), "whole number"),
        ("/desk/assign", dict(m, table="0"), "whole number from 1"),
        ("/desk/assign", dict(m, table=""), "give the table"),
        ("/desk/void", dict(m, outcome="void", reason="no show", confirm=""),
         "type R1-02 to confirm"),
        ("/desk/void", dict(m, outcome="void", reason="no show", confirm="R1-01"),
         "type R1-02 to confirm"),
        ("/desk/void", dict(m, outcome="lost", reason="no show", confirm="R1-02"),
         "choose void or lost by both"),
        ("/desk/unstart", dict(m), "not at a table"),
        ("/desk/correct", dict(m, score="", reason="misread"), "give the score"),
        ("/desk/correct", dict(m, score="2:1", reason="<script>x</script>"),
         "may not hold < or >"),
        ("/desk/correct", dict(m, score="2:1", reason="misread"),
         "match R1-02 has no result to replace"),
        ("/desk/correct", dict(m, match="R7-01", score="2:1", reason="misread"),
         "no match R7-01"),
        ("/desk/start", {"state": tables, "table": "1.5"}, "whole number from 1 to 9999, not 1.5"),
        ("/desk/start", {"state": tables, "table": "9"}, "there is no table 9"),
        ("/desk/late-entry", {"name": "x" * 61}, "longer than 60 characters"),
        ("/desk/nothing", dict(m), "no action nothing"),
    ]


def test_every_kind_of_bad_input_is_answered_and_changes_nothing(desk):
    browser, db, _tid = desk
    state = state_of(browser, "R1-02")
    for path, fields, words in bad_inputs(state, tables_state(browser)):
        before = revision(db)
        status, page = browser.post(path, fields)
        said = text(page) if "<main" in page else page
        assert status in (400, 404), (path, fields, said)
        assert words in said, (path, fields, said)
        assert "Traceback" not in page
        assert revision(db) == before, (path, fields)


def test_a_withdrawal_and_a_removed_table_ask_for_the_name_typed(desk):
    browser, db, _tid = desk
    page = browser.get("/desk/withdraw")[1]
    ben = page[page.index('value="Ben"'):]
    state = hidden(ben, None, "state")
    refused(browser, db, "/desk/withdraw", {"player": "Ben", "state": state,
                                            "reason": "ill", "confirm": "ben"}, 400,
            "type Ben to confirm")
    refused(browser, db, "/desk/withdraw", {"player": "Nobody", "state": state,
                                            "reason": "ill", "confirm": "Nobody"}, 400,
            "no player named Nobody")
    refused(browser, db, "/desk/withdraw", {"player": "<script>x</script>", "state": state,
                                            "reason": "ill", "confirm": "x"}, 400,
            "may not hold < or >")
    refused(browser, db, "/desk/remove-table", {"table": "2", "state": tables_state(browser),
                                                "confirm": "2"}, 400, "type table 2 to confirm")


def test_a_form_too_long_or_not_utf8_or_twice_given_is_refused(desk):
    browser, db, _tid = desk
    refused(browser, db, "/desk/score", {}, 400, "longer than the desk takes",
            raw=b"reason=" + b"x" * 5000)
    refused(browser, db, "/desk/score", {}, 400, "could not be read", raw=b"reason=%ff%fe")
    refused(browser, db, "/desk/score", {}, 400, "gives match more than once",
            raw=b"match=R1-01&match=R1-02")


# -- who may post, from where ----------------------------------------------------------------

def test_writes_need_the_cookie_the_form_token_and_the_desks_own_origin(desk):
    browser, db, _tid = desk
    fields = {"match": "R1-02", "state": state_of(browser, "R1-02"), "table": "2"}
    stranger = Browser(browser.app, browser.hall, cookie=False)
    refused(stranger, db, "/desk/assign", fields, 403, "only the director's browser")
    assert stranger.get("/desk")[0] == 403
    assert stranger.get("/desk/match/R1-02")[0] == 403
    assert stranger.get("/events?page=desk")[0] == 403
    refused(browser, db, "/desk/assign", fields, 403, "not one the desk gave", csrf=None)
    refused(browser, db, "/desk/assign", fields, 403, "not one the desk gave", csrf="0" * 32)
    refused(browser, db, "/desk/assign", fields, 403, "from another site (evil.example)",
            origin="http://evil.example")
    refused(browser, db, "/desk/assign", fields, 403, "another site", origin="null")
    refused(browser, db, "/desk/assign", fields, 403, "did not say which page", origin=None)
    # the same form, as the desk's page sends it, is taken
    status, page = browser.post("/desk/assign", fields)
    assert status == 200 and "R1-02 is queued at table 2" in text(page)
    assert ORIGIN.endswith(":8080")


def test_the_director_link_sets_the_cookie_and_a_wrong_token_is_refused(desk):
    browser, _db, _tid = desk
    stranger = Browser(browser.app, browser.hall, cookie=False)
    status, page = stranger.get("/desk/director?token=wrong")
    assert status == 403 and "not the director's token" in page
    from tests.desk.client import call

    status, _ = call(browser.app, "GET", "/desk/director?token=%s" % browser.hall.token)
    assert status == 303


# -- stale forms -----------------------------------------------------------------------------

def test_a_stale_form_is_refused_with_what_changed(desk):
    browser, db, tid = desk
    seen = state_of(browser, "R1-02")  # the director's pages, loaded
    old = tables_state(browser)
    helper = Browser(browser.app, browser.hall)  # another browser at the desk
    status, _ = helper.post("/desk/start", {"state": tables_state(helper)})
    assert status == 200
    said = refused(browser, db, "/desk/start", {"state": old}, 409,
                   "the tables changed since your page was loaded")
    assert "table 2: R1-02" in said
    status, _ = helper.post("/desk/score", {"match": "R1-02", "state": state_of(helper, "R1-02"),
                                            "score": "2:0", "reason": "paper sheet"})
    assert status == 200
    said = refused(browser, db, "/desk/walkover", {"match": "R1-02", "state": seen,
                                                  "winner": "2", "reason": "absent"}, 409,
                   "R1-02 changed since your page was loaded")
    assert "its winner" in said and "Ben won it 2:0" in said
    with Store.open(db) as store:
        assert store.matches.get(tid, "R1-02")["winner_id"] is not None


# -- each action done ------------------------------------------------------------------------

def test_start_undo_score_walkover_void_and_withdraw_through_the_desk(desk):
    browser, db, tid = desk
    status, page = browser.post("/desk/start", {"state": tables_state(browser)})
    assert status == 200 and "starts at table 2" in text(page), text(page)
    with Store.open(db) as store:
        started = [m for m in store.matches.all(tid) if m["table"] == 2]
    code = started[0]["code"]
    status, page = browser.post("/desk/unstart", {"match": code, "state": state_of(browser, code)})
    assert status == 200 and "%s is off table 2: it waits again" % code in text(page)
    status, page = browser.post("/desk/score", {"match": "R1-01", "state": state_of(
        browser, "R1-01"), "score": "2:1", "reason": "the board broke"})
    assert "R1-01: 2:1 from the paper sheet" in text(page)
    status, page = browser.post("/desk/walkover", {"match": "R2-01", "state": state_of(
        browser, "R2-01"), "winner": "1", "reason": "Äijälä did not come"})
    assert "R2-01: a walkover to Ben" in text(page)
    status, page = browser.post("/desk/void", {"match": "R2-02", "state": state_of(
        browser, "R2-02"), "outcome": "void", "reason": "wrong players", "confirm": "R2-02"})
    assert status == 200 and "R2-02 is void" in text(page), text(page)
    page = browser.get("/desk/withdraw")[1]
    state = hidden(page[page.index('value="Caisa"'):], None, "state")
    status, page = browser.post("/desk/withdraw", {"player": "Caisa", "state": state,
                                                   "reason": "ill", "confirm": "Caisa"})
    assert status == 200 and "Caisa withdrew; decided by it:" in text(page), text(page)
    night_page = text(browser.get("/desk")[1])
    assert "R1-01 1 Äijälä Öhman 2–1 Caisa finished (entered by hand)" in night_page
    assert "w.o." in night_page and "void — did not count" in night_page


def test_a_correction_shows_its_plan_before_anything_changes(desk):
    browser, db, tid = desk
    browser.post("/desk/score", {"match": "R1-01", "state": state_of(browser, "R1-01"),
                                 "score": "2:1", "reason": "paper"})
    fields = {"match": "R1-01", "state": state_of(browser, "R1-01"), "score": "1:2",
              "reason": "the sheet was read wrong"}
    before = revision(db)
    status, page = browser.post("/desk/correct", fields)
    assert status == 200 and "Apply the correction" in page
    assert "R1-01" in text(page, "plan")
    assert revision(db) == before
    plan = hidden(page, "ask", "plan")
    status, page = browser.post("/desk/correct", dict(fields, plan=plan))
    assert status == 200 and "R1-01 corrected to 1:2" in text(page), text(page)
    with Store.open(db) as store:
        assert store.matches.get(tid, "R1-01")["score2"] == 2
    # the same confirmation again: the plan it was given is no longer the night's
    refused(browser, db, "/desk/correct", dict(fields, state=state_of(browser, "R1-01"),
                                               plan=plan), 409, "the night has moved on")


def test_undo_a_start_is_refused_once_the_board_has_started_it(desk):
    browser, db, tid = desk
    with Store.open(db) as store:
        store.live.put("pk-board", tid, 1, hall_night.live("R1-01", ["Äijälä Öhman", "Caisa"],
                                                            [1, 0]))
    refused(browser, db, "/desk/unstart", {"match": "R1-01", "state": state_of(browser, "R1-01")},
            400, "R1-01 is being played at table 1 (1:0)")
    # and a walkover asks first, then is done when confirmed
    fields = {"match": "R1-01", "state": state_of(browser, "R1-01"), "winner": "1",
              "reason": "Caisa left"}
    before = revision(db)
    status, page = browser.post("/desk/walkover", fields)
    assert status == 200 and "Decide it anyway" in page and revision(db) == before
    assert "is being played at table 1" in text(page, "question")
    status, page = browser.post("/desk/walkover", dict(fields, in_play="1"))
    assert "a walkover to Äijälä Öhman" in text(page)
