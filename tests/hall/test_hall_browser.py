"""The hall in a real browser: headless Chromium loads every page of stores filled by real
tournaments on virtual boards and reads what a person would see; a key pressed on a virtual
board reaches the open tables page with no reload; a board that stops answering shows as such.

Screenshots of each page are written to $PILKKU_HALL_SHOTS (docs/hall when making the docs),
else to the test's temporary folder."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from host.bench.hall import chromium, serving
from host.board.virtual_board import VirtualBoard
from host.sync.commands import Desk
from host.sync.watch import watch
from host.tournament.store import Store
from tests.hall import tournament

WAIT_S = 40  # only a failing run waits this long; a loaded machine may need it


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PILKKU_HALL_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def text_of(driver, css: str) -> str:
    """The text a person sees in the element (looked up again if an update swapped it)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    for _attempt in range(20):
        try:
            return driver.find_element(By.CSS_SELECTOR, css).text
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError("the page kept replacing %s" % css)


def screen(driver, width: int, height: int) -> None:
    """Make the page's viewport exactly this size (a TV, a streaming software's source)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def wait_for(driver, check, what: str):
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            got = check(driver)
        except Exception:  # the element is being swapped by an update: look again
            got = None
        if got:
            return got
        assert time.monotonic() < deadline, "the page never showed %s; it shows:\n%s" % (
            what, text_of(driver, "main"))
        time.sleep(0.05)


def test_round_robin_pages_show_standings_results_reports_and_statistics(
        browser, round_robin_db, tmp_path):
    with Store.open(round_robin_db) as store:
        t = store.tournaments.get()
        results = store.results.all(t["id"])
    wins: dict[str, int] = {}
    for r in results:
        wins[r["winner"]] = wins.get(r["winner"], 0) + 1
    most = max(wins.values())
    folder = shots(tmp_path)
    with serving(round_robin_db) as (url, _hall):
        browser.get(url + "/draw.html")
        assert browser.title == "Standings and draw · Kevät Cup"
        first = text_of(browser, "table.standings tr.leader").split()
        name = " ".join(first[1:-6])
        assert first[0] == "1" and wins[name] == most and first[-6:-4] == ["3", str(most)]
        for player in ("Äijälä Öhman", "Åsa Ek", "Ben", "Caisa"):
            assert player in text_of(browser, "table.standings")
        browser.save_screenshot(str(folder / "standings.png"))

        browser.get(url + "/results.html")
        rows = text_of(browser, "table.results tbody").splitlines()
        assert len(rows) == len(results) == 6
        assert all(row.endswith("verified: signed by the table's board") for row in rows)
        for row, r in zip(rows, results, strict=True):
            assert "%s %d–%d %s" % (r["player1"], r["score1"], r["score2"], r["player2"]) in row
        browser.save_screenshot(str(folder / "results.png"))

        browser.get(url + "/schedule.html")
        assert "R3-02" in text_of(browser, "table.schedule")
        assert "Assign" not in text_of(browser, "table.schedule")  # not the director
        browser.save_screenshot(str(folder / "schedule.png"))

        browser.get(url + "/stats.html")
        top = text_of(browser, "table.figures tbody tr").split()
        assert wins[" ".join(top[:-11])] == most and top[-10] == str(most)  # matches won
        browser.save_screenshot(str(folder / "statistics.png"))

        from selenium.webdriver.common.by import By

        browser.get(url + "/results.html")
        browser.find_element(By.LINK_TEXT, "R1-01").click()
        report = text_of(browser, "main")
        r = results[0]
        assert "%s %d–%d %s" % (r["player1"], r["score1"], r["score2"], r["player2"]) in \
            report.replace("\n", " ")
        assert "Rack 1, %s breaks" % r["player1"] in report
        assert "Result: %s %d : %d %s, %s wins" % (r["player1"], r["score1"], r["score2"],
                                                    r["player2"], r["winner"]) in report
        assert "verified: signed by the table's board" in report
        figures = text_of(browser, "table.figures tbody").splitlines()
        assert [f.split()[-8] for f in figures] == [str(r["score1"]), str(r["score2"])]
        browser.save_screenshot(str(folder / "match-report.png"))


def test_bracket_page_draws_the_rounds_and_the_champion(browser, bracket_db, tmp_path):
    with Store.open(bracket_db) as store:
        t = store.tournaments.get()
        final = [m for m in store.matches.all(t["id"]) if m["round"] == 2][0]
    with serving(bracket_db) as (url, _hall):
        browser.get(url + "/draw.html")
        assert text_of(browser, ".champion") == "Champion: %s" % final["winner"]
        rounds = [r.text.splitlines()[0] for r in browser.find_elements("css selector",
                                                                       ".round")]
        assert rounds == ["Semi-finals", "Final"]
        slots = [s.text.replace("\n", " ") for s in
                 browser.find_elements("css selector", "#bout-R2-01 .slot")]
        assert slots == ["%s %d" % (final["player1"], final["score1"]),
                         "%s %d" % (final["player2"], final["score2"])]
        won = browser.find_element("css selector", "#bout-R2-01 .slot.won").text
        assert won.splitlines()[0] == final["winner"]
        browser.save_screenshot(str(shots(tmp_path) / "bracket.png"))


def test_a_double_elimination_shows_both_brackets_who_went_out_and_the_placings(
        browser, double_db, tmp_path):
    with Store.open(double_db) as store:
        t = store.tournaments.get()
        matches = {m["code"]: m for m in store.matches.all(t["id"])}
    final = matches["F-1"] if "F-2" not in matches or matches["F-2"]["winner"] is None \
        else matches["F-2"]
    losers_first = matches["L1-01"]
    loser = (losers_first["player1"] if losers_first["winner"] == losers_first["player2"]
             else losers_first["player2"])
    with serving(double_db) as (url, _hall):
        browser.get(url + "/draw.html")
        headings = [h.text for h in browser.find_elements("css selector", ".round h3")]
        # the winners' side ending in the grand final, then the losers' side
        assert headings[:3] == ["Winners' round 1", "Winners' round 2", "Grand final"]
        assert headings[-2:] == ["Losers' round 1", "Losers' round 2"]
        assert [h.text for h in browser.find_elements("css selector", "h3.side")] == [
            "Winners' bracket and final", "Losers' bracket"]
        assert text_of(browser, ".champion") == "Champion: %s" % final["winner"]
        placings = text_of(browser, "table.placings tbody").splitlines()
        assert placings[0] == "1 %s" % final["winner"] and placings[-1] == "4 %s" % loser
        assert "Out: %s" % loser in text_of(browser, "main")
        browser.save_screenshot(str(shots(tmp_path) / "double.png"))


@pytest.fixture
def live_table(tmp_path, firmware):
    """A tournament whose first match is on a virtual board, started, with `pilkku sync
    --watch`'s loop pulling its live state every second into the store."""
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2, race=3)
    boards = tournament.boards(tmp_path, firmware, db, 2)
    for board in boards:
        assert tournament.start_match(board)
    with Store.open(db) as store:
        t = store.tournaments.get()
        key = store.tournaments.key(t["id"])
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=([b.pty_path for b in boards],
                                                   Desk(db, t), key, stop),
                               kwargs={"say": lambda text: None}, daemon=True)
    watcher.start()
    try:
        yield db, boards
    finally:
        stop.set()
        watcher.join(timeout=10)
        for board in boards:
            board.close()


