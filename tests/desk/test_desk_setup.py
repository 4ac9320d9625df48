"""The desk's SET UP pages over HTTP (the app called in-process, tests/desk/client.py): a new
tournament from an empty store (each format with its options, the game's rules), players
typed, pasted and uploaded, seeds, the draw shown and then made as shown; and every form fed
bad input, sent without the cookie or the form token or from another site, or stale after
another browser's change: refused with a clear message and the store unchanged (its
revision, which every write moves, the same before and after)."""

from __future__ import annotations

import pytest

from host.desk import guard
from host.desk.app import make
from host.hall.app import COOKIE, Hall
from host.tournament.store import Store
from tests.desk.client import ORIGIN, Browser, call, hidden
from tests.hall.asgi import text

NAMES = ["Äijälä Öhman", "Åsa Ek", "Ben Berg", "Caisa Kivi", "Dani Laine", "Eero Mäki",
         "Frans Nurmi", "Greta Oja", "Heikki Pitkä", "Iida Rinne", "Jussi Salo", "Kalle Ärölä"]
KAISA = {"name": "Kevät Cup", "game": "kaisa", "race": "60", "format": "hakukaavio",
         "tables": "4", "placings": "rounds"}


@pytest.fixture
def desk(tmp_path):
    """(the director's browser, the store's path): a store with no tournament yet."""
    db = tmp_path / "night.db"
    Store.open(db).close()
    hall = Hall(str(db), None)
    return Browser(make(hall), hall), db


def revision(db) -> int:
    with Store.open(db) as store:
        return store.db.revision()


def said(page: str) -> str:
    return text(page, "said") if 'id="said"' in page else page


def refused(browser: Browser, db, path: str, fields: dict, status: int, words: str,
            **how) -> str:
    before = revision(db)
    got, page = browser.post(path, fields, **how)
    shown = said(page)
    assert got == status, shown
    assert words in shown, shown
    assert revision(db) == before, "the store changed on a refused form"
    return shown


def upload(browser: Browser, data: bytes, tid: str, csrf: bool = True,
           filename: str = "pelaajat.csv") -> tuple[int, str]:
    """A players file posted as a browser posts <input type=file> (multipart/form-data)."""
    boundary = "----pilkkutest7MA4YWxkTrZu0gW"
    fields = {"tournament": tid}
    if csrf:
        fields[guard.FIELD] = guard.form_token(browser.hall)
    body = b"".join(b'--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (
        boundary.encode(), k.encode(), v.encode()) for k, v in fields.items())
    body += (b'--%s\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n'
             b"Content-Type: text/csv\r\n\r\n" % (boundary.encode(), filename.encode()))
    body += data + b"\r\n--%s--\r\n" % boundary.encode()
    headers = [("cookie", "%s=%s" % (COOKIE, browser.hall.token)), ("origin", ORIGIN),
               ("content-type", "multipart/form-data; boundary=%s" % boundary)]
    return call(browser.app, "POST", "/desk/setup/upload", body, headers)


def new_tournament(browser: Browser, **fields: str) -> str:
    """A tournament made at the desk: its id as the setup's forms carry it."""
    status, page = browser.post("/desk/setup/new", dict(KAISA, **fields))
    assert status == 200, said(page)
    return hidden(page, "add-player", "tournament")


def page_state(browser: Browser) -> str:
    status, page = browser.get("/desk/setup")
    assert status == 200
    return hidden(page, "tables", "state")


def players(db) -> list[tuple[str, str]]:
    with Store.open(db) as store:
        t = store.tournaments.get(None)
        return [(p["name"], p["club"]) for p in store.players.all(t["id"])]


# -- a night set up from an empty store -------------------------------------------------------

def test_a_new_store_opens_on_the_setup_page(desk):
    browser, db = desk
    status, page = call(browser.app, "GET", "/desk", headers=[
        ("cookie", "%s=%s" % (COOKIE, browser.hall.token))])
    assert status == 303
    status, page = browser.get("/desk/setup")
    assert status == 200 and "A new tournament" in page and 'id="add-player"' not in page
    assert Browser(browser.app, browser.hall, cookie=False).get("/desk/setup")[0] == 403


