"""A Kaisa night run from the director's desk alone (issue 28): twelve players of a hakukaavio
on four virtual tables, `pilkku desk` in its own process (the hall, the desk and the boards'
sync in one), and after it started no `pilkku` command — every act of the director's is a
click or a form in a real browser (headless Chromium):

- the tournament made, its players pasted and the draw shown then made, on the setup page;
- four boards plugged in, each paired at its table on the boards page;
- the first matches at the four tables, results coming from the boards' keypads;
- a late entry after the first game, drawn into the games not started;
- a paper result: a table whose board broke, its score typed at the desk;
- a board unplugged mid-match and plugged in again on another pty: found, the match goes on;
- a withdrawal while the player's own match is being played: asked, confirmed;
- a wrong winner of round 1 corrected after round 2 started: its plan shown, a choice about
  the games played, the match's code typed;
- the desk killed (SIGKILL) mid-night and started again: nothing lost, the night goes on;
- the printouts of the night: the draw, the results with the final ranking, score sheets.

At the end one truth: the store's ranking is the one printed, every result verifies, every
board holds nothing. The store is read directly for the test's own checks, never written."""

from __future__ import annotations

import os
import time
from pathlib import Path

from displays import powered_up
from kaisa_night import (
    LATE,
    NAMES,
    TABLES,
    NightStore,
    as_drawn,
    favourite,
    play_match,
    play_until,
    showing,
)

from host.board.virtual_board import VirtualBoard
from host.tournament import night
from host.tournament.night.ranking import standings
from host.tournament.store import Store
from tests.desk.running import Running, free_port
from tests.desk.test_desk_browser import browser
from tests.host.watch_setup import announce, plugged_in_again, runtime_folder, until

# A safety net only: every wait ends at the event it waits for.
LIMIT_S = float(os.environ.get("PILKKU_E2E_LIMIT_S", "120"))
__all__ = ["browser"]  # the desk tests' headless Chromium, shared


class Director:
    """The director's browser at the desk."""

    def __init__(self, driver, desk: Running) -> None:
        self.driver = driver
        self.enter(desk)

    def enter(self, desk: Running) -> None:
        self.desk = desk
        self.driver.get(desk.director)  # the link `pilkku desk` printed
        self.seen("main", "")

    def open(self, path: str) -> None:
        self.driver.get(self.desk.base + path)

    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def seen(self, css: str, words: str) -> str:
        """The element's text once it shows `words` (an update may swap it meanwhile)."""
        deadline = time.monotonic() + LIMIT_S
        while True:
            try:
                shown = self.find(css).text
            except Exception:  # not there yet, or swapped by an update: look again
                shown = ""
            if words in shown:
                return shown
            if time.monotonic() > deadline:
                raise AssertionError("%s never showed %r; the page at %s shows:\n%s" % (
                    css, words, self.driver.current_url, self.find("body").text))
            time.sleep(0.05)

    def steady(self, look):
        """What `look()` finds on a page the desk keeps current: looked at again when an
        update swapped the elements it was reading."""
        from selenium.common.exceptions import StaleElementReferenceException

        deadline = time.monotonic() + LIMIT_S
        while True:
            try:
                return look()
            except StaleElementReferenceException:
                assert time.monotonic() < deadline, "the page never held still"

    def reloaded(self, path: str, css: str, words: str) -> str:
        """A page that is not kept current (a match's) opened until it shows `words`."""
        def opened() -> bool:
            self.open(path)
            return words in self.find(css).text

        until(opened, "%s showing %r" % (path, words), LIMIT_S)
        return self.find(css).text

    def fill(self, form: str, **values: str) -> None:
        """Type or choose each value in the form with that id, then submit it (typed again
        when the desk's update replaced the form meanwhile)."""
        from selenium.webdriver.support.ui import Select

        def typed() -> None:
            for name, value in values.items():
                field = self.find("#%s [name=%s]" % (form, name))
                if field.tag_name == "select":
                    Select(field).select_by_visible_text(value)
                else:
                    field.clear()
                    field.send_keys(value)
            self.find("#%s button" % form).click()

        self.steady(typed)

    def said(self, words: str) -> str:
        return self.seen("#said", words)


