"""The club's season at the director's desk over HTTP (host/desk/season.py, the app called
in-process: tests/desk/client.py): each form does what the CLI's `pilkku series` / `pilkku
prize` / `pilkku post` does, checked on two copies of one store (the desk on one, the CLI on
the other: the season's rows the same); and every form fed bad input, sent without the cookie
or the form token or from another site, or stale, is refused with a clear message and the
store unchanged (its revision, which every write moves, the same before and after)."""

from __future__ import annotations

import html
import re
import shutil

import pytest

from host.cli import main
from host.desk import season_steps
from host.desk.app import make
from host.hall.app import Hall
from host.season import post
from host.tournament.store import Store
from tests.desk.client import Browser, hidden
from tests.hall.asgi import text
from tests.season.test_series_table import NIGHTS, round_robin, win

# Columns that say when a row was written: the desk's and the CLI's differ by the clock only.
CLOCK = {"created", "closed", "saved", "at"}


@pytest.fixture
def stores(tmp_path):
    """(the desk's store, the CLI's store): two copies of three played round-robin nights."""
    desk_db, cli_db = tmp_path / "desk.db", tmp_path / "cli.db"
    with Store.open(desk_db) as store:
        store.series.set_points("club", {"win": 2, "participation": 1,
                                         "places": [10, 6, 3], "beat": [5, 3, 1]})
        for name, _day, players, games in NIGHTS:
            tid = round_robin(store, name, players)
            for winner, loser in games:
                win(store, tid, winner, loser)
    shutil.copy(desk_db, cli_db)
    return str(desk_db), str(cli_db)


def desk(db: str, tournament: str | None = "Ilta 1", cookie: bool = True) -> Browser:
    hall = Hall(db, tournament)
    return Browser(make(hall), hall, cookie=cookie)


def pilkku(db: str, *words: str) -> int:
    return main(["--db", db, *words])


def season_of(db: str) -> dict:
    """The season's rows (series, nights, point tables, people and their links, prizes), the
    clock's columns left out."""
    with Store.open(db) as store:
        conn = store.db.conn
        found = {}
        for table in ("series", "series_nights", "point_tables", "people", "people_joins",
                      "prizes"):
            cursor = conn.execute("SELECT * FROM %s ORDER BY rowid" % table)
            names = [c[0] for c in cursor.description]
            found[table] = [{k: v for k, v in zip(names, row, strict=True) if k not in CLOCK}
                            for row in cursor.fetchall()]
        found["links"] = conn.execute("SELECT id, person_id FROM players ORDER BY id").fetchall()
        return found


def rows(page: str, table_id: str) -> list[list[str]]:
    """The body rows of the table with that id, each as its cells' words."""
    body = page.split('id="%s"' % table_id)[1].split("</table>")[0].split("<tbody>")[1]
    return [html.unescape(re.sub(r"<[^>]*>", " ", "<tr" + row)).split()
            for row in body.split("<tr")[1:]]


def revision(db: str) -> int:
    with Store.open(db) as store:
        return store.db.revision()


def form(browser: Browser, page: str = "/desk/season", form_id: str = "new") -> dict:
    """The hidden fields a form of the page carries (its tournament and state)."""
    status, shown = browser.get(page)
    assert status == 200, shown
    return {"tournament": hidden(shown, form_id, "tournament"),
            "state": hidden(shown, form_id, "state")}


def posted(browser: Browser, step: str, fields: dict, page: str = "/desk/season",
           form_id: str = "new") -> str:
    status, shown = browser.post("/desk/season/" + step, dict(form(browser, page, form_id),
                                                               **fields))
    assert status == 200, text(shown, "said") if 'id="said"' in shown else shown
    return text(shown, "said")


def refused(browser: Browser, step: str, fields: dict, status: int, words: str,
            **how) -> str:
    db = browser.hall.db
    before = revision(db)
    got, shown = browser.post("/desk/season/" + step, fields, **how)
    said = text(shown, "said") if 'id="said"' in shown else shown
    assert got == status, said
    assert words in said, said
    assert revision(db) == before, "the store changed on a refused form"
    return said


