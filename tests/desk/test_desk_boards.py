"""The desk's boards page (issue 28, item 3) with real virtual boards (the firmware in the
MicroPython unix port, each on its pty) under the real watcher (host/sync/watch.py) in a
thread of this process, as `pilkku desk` runs it: the page lists each board at its table with
its firmware (an older one marked), live or not answering as the watcher judges it; a board
unplugged and back on another pty is found again at its table; a board not paired is paired
at a table through the page, and moved to another; bad input changes nothing; an older board
flashed from the page, its progress shown as it goes. What the page
shows is read from what the hall's event stream pushes ("boards"), as the open page gets it.
Boards are announced, and doors made, only in the test's own folder."""

from __future__ import annotations

import re

from host.board import firmware_image
from tests.desk.boards_setup import Desk, an_older_board, hold_the_flash, table_of
from tests.desk.client import Browser, hidden
from tests.hall.asgi import text
from tests.host.sync_setup import make_board, make_store
from tests.host.watch_setup import OLD, older, replugging, until, watching


def test_the_page_lists_each_board_at_its_table_with_its_firmware(tmp_path, firmware,
                                                                  announced):
    db, _t, key = make_store(tmp_path / "cup.db", tables=2)
    a = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    b = make_board(tmp_path / "b", older(firmware), key, table=2, board_id="pk-b")
    try:
        announced(a)
        announced(b)
        with watching(db, [], interval=0.3) as watcher:
            desk = Desk(db, watcher)
            laptop = firmware_image.version(firmware)
            shown = desk.shows("pk-a", "live", laptop, table=1)
            assert shown.startswith("1 pk-a %s" % a.pty_path), shown
            assert "flash it" not in shown and "s ago" in shown
            desk.shows("pk-b", "live", OLD, "not this laptop's firmware: flash it", table=2)
            page = desk.pushed()
            assert 'id="flash-pk-b"' in page and 'id="flash-pk-a"' not in page
            status, loaded = desk.browser.get("/desk/boards")
            assert status == 200 and 'data-events="/events?page=boards"' in loaded
            assert "pk-a" in text(loaded, "boards") and "Boards</a>" in loaded
            status, _ = Browser(desk.app, desk.hall, cookie=False).get("/desk/boards")
            assert status == 403
    finally:
        a.close()
        b.close()


def test_a_board_unplugged_is_not_answering_and_found_again_on_another_pty(tmp_path, firmware,
                                                                          announced):
    with replugging(tmp_path, firmware, announced, table=2) as plug:
        said = plug.said
        with watching(plug.db, said, interval=0.3) as watcher:
            desk = Desk(plug.db, watcher)
            until(lambda: any("table 2 gets" in s for s in said), "the board's first sync")
            desk.shows("pk-a", "live")
            old = plug.unplug()
            shown = desk.shows("pk-a", "not answering")
            assert shown.startswith("2 pk-a"), said  # still at its table
            board = plug.plug_in_again(old)  # another pty
            assert board.pty_path != old
            desk.shows("pk-a", "live", board.pty_path, table=2)