def test_a_kaisa_night_from_the_desk_alone(tmp_path, firmware, browser):
    db = str(tmp_path / "kaisailta.db")
    Store.open(db).close()  # the club's store, empty: the night begins at the desk
    runtime = runtime_folder()
    boards: dict[int, VirtualBoard] = {}
    try:
        desk = Running(Path(db), free_port(), runtime)
        director = None
        try:
            director = Director(browser, desk)
            _set_up(director)
            for table in range(1, TABLES + 1):  # plugged in, found, paired at its table
                boards[table] = powered_up(tmp_path / ("table%d" % table), firmware)
                announce(runtime / "pilkku-boards", boards[table])
                _pair(director, boards[table], table)
            _the_night(director, NightStore(db), boards, runtime, tmp_path)
        finally:  # the desk running now (started again after the kill), or the first
            said = (director.desk if director is not None else desk).stop()
            print("pilkku desk said:\n" + said)  # shown by pytest when the test failed
        assert "Traceback" not in said, said
    finally:
        print("live: %r" % (_live_rows(db),))  # what the desk's watcher stored last
        for table, board in sorted(boards.items()):
            print("table %d's board shows %r; its log ends:\n%s" % (
                table, _texts(board), _log_end(board)))
            board.close()
    _one_truth_at_the_end(NightStore(db), boards)


def _texts(board: VirtualBoard) -> dict | str:
    try:
        return board.texts()
    except Exception as error:  # (a board that is off shows nothing)
        return "nothing: %s" % error


def _live_rows(db: str) -> list | str:
    try:
        with Store.open(db) as opened:
            return opened.live.states(opened.tournaments.get()["id"])
    except Exception as error:  # (no tournament yet: the set-up failed)
        return "none: %s" % error


def _log_end(board: VirtualBoard) -> str:
    log = board.folder / "board.log"
    return log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"


def _set_up(director: Director) -> None:
    """A new tournament, its players pasted, the draw shown and then made, at the desk."""
    director.seen("#new-details", "A new tournament")  # an empty store opens on the setup
    director.find("#new [name=name]").send_keys("Kaisailta")
    director.fill("new", game="Kaisa", race="10", tables=str(TABLES),
                  format="Hakukaavio (KaisaKaavio's draw)")
    director.said("Tournament 'Kaisailta': Kaisa, race to 10")
    director.fill("paste", names="\n".join(NAMES))
    director.said("Players added: 12 (12 in all)")
    director.find("#preview button").click()
    director.seen("#drawn-matches", "R1-01")
    director.find("#confirm-button").click()
    director.said("R1-04 at table %d" % TABLES)


def _pair(director: Director, board: VirtualBoard, table: int) -> None:
    """The board plugged in shows on the boards page as not paired; paired at `table`."""
    director.open("/desk/boards")
    director.seen("#strangers", board.pty_path)
    form = director.steady(lambda: next(
        r for r in director.driver.find_elements("css selector", "#strangers tr")
        if board.pty_path in r.text).find_element(
            "css selector", "form[action='/desk/boards/pair']").get_attribute("id"))
    director.fill(form, table=str(table))
    director.said("is paired with tournament 'Kaisailta'")
    director.open("/desk/boards")
    director.seen("#boards", board.pty_path)
    shown = director.steady(lambda: next(
        r for r in director.driver.find_elements("css selector", "#boards tr")
        if board.pty_path in r.text).find_element("css selector", "td").text)
    assert shown == str(table), shown


