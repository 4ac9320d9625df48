"""`pilkku flash` while a watcher runs (`pilkku sync --watch`, `pilkku desk`): the watcher
syncs the board first, lends its port for the flash and takes it back afterwards, the board
answering with its new firmware (issue 28, item 3). A virtual board (the MicroPython unix
port on a pty) with an older firmware, under the real watcher in a thread; the doors looked
for only in this test's runtime folder."""

from __future__ import annotations

import contextlib
import io

from sync_setup import make_board, make_store
from watch_setup import OLD, older, until, watching

from host import cli
from host.board import firmware_image


def seen(watcher, board: str) -> dict:
    return next((b for b in watcher.view()["boards"] if b["board"] == board), {})


def test_pilkku_flash_borrows_the_port_from_the_running_watcher(tmp_path, firmware,
                                                               announced):
    db, _t, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", older(firmware), key, table=1, board_id="pk-a")
    said: list[str] = []
    try:
        announced(board)
        with watching(db, said, interval=0.3) as watcher:
            until(lambda: seen(watcher, "pk-a").get("firmware") == OLD,
                  "the board followed, its firmware as it said hello")
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                code = cli.main(["flash", "--port", board.pty_path])
            printed = out.getvalue()
            assert code == 0, printed
            assert "%s: synced first: 0 result(s) stored" % board.pty_path in printed
            assert "verified" in printed
            laptop = firmware_image.version(firmware)
            until(lambda: seen(watcher, "pk-a").get("firmware") == laptop
                  and seen(watcher, "pk-a").get("on_port"),
                  "the watcher took the port back, the board on its new firmware")
            assert seen(watcher, "pk-a")["table"] == 1
    finally:
        board.close()


def test_a_borrower_gone_during_the_sync_first_leaves_the_watcher_whole(tmp_path, firmware,
                                                                       announced,
                                                                       monkeypatch):
    """A `pilkku flash` that asks for the port and goes away at once (Ctrl-C): the watcher's
    sync-first, talking to no one, goes on (no thread of the watcher dies of it); the port is
    not left lent; the board is watched on, and the next `pilkku sync` is done by the
    watcher."""
    import socket
    import threading

    from host.sync import door

    died: list[str] = []
    monkeypatch.setattr(threading, "excepthook",
                        lambda hook: died.append("%s: %r" % (hook.thread, hook.exc_value)))

    db, _t, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    said: list[str] = []
    try:
        announced(board)
        with watching(db, said, interval=0.3) as watcher:
            until(lambda: any("table 1 gets" in s for s in said), "the board's first sync")
            port = board.pty_path
            lender = watcher.threads[port]  # the port's watch before the lend
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            conn.connect(str(door.address(db)))
            door.send(conn, {"do": "lend", "port": port, "sync": True})
            conn.close()
            until(lambda: sum("table 1 gets" in s for s in said) >= 2, "the sync-first done")

            def watched_again() -> bool:  # by a new watch of the port, which knows its board
                watch = watcher.threads.get(port)
                return (watch is not None and watch is not lender and watch.board is not None
                        and watch.board.holder is watch and port not in watcher.lent)

            until(watched_again, "the port given back and its board watched on")
            assert seen(watcher, "pk-a").get("on_port")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = cli.main(["sync", "--db", db])
            assert code == 0 and "synced 1 board(s)" in out.getvalue(), out.getvalue()
        assert died == []
    finally:
        board.close()
