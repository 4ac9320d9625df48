"""Syncing with a virtual board over its real pty, with pyserial: results come back exactly
once and verified, schedules go out signed; a bad cable, a forged frame, an unpaired board."""

from __future__ import annotations

import json

import pytest
from fault_relay import FaultRelay

from host.board import firmware_image
from host.board.virtual_board import VirtualBoard
from host.sync.session import Link, Pulled, SyncError, sync_board
from rules_core import matchlog
from rules_core import sync_protocol as sp

KEY = bytes(range(32))
SCHEDULE = [{"match_id": "R1-2", "settings": {"game": "9ball", "players": ["Anna", "Ben"],
                                               "race_to": 2}}]


@pytest.fixture(scope="module")
def firmware() -> dict[str, bytes]:
    return firmware_image.image()


def make_board(folder, firmware, key=KEY, table=3) -> VirtualBoard:
    board = VirtualBoard(folder)
    files = dict(firmware)
    config = {"board": "pk-test", "table": table}
    if key is not None:
        config["key"] = key.hex()
    files["config.json"] = json.dumps(config).encode()
    board.install(files)
    board.start()
    board.run(100)
    return board


def play_a_race_to_one(board: VirtualBoard) -> None:
    for key in "1#11":  # menu: race to 1; lag to player 1, who breaks
        board.tap(key)
    board.tap("9")
    board.tap("A")  # the 9 on the break
    board.tap("#")  # leave the result: the match is filed for the laptop


class Laptop:
    """The store's side of a sync, kept in memory."""

    def __init__(self) -> None:
        self.results: dict[tuple[str, str], Pulled] = {}

    def store_result(self, board: str, pulled: Pulled) -> str:
        matchlog.load(pulled.document)  # it must replay
        key = (board, str(pulled.seq))
        if key in self.results:
            return "duplicate"
        self.results[key] = pulled
        return "stored"

    def schedule_for(self, table: int) -> list:
        return SCHEDULE if table == 3 else []


@pytest.fixture
def board(tmp_path, firmware):
    vb = make_board(tmp_path / "table3", firmware)
    yield vb
    vb.close()


def sync(board, laptop, key=KEY) -> dict:
    link = Link(board.pty_path, key)
    try:
        return sync_board(link, laptop.store_result, laptop.schedule_for, say=lambda s: None)
    finally:
        link.close()


def test_a_result_comes_back_verified_and_the_schedule_goes_out(board):
    laptop = Laptop()
    assert sync(board, laptop)["stored"] == 0  # the first sync sets the board's clock
    board.run(100)
    board.tap("C")  # past the scheduled match, to a free game
    play_a_race_to_one(board)
    summary = sync(board, laptop)
    assert summary["stored"] == 1 and summary["scheduled"] == 1 and summary["board"] == "pk-test"
    (pulled,) = laptop.results.values()
    assert pulled.verified
    match = matchlog.load(pulled.document)
    assert match.state.winner == 0 and match.state.score == [1, 0]
    assert pulled.document["meta"]["table"] == 3 and pulled.document["meta"]["ended"] > 0
    board.run(100)
    assert board.texts()["message"].startswith("R1-2")  # the menu offers the scheduled match
    again = Link(board.pty_path, KEY)
    try:
        again.hello()
        assert again.call(sp.RESULTS)["results"] == []  # acknowledged: freed on the board
    finally:
        again.close()


def test_a_scheduled_match_brings_its_players(board):
    sync(board, Laptop())
    board.run(100)
    board.tap("#")  # start R1-2
    board.tap("2")
    board.tap("1")
    assert board.texts()["message"] == "ANNA BRK"


@pytest.mark.parametrize("rate", [0.01, 0.05, 0.10])
def test_a_bad_cable_still_delivers_every_result_exactly_once(tmp_path, firmware, rate):
    vb = make_board(tmp_path / ("bad%d" % int(rate * 100)), firmware)
    try:
        for _ in range(3):
            play_a_race_to_one(vb)
        relay = FaultRelay(vb.pty_path, rate, seed=int(rate * 1000))
        laptop = Laptop()
        try:
            for _attempt in range(5):  # a sync that gives up is simply run again
                link = Link(relay.port, KEY, timeout=0.2, attempts=60)
                try:
                    sync_board(link, laptop.store_result, laptop.schedule_for,
                               say=lambda s: None)
                    break
                except SyncError:
                    continue
                finally:
                    link.close()
        finally:
            relay.close()
        assert len(laptop.results) == 3
        assert all(p.verified for p in laptop.results.values())
        assert sum(relay.faults.values()) > 0
    finally:
        vb.close()


