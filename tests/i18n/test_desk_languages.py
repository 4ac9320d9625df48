"""Every page of the director's desk and every printout in Finnish and Swedish, fetched
in-process as the director's browser asking with Accept-Language (tests/desk/client.py): the
page says its language (<html lang>), no traceback, and no English the catalogue translates
is left on it. The stores of tests/i18n/test_hall_languages.py (every format, results of
every kind, a Kaisa night); a question (a correction's plan) and a refusal; a form posted in
Finnish answers in Finnish; the switch on a desk page remembered for the next."""

from __future__ import annotations

import pytest

from host.desk import views
from host.desk.app import make
from host.hall.app import Hall
from host.tournament.store import Store
from tests.desk.client import Browser, hidden
from tests.i18n.test_hall_languages import ACCEPT, LANGUAGES, english_left, shown
from tests.i18n.test_hall_languages import stores as stores  # noqa: F401  (the fixture)


class Speaking(Browser):
    """The director's browser, asking for `lang` first."""

    def __init__(self, app, hall: Hall, lang: str) -> None:
        super().__init__(app, hall)
        self.lang = lang

    def _headers(self, origin) -> list[tuple[str, str]]:
        return super()._headers(origin) + [("accept-language", ACCEPT[self.lang])]


def _matches(db: str) -> list[dict]:
    """The night screen's matches, each with its state (waiting, queued, finished, ...)."""
    store, t = Hall(db, None).open()
    with store:
        return views.night(store, t, 0)["matches"]


def _pages(db: str) -> list[str]:
    """The desk's pages of a store: the night, a match of each state, players, setup,
    boards, pairings and every printout."""
    matches = _matches(db)
    by_state: dict[str, str] = {}
    for m in matches:
        by_state.setdefault(m["state"], m["code"])
    sheets = ["/print/sheets?matches=open"] if "waiting" in by_state else []
    return (["/desk", "/desk/withdraw", "/desk/setup", "/desk/boards", "/desk/pairings",
             "/print/sheets/blank", "/print/draw", "/print/results"] + sheets
            + ["/desk/match/%s" % code for code in by_state.values()])


def _problems(html: str, status: int, lang: str, left: list, where: str) -> list:
    """What is wrong with a page in `lang` (nothing: [])."""
    if status != 200:
        return [(where, status, shown(html)[-400:])]
    if '<html lang="%s">' % lang not in html or "Traceback" in html:
        return [(where, "lang or traceback", html[:300])]
    text = shown(html)
    english = [message for message, pattern in left if pattern.search(text)]
    return [(where, english, text[:2000])] if english else []


def _check(html: str, status: int, lang: str, left: list, where: str) -> None:
    problems = _problems(html, status, lang, left, where)
    assert not problems, problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_desk_page_and_printout_in_finnish_and_swedish(stores, language):  # noqa: F811
    left = english_left(language)
    seen, problems = 0, []
    for db in stores:
        hall = Hall(db, None)
        browser = Speaking(make(hall), hall, language)
        for path in _pages(db):
            status, html = browser.get(path)
            problems += _problems(html, status, language, left, "%s %s" % (db, path))
            seen += 1
    assert not problems, "\n".join(repr(p[:2]) for p in problems)
    assert seen >= 6 * 10  # 8 pages and at least 2 matches' of each store


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_question_and_a_refusal_in_the_desks_language(stores, language):  # noqa: F811
    """A correction's plan (ask.html) and a score refused (said.html), in the page's words."""
    left = english_left(language)
    db = stores[0]
    hall = Hall(db, None)
    browser = Speaking(make(hall), hall, language)
    matches = _matches(db)
    done = [m for m in matches if m["state"] == "finished" and m["player1"]
            and m["player2"]][0]["code"]
    waiting = [m for m in matches if m["state"] == "waiting" and m["player1"]
               and m["player2"]][0]["code"]
    _, page = browser.get("/desk/match/%s" % done)
    status, html = browser.post("/desk/correct", {
        "match": done, "state": hidden(page, "correct"), "score": "0:2", "winner": "2",
        "reason": "väärin kirjattu"})
    _check(html, status, language, left, "correct %s" % done)
    _, page = browser.get("/desk/match/%s" % waiting)
    status, html = browser.post("/desk/score", {
        "match": waiting, "state": hidden(page, "score"), "score": "", "reason": ""})
    assert status == 400, html
    _check(html.replace("<html", "<html", 1), 200, language, left, "refused")


