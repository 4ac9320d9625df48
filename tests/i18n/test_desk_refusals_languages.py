"""The desk's refusals in the page's language (its language cookie fi or sv): the forms' own
(a field missing or wrong: host/desk/forms.py), the setup's, the guard's (a form without its
token, a form from another site, a browser without the director's cookie), a stale form's (made
before the store changed), the season's steps' and the boards page's. Each answer is in the
page's language, says nothing marked English (lang="en") but commands and file headers, has no
English the catalogue translates, differs from what the English page says, and leaves the
store as it was (its revision)."""

from __future__ import annotations

import re

import pytest

from host.desk.app import make
from host.hall.app import Hall
from host.i18n import choose
from host.tournament.store import Store
from tests.desk import client
from tests.desk.client import Browser, hidden
from tests.i18n.test_hall_languages import LANGUAGES, english_left, shown
from tests.i18n.test_hall_languages import stores as stores  # noqa: F401  (the fixture)

# What stays English on purpose, said so: a command, a file's English header, a tie-break key.
_TRULY_ENGLISH = re.compile(r'<code lang="en">[^<]*</code>')
# A refusal that says nothing was done, and the line a page adds after one that does not.
_NOTHING = {"fi": ("mitään ei tehty", "Mitään ei muutettu."),
            "sv": ("inget gjordes", "Inget ändrades.")}


class Cookied(Browser):
    """The director's browser with the language switch's cookie set to `lang`."""

    def __init__(self, app, hall: Hall, lang: str, director: bool = True) -> None:
        super().__init__(app, hall, cookie=director)
        self.lang = lang

    def _headers(self, origin) -> list[tuple[str, str]]:
        headers = super()._headers(origin)
        cookies = "; ".join([v for k, v in headers if k == "cookie"]
                            + ["%s=%s" % (choose.COOKIE, self.lang)])
        return [(k, v) for k, v in headers if k != "cookie"] + [("cookie", cookies)]


def _said_html(html: str) -> str:
    """The part of the page that says what was done with the form (up to its first
    paragraph's end, with a refused list's problems), or the whole answer (plain text)."""
    if 'id="said"' not in html:
        return html
    start = html.index('id="said"')
    part = html[start:html.index("</p>", start) + 4]
    if 'id="problems"' in html:
        at = html.index('id="problems"')
        part += html[at:html.index("</ul>", at)]
    return "<div " + part


def _said(html: str) -> str:
    return shown(_said_html(html)) if 'id="said"' in html else html.strip()


def _revision(db: str) -> int:
    with Store.open(db) as store:
        return store.db.revision()


class Refusals:
    """Each refusal posted in `lang` and in English: (what, status, said in lang)."""

    def __init__(self, db: str, lang: str) -> None:
        self.db, self.hall = db, Hall(db, None)
        self.app = make(self.hall)
        self.lang = lang
        self.browsers = {code: Cookied(self.app, self.hall, code) for code in (lang, "en")}
        self.left = english_left(lang)
        self.problems: list = []

    def page(self, path: str) -> str:
        return self.browsers["en"].get(path)[1]

    def post(self, what: str, path: str, fields: dict[str, str], status: int, **how) -> None:
        """`fields` posted in the language and in English: the same refusal, each in its
        own words, nothing done."""
        before = _revision(self.db)
        answers = {}
        for code, browser in self.browsers.items():
            if what.startswith("no director"):
                browser = Cookied(self.app, self.hall, code, director=False)
            got, html = browser.post(path, fields, **how)
            answers[code] = html
            if got != status:
                self.problems.append((what, code, got, _said(html)[-300:]))
        html = answers[self.lang]
        said, english = _said(html), _said(answers["en"])
        if _revision(self.db) != before:
            self.problems.append((what, "the store changed"))
        if said == english or not said:
            self.problems.append((what, "not translated", said[:300]))
        if 'lang="en"' in _TRULY_ENGLISH.sub("", _said_html(html)):
            self.problems.append((what, 'lang="en"', said[:300]))
        if "<html" in html and '<html lang="%s">' % self.lang not in html:
            self.problems.append((what, "not a %s page" % self.lang))
        if _NOTHING[self.lang][0] in said.lower() and _NOTHING[self.lang][1] in shown(html):
            self.problems.append((what, "said twice that nothing was done", said[:300]))
        found = [message for message, pattern in self.left if pattern.search(said)]
        if found:
            self.problems.append((what, "English left", found, said[:300]))

    def check(self) -> None:
        assert not self.problems, "\n".join(repr(p) for p in self.problems)