def test_a_key_on_a_board_reaches_the_open_tables_page_without_a_reload(
        browser, live_table, tmp_path):
    db, boards = live_table
    board: VirtualBoard = boards[0]
    with serving(db) as (url, _hall):
        browser.get(url + "/index.html")
        card = "#table-1"
        wait_for(browser, lambda d: "playing" in text_of(d, card + " .status"),
                 "table 1 playing")
        assert "Äijälä Öhman" in text_of(browser, card)
        assert text_of(browser, card + " .player .score") == "0"
        browser.execute_script("window.stillTheSamePage = 42;")
        board.tap("9")
        board.tap("A")  # the 9 on the break: a rack to player 1
        wait_for(browser, lambda d: text_of(d, card + " .player .score") == "1",
                 "the rack won")
        assert browser.execute_script("return window.stillTheSamePage;") == 42  # no reload
        assert "rack 2" in text_of(browser, card + " footer")
        for key in "AB":
            board.tap(key)
        board.tap("A")  # a dry break, then a foul by player 2
        wait_for(browser, lambda d: "1F" in text_of(d, card), "the foul in a row")
        browser.save_screenshot(str(shots(tmp_path) / "tables.png"))

        tv = chromium(tmp_path / "tv-profile")
        try:
            screen(tv, 1920, 1080)
            tv.get(url + "/tv.html")
            wait_for(tv, lambda d: "1F" in text_of(d, card), "the TV's table 1")
            tv.save_screenshot(str(shots(tmp_path) / "tv.png"))
            tv.get(url + "/overlay/1.html")
            assert text_of(tv, ".overlay").split() [:3] == ["Äijälä", "Öhman", "1"]
            assert tv.execute_script(
                "return getComputedStyle(document.body).backgroundColor") == \
                "rgba(0, 0, 0, 0)"  # transparent for the streaming software
            screen(tv, 960, 80)
            tv.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride",
                               {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
            tv.save_screenshot(str(shots(tmp_path) / "overlay.png"))
        finally:
            tv.quit()

        boards[1].kill()  # table 2 loses power
        wait_for(browser, lambda d: text_of(d, "#table-2 .status") == "board not answering",
                 "table 2 not answering")
        wait_for(browser, lambda d: "playing" in text_of(d, card + " .status"),
                 "table 1 still playing")
        assert browser.execute_script("return window.stillTheSamePage;") == 42


def test_a_correction_that_keeps_the_winner_reaches_the_open_results_page(browser, tmp_path):
    """Issue 32, item 4: the hall pushed only when winners, tables or queue slots changed, so
    a director's correction that kept the winner never reached an open page. A walkover, then
    two corrections of its score, each show on the open results page, which is not
    reloaded."""
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    with Store.open(db) as store:
        t = store.tournaments.get()
        match = next(m for m in store.matches.all(t["id"]) if m["code"] == "R1-01")
    one, two = match["player1"], match["player2"]
    row = "table.results tbody tr"
    with serving(db) as (url, _hall):
        browser.get(url + "/results.html")
        assert text_of(browser, row) == "No results yet."
        browser.execute_script("window.stillTheSamePage = 42;")
        tournament.pilkku("walkover", "R1-01", one, "--reason", "no show", "--db", db)
        wait_for(browser, lambda d: "%s w.o. %s %s" % (one, two, one) in text_of(d, row),
                 "the walkover")
        for score in ("2–1", "2–0"):
            tournament.pilkku("correct", "R1-01", "--score", score.replace("–", ":"),
                              "--reason", "the referee's slip", "--db", db)
            wait_for(browser, lambda d, score=score: "%s %s %s %s" % (one, score, two, one)
                     in text_of(d, row) and "corrected" in text_of(d, row),
                     "the correction to %s" % score)
        assert "corrected by the director" in text_of(browser, row)
        assert "the referee's slip" not in text_of(browser, row)  # the director's reason
        assert browser.execute_script("return window.stillTheSamePage;") == 42  # no reload