def test_a_kaisa_hakukaavio_set_up_and_drawn_as_it_was_shown(desk):
    browser, db = desk
    tid = new_tournament(browser, knockout_from="3", **{"kaisa.middle_twice": '"continue"'})
    with Store.open(db) as store:
        t = store.tournaments.get(None)
        assert (t["name"], t["game"], t["race_to"]) == ("Kevät Cup", "kaisa", 60)
        assert t["rules"]["middle_twice"] == "continue"
        assert store.tournaments.plan(t["id"]) == {"format": "hakukaavio", "knockout_from": 3,
                                                   "seeds": 0, "placings": "rounds"}
        assert store.tables.numbers(t["id"]) == [1, 2, 3, 4]
    status, page = browser.post("/desk/setup/paste", {"tournament": tid, "names": "\n".join(
        NAMES[:10]) + "\n\n"})
    assert status == 200 and "Players added: 10 (10 in all)" in said(page)
    status, page = browser.post("/desk/setup/player", {"tournament": tid, "name": NAMES[10],
                                                       "club": "BK Kaisa"})
    assert status == 200 and "Jussi Salo is in (11 players in all)" in said(page)
    status, page = upload(browser, ("nimi;seura\r\n%s;Oulu\r\n" % NAMES[11]).encode("cp1252"),
                          tid)
    assert status == 200 and "Players added: 1 (12 in all)" in said(page), said(page)
    assert "Windows-1252" in said(page)
    for seeded in ("Heikki Pitkä", "Ben Berg"):
        status, page = browser.post("/desk/setup/seed", {
            "tournament": tid, "state": page_state(browser), "player": seeded})
        assert status == 200, said(page)
    assert "Seeds: Heikki Pitkä, Ben Berg." in said(page)
    assert [n for n, _ in players(db)][:3] == ["Heikki Pitkä", "Ben Berg", "Äijälä Öhman"]

    before = revision(db)
    status, page = browser.post("/desk/setup/preview", {"tournament": tid,
                                                        "state": page_state(browser)})
    assert status == 200 and "not made yet" in page
    assert revision(db) == before, "the preview wrote to the store"
    codes = [page[i + 6:page.index('"', i + 6)] for i in _finds(page, 'id="d-')]
    assert len(codes) >= 6 and codes[0] == "R1-01", codes
    rows = {code: text(page, "d-" + code) for code in codes}
    confirm = {name: hidden(page, "confirm-draw", name) for name in ("seed", "state", "mac")}
    status, page = browser.post("/desk/setup/draw", dict(confirm, tournament=tid, fill="1"))
    assert status == 200, said(page)
    assert "Drew the hakukaavio: %d matches." % len(codes) in said(page)
    assert "R1-01 at table 1" in said(page) and "R1-04 at table 4" in said(page)
    with Store.open(db) as store:
        t = store.tournaments.get(None)
        made = {m["code"]: "%s %s %s %s" % (m["code"], m["round"], m["player1"], m["player2"])
                for m in store.matches.all(t["id"])}
        assert store.tournaments.plan(t["id"])["seeds"] == 2
    assert made == rows, "the draw made is not the one shown"
    # the draw is made: the setup says so, and the night's screen opens
    status, page = browser.get("/desk/setup")
    assert 'id="drawn"' in page and 'id="paste"' not in page and 'id="preview"' not in page
    status, page = browser.post("/desk/setup/tables", {"tournament": tid, "count": "5",
                                                       "state": page_state(browser)})
    assert status == 200 and "Tables: 1, 2, 3, 4, 5." in said(page)  # a table added later
    assert browser.get("/desk")[0] == 200
    refused(browser, db, "/desk/setup/paste", {"tournament": tid, "names": "Late Comer"}, 400,
            "drawn already")


def _finds(page: str, what: str) -> list[int]:
    found, at = [], page.find(what)
    while at >= 0:
        found.append(at)
        at = page.find(what, at + 1)
    return found


