"""No false alarms from `pilkku sync --watch` (issue 27, item 8): a board whose answers a busy
laptop holds back (its pty's bytes kept in the kernel, its process not let run) is not
reported, nor shown red in the hall, however long it is held in the laptop's time; a board
really gone (switched off) is reported once, in words that name the likely cause (not
`pilkku flash`: silence is never an older firmware's), and its coming back once.

The laptop is made busy here as it makes itself busy, only for certain: the board's process is
stopped (SIGSTOP) and let go (SIGCONT), or its bytes are held in a cable (watch_setup.Cable)."""

from __future__ import annotations

import itertools
import os
import select
import signal
import time
import tty

from sync_setup import make_board, make_store
from watch_setup import on_a_cable, row, until, watching

from host.hall import data
from host.sync import followed
from host.sync.session import Link
from host.tournament.store import Store
from rules_core import sync_protocol as sp

HELD_POLLS = 3  # polls in a row a busy laptop keeps from the board: never an alarm


def hall_says_answering(db: str) -> bool:
    """Whether the hall's tables page shows table 1's board as answering (not red), now."""
    with Store.open(db) as store:
        t = store.tournaments.get()
        return data.tables(store, t, int(time.time() * 1000))[0]["answering"]


def test_a_board_held_still_by_a_busy_laptop_is_not_reported(tmp_path, firmware):
    """Stopped for longer than the watcher's limit in the laptop's seconds, which are none of
    its own: no report, never silent in the store, never red in the hall."""
    db, _t, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    said: list[str] = []
    try:
        with watching(db, said, ports=[board.pty_path], interval=0.3):
            until(lambda: row(db, "pk-a"), "the board watched")
            assert board.process is not None
            os.kill(board.process.pid, signal.SIGSTOP)
            try:
                held_until = time.monotonic() + followed.SILENT_S + 3
                while time.monotonic() < held_until:  # the laptop's seconds, the board's none
                    assert hall_says_answering(db), said
                    assert not row(db, "pk-a")["silent"], said
                    time.sleep(0.5)
            finally:
                os.kill(board.process.pid, signal.SIGCONT)
            before = row(db, "pk-a")["state"]
            for key_name in "#11":  # the table's match starts: the watcher sees it
                board.tap(key_name)
            until(lambda: row(db, "pk-a")["state"] != before, "the board's answer after")
        assert not any("has not answered" in s or "pilkku flash" in s for s in said), said
    finally:
        board.close()


def test_a_board_whose_bytes_a_busy_laptop_holds_back_is_not_reported(tmp_path, firmware,
                                                                        monkeypatch):
    """The pty's bytes held both ways for several polls (a busy laptop's kernel pushing them
    late), fewer than the watcher counts before it judges: no report, the hall not red."""
    said: list[str] = []
    with on_a_cable(tmp_path, firmware, monkeypatch) as (db, _t, board, cable):
        with watching(db, said, interval=0.3) as watcher:
            until(lambda: row(db, "pk-a"), "the board watched")
            followed_board = watcher.boards["pk-a"]
            cable.hold()
            try:
                until(lambda: followed_board.misses >= HELD_POLLS,
                      "polls missed while the bytes are held")
                assert hall_says_answering(db) and not row(db, "pk-a")["silent"], said
            finally:
                cable.let_go()
            until(lambda: followed_board.misses == 0, "the board's answers again")
            assert hall_says_answering(db)
        assert not any("has not answered" in s or "no answer" in s for s in said), said


def test_a_board_switched_off_is_reported_once_and_its_return_once(tmp_path, firmware):
    db, _t, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    said: list[str] = []
    try:
        with watching(db, said, ports=[board.pty_path], interval=0.3) as watcher:
            until(lambda: row(db, "pk-a"), "the board watched")
            board.kill()  # switched off: its port stays, nothing answers on it
            until(lambda: row(db, "pk-a")["silent"], "the board marked silent in the store")
            assert not hall_says_answering(db)
            missed = watcher.boards["pk-a"].misses
            until(lambda: watcher.boards["pk-a"].misses >= missed + 5, "more polls missed")
            reports = [s for s in said if "has not answered" in s]
            assert len(reports) == 1, said
            assert "board pk-a (table 1) on %s" % board.pty_path in reports[0]
            assert "switched off" in reports[0] and "pilkku flash" not in reports[0]
            board.start()  # switched on again
            board.run(100)
            until(lambda: not row(db, "pk-a")["silent"], "the board answering again")
            assert hall_says_answering(db)
        assert sum("has not answered" in s for s in said) == 1, said
        assert sum("board pk-a (table 1) answers again" in s for s in said) == 1, said
    finally:
        board.close()


def test_a_reply_that_came_in_time_is_read_however_late_the_laptop_looks():
    """The watcher's thread not run until long past a reply's wait (a busy laptop), with the
    reply there in time: it is read, not taken for silence (a poll missed for nothing)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    link = Link(os.ttyname(slave), None)
    try:
        seq = link.seq
        os.write(master, sp.frame(sp.body(seq, sp.REPLY, {"ok": True}), sp.NO_TAG))
        # The reply there before the wait begins: the kernel hands a pty's bytes to its other
        # end from a work queue, later on a loaded laptop (waited for as an event).
        assert select.select([slave], [], [], 60)[0], "the reply never reached the port"
        looks = itertools.count(0.0, 100.0)  # each look at the clock 100 s after the last
        link.clock = lambda: next(looks)
        got = link._wait(seq)
        assert got is not None and got[0] == {"ok": True}
    finally:
        link.close()
        os.close(master)
        os.close(slave)
