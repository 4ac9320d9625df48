"""A short night through the desk in a real browser (headless Chromium, as tests/hall): a
hakukaavio of six drawn in-process (tests/hall/night.py, no boards), then at the desk: a match
started at the first free table, a score from a paper sheet, a walkover, results coming in
(seen on the open night's screen without a reload), a correction that changes a winner after
the draw went on (its plan shown, confirmed by typing the match's code), a void. Nothing but
the browser changes the night, except the results the boards would have brought.

Screenshots go to $PILKKU_DESK_SHOTS (docs/desk when making the docs), else the test's
temporary folder."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from host.bench.hall import CHROMIUM, DRIVER, chromium, serving
from host.desk.app import make
from host.tournament.night.corrections import correction_plan
from host.tournament.store import Store
from tests.desk.client import Browser as Http
from tests.desk.client import hidden
from tests.hall import night as hall_night

WAIT_S = 40  # only a failing run waits this long
NAMES = ["Äijälä Öhman", "Åsa Ek", "Ben", "Caisa", "Dani", "Eero"]


def chromium_at(tmp_path_factory, profile: str, height: int = 1000) -> Iterator:
    """A module's fixture's headless Chromium (1400 wide, its profile a folder of its own),
    quit after the module; the test skipped where there is no Chromium."""
    if not (CHROMIUM and DRIVER):
        pytest.skip("no Chromium here: apt-get install chromium chromium-driver")
    driver = chromium(tmp_path_factory.mktemp(profile), 1400, height)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    yield from chromium_at(tmp_path_factory, "desk-chromium")


def desk_served(db: Path):
    """The desk's app (the hall's with the desk's routes) served as `pilkku desk` serves it."""
    return serving(str(db), make)


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PILKKU_DESK_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def seen(driver, css: str, words: str) -> str:
    """Wait until the element shows `words` (an update may swap it meanwhile)."""
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + WAIT_S
    shown = ""
    while time.monotonic() < deadline:
        try:
            shown = driver.find_element(By.CSS_SELECTOR, css).text
        except Exception:  # not there yet, or swapped by an update: look again
            shown = ""
        if words in shown:
            return shown
        time.sleep(0.05)
    raise AssertionError("%s never showed %r; it shows %r" % (css, words, shown))


def fill(driver, form: str, **values: str) -> None:
    """Type or choose each value in the form with that id, then submit it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    for name, value in values.items():
        field = driver.find_element(By.CSS_SELECTOR, "#%s [name=%s]" % (form, name))
        if field.tag_name == "select":
            Select(field).select_by_visible_text(value)
        else:
            field.clear()
            field.send_keys(value)
    driver.find_element(By.CSS_SELECTOR, "#%s button" % form).click()


def test_a_short_hakukaavio_night_at_the_desk(browser, tmp_path):
    from selenium.webdriver.common.by import By

    db = tmp_path / "night.db"
    tid = hall_night.cup(db, "hakukaavio", players=NAMES, tables=3)
    folder = shots(tmp_path)
    with desk_served(db) as (url, hall):
        browser.get(url + "/desk")
        assert "only the director's browser" in browser.page_source
        browser.get(url + "/desk/director?token=" + hall.token)
        seen(browser, "#matches", "R1-01")
        # start the next match on the first free table
        browser.find_element(By.ID, "start-next").click()
        first = seen(browser, "#said", "starts at table 1").split()[0]
        browser.find_element(By.ID, "back").click()
        seen(browser, "#m-%s" % first, "next at table 1, not started")
        seen(browser, "#t-1", first)
        browser.save_screenshot(str(folder / "night.png"))

        # a score from a paper sheet
        browser.get(url + "/desk/match/" + first)
        browser.save_screenshot(str(folder / "match.png"))
        fill(browser, "score", score="2:1", reason="the board's battery ran out")
        seen(browser, "#said", "%s: 2:1 from the paper sheet" % first)

        # a walkover
        with Store.open(db) as store:
            second = [m for m in store.matches.all(tid) if m["winner"] is None
                      and m["player1"] and m["player2"]][0]
        browser.get(url + "/desk/match/" + second["code"])
        fill(browser, "walkover", winner=second["player2"], reason="did not come")
        seen(browser, "#said", "%s: a walkover to %s" % (second["code"], second["player2"]))

        # results come in (as the boards would bring them): the open screen shows them
        browser.get(url + "/desk")
        seen(browser, "#matches", first)
        with Store.open(db) as store:
            while True:  # rounds 1 and 2 played
                ready = [m for m in store.matches.all(tid) if m["winner"] is None
                         and m["player1"] and m["player2"] and m["round"] in (1, 2)]
                if not ready:
                    break
                hall_night.play(store, tid, ready[0]["code"])
                last = ready[0]["code"]
        seen(browser, "#m-%s" % last, "finished")

        # a correction that changes a winner after the draw went on
        with Store.open(db) as store:
            target = next(m["code"] for m in store.matches.all(tid) if m["round"] == 1
                          and m["code"] != second["code"] and _redraws(store, tid, m["code"]))
        browser.get(url + "/desk/match/" + target)
        fill(browser, "correct", score="1:2", reason="the sheet was read the wrong way round")
        plan = seen(browser, "#plan", "What this correction changes")
        assert target in plan and ("New:" in plan or "Redrawn" in plan)
        assert "type %s to confirm" % target in browser.find_element(By.ID, "ask").text.replace(
            "Type", "type")
        browser.save_screenshot(str(folder / "correction-plan.png"))
        browser.find_element(By.ID, "confirm-button").click()  # without typing: refused
        seen(browser, "#said", "type %s to confirm: nothing was done" % target)
        browser.get(url + "/desk/match/" + target)  # again, and typed this time
        fill(browser, "correct", score="1:2", reason="the sheet was read the wrong way round")
        seen(browser, "#plan", "What this correction changes")
        browser.find_element(By.NAME, "confirm").send_keys(target)
        browser.find_element(By.ID, "confirm-button").click()
        seen(browser, "#said", "%s corrected to 1:2" % target)

        # a void
        with Store.open(db) as store:
            open_ = [m for m in store.matches.all(tid) if m["winner"] is None
                     and m["outcome"] is None and m["player1"] and m["player2"]]
        code = open_[0]["code"]
        browser.get(url + "/desk/match/" + code)
        fill(browser, "void", outcome="void (does not count)", reason="wrong players called",
             confirm=code)
        seen(browser, "#said", "%s is void" % code)
        browser.find_element(By.ID, "back").click()
        seen(browser, "#m-%s" % code, "void")
        browser.save_screenshot(str(folder / "night-later.png"))
        # a match its board is playing: the live score on the screen; a walkover asks first
        with Store.open(db) as store:
            queued = next(m for m in store.matches.all(tid) if m["table"] and m["winner"] is None
                          and m["outcome"] is None)
            store.live.put("pk-board", tid, queued["table"], hall_night.live(
                queued["code"], [queued["player1"], queued["player2"]], [1, 0]))
        browser.get(url + "/desk")
        seen(browser, "#m-%s" % queued["code"], "1:0 %s playing at table %d" % (
            queued["player2"], queued["table"]))
        seen(browser, "#t-%d" % queued["table"], "board pk-board: live")
        browser.save_screenshot(str(folder / "night-live.png"))
        browser.get(url + "/desk/match/" + queued["code"])
        fill(browser, "walkover", winner=queued["player1"], reason="opponent left")
        seen(browser, "#question", "is being played at table %d (1:0)" % queued["table"])
        browser.save_screenshot(str(folder / "in-play.png"))
        browser.find_element(By.ID, "confirm-button").click()
        seen(browser, "#said", "a walkover to %s" % queued["player1"])
        # the hall's pages are served by the same server
        browser.get(url + "/draw.html")
        seen(browser, "main", target)


def _redraws(store: Store, tid: int, code: str) -> bool:
    """Changing `code`'s winner would change the draw that followed it."""
    plan = correction_plan(store, tid, code, score="1:2")
    return bool(plan.redrawn or plan.new or plan.depends)