def test_a_form_posted_in_finnish_answers_in_finnish(stores):  # noqa: F811
    """A match started from the night's screen in Finnish: the answer is Finnish, whole."""
    db = stores[0]
    hall = Hall(db, None)
    browser = Speaking(make(hall), hall, "fi")
    waiting = [m for m in _matches(db) if m["state"] == "waiting" and m["player1"]
               and m["player2"]][0]
    status, html = browser.post("/desk/assign", {"match": waiting["code"],
                                                 "state": waiting["version"], "table": "5"})
    _check(html, status, "fi", english_left("fi"), "assign")
    assert "%s jonossa pöytään 5" % waiting["code"] in shown(html), shown(html)[-300:]
    assert '<p id="said" class="said ok">' in html  # not marked as English either
    status, html = browser.get("/desk")
    assert 'data-events="/events?page=desk&amp;lang=fi"' in html  # its updates in Finnish too


def test_the_switch_on_a_desk_page_is_remembered(stores):  # noqa: F811
    """The switch on a desk page goes back to that page, in the language chosen, and the
    next page (a printout too) is in it whatever the browser's Accept-Language."""
    db = stores[0]
    hall = Hall(db, None)
    app = make(hall)
    browser = Speaking(app, hall, "fi")
    _, html = browser.get("/desk/withdraw")
    assert 'href="/desk/language?to=sv&amp;back=/desk/withdraw"' in html
    status, _ = browser.get("/desk/language?to=sv&back=/desk/withdraw")
    assert status == 303
    from host.i18n import choose
    from tests.desk import client

    cookie = "%s; %s=sv" % (browser._headers(None)[0][1], choose.COOKIE)
    for path in ("/desk/withdraw", "/print/results"):
        status, html = client.call(app, "GET", path, headers=[
            ("cookie", cookie), ("accept-language", ACCEPT["fi"])])
        assert status == 200 and '<html lang="sv">' in html, path
    for bad in ("https://evil.example/", "//evil.example/desk", "/index.html"):
        status, _ = client.call(app, "GET", "/desk/language?to=fi&back=" + bad)
        assert status == 303  # (it goes to /desk: checked by _back's test below)
    from host.desk.app import _back
    assert [_back(p) for p in ("/desk/match/R1-01", "//evil/desk", "/index.html",
                               "/print/draw")] == ["/desk/match/R1-01", "/desk", "/desk",
                                                   "/print/draw"]


def test_the_setup_answers_in_the_pages_language(tmp_path):
    """The setup's answers (a new tournament, its tables) in Finnish, a refusal there too
    (tests/i18n/test_desk_refusals_languages.py: every kind of the desk's refusals)."""
    db = str(tmp_path / "new.db")
    with Store.open(db):
        pass
    hall = Hall(db, None)
    browser = Speaking(make(hall), hall, "fi")
    status, html = browser.post("/desk/setup/new", {
        "name": "Kevät", "game": "kaisa", "race": "60", "format": "round_robin",
        "tables": "2"})
    _check(html, status, "fi", english_left("fi"), "new")
    assert "Kilpailu 'Kevät': Kaisa, voittoraja 60, kaikki kaikkia vastaan, pöydät 1–2." \
        in shown(html), shown(html)[-400:]
    store, t = hall.open()
    with store:
        tid = str(t["id"])
    _, page = browser.get("/desk/setup")
    status, html = browser.post("/desk/setup/tables", {
        "tournament": tid, "state": hidden(page, "tables"), "count": "3"})
    _check(html, status, "fi", english_left("fi"), "tables")
    assert "Pöydät: 1, 2, 3." in shown(html)
    _, page = browser.get("/desk/setup")
    status, html = browser.post("/desk/setup/tables", {
        "tournament": tid, "state": hidden(page, "tables"), "count": "kolme"})
    assert status == 400 and 'lang="en"' not in html.split('id="said"')[1].split("</p>")[0]
    assert "Pöytien määrä on annettava kokonaislukuna väliltä 1–99" in shown(html)
