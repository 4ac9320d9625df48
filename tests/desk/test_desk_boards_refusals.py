"""The desk's boards page, continued (tests/desk/test_desk_boards.py has the board list, a
board unplugged, pair and move, the flash): a board that refuses shown with the sync's own
words and paired again from the page; `pilkku desk` in a process of its own serving the page
while `pilkku flash` borrows a port from it; the page without a sync in the desk's process.
Real virtual boards (the MicroPython unix port on ptys), announced and with doors only in the
test's own folder."""

from __future__ import annotations

import os
import subprocess
import sys

from host.board import toolchain
from host.board.virtual_board import VirtualBoard, build_rom
from host.desk.app import make
from host.hall.app import Hall
from host.tournament.store import Store
from tests.desk.boards_setup import Desk, an_older_board, table_of
from tests.desk.client import Browser, hidden
from tests.hall.asgi import text
from tests.host.sync_setup import make_board, make_store
from tests.host.watch_setup import OLD, announce, older, runtime_folder, until, watching


def on_flash(board: VirtualBoard, code: str) -> None:
    """MicroPython `code` run on the board's flash image (mounted at /flash) while the board
    is off, as tests/host/test_sync_kept_files.py and test_sync_damaged.py do: a flash cell
    gone bad; then the board powered up again."""
    board.stop()
    rom = build_rom(board.folder)
    script = board.folder / "edit.py"
    script.write_text("import virtual_flash\nvirtual_flash.mount(%r, %d, '/flash')\n%s\n"
                      "print('edited')\n" % (str(board.image.resolve()), board.blocks, code))
    done = subprocess.run([toolchain.micropython_binary(), str(script)], capture_output=True,
                          text=True, env=dict(os.environ, MICROPYPATH=str(rom)), timeout=60)
    assert "edited" in done.stdout, done.stderr
    board.start()
    board.run(200)


FLIP = """
for name in %r:
    with open('/flash/' + name, 'rb') as f:
        data = bytearray(f.read())
    data[%s] ^= 0x04
    with open('/flash/' + name, 'wb') as f:
        f.write(data)
"""
# A done result's first event record flipped (tests/host/test_sync_damaged.py's FLIP).
EVENT = "7 + (data[1] | data[2] << 8) + 4"


def flip(board: VirtualBoard, *names: str, where: str = "9 % len(data)") -> None:
    on_flash(board, FLIP % (list(names), where))


def test_a_board_that_refuses_is_shown_with_what_to_do(tmp_path, firmware, announced):
    """A board paired with another tournament's key, and one whose config was damaged on
    its flash (both copies: its id, key and table lost): each is shown with the sync's own
    words; the second, paired again from the page, is at the table chosen."""
    db, _t, key = make_store(tmp_path / "cup.db", tables=2)
    wrong = make_board(tmp_path / "w", firmware, b"\x07" * 32, table=2, board_id="pk-w")
    damaged = make_board(tmp_path / "d", firmware, key, table=1, board_id="pk-d")
    try:
        flip(damaged, "config.json", "config.json.2")
        announced(wrong)
        announced(damaged)
        with watching(db, [], interval=0.3) as watcher:
            desk = Desk(db, watcher)
            until(lambda: len(watcher.view()["strangers"]) == 2, "both boards looked at")
            waiting = text(desk.pushed(), "strangers")
            assert ("board pk-w answered without this tournament's key: it is paired with "
                    "another tournament, or it is not the board it says; nothing was changed "
                    "(pair it: pilkku pair --port %s)" % wrong.pty_path) in waiting, waiting
            strangers = watcher.view()["strangers"]
            index = [s["port"] for s in strangers].index(damaged.pty_path)
            name = strangers[index]["board"]  # its own id: the one in its config was lost
            assert ("board %s lost its settings (its config was damaged on its flash): its "
                    "pairing key and table went with it; pair it again: pilkku pair --port %s"
                    % (name, damaged.pty_path)) in waiting, waiting
            assert waiting.count("Pair at table") == 2
            status, said = desk.browser.post("/desk/boards/pair", {
                "port": damaged.pty_path, "table": "1",
                "state": hidden(desk.pushed(), "pair-%d" % (index + 1))})
            assert status == 200, said
            assert text(said, "said") == (
                "board %s on %s is paired with tournament 'Cup'; it had lost its settings "
                "(its config was damaged on its flash) and is paired again; it is table 1"
                % (name, damaged.pty_path))
            desk.shows(name, "live", table=1)
            assert damaged.pty_path not in text(desk.pushed(), "strangers")
    finally:
        wrong.close()
        damaged.close()


