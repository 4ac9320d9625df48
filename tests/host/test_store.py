"""The tournament store on real SQLite files: migrations, tournaments, the schedule a board
plays, results from real match logs (idempotent, refused when they do not fit, verified by
HMAC), bracket advancement and automatic assignment."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3

import pytest

from host.tournament import night
from host.tournament.store import ResultRefused, Store, StoreError
from host.tournament.store import schema as store_mod
from host.tournament.store.db import Database
from rules_core import matchlog
from rules_core.match import Match

PLAYERS = ["Anna", "Ben", "Cid", "Dan", "Eve"]


def log_text(players, score, *, game="9ball", race=2, meta=None, finish=True, rules=None):
    """A real match log: each rack given by a concession, the loser's racks first."""
    match = Match({"game": game, "players": list(players), "race_to": race, "rules": rules})
    match.apply({"t": "lag", "winner": 0})
    match.apply({"t": "choose", "choice": "break", "breaker": 0})
    winner = 0 if score[0] > score[1] else 1
    racks = [1 - winner] * score[1 - winner] + [winner] * score[winner]
    if not finish:
        racks = racks[:-1]
    for player in racks:
        match.apply({"t": "concede", "player": 1 - player})  # the other player gets the rack
    return matchlog.dumps(match, meta or {})


