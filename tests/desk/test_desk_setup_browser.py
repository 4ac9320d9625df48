"""A night set up at the desk in a real browser (headless Chromium), from an empty store and
through the pages only: a twelve-player Kaisa hakukaavio made on the setup page, eleven
players pasted and one typed, a seed, a name with <script> refused, the draw shown, then
confirmed: the draw made is the one shown, and its first matches start at the free tables.

Screenshots go to $PILKKU_DESK_SHOTS (docs/desk when making the docs), else the test's
temporary folder."""

from __future__ import annotations

from host.tournament.store import Store
from tests.desk.test_desk_browser import browser, desk_served, fill, seen, shots

NAMES = ["Äijälä Öhman", "Åsa Ek", "Ben Berg", "Caisa Kivi", "Dani Laine", "Eero Mäki",
         "Frans Nurmi", "Greta Oja", "Heikki Pitkä", "Iida Rinne", "Jussi Salo"]
TYPED = "Kalle Ärölä"

__all__ = ["browser"]  # the Chromium fixture, shared with the night's browser test


def test_a_kaisa_hakukaavio_of_twelve_set_up_from_an_empty_store(browser, tmp_path):
    from selenium.webdriver.common.by import By

    db = tmp_path / "new.db"
    Store.open(db).close()
    folder = shots(tmp_path)
    with desk_served(db) as (url, hall):
        browser.get(url + "/desk/director?token=" + hall.token)
        seen(browser, "#new-details", "A new tournament")  # /desk led to the setup
        assert browser.current_url.endswith("/desk/setup")
        browser.find_element(By.CSS_SELECTOR, "#new [name=name]").send_keys("Kevät Cup")
        browser.save_screenshot(str(folder / "setup-new.png"))
        fill(browser, "new", game="Kaisa", race="60", tables="4",
             format="Hakukaavio (KaisaKaavio's draw)")
        seen(browser, "#said", "Tournament 'Kevät Cup': Kaisa, race to 60")

        fill(browser, "paste", names="\n".join(NAMES))
        seen(browser, "#said", "Players added: 11 (11 in all)")
        fill(browser, "add-player", name="<script>alert(1)</script>")
        seen(browser, "#said", "may not hold < or >")
        fill(browser, "add-player", name=TYPED, club="BK Kaisa")
        seen(browser, "#said", "%s is in (12 players in all)" % TYPED)
        row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#players tbody tr")
                   if "Heikki Pitkä" in r.text)
        row.find_element(By.TAG_NAME, "button").click()
        seen(browser, "#said", "Seeds: Heikki Pitkä.")
        seen(browser, "#p-1", "Heikki Pitkä seed 1")
        browser.save_screenshot(str(folder / "setup-players.png"))

        browser.find_element(By.CSS_SELECTOR, "#preview button").click()
        seen(browser, "#drawn-matches", "R1-01")
        shown = {r.get_attribute("id")[2:]: r.text for r in
                 browser.find_elements(By.CSS_SELECTOR, "#drawn-matches tbody tr")}
        numbers = seen(browser, "#numbers", "Heikki Pitkä")
        assert all(name in numbers for name in NAMES + [TYPED])
        with Store.open(db) as store:
            assert not store.matches.any(store.tournaments.get(None)["id"]), "drawn unconfirmed"
        browser.save_screenshot(str(folder / "setup-draw.png"))
        browser.find_element(By.ID, "confirm-button").click()
        seen(browser, "#said", "Drew the hakukaavio: %d matches." % len(shown))
        seen(browser, "#said", "R1-04 at table 4")
        with Store.open(db) as store:
            t = store.tournaments.get(None)
            made = {m["code"]: "%s %s %s %s" % (m["code"], m["round"], m["player1"],
                                                 m["player2"])
                    for m in store.matches.all(t["id"])}
            assert len(store.players.all(t["id"])) == 12
        assert made == shown, "the draw made is not the one shown"
        browser.get(url + "/desk")
        seen(browser, "#matches", "R1-01")
        seen(browser, "#t-1", "R1-01")
