"""`pilkku desk` as the director runs it: one process serving the hall and the desk and
keeping the boards in sync, two links printed, stopped by Ctrl-C cleanly (the server and the
sync thread), started again where it was with a new director's token. Its boards are looked
for in the test's own runtime folder (XDG_RUNTIME_DIR): no other board on this machine."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from host.desk import guard
from host.hall.app import COOKIE
from tests.desk.running import ROOT, WAIT_S, Running, free_port
from tests.hall import night as hall_night
from tests.host.watch_setup import runtime_folder


def test_the_desk_prints_two_links_stops_cleanly_and_goes_on_where_it_was(tmp_path):
    db = tmp_path / "night.db"
    hall_night.cup(db)
    port = free_port()
    runtime = runtime_folder()
    desk = Running(db, port, runtime)
    said = "".join(desk.lines)
    assert "the hall:     http://localhost:%d/" % port in said
    assert "the director: http://localhost:%d/desk/director?token=" % port in said
    assert desk.open("/desk")[0] == 200
    status, page = desk.open("/desk/match/R1-01")
    state = re.search(r'name="state" value="([^"]*)"', page).group(1)
    token = guard.form_token(type("H", (), {"token": desk.token})())
    status, page = desk.open("/desk/score", {"match": "R1-01", "state": state, "score": "2:1",
                                             "reason": "paper", "csrf": token})
    assert status == 200 and "R1-01: 2:1 from the paper sheet" in page
    out = desk.stop()
    assert "the desk stopped" in out and "Traceback" not in out

    again = Running(db, port, runtime)
    try:
        assert again.token != desk.token  # a new director's token at each start
        status, page = again.open("/desk")
        assert status == 200 and "entered by hand" in page
        old = urllib.request.Request(again.base + "/desk", headers={
            "Cookie": "%s=%s" % (COOKIE, desk.token)})
        try:
            urllib.request.urlopen(old, timeout=20)
            raise AssertionError("the old token still opens the desk")
        except urllib.error.HTTPError as error:
            assert error.code == 403
    finally:
        out = again.stop()
    assert "the desk stopped" in out and "Traceback" not in out


def test_a_port_in_use_or_no_tournament_is_said_plainly(tmp_path):
    empty = tmp_path / "empty.db"
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime_folder()))
    done = subprocess.run([sys.executable, "-m", "host.cli", "desk", "--db", str(empty),
                           "--tournament", "Nope", "--port", str(free_port())], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=WAIT_S)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("pilkku desk: ")
    db = tmp_path / "night.db"
    hall_night.cup(db)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = subprocess.run([sys.executable, "-m", "host.cli", "desk", "--db", str(db),
                               "--port", str(taken.getsockname()[1])], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=WAIT_S)
    assert done.returncode == 2 and "cannot listen on 127.0.0.1:" in done.stderr


def test_the_desks_own_sync_follows_a_board_live_and_takes_its_result(tmp_path):
    """A virtual board paired and synced at table 1 before the night, announced only in the
    test's runtime folder: the desk's watcher (no pilkku sync --watch) finds it, the night's
    screen shows the board live and the match being played at its keypad, then its result."""
    import time

    from host.board import firmware_image
    from tests.displays import powered_up
    from tests.hall import tournament

    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 1)
    tournament.pilkku("assign", "R1-01", "1", "--db", db)
    board = powered_up(tmp_path / "table1", firmware_image.image())
    try:
        tournament.pilkku("pair", "--port", board.pty_path, "--db", db)
        tournament.pilkku("sync", "--port", board.pty_path, "--table", "1", "--db", db)
        runtime = runtime_folder()
        announced = runtime / "pilkku-boards"
        announced.mkdir()
        (announced / ("%d.port" % os.getpid())).write_text(board.pty_path)
        desk = Running(Path(db), free_port(), runtime)
        try:
            def night_shows(words: str) -> str:
                deadline = time.monotonic() + WAIT_S
                while True:
                    page = desk.open("/desk")[1]
                    if words in page:
                        return page
                    assert time.monotonic() < deadline, "the desk never showed %r" % words
                    board.run(50)  # the board's own time goes on while the desk polls it

            night_shows('">live</span>')  # the watcher answered for the board
            assert tournament.start_match(board)
            board.tap("9")  # the 9 on the break: player 1 wins the rack
            board.tap("A")
            night_shows("playing at table 1")  # the board's live state, as the watcher took it
            for _rack in range(4):
                board.tap("9")
                board.tap("A")
                if board.texts()["message"].rstrip().endswith("WON"):
                    break
            board.tap("#")  # leave the result
            night_shows('<td class="status">finished</td>')  # its result pulled, stored
        finally:
            out = desk.stop()
        assert "the desk stopped" in out and "Traceback" not in out
    finally:
        board.close()