def sign(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def dump(path) -> str:
    conn = sqlite3.connect(path)
    try:
        return "\n".join(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pilkku.db"


@pytest.fixture
def store(db):
    with Store.open(db) as opened:
        yield opened


def cup(store: Store, players=PLAYERS, race=2) -> int:
    tid = night.new_tournament(store, "Cup", "9ball", race)
    night.import_players(store, tid, [(i + 2, name, "") for i, name in enumerate(players)])
    return tid


def match(store: Store, tid: int, code: str) -> dict:
    return next(m for m in store.matches.all(tid) if m["code"] == code)


# -- opening and migrations ---------------------------------------------------------------

def test_open_creates_the_latest_schema(store, db):
    assert store_mod.schema_version(store.db.conn) == store_mod.SCHEMA_VERSION == len(
        store_mod.MIGRATIONS)
    names = {r[0] for r in store.db.conn.execute("SELECT name FROM sqlite_master")}
    assert {"tournaments", "players", "tables", "matches", "results", "boards"} <= names


def test_a_v1_file_is_upgraded_on_open_and_keeps_its_data(db):
    conn = sqlite3.connect(db, isolation_level=None)
    conn.row_factory = sqlite3.Row
    assert store_mod.migrate(conn, target=1) == 1
    old = Store(Database(conn, db))  # a v1 store, as an older pilkku left it
    tid = cup(old)
    night.draw_round_robin(old, tid)
    old.close()
    assert "boards" not in dump(db)

    with Store.open(db) as upgraded:
        versions = [r[0] for r in upgraded.db.conn.execute("SELECT version FROM schema_version")]
        assert versions == list(range(1, store_mod.SCHEMA_VERSION + 1))
        assert len(upgraded.matches.all(tid)) == 10
        upgraded.boards.note(tid, "pk-1", 3)
        assert upgraded.boards.all(tid)[0]["table"] == 3
    assert "matches_by_table" in dump(db)


def test_a_newer_store_is_refused(db):
    Store.open(db).close()
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO schema_version VALUES (99, 'later')")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="update pilkku"):
        Store.open(db)


def test_a_file_that_is_not_a_database_is_refused(db):
    db.write_bytes(b"this is a spreadsheet, honest" * 100)
    with pytest.raises(StoreError, match="not a pilkku store"):
        Store.open(db)


def test_default_path_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PILKKU_DB", raising=False)
    assert str(store_mod.default_path()) == "pilkku.db"
    monkeypatch.setenv("PILKKU_DB", str(tmp_path / "elsewhere.db"))
    Store.open().close()
    assert (tmp_path / "elsewhere.db").exists()


# -- tournaments ---------------------------------------------------------------------------

def test_tournaments_latest_by_default_and_by_name(store):
    first = night.new_tournament(store, "Spring", "8ball", 3)
    second = night.new_tournament(store, "Summer", "14.1", 50, {})
    assert store.tournaments.get()["id"] == second
    spring = store.tournaments.get("Spring")
    assert (spring["id"], spring["game"], spring["race_to"]) == (first, "8ball", 3)
    assert spring["rules"]["break_rule"] == "winner"  # resolved with the defaults
    with pytest.raises(StoreError, match="known: Spring, Summer"):
        store.tournaments.get("Autumn")


def test_pairing_keys_are_32_random_bytes_per_tournament(store):
    a = night.new_tournament(store, "A", "9ball", 5)
    b = night.new_tournament(store, "B", "9ball", 5)
    key = store.tournaments.key(a)
    assert len(key) == 32 and key == store.tournaments.key(a) != store.tournaments.key(b)


@pytest.mark.parametrize("game, race, rules, says", [
    ("snooker", 5, None, "'game' must be one of"),
    ("9ball", 0, None, "race_to"),
    ("9ball", 5, {"break_rule": "sometimes"}, "break_rule"),
])
def test_a_tournament_with_bad_settings_is_refused(store, game, race, rules, says):
    with pytest.raises(StoreError, match=says):
        night.new_tournament(store, "X", game, race, rules)


def test_tournament_names_are_unique(store):
    night.new_tournament(store, "Cup", "9ball", 5)
    with pytest.raises(StoreError, match="exists already"):
        night.new_tournament(store, "Cup", "8ball", 5)


def test_no_tournament_says_how_to_start_one(store):
    with pytest.raises(StoreError, match="pilkku tournament new"):
        store.tournaments.get()


# -- the schedule --------------------------------------------------------------------------

def test_table_schedule_is_what_the_board_plays_next(store):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    night.assign(store, tid, "R1-02", 1)
    night.assign(store, tid, "R1-01", 1)
    schedule = store.tables.schedule(tid, 1)
    assert [s["match_id"] for s in schedule] == ["R1-02", "R1-01"]
    first = schedule[0]
    assert first["round"] == 1
    assert first["settings"] == {"game": "9ball", "players": ["Cid", "Ben"], "race_to": 2,
                                 "rules": store.tournaments.get()["rules"]}
    assert store.tables.schedule(tid, 2) == []


def test_assign_refuses_a_match_without_players_or_finished(store):
    tid = cup(store)
    night.draw_bracket(store, tid)
    with pytest.raises(StoreError, match="waits for the winners"):
        night.assign(store, tid, "R2-01", 1)
    night.assign(store, tid, "R1-01", 1)
    night.record_result(store, "R1-01", log_text(["Dan", "Eve"], [2, 0]), "pk-1", None, None, None)
    with pytest.raises(StoreError, match="finished already"):
        night.assign(store, tid, "R1-01", 2)
    with pytest.raises(StoreError, match="no match 'R9-09'"):
        night.assign(store, tid, "R9-09", 2)


# -- results -------------------------------------------------------------------------------

def test_record_result_stores_once_and_a_second_delivery_is_a_no_op(store):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    night.assign(store, tid, "R1-01", 1)
    text = log_text(["Anna", "Dan"], [1, 2], meta={"match_id": "R1-01", "table": 1})
    key = store.tournaments.key(tid)
    assert night.record_result(store, "R1-01", text, "pk-1", sign(key, text), 100, 200) is True
    before = dump(store.path)
    assert night.record_result(store, "R1-01", text, "pk-1", sign(key, text), 100, 200) is False
    assert dump(store.path) == before
    done = match(store, tid, "R1-01")
    assert (done["winner"], done["score1"], done["score2"]) == ("Dan", 1, 2)
    stored = store.results.current("R1-01")
    assert stored is not None and stored["document"] == text and stored["board_id"] == "pk-1"
    assert (stored["started"], stored["ended"]) == (100, 200)
    assert store.tables.schedule(tid, 1)[0]["match_id"] != "R1-01"  # the next one took over


def test_a_different_second_result_is_refused(store):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [2, 0]), "pk-1", None, None, None)
    before = dump(store.path)
    with pytest.raises(ResultRefused, match="has a result already"):
        night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [0, 2]), "pk-2", None, None,
                            None)
    assert dump(store.path) == before