@pytest.mark.parametrize(("fields", "plan", "drawn"), [
    ({"format": "round_robin"}, {"format": "round_robin"}, "Drew the round robin: 6 matches"),
    ({"format": "single"}, {"format": "single"}, "Drew the single elimination: 3 matches"),
    ({"format": "double"}, {"format": "double", "reset": False}, "Drew the double elimination"),
    ({"format": "double", "reset": "1"}, {"format": "double", "reset": True}, "Drew the double"),
    ({"format": "groups", "groups": "2", "advance": "1"},
     {"format": "groups", "groups": 2, "advance": 1}, "Drew the groups into a knockout"),
    ({"format": "hakukaavio", "knockout_from": "2", "placings": "wins"},
     {"format": "hakukaavio", "knockout_from": 2, "seeds": 0, "placings": "wins"},
     "Drew the hakukaavio: 4 matches"),
])
def test_each_format_with_its_options(desk, fields, plan, drawn):
    """The plan stored is what `pilkku tournament new --format ...` stores; the draw is the
    CLI's `pilkku matches generate`."""
    browser, db = desk
    tid = new_tournament(browser, **dict({"game": "9ball", "race": "5", "tables": "2"},
                                         **fields))
    with Store.open(db) as store:
        assert store.tournaments.plan(int(tid)) == plan
    browser.post("/desk/setup/paste", {"tournament": tid, "names": "A\nB\nC\nD"})
    status, page = browser.post("/desk/setup/preview", {"tournament": tid,
                                                        "state": page_state(browser)})
    assert status == 200, said(page)
    confirm = {name: hidden(page, "confirm-draw", name) for name in ("seed", "state", "mac")}
    status, page = browser.post("/desk/setup/draw", dict(confirm, tournament=tid))
    assert status == 200 and drawn in said(page), said(page)
    with Store.open(db) as store:  # not asked to fill the tables: none started
        assert all(not store.tables.schedule(int(tid), n) for n in (1, 2))


# -- bad input ---------------------------------------------------------------------------

@pytest.mark.parametrize(("fields", "words"), [
    ({"name": ""}, "give the tournament's name"),
    ({"name": "x" * 81}, "longer than 80 characters"),
    ({"name": "<script>alert(1)</script>"}, "may not hold < or >"),
    ({"name": "Two\tlines"}, "must be one line of text"),
    ({"race": ""}, "give the race"),
    ({"race": "two"}, "must be a whole number from 1 to 1000"),
    ({"race": "2.5"}, "not 2.5"),
    ({"race": "0"}, "from 1 to 1000"),
    ({"race": "٣"}, "from 1 to 1000"),
    ({"game": "snooker"}, "choose the game"),
    ({"format": "swiss"}, "choose the format"),
    ({"knockout_from": "7"}, "from 2 to 6"),
    ({"placings": "best"}, "choose how the ranking places players"),
    ({"format": "groups", "groups": "0", "advance": "1"}, "from 1 to 26"),
    ({"format": "groups", "groups": "", "advance": "1"}, "give how many groups"),
    ({"tables": ""}, "give the number of tables"),
    ({"tables": "100"}, "from 1 to 99"),
    ({"kaisa.middle_twice": '"sometimes"'}, "choose the rule middle_twice"),
])
def test_a_bad_new_tournament_is_refused_and_nothing_made(desk, fields, words):
    browser, db = desk
    shown = refused(browser, db, "/desk/setup/new", dict(KAISA, **fields), 400, words)
    assert "<script>" not in shown or "may not hold" in shown
    with Store.open(db) as store:
        assert store.tournaments.all() == []


def test_a_taken_tournament_name_is_refused(desk):
    browser, db = desk
    new_tournament(browser)
    refused(browser, db, "/desk/setup/new", KAISA, 400, "a tournament named 'Kevät Cup' "
            "exists already")


@pytest.mark.parametrize(("path", "fields", "words"), [
    ("player", {"name": ""}, "give the player's name"),
    ("player", {"name": "N" * 41}, "longer than 40 characters"),
    ("player", {"name": "<script>alert(1)</script>"}, "may not hold < or >"),
    ("player", {"name": "Åsa Ek"}, "there is a player named Åsa Ek already"),
    ("player", {"name": " Åsa  Ek "}, "there is a player named Åsa Ek already"),
    ("player", {"name": "Ny", "club": "<b>"}, "may not hold < or >"),
    ("paste", {"names": " \n\n"}, "paste the players' names, one a line"),
    ("paste", {"names": "Uusi\nToinen\nUusi"}, "line 3: player 'Uusi' is listed twice"),
    ("paste", {"names": "Uusi\nÅsa Ek"}, "line 2: player 'Åsa Ek' is listed twice"),
    ("paste", {"names": "Uusi\n<script>x</script>"}, "line 2: a name may not hold < or >"),
    ("paste", {"names": "Uusi\n" + "N" * 41}, "line 2: the name"),
    ("paste", {"names": "Uusi\tBK <i>"}, "line 1: a club may not hold < or >"),
    ("paste", {"names": "Å\n" * 20000}, "longer than the desk takes (64 KB)"),
])
def test_bad_players_are_refused_and_nothing_added(desk, path, fields, words):
    browser, db = desk
    tid = new_tournament(browser)
    browser.post("/desk/setup/paste", {"tournament": tid, "names": "Åsa Ek\nBen Berg"})
    before = players(db)
    refused(browser, db, "/desk/setup/" + path, dict(fields, tournament=tid), 400, words)
    assert players(db) == before