def test_an_unsigned_or_forged_write_is_refused(board):
    play_a_race_to_one(board)
    link = Link(board.pty_path, b"not the key" * 3)
    try:
        link.hello()
        (seq,) = link.call(sp.RESULTS)["results"]
        refused = link.request(sp.ACK, {"seq": seq})
        assert not refused["ok"] and "pairing key" in refused["error"]
        link.key = None
        with pytest.raises(SyncError):
            link.request(sp.ACK, {"seq": seq})
        pulled = Pulled(seq, "", "", False)
        assert pulled.verified is False
    finally:
        link.close()
    honest = Link(board.pty_path, KEY)
    try:
        honest.hello()
        assert honest.call(sp.RESULTS)["results"] == [seq]  # still there
    finally:
        honest.close()


def test_an_unpaired_board_is_told_to_pair(tmp_path, firmware):
    vb = make_board(tmp_path / "unpaired", firmware, key=None)
    link = Link(vb.pty_path, KEY)
    try:
        with pytest.raises(SyncError, match="pilkku pair"):
            sync_board(link, Laptop().store_result, Laptop().schedule_for, say=lambda s: None)
    finally:
        link.close()
        vb.close()


def _sync_once(port: str, laptop: Laptop, interrupt=None) -> dict | None:
    """One sync; `interrupt(n)` runs as the n-th result is being stored."""
    seen = [0]

    def store_result(board: str, pulled: Pulled) -> str:
        seen[0] += 1
        outcome = laptop.store_result(board, pulled)
        if interrupt is not None:
            interrupt(seen[0])
        return outcome

    link = Link(port, KEY, timeout=0.2, attempts=10)
    try:
        return sync_board(link, store_result, laptop.schedule_for, say=lambda s: None)
    except SyncError:
        return None
    finally:
        link.close()


def test_power_cut_in_the_middle_of_a_sync_then_a_resync(tmp_path, firmware):
    vb = make_board(tmp_path / "cut", firmware)
    try:
        for _ in range(3):
            play_a_race_to_one(vb)
        laptop = Laptop()

        def power_cut(n: int) -> None:
            if n == 2:  # stored on the laptop, not yet acknowledged: the board dies
                vb.kill()

        assert _sync_once(vb.pty_path, laptop, power_cut) is None
        assert len(laptop.results) == 2
        vb.start()
        summary = _sync_once(vb.pty_path, laptop)
        assert summary is not None
        assert (summary["stored"], summary["duplicates"]) == (1, 1)
        assert len(laptop.results) == 3
    finally:
        vb.close()


def test_cable_pulled_in_the_middle_of_a_sync_then_a_resync(tmp_path, firmware):
    vb = make_board(tmp_path / "cable", firmware)
    try:
        for _ in range(3):
            play_a_race_to_one(vb)
        laptop = Laptop()
        relay = FaultRelay(vb.pty_path, 0.0)

        def pull_the_cable(n: int) -> None:
            if n == 1:
                relay.close()

        assert _sync_once(relay.port, laptop, pull_the_cable) is None
        assert len(laptop.results) == 1
        relay = FaultRelay(vb.pty_path, 0.0)  # plugged back in
        try:
            summary = _sync_once(relay.port, laptop)
        finally:
            relay.close()
        assert summary is not None and summary["stored"] + summary["duplicates"] == 3
        assert len(laptop.results) == 3
    finally:
        vb.close()


def test_a_protocol_version_mismatch_says_what_to_do(board):
    link = Link(board.pty_path, KEY)
    try:
        reply = link.request(sp.HELLO, {"version": sp.VERSION + 1})
        assert not reply["ok"]
        assert "protocol %d" % (sp.VERSION + 1) in reply["error"]
        assert "flash the board" in reply["error"]
        refused = link.request(sp.RESULTS)  # no session was opened
        assert not refused["ok"] and "hello" in refused["error"]
    finally:
        link.close()
