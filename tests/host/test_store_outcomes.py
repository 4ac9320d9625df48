"""Schema v9 (host/tournament/store/migrations.py): the director's other outcomes. A store made
before it keeps every result and the damaged result that refers to one; afterwards a match may
be void or lost by both (matches.outcome), and such a match is neither open nor at a table."""

from __future__ import annotations

import sqlite3

import pytest

from host.tournament import night
from host.tournament.store import Store, StoreError
from host.tournament.store import schema as store_mod


def _v8_store(path) -> None:
    """A store at schema 8 with a tournament, a result and a damaged result settled by it."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    assert store_mod.migrate(conn, target=8) == 8
    conn.executescript("""
        INSERT INTO tournaments (id, name, game, race_to, rules, format, pairing_key, created)
            VALUES (1, 'Cup', '9ball', 2, '{}', 'list', x'00', '2026-12-04');
        INSERT INTO players (id, tournament_id, seed, name) VALUES (1, 1, 1, 'A'), (2, 1, 2, 'B');
        INSERT INTO matches (id, tournament_id, code, seq, player1_id, player2_id, winner_id,
                             score1, score2) VALUES (1, 1, 'M1', 1, 1, 2, 1, 2, 0);
        INSERT INTO results (id, match_id, document, board_id, hmac, received, kind, reason,
                             chain_n) VALUES (7, 1, x'7b7d', 'director', 'ab', 'now',
                                          'correction', 'paper', 3);
        INSERT INTO damaged_results (tournament_id, board_id, seq, data, digest, received,
                                     named, match_code, readable, settled_match,
                                     settled_result)
            VALUES (1, 'b1', 4, x'00', 'd', 'now', 'match', 'M1', '{}', 'M1', 7);
    """)
    conn.close()


def test_a_v8_store_keeps_its_results_and_takes_the_new_kinds(tmp_path):
    path = tmp_path / "old.db"
    _v8_store(path)
    with Store.open(path) as store:
        conn = store.db.conn
        assert store_mod.schema_version(conn) == store_mod.SCHEMA_VERSION
        row = dict(conn.execute("SELECT * FROM results").fetchone())
        assert (row["id"], row["kind"], row["reason"], row["chain_n"]) == (7, "correction",
                                                                          "paper", 3)
        assert conn.execute("SELECT settled_result FROM damaged_results").fetchone()[0] == 7
        assert not conn.execute("PRAGMA foreign_key_check").fetchall()
        conn.execute("UPDATE results SET kind = 'hand' WHERE id = 7")
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE results SET kind = 'guess' WHERE id = 7")
        with pytest.raises(sqlite3.IntegrityError):  # one current result a match, still
            conn.execute("INSERT INTO results (match_id, document, board_id, received) "
                         "VALUES (1, x'00', 'b', 'now')")
        before = store.db.revision()
        conn.execute("UPDATE results SET reason = 'sheet' WHERE id = 7")
        assert store.db.revision() == before + 1  # the rebuilt table's triggers are back


@pytest.fixture
def cup(tmp_path):
    with Store.open(tmp_path / "pilkku.db") as store:
        tid = night.new_tournament(store, "Cup", "9ball", 2)
        night.import_players(store, tid, [(i + 2, name, "") for i, name in
                                          enumerate(["Anna", "Ben", "Cid", "Dan"])])
        night.draw_round_robin(store, tid)
        night.set_tables(store, tid, 1)
        night.assign_free_tables(store, tid)
        yield store, tid


def test_a_void_match_is_not_open_and_leaves_its_table(cup):
    store, tid = cup
    first = store.tables.schedule(tid, 1)[0]["match_id"]
    match = store.matches.get(tid, first)
    with store.db.transaction():
        store.matches.set_outcome(match, "void")
    assert first not in {m["code"] for m in store.matches.open(tid)}
    assert first in store.matches.decided_codes(tid)
    assert first not in [m["match_id"] for m in store.tables.schedule(tid, 1)]
    row = next(m for m in store.matches.all(tid) if m["code"] == first)
    assert (row["outcome"], row["winner_id"], row["score1"]) == ("void", None, None)
    with store.db.transaction():
        store.matches.set_outcome(match, None)
    assert first in {m["code"] for m in store.matches.open(tid)}


def test_an_outcome_the_store_does_not_know_is_refused(cup):
    store, tid = cup
    match = store.matches.open(tid)[0]
    with pytest.raises(StoreError, match="void or both_lose"):
        store.matches.set_outcome(match, "draw")
    assert store.matches.get(tid, match["code"])["outcome"] is None
