"""The director's desk in Finnish in a real browser (headless Chromium, as
tests/desk/test_desk_browser.py): a browser asking for Finnish (Accept-Language) reads the
night's screen in Finnish, starts a match and is answered in Finnish, and the screen's live
update (a match started elsewhere) comes in Finnish too. The screen is docs/desk.md's
Finnish screenshot ($PILKKU_DESK_SHOTS=docs/desk: night-fi.png)."""

from __future__ import annotations

import pytest

from host.tournament import night
from host.tournament.store import Store
from tests.desk.test_desk_browser import NAMES, browser, desk_served, seen, shots  # noqa: F401
from tests.hall import night as hall_night
from tests.i18n.accept_language import asking_for


@pytest.fixture
def finnish(browser):  # noqa: F811
    """The browser asking for Finnish first, as a Finnish laptop's does; as it was after."""
    with asking_for(browser) as asking:
        yield asking


def test_the_nights_screen_in_finnish(finnish, tmp_path):
    from selenium.webdriver.common.by import By

    db = tmp_path / "night.db"
    tid = hall_night.cup(db, "hakukaavio", players=NAMES + ["Fredrik", "Gunilla"], tables=3,
                         game="kaisa", race=60)
    with desk_served(db) as (url, hall):
        finnish.set_window_size(1400, 900)
        finnish.get(url + "/desk/director?token=" + hall.token)
        seen(finnish, "#matches", "R1-01")
        assert finnish.find_element(By.CSS_SELECTOR, "html").get_attribute("lang") == "fi"
        assert finnish.title == "Illan näkymä · Kevät Cup · kilpailunjohtaja"
        assert "pelataan 60 pisteeseen" in finnish.find_element(
            By.CSS_SELECTOR, "header.top .what").text
        finnish.find_element(By.ID, "start-next").click()
        first = seen(finnish, "#said", "alkaa pöydässä 1").split()[0]
        finnish.find_element(By.ID, "back").click()
        seen(finnish, "#m-%s" % first, "seuraavana pöydässä 1, ei alkanut")
        with Store.open(db) as store:  # a match started elsewhere: pushed in Finnish
            second = [m for m in store.matches.all(tid) if m["code"] != first
                      and m["player1"] and m["player2"] and m["winner"] is None][0]["code"]
            night.assign(store, tid, second, 2)
        seen(finnish, "#m-%s" % second, "seuraavana pöydässä 2, ei alkanut")
        seen(finnish, "#t-2", "Pöytä 2")
        assert "Aloita seuraava peli pöydässä 3" in finnish.find_element(
            By.ID, "start-next").text
        finnish.save_screenshot(str(shots(tmp_path) / "night-fi.png"))