@pytest.fixture(scope="module")
def helper(tmp_path_factory):
    """A second browser at the desk (a helper of the director's)."""
    yield from chromium_at(tmp_path_factory, "desk-helper")


def test_two_browsers_at_the_desk_and_the_hall_follow_each_other(browser, helper, tmp_path):
    """The helper's action shows on the director's open night's screen and on an open hall
    page without a reload; the director's form loaded before it is refused, naming what
    changed, and nothing is done."""
    from selenium.webdriver.common.by import By

    db = tmp_path / "night.db"
    tid = hall_night.cup(db, "round_robin", tables=2)
    with desk_served(db) as (url, hall):
        for driver in (browser, helper):
            driver.get(url + "/desk/director?token=" + hall.token)
            seen(driver, "#matches", "R1-01")
        browser.get(url + "/desk/match/R1-02")  # the director's form, loaded now
        helper.get(url + "/desk")
        helper.find_element(By.ID, "start-next").click()
        seen(helper, "#said", "R1-01 starts at table 1")
        helper.get(url + "/schedule.html")  # the hall's page, open
        browser.execute_script("window.open(arguments[0] + '/desk', 'night')", url)
        night_window = browser.window_handles[-1]
        browser.switch_to.window(night_window)
        seen(browser, "#m-R1-02", "waiting")
        # the helper enters R1-02 from its sheet (through the desk, in another browser)
        http = Http(make(hall), hall)
        state = hidden(http.get("/desk/match/R1-02")[1])
        status, _ = http.post("/desk/score", {"match": "R1-02", "state": state, "score": "0:2",
                                              "reason": "paper"})
        assert status == 200
        seen(browser, "#m-R1-02", "finished")  # the director's open night's screen
        seen(helper, "#match-R1-02", "Ben 0–2 Åsa Ek")  # the open hall page
        # the director's form from before: refused with what changed
        browser.switch_to.window(browser.window_handles[0])
        with Store.open(db) as store:
            before = store.db.revision()
        fill(browser, "walkover", winner="Ben", reason="did not come")
        said = seen(browser, "#said", "R1-02 changed since your page was loaded")
        assert "its winner" in said and "Åsa Ek won it 0:2" in said
        assert "Nothing was done" in said
        browser.save_screenshot(str(shots(tmp_path) / "stale.png"))
        with Store.open(db) as store:
            assert store.db.revision() == before
            assert store.matches.get(tid, "R1-02")["winner_id"] is not None
        browser.switch_to.window(night_window)
        browser.close()
        browser.switch_to.window(browser.window_handles[0])
