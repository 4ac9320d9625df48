"""The people screen and the setup's name picker in a real browser (headless Chromium, as
tests/desk/test_desk_browser.py), asking for Finnish: the picker fills its list from
/desk/people/complete as a name is typed (the most played first, a name two people share once
for each with its club), and the people screen reads in Finnish. Its screenshot is
docs/desk.md's and the Finnish guide's ($PILKKU_DESK_SHOTS=docs/desk: people-fi.png)."""

from __future__ import annotations

import time

import pytest

from host.season import series
from host.tournament import night
from host.tournament.store import Store
from tests.desk.test_desk_browser import browser, desk_served, seen, shots  # noqa: F401
from tests.i18n.accept_language import asking_for
from tests.season.test_series_table import round_robin, win


@pytest.fixture
def finnish(browser):  # noqa: F811
    with asking_for(browser) as asking:
        yield asking


def _season(db) -> None:
    """Two played nights in a series, two Matti Virtanens (one of PK), a join."""
    with Store.open(db) as store:
        for name in ("Ilta 1", "Ilta 2"):
            tid = round_robin(store, name, ["Aino Aalto", "Matti Virtanen", "Ville Virta",
                                            "Bror Berg"])
            win(store, tid, "Aino Aalto", "Matti Virtanen")
        series.new_series(store, "Syksy 2026", "kaisa")
        series.add_nights(store, "Syksy 2026", ["Ilta 1", "Ilta 2"], "1.9.2026")
        store.people.set_details("Matti Virtanen", "PK", "2231")
        store.people.add("Matti Virtanen", new=True)
        store.people.add("Bror Bergh")
        store.people.join("Bror Berg", "Bror Bergh", "kirjoitusvirhe pöytäkirjassa")
        night.new_tournament(store, "Ilta 3", "kaisa", 60)  # the one being set up


def test_the_name_picker_and_the_people_screen_in_finnish(finnish, tmp_path):
    from selenium.webdriver.common.by import By

    db = tmp_path / "night.db"
    _season(db)
    with desk_served(db) as (url, hall):
        finnish.set_window_size(1400, 1000)
        finnish.get(url + "/desk/director?token=" + hall.token)
        finnish.get(url + "/desk/people")
        seen(finnish, "#people-list", "Aino Aalto")
        assert finnish.find_element(By.CSS_SELECTOR, "html").get_attribute("lang") == "fi"
        assert "Henkilöt" in finnish.find_element(By.CSS_SELECTOR, "main h2").text
        seen(finnish, "#join-history", "kirjoitusvirhe")
        finnish.save_screenshot(str(shots(tmp_path) / "people-fi.png"))
        finnish.get(url + "/desk/setup")
        name = finnish.find_element(By.CSS_SELECTOR, "#add-player input[name=name]")
        name.send_keys("vir")
        values: list[str] = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the list swapped by the fetch's answer
            values = finnish.execute_script(  # (read at once: the list may be swapped)
                "return Array.from(document.querySelectorAll('#known-names option'))"
                ".map(function (o) { return o.value; });")
            if values and all("Vir" in v for v in values):
                break
            time.sleep(0.1)
        assert values[:1] == ["Ville Virta"] or "Ville Virta" in values, values
        shared = [v for v in values if v.startswith("Matti Virtanen #")]
        assert len(shared) == 2, values