def _the_night(director: Director, store: NightStore, boards: dict, runtime: Path,
               tmp_path: Path) -> None:
    # The first four matches, one at each table (given when the tables were set).
    director.open("/desk")
    for table in range(1, TABLES + 1):
        director.seen("#t-%d" % table, "R1-")
    first = until(lambda: showing(boards[1]), "table 1's first match on its board", LIMIT_S)
    play_match(boards[1], first)
    director.open("/desk")
    director.seen("#m-%s" % first, "finished")

    # A late entry, drawn into the games not started (round 2 has not begun).
    director.open("/desk/withdraw")
    director.fill("late-entry", name=LATE, club="KK")
    director.said(LATE)

    # Table 4's board broke: its match is played on paper and typed in at the desk.
    paper = until(lambda: showing(boards[4]), "a match at table 4", LIMIT_S)
    m = store.match(paper)
    winner = favourite(m["player1"], m["player2"])
    director.open("/desk/match/" + paper)
    director.fill("score", score="10:4" if winner == m["player1"] else "4:10",
                  reason="taulu rikki, paperilla")
    director.said("%s: " % paper)
    assert store.match(paper)["winner"] == winner

    # Table 2's board is unplugged mid-match and comes back on another pty.
    code = until(lambda: as_drawn(store, boards[2]), "a match at table 2 as drawn", LIMIT_S)
    for key in "#11":  # started: lag to player 1, who opens
        boards[2].tap(key)
    director.open("/desk")
    director.seen("#m-%s" % code, "playing at table 2")
    old = boards[2].pty_path
    boards[2].close()
    director.seen("#t-2", "not answering")
    boards[2], spare = plugged_in_again(tmp_path / "table2", old)
    try:
        announce(runtime / "pilkku-boards", boards[2])
        director.seen("#t-2", "live")
    finally:
        for fd in spare:
            os.close(fd)
    for _shot in range(2):  # the match goes on where it was: the opener pots the kaisa
        boards[2].tap("3")
        boards[2].run(2600)
    boards[2].tap("#")
    until(lambda: store.decided(code), "table 2's result after the replug", LIMIT_S)

    # A withdrawal while the player's match is being played at table 3: asked, confirmed.
    code = until(lambda: as_drawn(store, boards[3]), "a match at table 3 as drawn", LIMIT_S)
    for key in "#11":
        boards[3].tap(key)
    director.open("/desk")
    director.seen("#m-%s" % code, "playing at table 3")
    leaving = store.match(code)["player2"]
    director.open("/desk/withdraw")
    form = next(f.get_attribute("id") for f in director.driver.find_elements(
        "css selector", "form.withdraw") if leaving in f.text)
    director.fill(form, reason="sairastui", confirm=leaving)
    director.seen("#question", "being played at table 3")
    assert not store.decided(code)  # asked, nothing done
    director.find("#confirm-button").click()
    director.said(leaving)
    assert store.match(code)["winner"] != leaving
    for _shot in range(2):  # the referee plays the game out anyway: player 1 wins
        boards[3].tap("3")
        boards[3].run(2600)
    boards[3].tap("#")
    kept = director.reloaded("/desk/match/" + code, "main", "set aside")
    assert "board" in kept  # the board's result, kept in the history, not counted

    # The desk killed mid-night and started again: nothing the director confirmed is lost.
    play_until(store, boards, store.wrong_winner_played_on, LIMIT_S)
    results, decided = store.decided_now()
    director.desk.killed()
    director.enter(Running(Path(store.db), free_port(), runtime))
    director.seen("#matches", "R1-01")
    now_results, now_decided = store.decided_now()
    assert now_results[:len(results)] == results  # (a board's result may have come since)
    assert set(decided) <= set(now_decided)

    # A wrong winner of round 1 found after games drawn from it were played: the plan is
    # shown, the director chooses what becomes of the games played and types the code.
    wrong, flipped = store.wrong_winner_played_on() or ("", "")
    was = store.match(wrong)["winner"]
    director.open("/desk/match/" + wrong)
    director.fill("correct", score=flipped, reason="väärä voittaja")
    director.seen("#plan", "What this correction changes")
    assert store.match(wrong)["winner"] == was  # shown, nothing changed
    with Store.open(store.db) as opened:  # keep where the night stays valid, else void
        plan = night.correction_plan(opened, store.tid(), wrong, score=flipped)
    choice = "void" if plan.keep_refused else "keep"
    director.find("#ask input[name=played][value=%s]" % choice).click()
    director.find("#ask input[name=confirm]").send_keys(wrong)
    director.find("#confirm-button").click()
    director.said("%s corrected" % wrong)
    assert store.match(wrong)["winner"] not in (None, was)

    # The rest of the night at the boards, then the printouts.
    play_until(store, boards, store.finished, LIMIT_S)
    director.open("/print/results")
    printed = director.seen("body", "Final ranking")
    with Store.open(store.db) as opened:
        ranking = standings(opened, store.tid())["ranking"]
    at = 0
    for row in ranking:  # the printed ranking is the store's, in its order
        at = printed.index("%d %s" % (row["place"], row["player"]), at)
    director.open("/print/draw")
    director.seen("body", "Winner")
    director.open("/print/sheets/blank?count=4")
    director.seen("body", "Kaisa")


def _one_truth_at_the_end(store: NightStore, boards: dict) -> None:
    with Store.open(store.db) as opened:
        tid = store.tid()
        results = opened.results.all(tid)
        key = opened.tournaments.key(tid)
        assert all(r["verified"] and opened.results.verify(r["result_id"], key)
                   for r in results)
        kinds = {r["kind"] for r in results}
        assert {"board", "hand", "correction"} <= kinds, kinds
        ranking = standings(opened, tid)
    assert ranking["final"] and len(ranking["ranking"]) == len(NAMES) + 1
