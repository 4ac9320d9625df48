"""Syncing with a virtual board over its real pty, with pyserial, into the real store: results
come back exactly once and verified, schedules go out signed; a bad cable, a power cut and a
pulled cable mid-sync, an unpaired board, another protocol version."""

from __future__ import annotations

import json
import select
import zlib

import pytest
from fault_relay import FaultRelay
from sync_setup import (
    board_results,
    desk,
    free_games_on,
    make_board,
    make_store,
    play_the_scheduled_match,
    sync,
    sync_until_done,
)

from host.sync.session import Link, SyncError
from host.tournament.store import Store
from rules_core import matchlog
from rules_core import sync_protocol as sp


def _free_games(db: str) -> list:
    from pathlib import Path

    return sorted((Path(db).parent / "free-games").glob("*.json"))


def test_a_result_comes_back_verified_and_the_schedule_goes_out(board, cup):
    db, tournament, key = cup
    first = sync(board.pty_path, db, key)  # sets the clock, sends table 3 its first match
    assert first["stored"] == 0 and first["scheduled"] >= 1 and first["board"] == "pk-test"
    board.run(100)
    code = board.texts()["message"].split()[0]  # the menu offers the scheduled match
    play_the_scheduled_match(board)
    summary = sync(board.pty_path, db, key)
    # Stored once, nothing kept back, and the table's next match sent. (Not how many frames
    # went again: a board slowed by a busy laptop is waited for by sending again.)
    assert (summary["stored"], summary["duplicates"], summary["kept"]) == (1, 0, 0)
    assert summary["scheduled"] >= 1
    with Store.open(db) as store:
        (row,) = [r for r in store.results.all(tournament["id"]) if r["match"] == code]
        assert row["verified"] is True and row["board"] == "pk-test" and row["table"] == 1
        assert row["ended"] > 0
        stored = store.results.current(code, tournament["id"])
        assert matchlog.loads(stored["document"]).state.finished
        assert store.chains.problems(tournament["id"]) == ([], set())
    assert board_results(board.pty_path, key) == []  # acknowledged: freed on the board
    board.run(100)
    assert not board.texts()["message"].startswith(code)  # and no longer offered


@pytest.mark.parametrize("rate", [0.10, 0.20, 0.30])
def test_a_bad_cable_still_delivers_every_result_exactly_once(tmp_path, firmware, rate):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    with free_games_on(tmp_path / ("bad%d" % int(rate * 100)), firmware, key, 3) as vb:
        relay = FaultRelay(vb.pty_path, rate, seed=int(rate * 1000))
        try:
            sync_until_done(relay.port, db, key, timeout=0.2, attempts=60)
        finally:
            relay.close()
        assert sum(relay.faults.values()) > 0
        assert len(_free_games(db)) == 3  # each once, by its link number
        with Store.open(db) as store:
            links = store.db.conn.execute("SELECT n FROM board_links ORDER BY n").fetchall()
            assert [n for (n,) in links] == [1, 2, 3]
            assert all(store.chains.ok("pk-test", n) for n in (1, 2, 3))
        assert board_results(vb.pty_path, key) == []


def test_an_unpaired_board_is_told_to_pair(tmp_path, firmware, cup):
    vb = make_board(tmp_path / "unpaired", firmware, key=None)
    try:
        with pytest.raises(SyncError, match="pilkku pair"):
            sync(vb.pty_path, cup[0], cup[2])
    finally:
        vb.close()


def test_power_cut_in_the_middle_of_a_sync_then_a_resync(tmp_path, firmware, cup):
    db, _tournament, key = cup
    with free_games_on(tmp_path / "cut", firmware, key, 3) as vb:
        laptop = desk(db)
        seen = [0]

        def store_then_cut(board: str, pulled) -> str:
            outcome = laptop.store_result(board, pulled)
            seen[0] += 1
            if seen[0] == 2:  # stored on the laptop, not yet acknowledged: the board dies
                vb.kill()
            return outcome

        with pytest.raises(SyncError):
            sync(vb.pty_path, db, key, timeout=0.2, attempts=10, store_result=store_then_cut)
        assert len(_free_games(db)) == 2
        vb.start()
        summary = sync(vb.pty_path, db, key)
        # The second came again, with the same link (a duplicate); the first too if the board
        # died before the pull that carried its acknowledgement reached it.
        assert summary["stored"] == 1 and summary["duplicates"] in (1, 2)
        assert len(_free_games(db)) == 3


def test_cable_pulled_in_the_middle_of_a_sync_then_a_resync(tmp_path, firmware, cup):
    db, _tournament, key = cup
    with free_games_on(tmp_path / "cable", firmware, key, 3) as vb:
        laptop = desk(db)
        relay = FaultRelay(vb.pty_path, 0.0)

        def store_then_pull(board: str, pulled) -> str:
            outcome = laptop.store_result(board, pulled)
            relay.close()
            return outcome

        with pytest.raises(SyncError):
            sync(relay.port, db, key, timeout=0.2, attempts=10, store_result=store_then_pull)
        assert len(_free_games(db)) == 1
        relay = FaultRelay(vb.pty_path, 0.0)  # plugged back in
        try:
            summary = sync(relay.port, db, key)
        finally:
            relay.close()
        assert summary["stored"] + summary["duplicates"] == 3
        assert len(_free_games(db)) == 3


