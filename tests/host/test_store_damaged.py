"""Results that came damaged from a board (store/damaged.py) in a real store, through
`pilkku`: kept once, what their good records say read with the board's own record format,
named by every command that shows results until the director enters the match with the
command the line gives; a free game is kept and never waits for anyone. And the laptop's
checks of what a board says about damaged results (host/sync/replies.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.journal import Journal
from firmware.journal_records import OVERHEAD, Records
from host.sync import replies
from host.tournament.store import Store
from host.tournament.store.damaged import salvage
from rules_core import sync_protocol as sp
from tests.host.test_tournament_cli import Director, round_robin

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = json.loads((EXAMPLES / "demo-9ball.json").read_text())


@pytest.fixture
def night(tmp_path, capsys) -> Director:
    """Anna, Ben, Cid, Dan: a 9-ball round robin, race to 2, two tables."""
    pilkku = Director(tmp_path, capsys)
    round_robin(pilkku)
    pilkku.ok("tables", "2")
    return pilkku


def done_file(folder: Path, players: list[str], meta: dict, finish: dict) -> bytes:
    """A finished match's journal file as the board keeps it (firmware/journal.py)."""
    journal = Journal(str(folder))
    match = journal.start({"game": "9ball", "players": players, "race_to": 2}, meta)
    for event in DEMO["events"][:5]:
        match.apply(event)
    seq = journal.finish(finish)
    return (folder / "done" / ("%d.log" % seq)).read_bytes()


def record_offsets(data: bytes) -> list[int]:
    import io

    out, offset, reader = [], 0, Records()
    while offset < len(data):
        n = reader.read(io.BytesIO(data), offset, len(data))
        out.append(offset)
        offset += n + OVERHEAD
    return out


def flipped(data: bytes, at: int) -> bytes:
    out = bytearray(data)
    out[at] ^= 0x10
    return bytes(out)


def players_of(night: Director, code: str) -> list[str]:
    with Store.open(night.db) as store:
        tid = store.tournaments.get()["id"]
        match = next(m for m in store.matches.all(tid) if m["code"] == code)
        return [match["player1"], match["player2"]]


def keep(night: Director, data: bytes, seq: int = 4, board: str = "pk-3") -> bool:
    with Store.open(night.db) as store:
        return store.damaged.record(store.tournaments.get()["id"], board, seq, data)


def test_a_damaged_result_is_kept_once_named_and_entered_as_the_line_says(night, tmp_path):
    one, two = players_of(night, "R1-01")
    whole = done_file(tmp_path / "b", [two, one], {"match_id": "R1-01", "table": 2},
                      {"score": [1, 2], "winner": 1, "ended": 5000})
    data = flipped(whole, record_offsets(whole)[2] + 4)  # an event's record
    assert keep(night, data) is True
    assert keep(night, data) is False  # the same bytes again (an acknowledgement lost)
    code, out, err = night("results")
    assert code == 1
    (line,) = [x for x in (out + err).splitlines() if "came damaged" in x]
    assert line.startswith("FAILED: board pk-3's result #4 came damaged (received ")
    assert "its %d bytes are kept in the store" % len(data) in line
    assert "it is match R1-01 (%s vs %s)" % (two, one) in line
    assert "its last record is whole: %s 1, %s 2, %s won" % (two, one, one) in line
    # The score as `correct` takes it: the match's player 1 first (the log had them swapped).
    assert "pilkku correct R1-01 --score 2:1 --reason WHY" in line
    assert night("standings")[0] == 1  # every command that shows results names it
    out = night.ok("correct", "R1-01", "--score", "2:1", "--reason", "came damaged")
    assert "R1-01 corrected: %s 2 : 1 %s, %s wins" % (one, two, one) in out
    assert night("results")[0] == 0  # settled: nothing left to name
    with Store.open(night.db) as store:
        (row,) = store.damaged.all(store.tournaments.get()["id"])
        assert row["open"] is False and row["settled_match"] == "R1-01"
        assert bytes(store.db.conn.execute("SELECT data FROM damaged_results").fetchone()[0]) \
            == data
        # Other bytes under the same number (a board wiped and numbering again) are kept too.
        assert store.damaged.record(store.tournaments.get()["id"], "pk-3", 4, whole) is True


def test_a_damaged_result_whose_match_cannot_be_read_is_entered_by_its_number(night,
                                                                               tmp_path):
    one, two = players_of(night, "R1-02")
    whole = done_file(tmp_path / "b", [one, two], {"match_id": "R1-02"},
                      {"score": [2, 0], "winner": 0})
    data = flipped(whole, 20)  # inside the S record: which match it was is lost
    assert salvage(data)["first"] is False and salvage(data)["score"] == [2, 0]
    keep(night, data, seq=9)
    code, out, err = night("results")
    (line,) = [x for x in (out + err).splitlines() if "came damaged" in x]
    assert "which match it was cannot be read" in line and "its last record is whole: 2:0" in line
    assert "pilkku correct MATCH --score A:B --damaged 1 --reason WHY" in line
    code, _out, err = night("correct", "R1-02", "--score", "2:0", "--reason", "x")
    assert code == 2 and "match R1-02 has no result to replace" in err
    code, _out, err = night("correct", "R1-02", "--score", "2:0", "--reason", "x",
                            "--damaged", "7")
    assert code == 2 and "there is no damaged result 7 waiting" in err
    night.ok("correct", "R1-02", "--score", "2:0", "--reason", "table 1's, by the time",
             "--damaged", "1")
    assert night("results")[0] == 0
    code, _out, err = night("correct", "R2-01", "--score", "2:0", "--reason", "x",
                            "--damaged", "1")
    assert code == 2 and "there is no damaged result 1 waiting" in err  # settled once