def test_a_season_made_at_the_desk_is_the_one_the_cli_makes(stores):
    desk_db, cli_db = stores
    said = posted(desk(desk_db), "new", {"name": "Syksy", "game": "kaisa", "points": "club",
                                         "date_from": "1.9.2026", "date_to": "31.12.2026"})
    assert "Series 'Syksy' made (Kaisa), counting by the point table 'club' version 1" in said
    assert pilkku(cli_db, "series", "new", "Syksy", "--game", "kaisa", "--points", "club",
                  "--from", "1.9.2026", "--to", "31.12.2026") == 0
    for name, day, _players, _games in NIGHTS:  # each night added at its own desk
        said = posted(desk(desk_db, name), "add", {"series": "Syksy", "date": day},
                      form_id="add")
        assert "'%s' is a night of 'Syksy' now." % name in said
        assert pilkku(cli_db, "series", "add", "Syksy", name, "--date", day) == 0
    assert season_of(desk_db) == season_of(cli_db)
    assert season_of(desk_db)["series_nights"]  # (not two empty seasons)

    browser = desk(desk_db)
    status, page = browser.get("/desk/season?series=Syksy")
    assert status == 200
    assert 'id="in-every"' in page and 'id="add"' not in page  # nothing left to add it to
    assert [row[:3] for row in rows(page, "series-table")] == [
        ["1", "A", "35"], ["2", "C", "26"], ["3", "D", "26"], ["4", "B", "13"]]  # as the CLI
    status, page = browser.get("/desk/season?series=Syksy&date=8.9.2026")
    assert "the nights until 8.9.2026" in text(page, "table-title")
    assert "Ilta 3" not in text(page, "series-table")
    status, page = browser.get("/desk/season?series=Syksy&date=31.2.2026")
    assert status == 200 and "'31.2.2026' is not a date" in text(page, "table-problem")

    said = posted(browser, "remove", {"series": "Syksy"}, form_id="remove")
    assert "'Ilta 1' taken out of 'Syksy'." in said
    assert pilkku(cli_db, "series", "remove", "Syksy", "Ilta 1") == 0
    assert season_of(desk_db) == season_of(cli_db)


def test_a_point_table_changed_and_a_series_closed_as_on_the_cli(stores):
    desk_db, cli_db = stores
    for db in stores:
        assert pilkku(db, "series", "new", "Syksy", "--game", "kaisa", "--points", "club") == 0
        assert pilkku(db, "series", "new", "Kevät", "--game", "kaisa", "--points", "club") == 0
        assert pilkku(db, "series", "add", "Syksy", "Ilta 1", "Ilta 2") == 0
    browser = desk(desk_db)
    said = refused(browser, "close", dict(form(browser, form_id="close"), series="Syksy",
                                          confirm="yes"), 400, "type close to confirm")
    said = posted(browser, "close", {"series": "Syksy", "confirm": "close"}, form_id="close")
    assert "'Syksy' closed: its table is frozen as shown." in said
    assert pilkku(cli_db, "series", "close", "Syksy") == 0
    said = posted(browser, "points", {"table": "club", "win": "3", "places": "12,8,4"},
                  form_id="points")
    assert "Point table 'club' version 2 made. Open series now counting by it: Kevät." in said
    assert pilkku(cli_db, "series", "points", "club", "--win", "3", "--places", "12,8,4") == 0
    assert season_of(desk_db) == season_of(cli_db)
    status, page = browser.get("/desk/season?series=Syksy")
    assert "closed" in text(page, "table-title") and 'id="close"' not in page
    assert rows(page, "tables")[-1] == ["club", "2", "win", "3,", "participation", "1,",
                                        "places", "12,8,4,", "beat", "#1-#3", "5,3,1"]


