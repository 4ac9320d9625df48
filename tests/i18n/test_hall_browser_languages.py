"""The hall in Finnish in a real browser (headless Chromium, tests/hall/conftest.py): a browser
that asks for Finnish (Accept-Language) reads the tables page in Finnish, switches to Swedish
with the switch on the page, and keeps Swedish on the next pages and in the live updates.
The Finnish tables page is docs/hall.md's screenshot ($PILKKU_HALL_SHOTS=docs/hall)."""

from __future__ import annotations

import pytest

from host.bench.hall import serving
from host.tournament import night
from host.tournament.store import Store
from tests.hall import night as nights
from tests.hall.conftest import browser  # noqa: F401 (the fixture)
from tests.hall.test_hall_browser import screen, shots, text_of, wait_for
from tests.i18n.accept_language import asking_for


@pytest.fixture
def finnish(browser):  # noqa: F811
    """The browser asking for Finnish first, as a Finnish laptop's does; as it was after."""
    with asking_for(browser) as asking:
        yield asking


def test_the_hall_in_finnish_then_swedish_with_the_switch(finnish, tmp_path):
    db = str(tmp_path / "hall.db")
    tid = nights.cup(db, players=["Äijälä Öhman", "Åsa Ek", "Ben", "Caisa", "Pelaaja 5",
                                  "Pelaaja 6", "Pelaaja 7", "Pelaaja 8"], tables=4)
    with Store.open(db) as store:
        first = [m for m in store.matches.all(tid) if m["round"] == 1]
        for table, m in enumerate(first, 1):
            night.assign(store, tid, m["code"], table)
        names = [[m["player1"], m["player2"]] for m in first]
        store.live.put("pk-2", tid, 2, dict(nights.live(first[1]["code"], names[1], [1, 0]),
                                            fouls=[0, 1]))
        store.live.put("pk-3", tid, 3, nights.live(first[2]["code"], names[2], [1, 2], True))
        store.live.put("pk-4", tid, 4, nights.live(first[3]["code"], names[3], [0, 1]))
        store.live.silent("pk-4")
    with serving(db) as (url, _hall):
        screen(finnish, 1600, 900)
        finnish.get(url + "/index.html")
        assert finnish.find_element("css selector", "html").get_attribute("lang") == "fi"
        assert finnish.title == "Pöydät · Kevät Cup"
        status = [s.text for s in finnish.find_elements("css selector", ".card .status")]
        assert status == ["ei tulostaulua", "käynnissä", "päättynyt", "tulostaulu ei vastaa"]
        assert "Pöytä 1" in text_of(finnish, "#table-1")
        assert "ei alkanut" in text_of(finnish, "#table-1")
        assert "1 virhe" in text_of(finnish, "#table-2")
        assert "2 erävoittoon" in text_of(finnish, "header.top .what")
        screen(finnish, 1600, 350)  # the four cards, for docs/hall.md
        finnish.save_screenshot(str(shots(tmp_path) / "tables-fi.png"))
        screen(finnish, 1600, 900)

        finnish.find_element("css selector", "#lang-sv").click()
        wait_for(finnish, lambda d: d.find_element("css selector", "html")
                 .get_attribute("lang") == "sv", "the page in Swedish")
        assert finnish.title == "Bord · Kevät Cup"
        status = [s.text for s in finnish.find_elements("css selector", ".card .status")]
        assert status == ["ingen tavla", "pågår", "avslutad", "tavlan svarar inte"]
        finnish.get(url + "/schedule.html")  # remembered: Swedish, though the browser asks fi
        assert finnish.find_element("css selector", "h2").text == "Spelschema"
        finnish.get(url + "/index.html")
        with Store.open(db) as store:  # the referee starts table 1's match: pushed in Swedish
            store.live.put("pk-1", tid, 1, nights.live(first[0]["code"], names[0], [0, 1]))
        wait_for(finnish, lambda d: "pågår" in text_of(d, "#table-1"),
                 "table 1's match playing, in Swedish")
        assert "Bord 1" in text_of(finnish, "#table-1")
