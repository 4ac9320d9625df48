"""The boards page in a real browser (headless Chromium, as tests/desk/test_desk_browser.py):
two virtual boards (the MicroPython unix port on ptys) under the real watcher, served as
`pilkku desk` serves them. The open page, never reloaded, shows the boards live at their
tables, the older one marked; a board unplugged turns "not answering"; a board not paired
is paired at a table; the older board
flashed with its button, its progress shown as it goes, then live on the laptop's firmware.

Screenshots go to $PILKKU_DESK_SHOTS (docs/desk when making the docs), else the test's
temporary folder."""

from __future__ import annotations

import pytest

from host.bench.hall import serving
from host.board import firmware_image
from host.desk.app import make
from tests.desk.boards_setup import hold_the_flash
from tests.desk.test_desk_browser import chromium_at, fill, seen, shots
from tests.host.sync_setup import make_board, make_store
from tests.host.watch_setup import older, watching


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    yield from chromium_at(tmp_path_factory, "boards-chromium", height=800)


def test_the_open_boards_page_follows_the_boards_and_a_flash(browser, tmp_path, firmware,
                                                             announced, monkeypatch):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    db, _t, key = make_store(tmp_path / "cup.db", tables=4)
    a = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    b = make_board(tmp_path / "b", older(firmware), key, table=2, board_id="pk-b")
    c = make_board(tmp_path / "c", firmware, key, table=3, board_id="pk-c")
    d = make_board(tmp_path / "d", firmware, None, table=None, board_id="pk-d")
    folder = shots(tmp_path)
    try:
        for board in (a, b, c, d):
            announced(board)
        with watching(db, [], interval=0.3) as watcher, serving(
                db, lambda hall: make(hall, watcher)) as (url, hall):
            browser.get(url + "/desk/director?token=" + hall.token)
            browser.get(url + "/desk/boards")
            seen(browser, "#b-pk-a", "live")
            seen(browser, "#b-pk-b", "not this laptop's firmware: flash it")
            seen(browser, "#b-pk-c", "live")
            c.close()  # unplugged: the open page shows it, not reloaded
            seen(browser, "#b-pk-c", "not answering")
            seen(browser, "#strangers", "pk-d")
            browser.save_screenshot(str(folder / "boards.png"))
            for _ in range(5):  # the page may be pushed anew between a look and a click
                try:
                    fill(browser, "pair-1", table="4")
                    break
                except StaleElementReferenceException:
                    continue
            seen(browser, "#said", "board pk-d on %s is paired with tournament 'Cup'; it is "
                                   "table 4" % d.pty_path)
            browser.find_element(By.ID, "back").click()
            seen(browser, "#b-pk-d", "live")
            first_chunk, go_on = hold_the_flash(monkeypatch)
            for _ in range(5):
                try:
                    browser.find_element(By.CSS_SELECTOR, "#flash-pk-b button").click()
                    break
                except StaleElementReferenceException:
                    continue
            try:
                seen(browser, ".flash-job", "pk-b on %s: flashing" % b.pty_path)
                seen(browser, ".flash-job .percent", "%")
                seen(browser, "#b-pk-b", "lent")
                browser.save_screenshot(str(folder / "boards-flashing.png"))
            finally:
                go_on.set()
            job = seen(browser, ".flash-job", "verified on the board")
            assert "synced first" in job
            seen(browser, "#b-pk-b", firmware_image.version(firmware))
            assert "flash it" not in seen(browser, "#b-pk-b", "live")
            browser.save_screenshot(str(folder / "boards-flashed.png"))
    finally:
        for board in (a, b, c, d):
            board.close()