def test_pair_and_move_through_the_page_and_bad_input_changes_nothing(tmp_path, firmware,
                                                                       announced):
    db, _t, key = make_store(tmp_path / "cup.db", tables=3)
    a = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    c = make_board(tmp_path / "c", firmware, None, table=None, board_id="pk-c")
    try:
        announced(a)
        announced(c)
        with watching(db, [], interval=0.3) as watcher:
            desk = Desk(db, watcher)
            desk.shows("pk-a", "live", table=1)
            # The watcher's own state, not the store's: pushed at the hall's next look.
            until(lambda: watcher.view()["strangers"], "pk-c seen by the watcher")
            waiting = text(desk.pushed(), "strangers")
            assert "pk-c" in waiting and "is not paired with tournament 'Cup'" in waiting
            page = desk.pushed()
            state = hidden(page, "pair-1")
            post = desk.browser.post
            # Bad input: nothing is sent to the board, nothing changes.
            for fields, status, said in [
                ({"port": c.pty_path, "table": "9", "state": state}, 400, "no table 9"),
                ({"port": c.pty_path, "table": "1", "state": state}, 400,
                 "table 1 is held by board pk-a"),
                ({"port": "/dev/nothing", "table": "2", "state": state}, 400,
                 "no board on /dev/nothing"),
                ({"port": c.pty_path, "table": "2", "state": "old"}, 409, "has changed"),
                ({"port": c.pty_path, "table": "<b>", "state": state}, 400, "whole number"),
            ]:
                answer = post("/desk/boards/pair", fields)
                assert answer[0] == status and said in text(answer[1], "said"), answer
            answer = post("/desk/boards/pair", {"port": c.pty_path, "table": "2",
                                                "state": state}, csrf=None)
            assert answer[0] == 403
            answer = Browser(desk.app, desk.hall, cookie=False).post(
                "/desk/boards/pair", {"port": c.pty_path, "table": "2", "state": state})
            assert answer[0] == 403
            assert "pk-c" not in desk.row("pk-c") and table_of(db, "pk-c") is None

            status, page = post("/desk/boards/pair", {"port": c.pty_path, "table": "2",
                                                      "state": state})
            assert status == 200, page
            assert text(page, "said") == ("board pk-c on %s is paired with tournament 'Cup'; "
                                          "it is table 2" % c.pty_path)
            desk.shows("pk-c", "live", table=2)
            assert table_of(db, "pk-c") == 2

            state = hidden(desk.pushed(), "move-pk-c")
            for fields, status, said in [
                ({"board": "pk-c", "table": "1", "state": state}, 400,
                 "table 1 is held by board pk-a"),
                ({"board": "pk-c", "table": "7", "state": state}, 400, "no table 7"),
                ({"board": "pk-x", "table": "3", "state": state}, 400, "no board pk-x"),
                ({"board": "pk-c", "table": "3", "state": hidden(desk.pushed(), "move-pk-a")},
                 409, "has changed"),
            ]:
                answer = post("/desk/boards/move", fields)
                assert answer[0] == status and said in text(answer[1], "said"), answer
            assert table_of(db, "pk-c") == 2 and table_of(db, "pk-a") == 1
            assert desk.row("pk-c").startswith("2 pk-c")  # the board kept its table
            status, page = post("/desk/boards/move", {"board": "pk-c", "table": "3",
                                                      "state": state})
            assert status == 200
            assert text(page, "said") == "board pk-c is table 3 now (it was table 2)"
            desk.shows("pk-c", "live", table=3)
            assert table_of(db, "pk-c") == 3
            answer = post("/desk/boards/move", {"board": "pk-c", "table": "2", "state": state})
            assert answer[0] == 409  # the form of before the move: stale
            assert table_of(db, "pk-c") == 3
    finally:
        a.close()
        c.close()


def test_an_older_board_flashed_from_the_page_with_its_progress(tmp_path, firmware,
                                                                announced, monkeypatch):
    """The flash held at its first chunk written (the test's hand on it, not a clock): the
    open page shows it flashing, the file and how much of it, the board lent; let go, it
    ends verified, the board back live on the laptop's firmware."""
    first_chunk, go_on = hold_the_flash(monkeypatch)
    with an_older_board(tmp_path, firmware, announced) as (b, desk):
        state = hidden(desk.pushed(), "flash-pk-b")
        assert desk.browser.post("/desk/boards/flash", {"port": "/dev/nothing",
                                                        "state": state})[0] == 400
        assert desk.browser.post("/desk/boards/flash", {"port": b.pty_path,
                                                        "state": "old"})[0] == 409
        status, _ = desk.browser.post("/desk/boards/flash", {"port": b.pty_path,
                                                             "state": state})
        assert status == 303
        anchor = "flash-" + re.sub(r"\W", "-", b.pty_path)
        try:
            until(first_chunk.is_set, "the flash's first chunk")
            page = desk.pushed()
            going = text(page, anchor)
            assert re.search(r"pk-b on %s: flashing \S+ \d+ %%" % re.escape(b.pty_path),
                             going), going
            assert "<progress" in page and "synced first: 0 result(s) stored" in going
            assert "lent (being paired or flashed)" in desk.row("pk-b")
            again = desk.browser.post("/desk/boards/flash", {"port": b.pty_path,
                                                             "state": state})
            assert again[0] in (400, 409)  # one flash at a time
        finally:
            go_on.set()
        until(lambda: "verified on the board" in desk.pushed(), "the flash done")
        job = text(desk.pushed(), anchor)
        assert "pk-b on %s: flashed" % b.pty_path in job
        assert "ROMFS image written" in job or "copied" in job
        laptop = firmware_image.version(firmware)
        shown = desk.shows("pk-b", "live", laptop, table=1)
        assert "flash it" not in shown
