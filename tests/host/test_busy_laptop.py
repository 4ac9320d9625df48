"""A busy laptop keeps a virtual board's process from running, through no fault of the board:
the laptop's waits on it (the sync's, mpremote's raw REPL in `pilkku flash` and `pilkku pair`)
are counted in the board's own time (host/board/process_clock.py, host/board/port_clock.py),
so a board held still for longer than any of them still answers, and the sync goes through.
And a sync's boards wait for each other's store writes however long a loaded disk makes one.

The board is held still here as a loaded machine holds it, only longer and for certain: its
process is stopped (SIGSTOP) and let go (SIGCONT) some seconds later."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

from sync_setup import board_results, make_board, make_store, play_a_race_to_one, sync

from host import cli
from host.board.mpremote_link import Link as ReplLink
from host.sync import session
from host.tournament.store import Store
from host.tournament.store import db as store_db
from host.tournament.store.chain import Chains

HELD_S = session.GIVE_UP_S + 2  # longer than the sync gives a silent device


class Held:
    """The board's process stopped now and let go `seconds` later (in a thread)."""

    def __init__(self, pid: int, seconds: float) -> None:
        self.pid = pid
        os.kill(pid, signal.SIGSTOP)
        self.timer = threading.Timer(seconds, self.release)
        self.timer.start()

    def release(self) -> None:
        try:
            os.kill(self.pid, signal.SIGCONT)
        except ProcessLookupError:
            pass

    def __enter__(self) -> Held:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.timer.cancel()
        self.release()


def test_a_sync_waits_for_a_board_the_laptop_keeps_from_running(tmp_path, firmware):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    vb = make_board(tmp_path / "held", firmware, key)
    try:
        play_a_race_to_one(vb)
        play_a_race_to_one(vb)
        with Held(vb.process.pid, HELD_S):  # held from the hello on
            summary = sync(vb.pty_path, db, key)
        assert (summary["stored"], summary["kept"]) == (2, 0)
        assert board_results(vb.pty_path, key) == []
    finally:
        vb.close()
    with Store.open(db) as store:
        links = store.db.conn.execute("SELECT n FROM board_links ORDER BY n").fetchall()
        assert [n for (n,) in links] == [1, 2]


def test_mpremote_waits_for_a_board_the_laptop_keeps_from_running(tmp_path, firmware):
    vb = make_board(tmp_path / "repl", firmware, None)
    code = "x = %r\nprint(len(x))\n" % ("y" * 3000)  # more than raw-paste's first window
    try:
        with ReplLink.open(vb.pty_path) as link:
            link.raw_repl(soft_reset=True)
            with Held(vb.process.pid, 3.0):  # past mpremote's 1 s read of raw-paste's answer
                said = link.run(code)
        assert said.strip() == "3000"
    finally:
        vb.close()


def _state(pid: int) -> str:
    with open("/proc/%d/stat" % pid) as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


def _until(pid: int, state: str) -> None:
    """Wait for the process to be in `state` (as /proc says; a loaded laptop takes its time)."""
    for _ in range(3000):
        if _state(pid) == state:
            return
        time.sleep(0.01)
    raise AssertionError("process %d never came to state %s" % (pid, state))


def test_a_board_process_clock_stands_still_while_the_process_cannot_run():
    from host.board.process_clock import ProcessClock

    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        clock = ProcessClock(sleeper.pid)
        _until(sleeper.pid, "S")
        start = clock()
        time.sleep(0.3)
        assert clock() - start >= 0.3  # asleep (waiting for nothing of ours): its time runs
        os.kill(sleeper.pid, signal.SIGSTOP)
        _until(sleeper.pid, "T")
        stopped_at = clock()
        time.sleep(0.3)
        assert clock() == stopped_at  # stopped: its time stands still
        os.kill(sleeper.pid, signal.SIGCONT)
        sleeper.kill()
        sleeper.wait()
        gone_at = clock()
        time.sleep(0.3)
        assert clock() - gone_at >= 0.3  # gone: the laptop's time, so a wait on it ends
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_syncs_boards_wait_for_each_others_store_writes(tmp_path, firmware, monkeypatch,
                                                          capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db", tables=2)
    boards = [make_board(tmp_path / ("t%d" % table), firmware, key, table,
                         board_id="pk-t%d" % table) for table in (1, 2)]
    try:
        for board in boards:
            play_a_race_to_one(board)
        # Each store write holds the store for longer than a command waits for another's
        # (a loaded disk's fsync), once both boards' results are in hand.
        monkeypatch.setattr(store_db, "BUSY_SECONDS", 0.5)
        both = threading.Barrier(2)
        record = Chains.record

        def slow(chains, *args, **kwargs):
            try:
                both.wait(timeout=3)  # (the second waits its turn for the store: no meeting)
            except threading.BrokenBarrierError:
                pass
            chains.conn.execute("BEGIN IMMEDIATE")
            time.sleep(1.5)
            chains.conn.execute("COMMIT")
            return record(chains, *args, **kwargs)

        monkeypatch.setattr(Chains, "record", slow)
        code = cli.main(["sync", "--port", boards[0].pty_path, "--port", boards[1].pty_path,
                         "--db", db])
        out = capsys.readouterr().out
        assert code == 0 and "2 result(s) stored" in out, out
    finally:
        for board in boards:
            board.close()


def test_the_virtual_watchdog_counts_no_time_its_program_is_held_by_the_laptop(monkeypatch):
    """A board process held in the laptop's kernel (its pty's bytes, its flash file's fsync,
    slowed by a busy laptop: seen for 8 s and more) is not the board's loop stuck: the virtual
    board's watchdog does not count that time (it reset boards in the middle of a sync)."""
    from hardware.boards import virtual_wdt

    dog = virtual_wdt.Watchdog()
    with open("/proc/self/stat", "rb") as stat:
        dog._stat = stat
        assert not dog.held()  # this test's own thread: running, not held
        dog.start(1000)
        monkeypatch.setattr(dog, "held", lambda: True)
        for _ in range(40):  # 2 s of polls while held
            dog.count()
        assert (dog.left, dog.fired) == (1000, False)
        monkeypatch.setattr(dog, "held", lambda: False)
        dog.count()
        assert dog.left == 1000 - virtual_wdt._POLL_MS  # and counts again once let go