def test_the_prize_money_and_the_texts_to_post(stores, capsys):
    desk_db, cli_db = stores
    browser = desk(desk_db)
    status, page = browser.get("/desk/season/money")
    assert status == 200 and 'id="prize-shared"' not in page
    said = posted(browser, "prize", {"fee": "10", "players": "12", "federation": "10",
                                     "organiser": "5", "paid": "50,30,20", "round": "1",
                                     "print": "1"},
                  page="/desk/season/money", form_id="prize-form")
    assert "kept with the tournament and shown on the final ranking's printout" in said
    assert pilkku(cli_db, "prize", "--tournament", "Ilta 1", "--fee", "10", "--players",
                  "12", "--federation", "10", "--organiser", "5", "--save", "--print") == 0
    assert season_of(desk_db) == season_of(cli_db)
    cli = capsys.readouterr().out
    status, page = browser.get("/desk/season/money")
    shared = text(page, "prize-shared")
    assert "Pot: 12 x 10 € = 120 €" in shared and "Pot: 12 x 10 € = 120 €" in cli
    assert [row for row in rows(page, "prize-table")] == [
        ["1", "A", "51", "€"], ["2", "B", "30", "€"], ["3", "C", "20", "€"]]
    assert 'name="print" value="1" checked' in page

    with Store.open(desk_db) as store:
        wanted = post.results(store, "Ilta 1")
    found = html.unescape(page.split('id="results-text"')[1].split(">", 1)[1]
                          .split("</textarea>")[0])
    assert found == wanted
    status, page = browser.get("/desk/season/money?invite=1&date=25.2.2027&time=18:00"
                               "&place=Biljardikeskus&fee=10")
    capsys.readouterr()
    assert pilkku(desk_db, "post", "invitation", "--tournament", "Ilta 1", "--date",
                  "25.2.2027", "--time", "18:00", "--place", "Biljardikeskus", "--fee",
                  "10") == 0
    found = html.unescape(page.split('id="invitation-text"')[1].split(">", 1)[1]
                          .split("</textarea>")[0])
    assert found == capsys.readouterr().out
    status, page = browser.get("/desk/season/money?invite=1&time=late")
    assert "The time: write it 18:00, not 'late'" in text(page, "invitation-problem")
    status, page = browser.get("/desk/season/money?invite=1&fee=lots")
    assert "The entry fee: 'lots' is not an amount" in text(page, "invitation-problem")


def test_a_name_two_people_share_is_chosen_at_the_desk_never_merged(stores):
    desk_db, _cli_db = stores
    with Store.open(desk_db) as store:
        for name in ("Ilta M1", "Ilta M2", "Ilta M3"):
            round_robin(store, name, ["Matti", "Eeva", "Olli"])
        store.people.link_tournament(store.tournaments.get("Ilta M1")["id"])
        store.people.link_tournament(store.tournaments.get("Ilta M2")["id"], new=["Matti"])
    assert pilkku(desk_db, "series", "new", "S", "--game", "kaisa") == 0
    browser = desk(desk_db, "Ilta M3")
    status, page = browser.get("/desk/season")
    choice = page.split('id="add"')[1].split("</form>")[0]
    assert 'name="pick-Matti"' in choice and "#1 Matti" in choice and "#4 Matti" in choice
    said = refused(browser, "add", dict(form(browser, form_id="add"), series="S"), 400,
                   "'Matti' could be 2 people (#1 Matti; #4 Matti): choose who")
    said = posted(browser, "add", {"series": "S", "pick-Matti": "#4"}, form_id="add")
    assert "'Ilta M3' is a night of 'S' now." in said
    with Store.open(desk_db) as store:
        tid = store.tournaments.get("Ilta M3")["id"]
        assert store.people.of_tournament(tid)[store.players.get(tid, "Matti")["id"]] == 4


BAD = [
    ("new", {"name": "Syksy", "game": "snooker"}, "choose the game"),
    ("new", {"name": "", "game": "kaisa"}, "give the series' name"),
    ("new", {"name": "X", "game": "kaisa", "date_from": "32.1.2026"}, "is not a date"),
    ("new", {"name": "X", "game": "kaisa", "date_from": "2.1.2026", "date_to": "1.1.2026"},
     "ends (1.1.2026) before it starts"),
    ("new", {"name": "X", "game": "kaisa", "best": "0"},
     "The number of best nights that count must be a whole"),
    ("new", {"name": "X", "game": "kaisa", "tie_break": "luck"}, "not a tie-break key"),
    ("new", {"name": "X", "game": "kaisa", "points": "nosuch"}, "nosuch"),
    ("new", {"name": "Old", "game": "kaisa"}, "Old"),
    ("add", {"series": "Nope"}, "Nope"),
    ("add", {"series": "Old", "date": "1.1.1999"}, "outside the series' dates"),
    ("add", {"series": "Old", "pick-Matti": "#1"}, "names 'Matti', who does not play Ilta 1"),
    ("add", {"series": "Old", "pick-A": "somebody"}, "choose who 'A' is"),
    ("remove", {"series": "Old"}, "not"),
    ("close", {"series": "Nope", "confirm": "close"}, "Nope"),
    ("points", {"table": "club"}, "give at least one of the points"),
    ("points", {"table": "club", "win": "lots"}, "lots"),
    ("points", {"table": "club", "places": "1,2,x"}, "places"),
    ("prize", {"fee": "ten"}, "The entry fee: 'ten' is not an amount of money"),
    ("prize", {"fee": "10", "paid": "50,30"}, "Places paid: 1 to 16 percentages"),
    ("prize", {"fee": "10", "round": "0"}, "Rounded down to: the cash unit is"),
    ("prize", {"fee": "10", "organiser": "x"}, "The organiser's share: 'x' is not a percent"),
    ("prize", {"fee": "10", "federation": "60", "organiser": "50"}, "at most 100"),
    ("prize", {"fee": "10", "players": "0"}, "The players who paid must be a whole number"),
]