def test_the_log_may_name_the_players_in_either_order(store):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    night.record_result(store, "R1-01", log_text(["Dan", "Anna"], [2, 1]), "pk-1", None, None, None)
    done = match(store, tid, "R1-01")
    assert (done["player1"], done["score1"], done["score2"], done["winner"]) == (
        "Anna", 1, 2, "Dan")


def tampered(text: str) -> str:
    doc = json.loads(text)
    doc["events"].insert(2, {"t": "shot", "first": 1, "pocketed": [12]})
    return json.dumps(doc)


@pytest.mark.parametrize("make, says", [
    (lambda: "{not json", "not JSON"),
    (lambda: tampered(log_text(["Anna", "Dan"], [2, 0])), "does not replay: event 2 refused"),
    (lambda: log_text(["Anna", "Ben"], [2, 0]), "names Anna and Ben; match R1-01 is Anna vs Dan"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], game="8ball"), "8ball match"),
    (lambda: log_text(["Anna", "Dan"], [3, 0], race=3), "race to 3"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], rules={"break_rule": "alternate"}),
     "other ruleset options"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], finish=False), "not finished"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], meta={"match_id": "R2-01"}),
     "for match R2-01, not R1-01"),
])
def test_a_log_that_does_not_fit_is_refused_and_changes_nothing(store, make, says):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    before = dump(store.path)
    with pytest.raises(ResultRefused, match=says):
        night.record_result(store, "R1-01", make(), "pk-1", None, None, None)
    assert dump(store.path) == before


def test_a_result_for_a_match_without_players_is_refused(store):
    tid = cup(store)
    night.draw_bracket(store, tid)
    with pytest.raises(ResultRefused, match="no players yet"):
        night.record_result(store, "R3-01", log_text(["Anna", "Ben"], [2, 0]), "pk", None, None,
                            None,
                            tournament_id=tid)


def test_match_ids_resolve_to_the_latest_tournament_unless_given(store):
    old = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, old)
    new = night.new_tournament(store, "Cup 2", "9ball", 2)
    night.import_players(store, new, [(2, "Anna", ""), (3, "Dan", "")])
    night.draw_round_robin(store, new)  # R1-01 Anna vs Dan here too
    night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [2, 0]), "pk", None, None, None)
    assert match(store, new, "R1-01")["winner"] == "Anna"
    assert match(store, old, "R1-01")["winner"] is None
    night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [0, 2]), "pk", None, None, None,
                        tournament_id=old)
    assert match(store, old, "R1-01")["winner"] == "Dan"


# -- verification --------------------------------------------------------------------------

@pytest.fixture
def signed(store):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"})
    night.record_result(store, "R1-01", text, "pk-1", sign(store.tournaments.key(tid), text),
                        None, None)
    result = store.results.current("R1-01")
    assert result is not None
    return tid, result["id"]


def test_a_signed_result_verifies(store, signed):
    tid, result_id = signed
    assert store.results.verify(result_id, store.tournaments.key(tid)) is True
    assert store.results.verify(result_id, b"another key" * 3) is False
    assert store.results.all(tid)[0]["verified"] is True


def test_an_edited_log_no_longer_verifies(store, signed):
    tid, result_id = signed
    row = store.db.conn.execute("SELECT document FROM results WHERE id = ?", (result_id,))
    edited = bytes(row.fetchone()[0]).replace(b'"player":0', b'"player":1', 1)
    store.db.conn.execute("UPDATE results SET document = ? WHERE id = ?", (edited, result_id))
    assert store.results.verify(result_id, store.tournaments.key(tid)) is False
    assert store.results.all(tid)[0]["verified"] is False


def test_an_edited_score_no_longer_verifies(store, signed):
    tid, result_id = signed
    store.db.conn.execute("UPDATE matches SET score2 = 2, winner_id = player2_id "
                       "WHERE code = 'R1-01'")
    assert store.results.verify(result_id, store.tournaments.key(tid)) is False


