"""The boards' chains of results in the store: a board's results, each signed over the one
before, verify in `pilkku results`; a result deleted, a link removed, results reordered or one
signed again, a time edited: each shows, by what a person with the store but not the key
cannot mend."""

from __future__ import annotations

import subprocess
import sys

import pytest
from test_store import PLAYERS, cup, log_text

from host.tournament import night as ops
from host.tournament.store import ResultRefused, Store
from host.tournament.store.chain import link_mac

BOARD = "pk-1"


def _deliver(store: Store, tid: int, key: bytes, codes: list[str]) -> list[str]:
    """Results for `codes` from one board, as `pilkku sync` takes them: each a link of the
    board's chain (n from 1, over the MAC before), then the result. Returns the MACs."""
    macs, prev = [], ""
    for n, code in enumerate(codes, 1):
        match = next(m for m in store.matches.all(tid) if m["code"] == code)
        text = log_text([match["player1"], match["player2"]], [2, 0],
                        meta={"match_id": code, "started": 100 * n, "ended": 100 * n + 50})
        mac = link_mac(key, BOARD, n, prev, text.encode())
        assert store.chains.record(tid, BOARD, n, prev, mac, text) is True
        assert ops.record_result(store, code, text, BOARD, mac, 100 * n, 100 * n + 50,
                                   tournament_id=tid, chain_n=n) is True
        macs.append(mac)
        prev = mac
    return macs


@pytest.fixture
def night(tmp_path):
    path = tmp_path / "night.db"
    with Store.open(path) as store:
        tid = cup(store, PLAYERS[:4])
        ops.draw_round_robin(store, tid)
        codes = [m["code"] for m in store.matches.all(tid)][:3]
        _deliver(store, tid, store.tournaments.key(tid), codes)
    store = Store.open(path)
    yield store, tid, codes, path
    store.close()


def _verified(store: Store, tid: int) -> list:
    return [row["verified"] for row in store.results.all(tid)]


def test_a_whole_chain_verifies(night):
    store, tid, _codes, _path = night
    assert _verified(store, tid) == [True, True, True]
    assert store.chains.problems(tid) == ([], set())


def test_a_deleted_result_shows(night):
    store, tid, codes, _path = night
    store.db.conn.execute("DELETE FROM results WHERE chain_n = 2")
    problems, _ = store.chains.problems(tid)
    assert problems == ["board pk-1: the result of match %s (#2) is missing from the results "
                        "(deleted?)" % codes[1]]


def test_a_deleted_result_and_its_link_show_as_a_gap(night):
    store, tid, _codes, _path = night
    store.db.conn.execute("DELETE FROM results WHERE chain_n = 2")
    store.db.conn.execute("DELETE FROM board_links WHERE n = 2")
    problems, broken = store.chains.problems(tid)
    assert problems == ["board pk-1: results #2 to #2 are missing (deleted?)"]
    assert _verified(store, tid) == [True, False]  # the one after the gap


def test_results_swapped_between_links_show(night):
    store, tid, _codes, _path = night
    rows = store.db.conn.execute("SELECT n, document, mac FROM board_links ORDER BY n").fetchall()
    for (n, _d, _m), (_n, document, mac) in zip(rows[:2], reversed(rows[:2]), strict=True):
        store.db.conn.execute("UPDATE board_links SET document = ?, mac = ? WHERE n = ?",
                           (document, mac, n))
    problems, _ = store.chains.problems(tid)
    assert any("#1 does not verify" in p for p in problems)
    assert _verified(store, tid)[:2] == [False, False]


def test_a_result_signed_again_with_the_key_breaks_the_chain_after_it(night):
    store, tid, codes, _path = night
    key = store.tournaments.key(tid)
    match = next(m for m in store.matches.all(tid) if m["code"] == codes[1])
    other = log_text([match["player1"], match["player2"]], [0, 2],
                     meta={"match_id": codes[1], "started": 200, "ended": 250})
    prev = store.db.conn.execute("SELECT prev FROM board_links WHERE n = 2").fetchone()[0]
    mac = link_mac(key, BOARD, 2, prev, other.encode())  # valid by itself
    store.db.conn.execute("UPDATE board_links SET document = ?, mac = ? WHERE n = 2",
                       (other.encode(), mac))
    store.db.conn.execute("UPDATE results SET document = ?, hmac = ? WHERE chain_n = 2",
                       (other.encode(), mac))
    problems, _ = store.chains.problems(tid)
    assert problems == ["board pk-1: result #3 does not follow #2 (reordered or signed again)"]
    assert _verified(store, tid)[1:] == [False, False]


def test_an_edited_time_no_longer_verifies(night):
    store, tid, _codes, _path = night
    store.db.conn.execute("UPDATE results SET ended = 999999 WHERE chain_n = 3")
    assert _verified(store, tid) == [True, True, False]


def test_another_result_under_a_kept_number_is_refused(night):
    store, tid, _codes, _path = night
    with pytest.raises(ResultRefused, match="restarted or forged"):
        store.chains.record(tid, BOARD, 2, "", "ab" * 32, "{}")


def test_pilkku_results_names_the_break(night):
    store, _tid, codes, path = night
    store.db.conn.execute("DELETE FROM results WHERE chain_n = 1")
    done = subprocess.run([sys.executable, "-m", "host.cli", "results", "--db", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr  # a problem shown is a non-zero exit
    assert ("FAILED: board pk-1: the result of match %s (#1) is missing from the results"
            % codes[0]) in done.stdout