def test_pilkku_desk_serves_the_boards_page_and_lends_a_port_to_pilkku_flash(tmp_path,
                                                                             firmware):
    """`pilkku desk` as the director runs it (a process of its own), a virtual board with an
    older firmware announced in the test's runtime folder: the boards page lists it, and
    `pilkku flash` in another terminal borrows its port from the desk's sync and flashes it
    (before, it found the port busy)."""
    from tests.desk.running import ROOT, Running, free_port

    db, _t, key = make_store(tmp_path / "cup.db", tables=1)
    board = make_board(tmp_path / "b", older(firmware), key, table=1, board_id="pk-b")
    try:
        runtime = runtime_folder()
        announce(runtime / "pilkku-boards", board)
        desk = Running(tmp_path / "cup.db", free_port(), runtime)
        try:
            until(lambda: "live" in text(desk.open("/desk/boards")[1], "b-pk-b"),
                  "the board live on the desk's boards page")
            assert OLD in text(desk.open("/desk/boards")[1], "b-pk-b")
            env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
            done = subprocess.run([sys.executable, "-m", "host.cli", "flash", "--port",
                                   board.pty_path], cwd=ROOT, env=env, capture_output=True,
                                  text=True, timeout=300)
            assert done.returncode == 0, done.stdout + done.stderr
            assert "synced first" in done.stdout and "verified" in done.stdout
            until(lambda: (lambda row: "live" in row and OLD not in row)(
                text(desk.open("/desk/boards")[1], "b-pk-b")), "the board back, flashed")
        finally:
            out = desk.stop()
        assert "Traceback" not in out
    finally:
        board.close()



def test_without_the_desks_own_sync_the_page_shows_the_store_and_acts_on_nothing(tmp_path):
    """The desk's app without a watcher in its process (the boards synced by a `pilkku sync
    --watch` elsewhere): the boards the store knows, each as last seen, and every action
    refused with where to do it; nothing changes."""
    db, t, _key = make_store(tmp_path / "cup.db", tables=2)
    with Store.open(db) as store:
        store.boards.note(t["id"], "pk-z", 2, OLD)
    hall = Hall(db, None)
    browser = Browser(make(hall), hall)
    status, page = browser.get("/desk/boards")
    assert status == 200
    assert text(page, "b-pk-z") == ("2 pk-z %s not this laptop's firmware: flash it – – "
                                    "not seen since the desk started" % OLD)
    assert "pilkku sync --watch" in text(page, "no-watcher")
    assert "<form" not in page.split('id="boards"')[1]
    for action, fields in [("move", {"board": "pk-z", "table": "1", "state": ""}),
                           ("pair", {"port": "/dev/ttyACM0", "table": "1", "state": ""}),
                           ("flash", {"port": "/dev/ttyACM0", "state": ""})]:
        status, said = browser.post("/desk/boards/" + action, fields)
        assert status == 400 and "not synced by this desk" in text(said, "said"), said
    assert browser.post("/desk/boards/reset", {})[0] == 404
    assert table_of(db, "pk-z") == 2


def test_a_flash_that_fails_says_why_and_the_board_goes_on(tmp_path, firmware, announced,
                                                           monkeypatch):
    """The flash stops with an error once the port is lent (as a board that leaves its raw
    REPL would make it): the page says it was not flashed and why, and the watcher takes the
    port back, the board live on its old firmware, at its table."""
    from host.board import flash as flash_module

    def broken(port, say=print, on_chunk=None, **options):
        say("%s: MicroPython 1.29.0 on linux; compiling for x64" % port)
        raise flash_module.FlashError("the board reports version none after flashing: run "
                                      "`pilkku flash` again")

    monkeypatch.setattr(flash_module, "flash", broken)
    with an_older_board(tmp_path, firmware, announced) as (b, desk):
        status, _ = desk.browser.post("/desk/boards/flash", {
            "port": b.pty_path, "state": hidden(desk.pushed(), "flash-pk-b")})
        assert status == 303
        until(lambda: "not flashed" in desk.pushed(), "the flash ended")
        job = text(desk.pushed(), "flash-" + "".join(
            c if c.isalnum() else "-" for c in b.pty_path))
        assert ("pk-b on %s: not flashed" % b.pty_path) in job
        assert "the board reports version none after flashing" in job
        shown = desk.shows("pk-b", "live", OLD, table=1)
        assert "lent" not in shown and 'id="flash-pk-b"' in desk.pushed()


def test_a_damaged_result_is_stored_apart_and_counted(tmp_path, firmware, announced):
    """A result damaged on the board's flash: the sync stores its bytes apart and frees it;
    the page counts it beside the results not synced, saying where it is named."""
    from host.tournament import night
    from tests.host.sync_setup import play_the_scheduled_match, sync

    db, t, key = make_store(tmp_path / "cup.db", tables=1)
    with Store.open(db) as store:
        night.assign(store, t["id"], store.matches.all(t["id"])[0]["code"], 1)
    board = make_board(tmp_path / "b", firmware, key, table=1, board_id="pk-b")
    try:
        sync(board.pty_path, db, key)  # its clock and table 1's match
        board.run(100)
        play_the_scheduled_match(board)
        board.run(100)
        flip(board, "journal/done/1.log", where=EVENT)
        announced(board)
        with watching(db, [], interval=0.3) as watcher:
            desk = Desk(db, watcher)
            shown = desk.shows("pk-b", "live", "damaged", table=1)
            assert "0 (1 damaged, stored: pilkku results names them)" in shown, shown
        with Store.open(db) as store:
            assert len(store.damaged.all(t["id"])) == 1
    finally:
        board.close()