def test_an_unsigned_result_does_not_verify(store):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [2, 0]), "manual", None, None,
                        None)
    result = store.results.current("R1-01")
    assert result is not None
    assert store.results.verify(result["id"], store.tournaments.key(tid)) is False
    assert store.results.all(tid)[0]["verified"] is None
    assert store.results.verify(12345, b"k") is False


# -- the bracket and the tables as results arrive ----------------------------------------------

def test_bracket_of_5_advances_winners_and_fills_the_tables(store):
    tid = cup(store)
    night.draw_bracket(store, tid)
    night.set_tables(store, tid, 2)
    assert night.assign_free_tables(store, tid) == [("R1-01", 1), ("R2-02", 2)]
    night.record_result(store, "R1-01", log_text(["Dan", "Eve"], [0, 2]), "pk-1", None, None, None)
    assert match(store, tid, "R2-01")["player2"] == "Eve"
    assert [s["match_id"] for s in store.tables.schedule(tid, 1)] == ["R2-01"]  # took over
    night.record_result(store, "R2-02", log_text(["Ben", "Cid"], [2, 1]), "pk-2", None, None, None)
    assert store.tables.schedule(tid, 2) == []  # the final waits for R2-01
    final = match(store, tid, "R3-01")
    assert (final["player1"], final["player2"]) == (None, "Ben")
    night.record_result(store, "R2-01", log_text(["Anna", "Eve"], [2, 0]), "pk-1", None, None, None)
    assert [s["settings"]["players"] for s in store.tables.schedule(tid, 1)] == [["Anna", "Ben"]]
    night.record_result(store, "R3-01", log_text(["Anna", "Ben"], [1, 2]), "pk-1", None, None, None)
    assert match(store, tid, "R3-01")["winner"] == "Ben"
    assert all(m["winner"] for m in store.matches.all(tid))


def test_bracket_of_8_plays_round_by_round(store):
    names = PLAYERS + ["Fay", "Gus", "Hal"]
    tid = cup(store, names)
    assert night.draw_bracket(store, tid) == 7
    night.set_tables(store, tid, 4)
    assert len(night.assign_free_tables(store, tid)) == 4
    for code, pair in (("R1-01", ["Anna", "Hal"]), ("R1-02", ["Dan", "Eve"]),
                       ("R1-03", ["Ben", "Gus"]), ("R1-04", ["Cid", "Fay"])):
        night.record_result(store, code, log_text(pair, [2, 0]), "pk", None, None, None)
    semis = [(m["player1"], m["player2"]) for m in store.matches.all(tid) if m["round"] == 2]
    assert semis == [("Anna", "Dan"), ("Ben", "Cid")]
    # A semi-final is ready when its second quarter-final ends; it stays at that table.
    assert [s["match_id"] for s in store.tables.schedule(tid, 2)] == ["R2-01"]
    assert [s["match_id"] for s in store.tables.schedule(tid, 4)] == ["R2-02"]
    assert store.tables.schedule(tid, 1) == store.tables.schedule(tid, 3) == []


def test_auto_assign_skips_a_match_whose_player_is_still_playing(store):
    tid = cup(store, PLAYERS[:4])
    night.draw_round_robin(store, tid)
    night.set_tables(store, tid, 3)
    first = night.assign_free_tables(store, tid)
    assert first == [("R1-01", 1), ("R1-02", 2)]  # table 3: all four players are busy
    night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [2, 0]), "pk", None, None, None)
    # R2-01 (Cid vs Anna) must wait for Cid at table 2; R2-02 (Dan vs Ben) too: nothing fits.
    assert store.tables.schedule(tid, 1) == []
    night.record_result(store, "R1-02", log_text(["Cid", "Ben"], [2, 0]), "pk", None, None, None)
    assert [s["match_id"] for s in store.tables.schedule(tid, 2)] == ["R2-01"]
    assert [s["match_id"] for s in store.tables.schedule(tid, 1)] == ["R2-02"]