@pytest.mark.parametrize(("data", "words"), [
    (b"", "the file chosen is empty"),
    (b"name,club\nUusi,BK\n<script>x</script>,BK\n", "line 3: a name may not hold < or >"),
    (b"name,club\nUusi,BK\nUusi,OK\n", "line 3: player 'Uusi' is listed twice"),
    (b"a,b,c\n1,2,3\n", "no header naming the name column"),
    ("nimi;seura\n" + "Pelaaja;BK\n" * 100000, "over 1024 KB"),
    (b"\xff\xfeA", "UTF-16 but is not"),
])
def test_a_bad_players_file_is_refused_and_nothing_added(desk, data, words):
    """Refused as `pilkku players import` refuses it (night/players_file.py), or for a < or >."""
    browser, db = desk
    tid = new_tournament(browser)
    before = revision(db)
    status, page = upload(browser, data if isinstance(data, bytes) else data.encode(), tid)
    assert status in (400,), said(page)
    assert words in said(page), said(page)
    assert revision(db) == before and players(db) == []


def test_a_players_file_as_a_finnish_excel_saves_it(desk):
    browser, db = desk
    tid = new_tournament(browser)
    data = "Etunimi;Sukunimi;Seura\r\nÄijälä;Öhman;BK Åland\r\nEero;Mäki;\r\n".encode("cp1252")
    status, page = upload(browser, data, tid)
    assert status == 200, said(page)
    assert "Players added: 2 (2 in all)" in said(page) and "first name and surname" in said(page)
    assert players(db) == [("Äijälä Öhman", "BK Åland"), ("Eero Mäki", "")]


def test_names_from_earlier_tournaments_are_offered_for_completion(desk):
    browser, db = desk
    tid = new_tournament(browser, name="Syys Cup")
    browser.post("/desk/setup/paste", {"tournament": tid, "names": "Äijälä Öhman\nÅsa Ek"})
    tid = new_tournament(browser, name="Kevät Cup")
    browser.post("/desk/setup/player", {"tournament": tid, "name": "Ben Berg"})
    status, page = browser.get("/desk/setup")
    known = page[page.index('<datalist id="known-names">'):page.index("</datalist>")]
    assert '<option value="Äijälä Öhman">' in known and '<option value="Åsa Ek">' in known
    assert "Ben Berg" not in known  # already in this one


# -- seeds -------------------------------------------------------------------------------

def test_seeds_set_and_cleared_as_the_format_takes_them(desk):
    browser, db = desk
    tid = new_tournament(browser)
    browser.post("/desk/setup/paste", {"tournament": tid, "names": "\n".join(NAMES)})
    for name in NAMES[:8]:
        status, page = browser.post("/desk/setup/seed", {
            "tournament": tid, "state": page_state(browser), "player": name})
        assert status == 200, said(page)
    refused(browser, db, "/desk/setup/seed", {"tournament": tid, "state": page_state(browser),
                                              "player": NAMES[8]}, 400,
            "a hakukaavio seeds 1 to 8 players, or 24 (9 chosen)")
    status, page = browser.post("/desk/setup/unseed", {
        "tournament": tid, "state": page_state(browser), "player": NAMES[0]})
    assert status == 200 and "Seeds: %s." % ", ".join(NAMES[1:8]) in said(page)
    assert [n for n, _ in players(db)][:8] == NAMES[1:8] + [NAMES[0]]
    refused(browser, db, "/desk/setup/seed", {"tournament": tid, "state": page_state(browser),
                                              "player": "Nobody"}, 400, "no player named")
    status, page = browser.post("/desk/setup/clear-seeds", {
        "tournament": tid, "state": page_state(browser)})
    assert status == 200 and "No seeds" in said(page)
    with Store.open(db) as store:
        assert store.tournaments.plan(int(tid))["seeds"] == 0


