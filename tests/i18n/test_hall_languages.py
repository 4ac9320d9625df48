"""Every page of the hall in Finnish and Swedish (fetched in-process, tests/hall/asgi.py, as a
browser asking with Accept-Language): the page says its language (<html lang>), no traceback,
and no English the catalogue has a translation for is left on it (the referee's log, marked
lang="en", is the one part still in English). Stores of every format, a card in every state,
results of every kind (tests/hall/night.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po

from host import i18n
from host.hall import pages
from host.hall.app import Hall, make_app
from host.i18n import catalogues, choose
from host.tournament import night
from host.tournament.night import hand
from host.tournament.store import Store
from tests.hall import night as nights
from tests.hall.asgi import call

LANGUAGES = ("fi", "sv")
ACCEPT = {"fi": "fi-FI,fi;q=0.9,en-US;q=0.8,en;q=0.7", "sv": "sv-FI,sv;q=0.9,en;q=0.5"}
_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[#0 +\-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


class _Shown(HTMLParser):
    """What a person reads on the page: the text and the title, leaving out scripts and what
    is marked as English (lang="en") on a page in another language."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if self.skipping or tag in ("script", "style") or (
                tag != "html" and dict(attrs).get("lang") == "en"):
            self.skipping.append(tag)

    def handle_endtag(self, tag) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data) -> None:
        if not self.skipping:
            self.parts.append(data)


def shown(html: str) -> str:
    parser = _Shown()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def english_left(language: str) -> list[tuple[str, re.Pattern]]:
    """Each message of the language's catalogue whose translation differs from its English,
    as a pattern that finds the English on a page (english_patterns)."""
    with catalogues.po_path(language).open("rb") as po:
        return english_patterns(read_po(po, locale=language))


def english_patterns(catalog) -> list[tuple[str, re.Pattern]]:
    """Each message of `catalog` whose translation differs from its English, as a pattern
    that finds the English on a page (placeholders: any short text; a word: not inside a
    longer one)."""
    found = []
    translations = [" ".join(m.string) if isinstance(m.string, tuple) else m.string
                    for m in catalog if m.id]
    for m in catalog:
        if not m.id or not m.string:
            continue
        english = m.id[0] if isinstance(m.id, tuple) else m.id
        string = m.string[0] if isinstance(m.string, tuple) else m.string
        # the words as a page shows them: a space at the message's ends is not seen there
        # (and its escape, "\\ ", cut in half by a strip, would break the pattern)
        literal = _PLACEHOLDER.split(english.strip())
        letters = sum(c.isalpha() for c in "".join(literal))
        # (a pattern of placeholders and one short word, '%(board)s on %(port)s:', would
        # find the Finnish 'on' of any sentence)
        if string == english or letters < 2 or (letters < 3 and len(literal) > 1):
            continue
        body = ".{1,60}?".join(re.escape(part) for part in literal)
        pattern = re.compile(r"(?<![\w-])%s(?![\w-])" % body)
        # a word the language itself uses ('hand' in Swedish 'för hand') proves nothing
        if not any(pattern.search(other) for other in translations):
            found.append((english, pattern))
    return found