def _night(db: str) -> tuple[str, str]:
    """A waiting match with both players, and the night's tables' state."""
    from host.desk import views

    store, t = Hall(db, None).open()
    with store:
        matches = views.night(store, t, 0)["matches"]
    waiting = [m for m in matches if m["state"] == "waiting" and m["player1"]
               and m["player2"]][0]
    return waiting["code"], waiting["version"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_nights_guard_and_stale_refusals_in_the_pages_language(stores, language):  # noqa: F811
    db = stores[0]
    said = Refusals(db, language)
    code, state = _night(db)
    score = {"match": code, "state": state, "score": "", "reason": ""}
    said.post("a field missing", "/desk/score", score, 400)
    said.post("a whole number wrong", "/desk/assign", {"match": code, "state": state,
                                                       "table": "kolme"}, 400)
    said.post("no such match", "/desk/assign", {"match": "ZZ-99", "state": state,
                                                "table": "1"}, 400)
    said.post("a stale match", "/desk/assign", {"match": code, "state": state + "x",
                                                "table": "1"}, 409)
    said.post("the form given twice", "/desk/assign", {}, 400,
              raw=b"match=A&match=B")
    said.post("no token", "/desk/assign", {"match": code, "state": state, "table": "1"},
              403, csrf=None)
    said.post("another site", "/desk/assign", {"match": code, "state": state, "table": "1"},
              403, origin="https://evil.example")
    said.post("no origin", "/desk/assign", {"match": code, "state": state, "table": "1"},
              403, origin=None)
    said.post("no director", "/desk/assign", {"match": code, "state": state, "table": "1"},
              403)
    said.post("the boards' actions without a watcher", "/desk/boards/move",
              {"board": "b1", "table": "1", "state": ""}, 400)
    said.check()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_setups_refusals_in_the_pages_language(tmp_path, language):
    db = str(tmp_path / "new.db")
    with Store.open(db):
        pass
    hall = Hall(db, None)
    status, _ = Browser(make(hall), hall).post("/desk/setup/new", {
        "name": "Spring", "game": "kaisa", "race": "60", "format": "round_robin",
        "tables": "2"})
    assert status == 200
    said = Refusals(db, language)
    said.post("a new tournament's race", "/desk/setup/new", {
        "name": "Autumn", "game": "kaisa", "race": "lots", "format": "round_robin",
        "tables": "2"}, 400)
    said.post("a new tournament's format", "/desk/setup/new", {
        "name": "Autumn", "game": "kaisa", "race": "60", "format": "swiss",
        "tables": "2"}, 400)
    said.post("a name taken", "/desk/setup/new", {
        "name": "Spring", "game": "kaisa", "race": "60", "format": "round_robin",
        "tables": "2"}, 400)
    store, t = hall.open()
    with store:
        tid = str(t["id"])
    page = said.page("/desk/setup")
    state = hidden(page, "tables")
    said.post("the tables", "/desk/setup/tables", {"tournament": tid, "state": state,
                                                   "count": "kolme"}, 400)
    said.post("a stale setup", "/desk/setup/tables", {"tournament": tid, "state": "i=0",
                                                      "count": "3"}, 409)
    said.post("another tournament", "/desk/setup/tables", {
        "tournament": "999", "state": state, "count": "3"}, 409)
    said.post("a player's club", "/desk/setup/player", {
        "tournament": tid, "name": "Aino <b>", "club": ""}, 400)
    said.post("an empty paste", "/desk/setup/paste", {"tournament": tid, "names": ""}, 400)
    said.post("a forged draw", "/desk/setup/draw", {"tournament": tid, "state": state,
                                                    "confirm": "x"}, 400)
    said.post("no token", "/desk/setup/tables", {"tournament": tid, "state": state,
                                                 "count": "3"}, 403, csrf=None)
    said.post("another site", "/desk/setup/tables", {"tournament": tid, "state": state,
                                                     "count": "3"}, 403,
              origin="https://evil.example")
    said.check()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_season_steps_refusals_in_the_pages_language(stores, language):  # noqa: F811
    db = stores[0]
    said = Refusals(db, language)
    store, t = Hall(db, None).open()
    with store:
        tid = str(t["id"])
    state = hidden(said.page("/desk/season"))
    said.post("a series without a name", "/desk/season/new", {
        "tournament": tid, "state": state, "game": "kaisa", "name": ""}, 400)
    said.post("a series' best nights", "/desk/season/new", {
        "tournament": tid, "state": state, "game": "kaisa", "name": "Kevät",
        "best": "many"}, 400)
    said.post("points to change", "/desk/season/points", {
        "tournament": tid, "state": state, "table": "default"}, 400)
    said.post("carried points", "/desk/season/new", {
        "tournament": tid, "state": state, "game": "kaisa", "name": "Kevät",
        "carry": "Syksy", "carry_points": "5;3"}, 400)
    said.post("a stale season", "/desk/season/points", {
        "tournament": tid, "state": "old", "win": "3", "table": "default"}, 409)
    said.post("no token", "/desk/season/points", {
        "tournament": tid, "state": state, "win": "3", "table": "default"}, 403, csrf=None)
    said.check()


def test_the_director_only_page_in_the_pages_language(stores):  # noqa: F811
    """A browser without the director's cookie, asking for the setup in Finnish."""
    hall = Hall(stores[0], None)
    app = make(hall)
    answers = {code: client.call(app, "GET", "/desk/setup", headers=[
        ("cookie", "%s=%s" % (choose.COOKIE, code))]) for code in ("fi", "en")}
    assert answers["fi"][0] == answers["en"][0] == 403
    assert answers["fi"][1] != answers["en"][1] and answers["fi"][1], answers["fi"]
