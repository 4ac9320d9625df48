"""`pilkku sync` gives up on a device that sends no whole frame (a line of junk that never
ends, a silent port) and goes on with the other boards: each is named as given up on, the
real board among them is synced as always (issue 22, item 8). How long the give-up takes is
measured by `pilkku bench` (sync_gives_up_silent_s, sync_gives_up_junk_s)."""

from __future__ import annotations

import os
import threading
import time
import tty
from pathlib import Path

from sync_setup import board_results, make_board, make_store, play_a_race_to_one

from host import cli
from host.board import firmware_image
from host.sync import session


class Device:
    """A real pty standing for a device on a USB port: silent, or sending junk without a
    newline (a frame's start too) for as long as it is open."""

    def __init__(self, junk: bytes = b"") -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.running = True
        self.sent = 0
        if junk:
            threading.Thread(target=self._send, args=(junk,), daemon=True).start()

    def _send(self, junk: bytes) -> None:
        while self.running:
            try:
                os.read(self.master, 4096) if _readable(self.master) else None
                os.write(self.master, junk)
                self.sent += len(junk)
            except OSError:
                return
            time.sleep(0.02)

    def close(self) -> None:
        self.running = False
        time.sleep(0.05)
        os.close(self.master)
        os.close(self.slave)


def _readable(fd: int) -> bool:
    import select

    return bool(select.select([fd], [], [], 0)[0])


def test_pilkku_sync_gives_up_on_a_junk_line_and_a_silent_port_and_syncs_the_board(
        tmp_path, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "table1", firmware_image.image(), key)
    junk = Device(b"~123P{\"at\":[0,1]" + b"x" * 40)  # a frame's start, never its end
    silent = Device()
    try:
        play_a_race_to_one(board)
        assert board_results(board.pty_path, key) != []
        code = cli.main(["sync", "--port", junk.path, "--port", silent.path,
                         "--port", board.pty_path, "--db", db])
        left = board_results(board.pty_path, key)
    finally:
        junk.close()
        silent.close()
        board.close()
    said = capsys.readouterr()
    out = said.out + said.err
    assert code == 1, out
    assert "%s: gave up on the device after %d s: " % (junk.path, session.GIVE_UP_S) in out
    assert "no whole" in out.split(junk.path + ": gave up", 1)[1].splitlines()[0]
    assert "%s: gave up on the device after %d s: it was silent" % (
        silent.path, session.GIVE_UP_S) in out
    assert junk.sent > 2048  # it kept sending all along
    # The board was synced all the same: its free game is stored and freed.
    assert "synced 1 board(s)" in out and "1 result(s) stored" in out and "2 failed" in out
    assert left == [] and len(list((Path(db).parent / "free-games").glob("*.json"))) == 1
    assert "Traceback" not in out
