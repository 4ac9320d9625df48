"""People across nights (store/people.py, schema v10): a v9 store upgraded keeps its players,
unlinked; a tournament's players linked to the people they are, never merged silently; two
different people of one name kept apart; two spellings joined by the director with a reason,
kept in the audit trail; completion for a picker."""

from __future__ import annotations

import sqlite3

import pytest

from host.tournament import night
from host.tournament.store import Store, StoreError
from host.tournament.store import schema as store_mod


def _night(store: Store, name: str, players: list[str]) -> int:
    tid = night.new_tournament(store, name, "kaisa", 60)
    night.import_players(store, tid, [(i + 2, n, "BK") for i, n in enumerate(players)])
    return tid


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "pilkku.db") as opened:
        yield opened


def test_a_v9_store_is_upgraded_and_keeps_its_players_unlinked(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    assert store_mod.migrate(conn, target=9) == 9
    conn.executescript("""
        INSERT INTO tournaments (id, name, game, race_to, rules, format, pairing_key, created)
            VALUES (1, 'Ilta', 'kaisa', 60, '{}', 'list', x'00', '2026-11-27');
        INSERT INTO players (id, tournament_id, seed, name, club) VALUES (1, 1, 1, 'Aino', 'BK'),
            (2, 1, 2, 'Bror', '');
    """)
    conn.close()
    with Store.open(path) as upgraded:
        assert store_mod.schema_version(upgraded.db.conn) == store_mod.SCHEMA_VERSION == 10
        assert upgraded.people.of_tournament(1) == {1: None, 2: None}
        assert [p["name"] for p in upgraded.players.all(1)] == ["Aino", "Bror"]
        before = upgraded.db.revision()
        done = upgraded.people.link_tournament(1)
        assert [(d["player"], d["how"]) for d in done] == [("Aino", "new"), ("Bror", "new")]
        assert upgraded.people.all()[0]["club"] == "BK"  # the player's club came with them
        assert upgraded.db.revision() > before  # the new tables have the revision's triggers
        assert not upgraded.db.conn.execute("PRAGMA foreign_key_check").fetchall()


def test_a_known_name_is_that_person_and_a_new_one_only_when_said(store):
    first = _night(store, "Ilta 1", ["Matti Virtanen", "Aino"])
    store.people.link_tournament(first)
    second = _night(store, "Ilta 2", ["Matti Virtanen", "Aino"])
    known = {store.people.find("Aino")["id"], store.people.find("Matti Virtanen")["id"]}
    assert set(store.people.of_tournament(second).values()) == known  # known at entry
    # the director's word wins over the entry's link: this Matti is a new person
    done = store.people.link_tournament(second, new=["Matti Virtanen"])
    assert [(d["player"], d["how"]) for d in done] == [("Matti Virtanen", "new")]
    mattis = store.people.named("Matti Virtanen")
    assert len(mattis) == 2  # two different people of one name, kept apart
    third = _night(store, "Ilta 3", ["Matti Virtanen"])
    before = store.people.of_tournament(third)
    with pytest.raises(StoreError, match="could be 2 people.*--person 'Matti Virtanen=#ID'"):
        store.people.link_tournament(third)
    assert store.people.of_tournament(third) == before  # nothing linked
    store.people.link_tournament(third, picks={"Matti Virtanen": "#%d" % mattis[1]["id"]})
    assert set(store.people.of_tournament(third).values()) == {mattis[1]["id"]}
    with pytest.raises(StoreError, match="known already.*--new"):
        store.people.add("Aino")
    assert store.people.add("Aino", "PK", "1234", new=True) > 0


def test_two_spellings_joined_with_a_reason_and_kept(store):
    one = _night(store, "Ilta 1", ["Jussi Ahonen", "Aino"])
    two = _night(store, "Ilta 2", ["Jusi Ahonen", "Aino"])
    store.people.link_tournament(one)
    store.people.link_tournament(two)
    with pytest.raises(StoreError, match="--reason"):
        store.people.join("Jussi Ahonen", "Jusi Ahonen", "  ")
    with pytest.raises(StoreError, match="both played 'Ilta 1'"):
        store.people.join("Jussi Ahonen", "Aino", "same")
    done = store.people.join("Jussi Ahonen", "Jusi Ahonen", "a typo on the sheet")
    assert done["players"] == 1
    jussi = store.people.find("Jussi Ahonen")["id"]
    assert set(store.people.of_tournament(two).values()) == {jussi, store.people.find("Aino")
                                                            ["id"]}
    assert [p["name"] for p in store.people.all()] == ["Aino", "Jussi Ahonen"]
    trail = store.people.joins()
    assert [(t["kept_name"], t["joined_name"], t["reason"]) for t in trail] == [
        ("Jussi Ahonen", "Jusi Ahonen", "a typo on the sheet")]
    with pytest.raises(StoreError, match="joined into"):
        store.people.find("#%d" % done["joined"])


def test_completion_offers_names_and_words_most_played_first(store):
    store.people.link_tournament(_night(store, "Ilta 1", ["Anna Virtanen", "Ville Aho"]))
    store.people.link_tournament(_night(store, "Ilta 2", ["Anna Virtanen", "Vilma"]))
    assert [p["name"] for p in store.people.complete("vi")] == ["Ville Aho", "Vilma",
                                                                "Anna Virtanen"]
    assert [p["name"] for p in store.people.complete("VIRT")] == ["Anna Virtanen"]
    assert store.people.complete("zz") == []


def test_a_join_taken_back_gives_the_joined_person_his_nights_again(store):
    one = _night(store, "Ilta 1", ["Jussi", "Aino"])
    two = _night(store, "Ilta 2", ["Jusi", "Aino"])
    store.people.link_tournament(one)
    store.people.link_tournament(two)
    jusi = store.people.find("Jusi")["id"]
    store.people.join("Jussi", "Jusi", "a typo")
    three = _night(store, "Ilta 3", ["Jussi"])
    store.people.link_tournament(three)  # Jussi's own night, after the join
    before = store.db.revision()
    with pytest.raises(StoreError, match="by number"):
        store.people.split("Jusi", "two men")
    with pytest.raises(StoreError, match="--reason"):
        store.people.split("#%d" % jusi, "")
    assert store.db.revision() == before
    assert store.people.split("#%d" % jusi, "two men after all")["players"] == 1
    jussi = store.people.find("Jussi")["id"]
    assert set(store.people.of_tournament(two).values()) == {jusi, store.people.find("Aino")
                                                            ["id"]}
    assert set(store.people.of_tournament(three).values()) == {jussi}
    assert [p["name"] for p in store.people.all()] == ["Aino", "Jusi", "Jussi"]
    (join,) = store.people.joins()
    assert join["undo_reason"] == "two men after all" and join["undone"]
    with pytest.raises(StoreError, match="was not joined"):
        store.people.split("#%d" % jusi, "again")