# -- refused writes: the cookie, the token, the origin; stale forms -----------------------------

def test_setup_writes_need_the_cookie_the_form_token_and_the_desks_own_origin(desk):
    browser, db = desk
    tid = new_tournament(browser)
    state = page_state(browser)
    forms = {"new": dict(KAISA, name="Toinen"), "player": {"tournament": tid, "name": "Uusi"},
             "paste": {"tournament": tid, "names": "Uusi"},
             "seed": {"tournament": tid, "state": state, "player": "Uusi"},
             "tables": {"tournament": tid, "state": state, "count": "6"},
             "preview": {"tournament": tid, "state": state},
             "draw": {"tournament": tid, "state": state, "seed": "1", "mac": "x"}}
    stranger = Browser(browser.app, browser.hall, cookie=False)
    for step, fields in forms.items():
        path = "/desk/setup/" + step
        refused(stranger, db, path, fields, 403, "only the director's browser")
        refused(browser, db, path, fields, 403, "not one the desk gave", csrf=None)
        refused(browser, db, path, fields, 403, "not one the desk gave", csrf="0" * 32)
        refused(browser, db, path, fields, 403, "from another site", origin="http://evil.test")
        refused(browser, db, path, fields, 403, "did not say which page", origin=None)
    before = revision(db)
    status, page = upload(browser, b"Uusi\n", tid, csrf=False)
    assert status == 403 and "not one the desk gave" in said(page)
    status, page = call(browser.app, "POST", "/desk/setup/upload", b"x", [
        ("cookie", "%s=%s" % (COOKIE, browser.hall.token)), ("origin", ORIGIN),
        ("content-type", "application/x-www-form-urlencoded")])
    assert status == 400 and "could not be read" in said(page)
    assert revision(db) == before and players(db) == []


def test_a_form_loaded_before_another_browsers_change_is_refused(desk):
    browser, db = desk
    tid = new_tournament(browser)
    browser.post("/desk/setup/paste", {"tournament": tid, "names": "\n".join(NAMES[:6])})
    state = page_state(browser)
    status, page = browser.post("/desk/setup/preview", {"tournament": tid, "state": state})
    confirm = {name: hidden(page, "confirm-draw", name) for name in ("seed", "state", "mac")}
    # another browser adds a player, then seeds one
    helper = Browser(browser.app, browser.hall)
    assert helper.post("/desk/setup/player", {"tournament": tid, "name": "Myöhäinen"})[0] == 200
    for step, fields in (("seed", {"player": NAMES[2]}), ("tables", {"count": "6"}),
                         ("preview", {}), ("clear-seeds", {})):
        refused(browser, db, "/desk/setup/" + step, dict(fields, tournament=tid, state=state),
                409, "The players, the seeds changed since your page was loaded")
    refused(browser, db, "/desk/setup/draw", dict(confirm, tournament=tid), 409,
            "The players, the seeds changed since your page was loaded")
    # a seed set by the other browser alone: the seeds named, nothing else
    state = page_state(browser)
    assert helper.post("/desk/setup/seed", {"tournament": tid, "state": state,
                                            "player": NAMES[3]})[0] == 200
    refused(browser, db, "/desk/setup/tables", {"tournament": tid, "state": state,
                                                "count": "6"}, 409,
            "The seeds changed since your page was loaded: nothing was done.")
    with Store.open(db) as store:
        assert not store.matches.any(int(tid))
    # a form made for the tournament before a new one was started
    new_tournament(browser, name="Toinen")
    refused(browser, db, "/desk/setup/player", {"tournament": tid, "name": "Uusi"}, 409,
            "the desk follows another tournament now ('Toinen')")
    status, page = call(browser.app, "GET", "/index.html")  # the hall follows it too
    assert status == 200 and "Toinen" in page and "Kevät Cup" not in page


def test_a_draw_confirmation_not_given_by_the_preview_is_refused(desk):
    browser, db = desk
    tid = new_tournament(browser)
    browser.post("/desk/setup/paste", {"tournament": tid, "names": "\n".join(NAMES)})
    status, page = browser.post("/desk/setup/preview", {"tournament": tid,
                                                        "state": page_state(browser)})
    confirm = {name: hidden(page, "confirm-draw", name) for name in ("seed", "state", "mac")}
    for changed in ({"seed": str(int(confirm["seed"]) + 1)}, {"mac": "0" * 32},
                    {"seed": "١"}, {"seed": ""}):
        refused(browser, db, "/desk/setup/draw", dict(confirm, tournament=tid, **changed), 400,
                "not the one the desk's preview gave")
    refused(browser, db, "/desk/setup/nothing", {"tournament": tid}, 404, "no step nothing")


