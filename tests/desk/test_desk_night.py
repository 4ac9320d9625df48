"""What the night's screen shows (a board's live score, its boards live or not answering,
what waits for the director) and the plan's choices through the desk: a correction or a void
in a hakukaavio after games were played from the old result asks what becomes of them (keep
or void), refuses without the choice, and applies it chosen."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from host.desk.app import make
from host.hall.app import Hall
from host.tournament import night
from host.tournament.store import Store
from tests.desk.client import Browser, hidden
from tests.hall import night as hall_night
from tests.hall.asgi import text

NAMES = ["Äijälä Öhman", "Åsa Ek", "Ben", "Caisa", "Dani", "Eero"]


def revision(db) -> int:
    with Store.open(db) as store:
        return store.db.revision()


@pytest.fixture
def round_robin(tmp_path):
    db = tmp_path / "night.db"
    tid = hall_night.cup(db)
    with Store.open(db) as store:
        night.assign_free_tables(store, tid)
    hall = Hall(str(db), None)
    return Browser(make(hall), hall), db, tid


@pytest.fixture
def hakukaavio(tmp_path):
    """A hakukaavio of six, nine games played (into round 4)."""
    db = tmp_path / "haku.db"
    tid = hall_night.cup(db, "hakukaavio", players=NAMES, tables=3)
    with Store.open(db) as store:
        for _ in range(9):
            ready = [m for m in store.matches.all(tid) if m["winner"] is None and
                     m["outcome"] is None and m["player1"] and m["player2"]]
            hall_night.play(store, tid, ready[0]["code"])
    hall = Hall(str(db), None)
    return Browser(make(hall), hall), db, tid


def test_the_night_shows_a_boards_live_score_and_whether_it_answers(round_robin):
    browser, db, tid = round_robin
    with Store.open(db) as store:
        store.live.put("pk-one", tid, 1, hall_night.live("R1-01", ["Äijälä Öhman", "Caisa"],
                                                         [1, 0]))
        store.live.put("pk-two", tid, 2, hall_night.live("R1-02", ["Ben", "Åsa Ek"], [0, 0]))
        store.live.silent("pk-two")
    page = browser.get("/desk")[1]
    assert "R1-01 1 Äijälä Öhman 1:0 Caisa playing at table 1" in text(page, "m-R1-01")
    assert "board pk-one: live" in text(page, "t-1")
    assert "board pk-two: not answering" in text(page, "t-2")


def test_a_result_set_aside_shows_that_the_match_needs_the_director(round_robin):
    browser, db, tid = round_robin
    with Store.open(db) as store:
        night.walkover(store, tid, "R1-01", "Caisa", "absent", confirm_in_play=True)
        # the board's result comes after, signed and linked in its chain (as a sync brings it)
        log = hall_night.log_text(["Äijälä Öhman", "Caisa"], 0, 2, "R1-01")
        mac = hmac.new(store.tournaments.key(tid), log.encode(), hashlib.sha256).hexdigest()
        store.chains.record(tid, "pk-board", 1, "0" * 64, mac, log)
        said = night.record_result(store, "R1-01", log, "pk-board", mac, None, None,
                                   tournament_id=tid, chain_n=1)
        assert "not counted" in str(said)
    page = browser.get("/desk")[1]
    assert "needs the director: a board's result came after it was decided" in \
        text(page, "m-R1-01")
    assert 'class="state-finished needs"' in page


def test_a_correction_asks_what_becomes_of_the_games_played_after_it(hakukaavio):
    browser, db, tid = hakukaavio
    fields = {"match": "R1-02", "state": hidden(browser.get("/desk/match/R1-02")[1]),
              "score": "1:2", "reason": "the sheet was read wrong"}
    before = revision(db)
    status, page = browser.post("/desk/correct", fields)
    assert status == 200 and 'name="played" value="keep"' in page and revision(db) == before
    assert "Type R1-02 to confirm" in text(page, "ask")
    assert "keep or void? choose below" in text(page, "plan") and "--" not in text(page, "plan")
    plan = hidden(page, "ask", "plan")
    status, page = browser.post("/desk/correct", dict(fields, plan=plan, confirm="R1-02"))
    assert status == 400 and "choose what becomes of the games played" in text(page)
    status, page = browser.post("/desk/correct", dict(fields, plan=plan, confirm="R1-02",
                                                      played="maybe"))
    assert status == 400 and "choose what becomes of the games played" in text(page)
    assert revision(db) == before
    status, page = browser.post("/desk/correct", dict(fields, plan=plan, confirm="R1-02",
                                                      played="void"))
    assert status == 200 and "R1-02 corrected to 1:2" in text(page), text(page)
    with Store.open(db) as store:
        assert any(m["outcome"] == "void" for m in store.matches.all(tid))
        assert store.results.problems(tid) == []


def test_a_void_after_games_were_played_from_it_asks_keep_or_void(hakukaavio):
    browser, db, tid = hakukaavio
    fields = {"match": "R2-01", "state": hidden(browser.get("/desk/match/R2-01")[1]),
              "outcome": "void", "reason": "wrong players called", "confirm": "R2-01"}
    before = revision(db)
    status, page = browser.post("/desk/void", fields)
    assert status == 200 and "Games were played after it" in page and revision(db) == before
    assert hidden(page, "ask", "confirm") == "R2-01"  # typed once, carried
    status, page = browser.post("/desk/void", dict(fields, played="void"))
    assert status == 200 and "R2-01 is void" in text(page), text(page)
    with Store.open(db) as store:
        assert store.matches.get(tid, "R2-01")["outcome"] == "void"


def test_a_withdrawal_in_play_asks_first_and_a_table_is_removed_when_typed(round_robin):
    browser, db, tid = round_robin
    with Store.open(db) as store:
        store.live.put("pk-one", tid, 1, hall_night.live("R1-01", ["Äijälä Öhman", "Caisa"],
                                                         [1, 0]))
    page = browser.get("/desk/withdraw")[1]
    state = hidden(page[page.index('value="Caisa"'):])
    fields = {"player": "Caisa", "state": state, "reason": "ill", "confirm": "Caisa"}
    before = revision(db)
    status, page = browser.post("/desk/withdraw", fields)
    assert status == 200 and "R1-01 is being played at table 1 (1:0)" in text(page, "question")
    assert revision(db) == before
    status, page = browser.post("/desk/withdraw", dict(fields, in_play="1"))
    assert status == 200 and "Caisa withdrew; decided by it: R1-01" in text(page), text(page)
    tables = hidden(browser.get("/desk")[1][browser.get("/desk")[1].index("/desk/start"):])
    status, page = browser.post("/desk/remove-table", {"table": "2", "state": tables,
                                                       "confirm": "table 2"})
    assert status == 200 and "table 2 removed" in text(page), text(page)
    with Store.open(db) as store:
        assert store.tables.numbers(tid) == [1]


def test_a_late_entry_through_the_desk(round_robin):
    browser, db, tid = round_robin
    page = browser.get("/desk/withdraw")[1]
    assert 'action="/desk/late-entry"' in page
    before = revision(db)
    for fields, words in (({"name": ""}, "give the player's name"),
                          ({"name": "<b>Bo</b>"}, "may not hold < or >"),
                          ({"name": "Ben"}, "there is a player 'Ben' already"),
                          ({"name": "Bo", "club": "x" * 61}, "longer than 60")):
        status, page = browser.post("/desk/late-entry", fields)
        assert status == 400 and words in text(page), text(page)
    assert revision(db) == before
    status, page = browser.post("/desk/late-entry", {"name": "Öljy Ärrä", "club": "BK"})
    assert status == 200 and "Öljy Ärrä is in; their games: R" in text(page), text(page)
    with Store.open(db) as store:
        assert sum("Öljy Ärrä" in (m["player1"], m["player2"])
                   for m in store.matches.all(tid)) == 4


def test_a_match_page_links_its_score_sheet_which_the_desk_serves(round_robin):
    browser, _db, _tid = round_robin
    page = browser.get("/desk/match/R1-02")[1]
    assert 'href="/print/sheets?matches=R1-02"' in page
    status, sheet = browser.get("/print/sheets?matches=R1-02")
    assert status == 200 and "Ben" in sheet and "Åsa Ek" in sheet


def said_at_desk(browser: Browser, path: str, fields: dict) -> str:
    status, page = browser.post(path, fields)
    assert status == 400, text(page)
    return text(page, "said")


def test_the_nights_refusals_say_what_to_do_at_the_desk_not_at_a_terminal(round_robin, tmp_path):
    """The night's refusals name the way out as an action; the desk words it as its own
    forms, where the command line names a command (its words unchanged: tests/host)."""
    browser, db, tid = round_robin
    state = hidden(browser.get("/desk/match/R1-02")[1])
    saids = [said_at_desk(browser, "/desk/correct", {"match": "R1-02", "state": state,
                                                     "score": "2:1", "reason": "misread"}),
             said_at_desk(browser, "/desk/score", {"match": "R1-02", "state": state,
                                                   "score": "1:1", "reason": "paper"})]
    assert "R1-02 has no result to replace: enter its score from the paper sheet, or a " \
        "walkover, on R1-02's page" in saids[0]
    assert "a level score needs the winner chosen" in saids[1]
    with Store.open(db) as store:
        hall_night.play(store, tid, "R1-01")
    finished = hidden(browser.get("/desk/match/R1-01")[1])
    saids.append(said_at_desk(browser, "/desk/walkover", {"match": "R1-01", "state": finished,
                                                          "winner": "1", "reason": "absent"}))
    assert "to change its result: Correct the result on R1-01's page" in saids[-1]
    cup = tmp_path / "cup.db"
    hall_night.cup(cup, "bracket")
    hall = Hall(str(cup), None)
    knockout = Browser(make(hall), hall)
    first = hidden(knockout.get("/desk/match/R1-01")[1])
    saids.append(said_at_desk(knockout, "/desk/void", {
        "match": "R1-01", "state": first, "outcome": "both_lose", "reason": "absent",
        "confirm": "R1-01"}))
    assert "If neither came, give it to one of them: a walkover on R1-01's page" in saids[-1]
    for said in saids:
        assert "pilkku " not in said and "--" not in said, said


def test_a_match_its_board_may_have_started_is_asked_about_in_the_desks_words(round_robin):
    browser, db, tid = round_robin
    with Store.open(db) as store:
        store.boards.note(tid, "pk-one", 1)  # table 1's board, never heard live
    state = hidden(browser.get("/desk/match/R1-01")[1])
    status, page = browser.post("/desk/walkover", {"match": "R1-01", "state": state,
                                                   "winner": "1", "reason": "absent"})
    asked = text(page, "question")
    assert status == 200 and "whose board pk-one may have started it (its live state is " \
        "not known: the desk has not heard from that board since)" in asked, asked
    assert "pilkku" not in asked
    status, page = browser.post("/desk/unstart", {"match": "R1-01", "state": state})
    said = text(page, "said")
    assert status == 400 and "the desk has not heard from that board since" in said, said
