"""Authenticated and ordered sync, on a virtual board over its pty: every request but the hello
needs the pairing key's tag; a replayed or reordered frame is refused in its own session and in
a new one; a repeated request gets the byte-identical cached reply and is not applied again; a
session left quiet expires; a result signed with another key is kept on the board, not stored
and not acknowledged (through the real store)."""

from __future__ import annotations

import json

import pytest
from sync_setup import (
    Raw,
    board_results,
    desk,
    make_board,
    play_a_race_to_one,
    play_the_scheduled_match,
    sync,
)

from host.sync.session import Link, SyncError, pull
from host.tournament.store import Store
from rules_core import sync_protocol as sp

OTHER = bytes(range(100, 132))


def _table(port: str, key: bytes) -> int:
    link = Link(port, key)
    try:
        return link.hello()["table"]
    finally:
        link.close()


@pytest.mark.parametrize("kind, payload", [
    (sp.LIVE, {}), (sp.RESULTS, {}), (sp.PULL, {"seq": 1, "size": 64, "at": [0, 1], "link": True}),
    (sp.ACK, {"seq": 1}), (sp.TABLE, {"table": 7}), (sp.CLOCK, {"time": 5}),
    (sp.SCHEDULE, {"matches": []})])
def test_every_request_needs_the_key(board, cup, kind, payload):
    play_a_race_to_one(board)
    raw = Raw(board.pty_path, cup[2])
    try:
        raw.hello()
        seq = raw.next_seq()
        for tag in (sp.NO_TAG, b"0123456789a"):  # none, and a made-up one
            reply = Raw.payload(raw.exchange(sp.encode(seq, kind, payload, tag)))
            assert reply["ok"] is False and "not signed" in reply["error"]
            assert set(reply) == {"ok", "error"}  # nothing of the board's data
    finally:
        raw.close()
    assert _table(board.pty_path, cup[2]) == 1
    assert len(board_results(board.pty_path, cup[2])) == 1


def test_a_replayed_or_reordered_frame_is_refused_in_its_session_and_in_a_new_one(board, cup):
    raw = Raw(board.pty_path, cup[2])
    try:
        raw.hello()
        four = raw.signed(raw.next_seq(), sp.TABLE, {"table": 4})
        five = raw.signed(raw.next_seq(), sp.TABLE, {"table": 5})
        beyond = raw.signed(raw.link.seq + 1 + sp.SEQ_WINDOW + 1, sp.TABLE, {"table": 6})
        assert Raw.payload(raw.exchange(four))["table"] == 4
        assert Raw.payload(raw.exchange(five))["table"] == 5
        for stale in (four, beyond):  # an old number again; one too far ahead
            refused = Raw.payload(raw.exchange(stale))
            assert refused["ok"] is False and "out of order" in refused["error"]
        raw.hello()  # a new session: the recorded frames are worth nothing
        for stale in (four, five):
            refused = Raw.payload(raw.exchange(stale))
            assert refused["ok"] is False and "not signed" in refused["error"]
    finally:
        raw.close()
    assert _table(board.pty_path, cup[2]) == 5


def test_the_same_sequence_number_twice_gets_the_byte_identical_cached_reply(board, cup):
    play_a_race_to_one(board)
    raw = Raw(board.pty_path, cup[2])
    try:
        raw.hello()
        results = Raw.payload(raw.exchange(raw.signed(raw.next_seq(), sp.RESULTS, {})))
        (seq,) = results["results"]
        ack = raw.signed(raw.next_seq(), sp.ACK, {"seq": seq})
        first = raw.exchange(ack)
        again = raw.exchange(ack)  # a retransmission: the first reply was lost, say
        assert Raw.payload(first) == {"ok": True, "gone": False}
        assert again == first  # not applied again (that would say "gone": true)
    finally:
        raw.close()
    assert board_results(board.pty_path, cup[2]) == []


def test_a_session_left_quiet_expires(board, cup):
    raw = Raw(board.pty_path, cup[2])
    try:
        raw.hello()
        assert Raw.payload(raw.exchange(raw.signed(raw.next_seq(), sp.LIVE, {})))["ok"]
        board.step(sp.SESSION_MS + 1000)  # the board's clock: a minute without a word
        refused = Raw.payload(raw.exchange(raw.signed(raw.next_seq(), sp.LIVE, {})))
        assert refused["ok"] is False and "expired" in refused["error"]
        refused = Raw.payload(raw.exchange(raw.signed(raw.next_seq(), sp.LIVE, {})))
        assert refused["ok"] is False and "hello" in refused["error"]
        raw.hello()
        assert Raw.payload(raw.exchange(raw.signed(raw.next_seq(), sp.LIVE, {})))["ok"]
    finally:
        raw.close()


def test_a_board_with_another_key_is_refused_at_hello_and_keeps_its_results(tmp_path, firmware,
                                                                           cup):
    vb = make_board(tmp_path / "other", firmware, OTHER)
    try:
        play_a_race_to_one(vb)
        with pytest.raises(SyncError, match="without this tournament's key"):
            sync(vb.pty_path, cup[0], cup[2])
        assert len(board_results(vb.pty_path, OTHER)) == 1
    finally:
        vb.close()


def test_a_result_signed_with_another_key_is_kept_and_not_acknowledged(tmp_path, firmware, cup):
    """The board played a match while paired with another tournament, whose laptop pulled the
    result (so the board signed it with that key) but never acknowledged it; then the board
    was paired with this tournament. The link stays as it was signed: this laptop cannot
    verify it, so it must neither store nor free it."""
    db, tournament, key = cup
    vb = make_board(tmp_path / "repaired", firmware, OTHER)
    try:
        matches = desk(db).schedule_for(1)
        assert matches
        other = Link(vb.pty_path, OTHER)
        try:
            other.hello()
            other.call(sp.SCHEDULE, {"matches": matches})  # the same match, by the other key
        finally:
            other.close()
        vb.run(100)
        play_the_scheduled_match(vb)
        other = Link(vb.pty_path, OTHER)
        try:
            other.hello()
            (seq,) = other.call(sp.RESULTS)["results"]
            assert pull(other, seq).verified  # signed with OTHER now, kept by the board
        finally:
            other.close()
        vb.stop()
        vb.install({"config.json": json.dumps({"board": "pk-test", "table": 1,
                                               "key": key.hex()}).encode()})  # re-paired
        vb.start()
        said = []
        laptop = desk(db)

        def store_result(board: str, pulled) -> str:
            said.append(laptop.store_result(board, pulled))
            return said[-1]

        summary = sync(vb.pty_path, db, key, store_result=store_result)
        assert summary["kept"] == 1 and summary["stored"] == 0
        assert said[0].startswith("kept: not signed with this tournament's key")
        with Store.open(db) as store:
            assert store.results.all(tournament["id"]) == []
            assert store.db.conn.execute("SELECT COUNT(*) FROM board_links").fetchone()[0] == 0
        assert board_results(vb.pty_path, key) == [seq]  # still on the board
    finally:
        vb.close()