def test_a_protocol_version_mismatch_says_what_to_do(board, cup):
    link = Link(board.pty_path, cup[2])
    try:
        reply = link.request(sp.HELLO, {"version": sp.VERSION + 1, "nonce": "0" * 16})
        assert not reply["ok"]
        assert "protocol %d" % (sp.VERSION + 1) in reply["error"]
        assert "flash the board" in reply["error"]
    finally:
        link.close()


def test_a_laptop_of_protocol_2_hears_flash_the_board_in_its_own_layout(board):
    """An older `pilkku sync` sends its hello in the layout of protocol 2: the board answers in
    that layout (docs/sync-protocol.md, "Protocol 2"), refusing, so the old laptop prints why."""
    import os
    import time

    fd = os.open(board.pty_path, os.O_RDWR | os.O_NOCTTY)
    try:
        inner = b'0009H{"nonce":"0123456789abcdef","version":2}' + b"0" * 16
        os.write(fd, b"~" + inner + b"*%08x\n" % zlib.crc32(inner))
        got = b""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not got.endswith(b"\n"):
            board.run(20)
            if select.select([fd], [], [], 0.05)[0]:
                got += os.read(fd, 4096)
    finally:
        os.close(fd)
    line = got[got.index(b"~"):-1]
    signed, crc = line[1:-9], line[-8:]
    assert line[-9:-8] == b"*" and int(crc, 16) == zlib.crc32(signed)
    assert signed[:5] == b"0009r" and signed[-16:] == b"0" * 16
    refusal = json.loads(signed[5:-16])
    assert refusal["ok"] is False
    assert "speaks sync protocol %d" % sp.VERSION in refusal["error"]
    assert "flash" in refusal["error"]


def test_a_board_of_protocol_2_is_told_to_be_flashed(tmp_path, cup, capsys):
    """A board flashed by an older pilkku cannot read this layout and keeps silent; the laptop
    then asks in the old layout, and the board's answer ends the sync with what to do."""
    import os
    import threading
    import tty

    from host import cli

    master, slave = os.openpty()
    tty.setraw(slave)
    heard: list[bytes] = []

    def old_board() -> None:  # answers protocol 2 hellos only, as a board of that version
        line = b""
        while True:
            try:
                line += os.read(master, 4096)
            except OSError:
                return
            while b"\n" in line:
                frame, line = line.split(b"\n", 1)
                heard.append(frame)
                if frame[:1] == b"~" and frame[5:6] == b"H" and frame[-9:-8] == b"*":
                    body = frame[1:5] + b'r{"ok":true,"protocol":2}' + b"0" * 16
                    os.write(master, b"~" + body + b"*%08x\n" % zlib.crc32(body))

    threading.Thread(target=old_board, daemon=True).start()
    try:
        code = cli.main(["sync", "--port", os.ttyname(slave), "--db", cup[0]])
    finally:
        os.close(master)
        os.close(slave)
    said = capsys.readouterr()
    assert code == 1
    assert "speaks sync protocol 2, this pilkku %d" % sp.VERSION in said.out + said.err
    assert "pilkku flash --port" in said.out + said.err
    # three hellos of protocol 3 met by silence, the old one, and perhaps one more while its
    # answer came (the sync may end before this fake board has read that one)
    kinds = [frame[4:5] if frame[-9:-8] != b"*" else b"old" for frame in heard]
    assert kinds[:4] == [b"H", b"H", b"H", b"old"] and kinds[4:] in ([], [b"H"])


def test_an_abandoned_scheduled_match_is_archived_freed_and_still_to_play(board, cup):
    """An abandoned match is no result: the laptop files its log under abandoned/ and frees it
    (else it would stay on the board for ever), and the match is offered again."""
    from pathlib import Path

    db, tournament, key = cup
    sync(board.pty_path, db, key)
    board.run(100)
    code = board.texts()["message"].split()[0]
    board.tap("#")  # the scheduled match starts
    board.tap("1")  # lag won by player 1
    board.hold("*")
    board.tap("#")  # abandoned
    board.run(3000)
    summary = sync(board.pty_path, db, key)
    assert summary["stored"] == 1 and board_results(board.pty_path, key) == []
    (kept,) = sorted((Path(db).parent / "abandoned").glob("*.json"))
    assert matchlog.loads(kept.read_text()).settings["players"]
    with Store.open(db) as store:
        assert store.results.current(code, tournament["id"]) is None
        assert code in [m["match_id"] for m in store.tables.schedule(tournament["id"], 1)]