def test_a_long_refused_list_shows_its_first_problems(desk):
    browser, db = desk
    tid = new_tournament(browser)
    status, page = browser.post("/desk/setup/paste", {"tournament": tid,
                                                      "names": "Sama\n" * 5000})
    assert status == 400 and "line 21: player 'Sama' is listed twice" in said(page)
    assert "line 22:" not in said(page) and "and 4979 more" in said(page)
    assert len(page) < 20000 and players(db) == []


def test_a_desk_started_for_one_tournament_says_it_follows_that_one(tmp_path):
    """`pilkku desk --tournament Syys`: a tournament made at the desk is made, and the desk
    says it goes on following Syys (the hall follows the newest only when not told)."""
    db = tmp_path / "night.db"
    Store.open(db).close()
    hall = Hall(str(db), None)
    browser = Browser(make(hall), hall)
    new_tournament(browser, name="Syys")
    hall = Hall(str(db), "Syys")
    browser = Browser(make(hall), hall)
    status, page = browser.post("/desk/setup/new", dict(KAISA, name="Kevät", game="9ball",
                                                        race="5", **{"9ball.break_rule":
                                                                     '"alternate"'}))
    assert status == 200 and "The desk follows 'Syys'" in said(page)
    assert "Setting up Syys" in page
    with Store.open(db) as store:
        assert store.tournaments.get("Kevät")["rules"]["break_rule"] == "alternate"


def test_a_name_corrected_and_a_player_taken_off_before_the_draw(desk):
    browser, db = desk
    tid = new_tournament(browser)
    browser.post("/desk/setup/paste", {"tournament": tid, "names": "Äijälä Öhmann\nÅsa Ek\n"
                                                                   "Ben Berg\nPoissa"})
    for name in ("Poissa", "Åsa Ek"):
        browser.post("/desk/setup/seed", {"tournament": tid, "state": page_state(browser),
                                          "player": name})
    fields = {"tournament": tid, "player": "Äijälä Öhmann"}
    for new, words in (("Åsa Ek", "is (or was) the name of another player"),
                       ("<script>x</script>", "may not hold < or >"), ("", "give the new name"),
                       ("N" * 41, "longer than 40 characters")):
        refused(browser, db, "/desk/setup/rename", dict(fields, new_name=new,
                                                        state=page_state(browser)), 400, words)
    status, page = browser.post("/desk/setup/rename", dict(fields, new_name="Äijälä  Öhman",
                                                           state=page_state(browser)))
    assert status == 200 and "Äijälä Öhmann is Äijälä Öhman now." in said(page)
    fields = {"tournament": tid, "player": "Poissa"}
    refused(browser, db, "/desk/setup/remove", dict(fields, state=page_state(browser),
                                                    confirm="poissa"), 400,
            "type Poissa to confirm")
    stale = page_state(browser)
    browser.post("/desk/setup/player", {"tournament": tid, "name": "Uusi"})
    refused(browser, db, "/desk/setup/remove", dict(fields, state=stale, confirm="Poissa"), 409,
            "The players, the seeds changed since")
    status, page = browser.post("/desk/setup/remove", dict(fields, state=page_state(browser),
                                                           confirm="Poissa"))
    assert status == 200 and "Poissa is off the list (4 players in all)." in said(page)
    assert [n for n, _ in players(db)] == ["Åsa Ek", "Äijälä Öhman", "Ben Berg", "Uusi"]
    with Store.open(db) as store:
        assert store.tournaments.plan(int(tid))["seeds"] == 1  # Åsa Ek, still seed 1
    status, page = browser.post("/desk/setup/preview", {"tournament": tid,
                                                        "state": page_state(browser)})
    confirm = {name: hidden(page, "confirm-draw", name) for name in ("seed", "state", "mac")}
    assert browser.post("/desk/setup/draw", dict(confirm, tournament=tid))[0] == 200
    refused(browser, db, "/desk/setup/remove", dict(fields, player="Uusi", confirm="Uusi",
                                                    state=page_state(browser)), 400,
            "the draw is made: a player who does not play on withdraws")