def test_a_message_with_spaces_at_its_ends_is_found_as_its_words():
    """A message with a trailing or leading space ('Table ', ' out of %(n)s ') gives a pattern
    that finds its words on a page, and not inside a longer word."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="fi")
    catalog.add("Table ", "Pöytä ")
    catalog.add(" out of %(count)s ", " / %(count)s ")
    found = dict(english_patterns(catalog))
    assert sorted(found) == [" out of %(count)s ", "Table "]
    assert found["Table "].search("Table 3 is free")
    assert not found["Table "].search("Tables 3") and not found["Table "].search("Pöytä 3")
    assert found[" out of %(count)s "].search("round 2 out of 5 rounds")
    assert not found[" out of %(count)s "].search("round 2 / 5")


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> list[str]:
    """A round robin (9-ball) with a result of every kind and a card in every state, a Kaisa
    night (points, innings, the game clock), a double of 8 with a bracket reset, a
    hakukaavio of 8 half played, groups into a knockout, a single-elimination bracket."""
    folder = tmp_path_factory.mktemp("languages")
    made = []
    db = str(folder / "round_robin.db")
    tid = nights.cup(db, players=["Pelaaja %d" % i for i in range(1, 11)], tables=5)
    with Store.open(db) as store:
        nights.every_card_state(store, tid, playing={"fouls": [1, 2], "clock": 25})
        first = [m for m in store.matches.all(tid) if m["round"] == 1]
        nights.play(store, tid, first[0]["code"], 1)
        second = [m for m in store.matches.all(tid) if m["round"] == 2]
        hand.record_hand(store, tid, second[0]["code"], "2:1", "pöytäkirjasta")
        hand.no_winner(store, tid, second[1]["code"], "void", "väärä pari")
        hand.no_winner(store, tid, second[2]["code"], "both_lose", "kumpikaan ei tullut")
        night.walkover(store, tid, second[3]["code"], second[3]["player1"], "ei tullut")
        for m in [m for m in store.matches.all(tid) if m["round"] == 3][:2]:
            night.assign(store, tid, m["code"], 1)
    made.append(db)
    db = str(folder / "kaisa.db")
    tid = nights.cup(db, game="kaisa", race=60, tables=2)
    with Store.open(db) as store:
        night.assign(store, tid, "R1-01", 1)
        store.live.put("pk-1", tid, 1, dict(nights.live("R1-01", nights.PLAYERS[:2], [23, -2]),
                                            game="kaisa", race_to=60, inning=7, clock="41:10"))
    made.append(db)
    for name, fmt, count, winner in (
            ("double", "double", 8, lambda code: int(code.startswith(("L", "F-1")))),
            ("hakukaavio", "hakukaavio", 8, None), ("groups", "groups", 8, None),
            ("bracket", "bracket", 8, None)):
        db = str(folder / ("%s.db" % name))
        tid = nights.cup(db, fmt, players=["Pelaaja %d" % i for i in range(1, count + 1)])
        with Store.open(db) as store:
            if winner is not None:
                nights.play_out(store, tid, winner)
            else:  # half played: rounds to come, slots waiting for winners
                for m in store.matches.all(tid)[:3]:
                    if None not in (m["player1"], m["player2"]):
                        nights.play(store, tid, m["code"], 1)
        made.append(db)
    return made


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_of_the_hall_in_finnish_and_swedish(stores, language):
    left_patterns = english_left(language)
    seen_pages = 0
    for db in stores:
        hall = Hall(db, None)
        app = make_app(hall)
        with Store.open(db) as store:
            keys = pages.keys(store, store.tournaments.get())
        for key in keys + ["tv", "tv-draw"]:
            for director in (False, True):
                headers = [("accept-language", ACCEPT[language])]
                if director:
                    headers.append(("cookie", "pilkku_director=%s" % hall.token))
                status, html = call(app, "GET", "/%s.html" % key, headers=headers)
                assert status == 200, (db, key, html[:300])
                assert '<html lang="%s">' % language in html, (db, key)
                assert "Traceback" not in html and "internal error" not in html, (db, key)
                text = shown(html)
                left = [english for english, pattern in left_patterns if pattern.search(text)]
                assert not left, "English left on %s of %s in %s: %s\n%s" % (
                    key, db, language, left, text)
                seen_pages += 1
    assert seen_pages > 100


def test_the_switch_is_remembered_and_beats_accept_language(stores):
    hall = Hall(stores[0], None)
    app = make_app(hall)
    status, html = call(app, "GET", "/results.html", headers=[("accept-language", ACCEPT["fi"])])
    assert '<html lang="fi">' in html and 'id="lang-sv"' in html and "Tulokset" in html
    assert 'href="language?to=sv&amp;page=results"' in html
    status, _ = call(app, "GET", "/language?to=sv&page=results")
    assert status == 303
    status, html = call(app, "GET", "/results.html", headers=[
        ("accept-language", ACCEPT["fi"]), ("cookie", "%s=sv" % choose.COOKIE)])
    assert '<html lang="sv">' in html and "Resultat" in html and "Tulokset" not in html
    status, html = call(app, "GET", "/results.html")  # no header, no cookie: English
    assert '<html lang="en">' in html and "Results" in html
    assert call(app, "GET", "/language?to=de&page=results")[0] == 404


def test_a_pages_updates_come_in_its_language(stores):
    """The live page's event stream names its language; the pushed <main> is in it."""
    hall = Hall(stores[0], None)
    status, html = call(make_app(hall), "GET", "/index.html",
                        headers=[("accept-language", ACCEPT["sv"])])
    assert 'data-events="events?page=index&amp;lang=sv"' in html
    from host.hall.app import LANGUAGE_STREAM, _main

    with Store.open(stores[0]) as store:
        t = store.tournaments.get()
        assert "Bord 1" in _main(store, t, "index" + LANGUAGE_STREAM + "sv", 0)
        assert "Pöytä 1" in _main(store, t, "index" + LANGUAGE_STREAM + "fi", 0)
        assert "Table 1" in _main(store, t, "index", 0)


def test_no_such_page_and_the_export_in_the_language_asked_for(stores, tmp_path, capsys):
    from host import cli

    app = make_app(Hall(stores[0], None))
    assert call(app, "GET", "/nosuch.html", headers=[("accept-language", ACCEPT["fi"])]) == (
        404, "sivua ei ole")
    assert call(app, "GET", "/nosuch.html") == (404, "no such page in the hall")
    folder = tmp_path / "site"
    assert cli.main(["--lang", "sv", "--db", stores[0], "hall", "--export", str(folder)]) == 0
    capsys.readouterr()
    html = (folder / "results.html").read_text(encoding="utf-8")
    assert '<html lang="sv">' in html and "<h2>Resultat</h2>" in html
    assert "language?to=" not in html  # a static page has no server to remember a switch


def test_the_statistics_csv_is_the_same_in_every_language(stores):
    """A file for programs: 1.25, not the Finnish page's 1,25 (which a CSV reader would take
    for two columns or quote)."""
    app = make_app(Hall(stores[0], None))
    english = call(app, "GET", "/stats.csv")
    assert english[0] == 200 and "." in english[1].splitlines()[1]
    for language in LANGUAGES:
        assert call(app, "GET", "/stats.csv", headers=[
            ("accept-language", ACCEPT[language]), ("cookie", "pilkku_lang=" + language)]) \
            == english
        with i18n.use(language), Store.open(stores[0]) as store:
            assert pages.stats_csv(store, store.tournaments.get()) == english[1]