@pytest.mark.parametrize("step, fields, words", BAD, ids=[
    "%s-%d" % (b[0], i) for i, b in enumerate(BAD)])
def test_bad_input_is_refused_and_changes_nothing(stores, step, fields, words):
    desk_db, _cli_db = stores
    assert pilkku(desk_db, "series", "new", "Old", "--game", "kaisa", "--from", "1.9.2026") == 0
    browser = desk(desk_db)
    before = season_of(desk_db)
    page = "/desk/season/money" if step == "prize" else "/desk/season"
    form_id = "prize-form" if step == "prize" else "new"
    refused(browser, step, dict(form(browser, page, form_id), **fields), 400, words)
    assert season_of(desk_db) == before


def test_no_cookie_no_token_another_site_or_stale_is_refused(stores):
    desk_db, _cli_db = stores
    browser = desk(desk_db)
    fields = dict(form(browser), name="Syksy", game="kaisa")
    refused(desk(desk_db, cookie=False), "new", fields, 403, "only the director's browser")
    assert desk(desk_db, cookie=False).get("/desk/season")[0] == 403
    assert desk(desk_db, cookie=False).get("/desk/season/money")[0] == 403
    refused(browser, "new", fields, 403, "not one the desk gave", csrf=None)
    refused(browser, "new", fields, 403, "another site", origin="http://evil.example")
    refused(browser, "new", fields, 403, "did not say which page", origin=None)
    refused(browser, "nosuch", fields, 404, "no form nosuch")
    # stale: the season changed (the CLI made a series) after the page was shown
    assert pilkku(desk_db, "series", "new", "Other", "--game", "kaisa") == 0
    refused(browser, "new", fields, 409, "the season changed since this page was shown")
    # another tournament followed than the one the form was made for
    other = desk(desk_db, "Ilta 2")
    refused(other, "new", dict(form(browser), name="Syksy", game="kaisa"), 409,
            "the desk follows another tournament now ('Ilta 2')")
    assert season_of(desk_db)["series"][-1]["name"] == "Other"


def test_the_state_token_covers_what_the_forms_act_on(stores):
    desk_db, _cli_db = stores
    with Store.open(desk_db) as store:
        tid = store.tournaments.get("Ilta 1")["id"]
        first = season_steps.state(store, tid)
        assert first == season_steps.state(store, tid)
        store.series.save_prize(tid, {"fee": 1000, "players": 3, "federation": 0,
                                      "organiser": 0, "paid": [100], "unit": 100}, False)
        assert season_steps.state(store, tid) != first


def test_the_nav_leads_to_the_season(stores):
    desk_db, _cli_db = stores
    status, page = desk(desk_db).get("/desk")
    assert 'href="/desk/season"' in page
    status, page = desk(desk_db).get("/desk/season")
    assert status == 200 and "No series yet" in text(page, "no-series")
    assert 'href="/desk/season/money"' in page


def test_a_series_made_on_a_store_without_a_tournament(tmp_path):
    db = str(tmp_path / "new.db")
    Store.open(db).close()
    browser = desk(db, None)
    status, page = browser.get("/desk/season/money")
    assert status == 200 and "follows no tournament yet" in text(page, "no-tournament")
    said = posted(browser, "new", {"name": "Kevät", "game": "kaisa"})
    assert "Series 'Kevät' made (Kaisa)" in said
    refused(browser, "add", dict(form(browser), series="Kevät"), 400,
            "the desk follows no tournament yet")


def test_the_prize_money_on_the_printout_only_when_ticked(stores):
    desk_db, _cli_db = stores
    browser = desk(desk_db)
    fields = {"fee": "10", "paid": "100"}
    posted(browser, "prize", fields, page="/desk/season/money", form_id="prize-form")
    assert 'class="print prize"' not in browser.get("/print/results")[1]
    posted(browser, "prize", dict(fields, print="1"), page="/desk/season/money",
           form_id="prize-form")
    printout = browser.get("/print/results")[1]
    assert 'class="print prize"' in printout and "30 €" in printout  # 3 players x 10 €
