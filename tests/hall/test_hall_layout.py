"""The draw as a screen shows it, in a real browser (headless Chromium): a double elimination
of 8 and a 64-player hakukaavio on a 1600×900 laptop screen and on the TV page at 1920×1080,
the final in view, nothing cut off at the right (issue 27, item 9: at 1600 px the double's
bracket was cut off before the final). Stores played out in-process (tests/hall/night.py).
Screenshots go to $PILKKU_HALL_SHOTS (docs/hall for the docs), else the test's folder."""

from __future__ import annotations

import pytest

from host.bench.hall import serving
from host.tournament.store import Store
from tests.hall import night as nights
from tests.hall.test_hall_browser import screen, shots


@pytest.fixture(scope="module")
def double_8(tmp_path_factory) -> str:
    db = str(tmp_path_factory.mktemp("double8") / "hall.db")
    tid = nights.cup(db, "double", players=["Pelaaja %d" % i for i in range(1, 9)])
    with Store.open(db) as store:  # the losers' side's lower seed wins: a bracket reset
        nights.play_out(store, tid, lambda code: int(code.startswith(("L", "F-1"))))
    return db


@pytest.fixture(scope="module")
def hakukaavio_64(tmp_path_factory) -> str:
    db = str(tmp_path_factory.mktemp("haku64") / "hall.db")
    tid = nights.cup(db, "hakukaavio", players=["Pelaaja %d" % i for i in range(1, 65)],
                     tables=8)
    with Store.open(db) as store:
        nights.play_out(store, tid, lambda code: sum(map(ord, code)) % 2)
    return db


_SEEN = """
var box = arguments[0].getBoundingClientRect();
var hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
return {left: box.left, right: box.right, top: box.top, bottom: box.bottom,
        width: window.innerWidth, height: window.innerHeight,
        page: document.documentElement.scrollWidth, hit: arguments[0].contains(hit)};
"""


def seen(driver, css: str, scroll: bool = True) -> dict:
    """Where the element is on the screen and whether a person sees it there (nothing over
    it, not clipped): scrolled up or down to it first when `scroll`, never sideways."""
    element = driver.find_elements("css selector", css)[-1]
    if scroll:  # (scrollIntoView would scroll a box's container sideways: a person must not)
        driver.execute_script("var box = arguments[0].getBoundingClientRect(); window.scrollTo("
                              "0, window.scrollY + box.top - window.innerHeight / 3);", element)
    return driver.execute_script(_SEEN, element)


def in_view(box: dict, whole: bool) -> bool:
    fits = box["left"] >= 0 and box["right"] <= box["width"] and box["page"] <= box["width"]
    return fits and box["hit"] and (not whole or (box["top"] >= 0
                                                   and box["bottom"] <= box["height"]))


def test_the_doubles_final_is_in_view_at_1600_and_on_the_tv(browser, double_8, tmp_path):
    with Store.open(double_8) as store:
        codes = [m["code"] for m in store.matches.all(store.tournaments.get()["id"])]
    final = "#bout-F-2" if "F-2" in codes else "#bout-F-1"
    with serving(double_8) as (url, _hall):
        screen(browser, 1600, 900)
        browser.get(url + "/draw.html")
        box = seen(browser, final)
        assert in_view(box, whole=False), box
        assert seen(browser, "#bout-L1-01")["hit"]  # the losers' side is there too
        browser.execute_script("document.querySelector('h2 + h3.side').scrollIntoView()")
        browser.save_screenshot(str(shots(tmp_path) / "double-8.png"))

        screen(browser, 1920, 1080)
        browser.get(url + "/tv-draw.html")
        box = seen(browser, final, scroll=False)  # a TV does not scroll
        assert in_view(box, whole=True), box
        assert in_view(seen(browser, "#bout-W1-01", scroll=False), whole=True)
        browser.save_screenshot(str(shots(tmp_path) / "tv-draw.png"))


def test_a_64_player_hakukaavio_fits_the_screen_with_its_final(browser, hakukaavio_64,
                                                                tmp_path):
    last = ".round:last-of-type .bout:last-of-type"
    with serving(hakukaavio_64) as (url, _hall):
        screen(browser, 1600, 900)
        browser.get(url + "/draw.html")
        rounds = browser.find_elements("css selector", ".round h3")
        assert len(rounds) >= 8, [r.text for r in rounds]
        assert in_view(seen(browser, last), whole=False)
        assert in_view(seen(browser, "#bout-R1-32"), whole=False)
        browser.execute_script("document.querySelector('.rounds').scrollIntoView()")
        browser.save_screenshot(str(shots(tmp_path) / "hakukaavio-64.png"))

        screen(browser, 1920, 1080)
        browser.get(url + "/tv-draw.html")
        assert in_view(seen(browser, last, scroll=False), whole=True)


def test_every_card_state_as_the_tables_page_shows_it(browser, tmp_path):
    """The states docs/hall.md names, one table each: no board, board idle (its next match not
    started), playing, finished (the winner marked), board not answering."""
    db = str(tmp_path / "hall.db")
    tid = nights.cup(db, players=["Pelaaja %d" % i for i in range(1, 11)], tables=5)
    with Store.open(db) as store:
        names = nights.every_card_state(store, tid)
    with serving(db) as (url, _hall):
        screen(browser, 1600, 900)
        browser.get(url + "/index.html")
        status = [s.text for s in browser.find_elements("css selector", ".card .status")]
        assert status == ["no board", "board idle", "playing", "finished", "board not answering"]
        for table in (1, 2):
            assert "not started" in browser.find_element("css selector", "#table-%d" % table).text
        winner = browser.find_element("css selector", "#table-4 .player.winner .name")
        assert winner.text == names[3][1] and winner.value_of_css_property("font-weight") == "700"
        assert len(browser.find_elements("css selector", ".player.winner")) == 1
        assert browser.find_elements("css selector", "#table-3 .player.shooting")
        browser.save_screenshot(str(shots(tmp_path) / "card-states.png"))