def test_a_free_game_that_came_damaged_is_kept_and_waits_for_no_one(night, tmp_path):
    whole = done_file(tmp_path / "b", ["PL 1", "PL 2"], {}, {"score": [1, 0], "winner": 0})
    keep(night, flipped(whole, len(whole) - 3))  # its F record too
    assert night("results")[0] == 0
    with Store.open(night.db) as store:
        (row,) = store.damaged.all(store.tournaments.get()["id"])
        assert row["named"] == "free" and row["open"] is False
        assert row["readable"]["last"] is False


def test_a_match_the_director_walks_over_settles_it_too(night, tmp_path):
    one, two = players_of(night, "R1-01")
    whole = done_file(tmp_path / "b", [one, two], {"match_id": "R1-01"}, {"abandoned": True})
    keep(night, flipped(whole, record_offsets(whole)[1] + 4))
    code, out, err = night("results")
    assert "its last record says the match was abandoned" in out + err
    night.ok("walkover", "R1-01", one, "--reason", "the other did not come back")
    assert night("results")[0] == 0


def test_the_halls_pages_name_it(night, tmp_path):
    from host.hall import pages

    one, two = players_of(night, "R1-01")
    whole = done_file(tmp_path / "b", [one, two], {"match_id": "R1-01"},
                      {"score": [2, 1], "winner": 0})
    keep(night, flipped(whole, record_offsets(whole)[1] + 4))
    with Store.open(night.db) as store:
        t = store.tournaments.get()
        for key in ("draw", "results"):
            html = pages.page(store, t, key, 0)
            assert "FAILED: board pk-3&#39;s result #4 came damaged" in html, key


@pytest.mark.parametrize("tail", [b"", b"F\xff\xff", b"F\x00\x00" + b"\x00" * 4,
                                  b"F" * 70000, bytes(range(256)) * 300])
def test_what_is_read_of_any_bytes_is_bounded_and_typed(tail):
    """Any bytes at all (a board with the key may send them): the salvage reads at most one
    pass forward and one record's length back, keeps only values of their right types."""
    found = salvage(b"S\x05\x00[1,2]\x00\x00\x00\x00" + tail)
    assert found["first"] is False and found["damaged_at"] == 0 and found["last"] is False
    assert set(found) == {"first", "events", "damaged_at", "last"}


class _Link:
    port, board = "P", "pk-x"


@pytest.mark.parametrize("reply, why", [
    ({"ok": True, "results": [1]}, "'damaged' is not a list"),
    ({"ok": True, "results": [1], "damaged": [1]}, "a result both whole and damaged"),
    ({"ok": True, "results": [], "damaged": [True]}, "'damaged' holds something else"),
    ({"ok": True, "results": [], "damaged": [2, 2]}, "'damaged' holds something else"),
    ({"ok": True, "results": [], "damaged": list(range(65))}, "'damaged' is not a list"),
])
def test_a_results_list_is_checked_with_its_damaged_ones(reply, why):
    with pytest.raises(replies.SyncError) as error:
        replies.check(_Link(), sp.RESULTS, reply, {})
    assert why in str(error.value) and "malformed reply to results" in str(error.value)


PULL = {"seq": 3, "size": 64, "at": [0, 1]}


@pytest.mark.parametrize("asked, reply, why", [
    (PULL, {"ok": True, "seq": 3, "total": 9, "frames": 1, "damaged": True}, "the other way"),
    (dict(PULL, damaged=True), {"ok": True, "seq": 3, "total": 9, "frames": 1},
     "the other way"),
    (dict(PULL, damaged=True), {"ok": True, "seq": 3, "total": 9, "frames": 1, "damaged": 1},
     "the other way"),
    (dict(PULL, damaged=True), {"ok": True, "seq": 3, "total": 9, "frames": 1, "damaged": True,
                                "link": [1, "", "0" * 64]}, "the other way"),
    (dict(PULL, damaged=True), {"ok": False, "error": "x", "damaged": True}, "no place"),
    (PULL, {"ok": False, "error": "x", "damaged": 1}, "no place"),
])
def test_a_pull_reply_says_damaged_exactly_where_it_must(asked, reply, why):
    with pytest.raises(replies.SyncError) as error:
        replies.check(_Link(), sp.PULL, reply, asked)
    assert why in str(error.value) and not isinstance(error.value, replies.Damaged)


def test_a_pull_refused_as_damaged_is_told_apart():
    with pytest.raises(replies.Damaged) as error:
        replies.check(_Link(), sp.PULL, {"ok": False, "error": "x", "damaged": True}, PULL)
    assert error.value.seq == 3
    with pytest.raises(replies.SyncError) as error:  # not in an acknowledgement's reply
        replies.check(_Link(), sp.ACK, {"ok": False, "error": "x", "damaged": True}, {})
    assert "no place" in str(error.value) and not isinstance(error.value, replies.Damaged)
