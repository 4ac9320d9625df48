"""The store's revision (host/tournament/store/schema.py: ensure_revision): one number every write
moves on, by triggers on every table, so the hall (host/hall/app.py) pushes whatever a page
shows, whichever code wrote it (issue 32, item 4: a correction that kept the winner moved
nothing the hall looked at)."""

from __future__ import annotations

import sqlite3

import pytest

from host.tournament import night
from host.tournament.store import Store
from host.tournament.store import schema as store_mod

PLAYERS = ["Anna", "Ben", "Cid", "Dan"]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pilkku.db"


def tables(conn) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' "
        "AND name != 'revision'")]


def triggers(conn) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}


def test_every_table_has_its_three_triggers_and_a_second_open_changes_nothing(db):
    with Store.open(db) as store:
        names = tables(store.db.conn)
        assert {"tournaments", "matches", "results", "live", "board_links"} <= set(names)
        assert triggers(store.db.conn) >= {"revision_%s_%s" % (t, e) for t in names
                                        for e in ("insert", "update", "delete")}
        cookie = store.db.conn.execute("PRAGMA schema_version").fetchone()[0]
        assert store.db.revision() == 0
    with Store.open(db) as store:  # nothing to make: the schema is not written again
        assert store.db.conn.execute("PRAGMA schema_version").fetchone()[0] == cookie


def test_each_director_operation_moves_the_revision(db):
    with Store.open(db) as store:
        seen = [store.db.revision()]

        facts = [store.db.facts()]

        def moved() -> bool:  # the revision and the facts' (every write but a live state)
            seen.append(store.db.revision())
            facts.append(store.db.facts())
            return seen[-1] > seen[-2] and facts[-1] > facts[-2]

        tid = night.new_tournament(store, "Cup", "9ball", 2)
        assert moved()
        night.import_players(store, tid, [(i + 2, name, "") for i, name in enumerate(PLAYERS)])
        assert moved()
        night.draw_round_robin(store, tid)
        assert moved()
        night.set_tables(store, tid, 2)
        assert moved()
        night.assign(store, tid, "R1-01", 2)
        assert moved()
        night.walkover(store, tid, "R1-01", "Anna", "no show")
        assert moved()
        # The correction of issue 32: the same winner, another score.
        night.correct(store, tid, "R1-01", "a slip", score=(2, 1))
        assert moved()
        night.rename_player(store, tid, "Ben", "Benjamin")
        assert moved()


def test_a_boards_live_state_moves_it_and_its_heartbeat_alone_does_not(db):
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Cup", "9ball", 2)
        state = {"score": [0, 0]}
        store.live.put("pk-1", tid, 1, state, at_ms=1000)
        first = store.db.revision()
        store.live.put("pk-1", tid, 1, state, at_ms=2000)  # the same, a second later
        assert store.db.revision() == first
        assert store.live.states(tid)[0]["answered_ms"] == 2000  # written all the same
        store.live.put("pk-1", tid, 1, {"score": [1, 0]}, at_ms=3000)
        assert store.db.revision() > first
        second = store.db.revision()
        store.live.silent("pk-1", at_ms=9000)
        assert store.db.revision() > second


def test_a_boards_live_state_leaves_the_facts_revision(db):
    """Live scores come several times a second while boards play: they move the revision
    (the pages that show them follow it) but not the facts' revision, on which what is read
    once per revision is kept (store/per_revision.py)."""
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Cup", "9ball", 2)
        facts = store.db.facts()
        store.live.put("pk-1", tid, 1, {"score": [0, 0]}, at_ms=1000)
        store.live.put("pk-1", tid, 1, {"score": [1, 0]}, at_ms=2000)
        store.live.silent("pk-1", at_ms=9000)
        assert store.db.facts() == facts
        store.boards.note(tid, "pk-1", 1)
        assert store.db.facts() > facts


def test_a_write_by_any_code_moves_it(db):
    """The triggers are in the store: plain SQL from anywhere moves it too."""
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Cup", "9ball", 2)
        night.import_players(store, tid, [(i + 2, name, "") for i, name in enumerate(PLAYERS)])
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for sql in ("UPDATE players SET club = 'BK' WHERE name = 'Anna'",
                    "DELETE FROM players WHERE name = 'Dan'"):
            before = conn.execute("SELECT n FROM revision").fetchone()[0]
            conn.execute(sql)
            assert conn.execute("SELECT n FROM revision").fetchone()[0] > before, sql
    finally:
        conn.close()


def test_an_old_store_and_a_table_added_later_get_their_triggers(db):
    conn = sqlite3.connect(db, isolation_level=None)
    assert store_mod.migrate(conn, target=1) == 1  # a v1 store, as an older pilkku left it
    conn.close()
    with Store.open(db) as store:
        assert store.db.revision() == 0
        assert "revision_live_update" in triggers(store.db.conn)
        store.db.conn.execute("UPDATE players SET club = 'x'")  # (no rows: no trigger)
        assert store.db.facts() == 0
        # A table a later migration (or a rebuild) makes is given its triggers at the next open.
        store.db.conn.execute("CREATE TABLE later (id INTEGER PRIMARY KEY, note TEXT)")
    with Store.open(db) as store:
        assert {"revision_later_insert", "revision_later_update",
                "revision_later_delete"} <= triggers(store.db.conn)
        store.db.conn.execute("INSERT INTO later (note) VALUES ('x')")
        assert store.db.revision() == 1
