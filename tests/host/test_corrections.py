"""The director corrects the night through `pilkku` on a real SQLite store: a replaced result (the
old one kept and shown by --history, the new one signed), walkovers, withdrawals by format, a
renamed player, a removed table; standings count only results that verify."""

from __future__ import annotations

import json
import sqlite3

import pytest

from host import cli
from host.tournament import night as ops
from host.tournament.store import Store, schema
from host.tournament.store.db import Database
from tests.host.test_tournament_cli import Director, dump, log_text, round_robin


@pytest.fixture
def night(tmp_path, capsys) -> Director:
    """Anna, Ben, Cid, Dan: a 9-ball round robin, race to 2, two tables."""
    return round_robin(Director(tmp_path, capsys), tables=2)


def match(pilkku: Director, code: str) -> dict:
    return next(m for m in json.loads(pilkku.ok("matches", "--json")) if m["match"] == code)


def standings(pilkku: Director) -> dict:
    """`standings --json`, whose exit says whether it names problems (1) or not (0)."""
    code, out, _err = pilkku("standings", "--json")
    document = json.loads(out)
    assert code == (1 if document["problems"] else 0)
    return document


def test_a_replaced_result_keeps_the_old_one_and_signs_the_new(night):
    night.record("R1-01", ["Anna", "Dan"], [2, 1])  # the referee gave Anna the match
    original = log_text(["Anna", "Dan"], [2, 1])
    out = night.ok("correct", "R1-01", "--score", "1:2", "--reason", "wrong player conceded")
    assert "R1-01 corrected: Anna 1 : 2 Dan, Dan wins" in out
    assert match(night, "R1-01")["status"] == "won by Dan 2:1"
    history = json.loads(night.ok("results", "--history", "--json"))
    assert [(h["kind"], h["board"], h["score1"], h["score2"], h["winner"], h["verified"])
            for h in history] == [("board", "pk-R1-01", 2, 1, "Anna", True),
                                  ("correction", "director", 1, 2, "Dan", True)]
    assert history[0]["replaced_by"] == history[1]["result"] and history[1]["replaced_by"] is None
    text = night.ok("results", "--history")
    assert "replaced by #%d" % history[1]["result"] in text and "wrong player conceded" in text
    results = json.loads(night.ok("results", "--json"))
    assert [(r["match"], r["winner"], r["verified"]) for r in results] == [("R1-01", "Dan", True)]
    rows = {r["player"]: (r["won"], r["lost"]) for r in standings(night)["standings"]}
    assert rows["Dan"] == (1, 0) and rows["Anna"] == (0, 1)
    with Store.open(night.db) as store:  # the board sends its log again (its ack was lost)
        assert ops.record_result(store, "R1-01", original, "pk-R1-01", "00", 1, 2) is False
    assert len(json.loads(night.ok("results", "--history", "--json"))) == 2


def test_a_correction_by_log_is_checked_like_any_log(night):
    night.record("R1-02", ["Cid", "Ben"], [0, 2])
    before = dump(night.db)
    code, _, err = night("correct", "R1-02", "--log",
                         night.file("x.json", log_text(["Anna", "Ben"], [2, 0])), "--reason", "x")
    assert code == 2 and "names Anna and Ben; match R1-02 is Cid vs Ben" in err
    code, _, err = night("correct", "R1-03", "--score", "2:0", "--reason", "x")
    assert code == 2 and "no match 'R1-03'" in err
    code, _, err = night("correct", "R2-01", "--score", "2:0", "--reason", "x")
    assert code == 2 and "has no result to replace" in err
    code, _, err = night("correct", "R1-02", "--score", "1:1", "--reason", "x")
    assert code == 2 and "level score needs --winner" in err
    code, _, err = night("correct", "R1-02", "--score", "2.0:1", "--reason", "x")
    assert code == 2 and "two whole numbers" in err
    assert dump(night.db) == before
    out = night.ok("correct", "R1-02", "--log",
                   night.file("c.json", log_text(["Ben", "Cid"], [2, 1])), "--reason", "rack 3")
    assert "Cid 1 : 2 Ben, Ben wins" in out
    assert json.loads(night.ok("results", "--json"))[0]["verified"] is True


def test_a_walkover_credits_the_race(night):
    assert "Dan wins by walkover (0 : 2)" in night.ok("walkover", "R1-01", "Dan",
                                                      "--reason", "Anna did not come")
    code, _, err = night("walkover", "R1-01", "Anna", "--reason", "again")
    assert code == 2 and "finished already" in err and "pilkku correct R1-01" in err
    code, _, err = night("walkover", "R1-02", "Anna", "--reason", "x")
    assert code == 2 and "Anna does not play match R1-02" in err
    code, _, err = night("walkover", "R1-02", "Ben", "--reason", "")
    assert code == 2 and "--reason" in err
    result = json.loads(night.ok("results", "--json"))[0]
    assert (result["winner"], result["board"], result["kind"], result["verified"]) == (
        "Dan", "director", "walkover", True)
    # Table 1 freed by the walkover takes the next match whose players are free.
    assert "R1-01" not in night.ok("tables")


def test_a_withdrawal_in_a_round_robin_walks_over_the_remaining_matches(night):
    night.record("R1-01", ["Anna", "Dan"], [2, 1])
    out = night.ok("withdraw", "Anna", "--reason", "ill")
    anna = [m for m in json.loads(night.ok("matches", "--json"))
            if "Anna" in (m["player1"], m["player2"])]
    assert out.startswith("Anna has withdrawn. Walkovers: ")
    assert sorted(m["match"] for m in anna if m["match"] in out) == sorted(
        m["match"] for m in anna if m["match"] != "R1-01")
    assert match(night, "R1-01")["status"] == "won by Anna 2:1"  # her result stands
    assert all(m["status"].startswith("won by") and "Anna" not in m["status"]
               for m in anna if m["match"] != "R1-01")
    rows = {r["player"]: (r["played"], r["won"]) for r in standings(night)["standings"]}
    assert rows["Anna"] == (3, 1)
    code, _, err = night("withdraw", "Anna", "--reason", "again")
    assert code == 2 and "withdrew already" in err


def test_a_withdrawal_in_a_bracket_waits_for_the_next_opponent(tmp_path, capsys):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Cup", "--game", "9ball", "--race", "2")
    pilkku.ok("players", "import", pilkku.file("p.csv", "name\nAnna\nBen\nCid\nDan\nEve\n"))
    pilkku.ok("matches", "generate", "--bracket")  # R1-01 Dan-Eve; R2-01 Anna vs its winner
    out = pilkku.ok("withdraw", "Anna", "--reason", "left early")
    assert "No match is decided by it now" in out
    pilkku.ok("record", "R1-01", pilkku.file("r1.json", log_text(["Dan", "Eve"], [1, 2])))
    r2 = match(pilkku, "R2-01")
    assert r2["status"] == "won by Eve 2:0"  # Eve arrived and won by walkover at once
    assert match(pilkku, "R3-01")["player1"] == "Eve"
    # Correcting R1-01 now changes who plays R2-01, decided already: it can only be voided,
    # and the new R2-01 is Dan's, by walkover too (night/linked.py).
    code, _, err = pilkku("correct", "R1-01", "--score", "2:1", "--reason", "x")
    assert code == 2 and "--played void" in err and "R2-01" in err
    pilkku.ok("correct", "R1-01", "--score", "2:1", "--reason", "x", "--played", "void",
              "--yes")
    assert match(pilkku, "R2-01v1")["status"].startswith("void")
    assert match(pilkku, "R2-01")["status"] == "won by Dan 2:0"
    assert match(pilkku, "R3-01")["player1"] == "Dan"


def test_a_bracket_correction_moves_the_winner_on(tmp_path, capsys):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Cup", "--game", "9ball", "--race", "2")
    pilkku.ok("players", "import", pilkku.file("p.csv", "name\nAnna\nBen\nCid\nDan\nEve\n"))
    pilkku.ok("matches", "generate", "--bracket")
    pilkku.ok("record", "R1-01", pilkku.file("r1.json", log_text(["Dan", "Eve"], [1, 2])))
    assert match(pilkku, "R2-01")["player2"] == "Eve"
    pilkku.ok("correct", "R1-01", "--score", "2:1", "--reason", "scores swapped", "--yes")
    assert match(pilkku, "R2-01")["player2"] == "Dan"


def test_a_renamed_player_keeps_the_logs_naming_the_old_name(night):
    night.ok("players", "rename", "Dan", "Dan Dahl")
    night.record("R1-01", ["Anna", "Dan"], [2, 1])  # a board still held the old name
    assert match(night, "R1-01")["player2"] == "Dan Dahl"
    results = json.loads(night.ok("results", "--json"))
    assert results[0]["verified"] is True and results[0]["player2"] == "Dan Dahl"
    code, _, err = night("players", "rename", "Ben", "Dan")  # Dan was a name: still ambiguous
    assert code == 2 and "another player" in err
    code, _, err = night("players", "rename", "Ben", "Ben\x1b[2J")
    assert code == 2 and "control character" in err


def test_names_with_control_characters_are_refused_at_import(tmp_path, capsys):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "X", "--game", "9ball", "--race", "2")
    before = dump(pilkku.db)
    code, _, err = pilkku("players", "import",
                          pilkku.file("p.csv", "name\nÄijälä\nBe\x07n\nCid\ttab\n"))
    assert code == 2 and "line 3: the name 'Be\\x07n' has a control character (U+0007)" in err
    assert "line 4:" in err and "line 2" not in err
    assert dump(pilkku.db) == before


def test_a_removed_table_gives_its_queue_away_and_can_come_back(night):
    night.ok("assign", "R2-01", "2")
    with Store.open(night.db) as store:
        tid = store.tournaments.get()["id"]
        store.boards.note(tid, "pk-2", 2)
    out = night.ok("tables", "--remove", "2")
    assert "Table 2 removed; its queue (R1-02, R2-01) goes to the other tables" in out
    with Store.open(night.db) as store:
        assert store.tables.numbers(tid) == [1]
        assert store.boards.holder(tid, 2) is None
        assert [m["table"] for m in store.matches.all(tid) if m["code"] == "R1-02"] == [None]
    code, _, err = night("tables", "--remove", "2")
    assert code == 2 and "there is no table 2 (tables: 1)" in err
    night.ok("tables", "2")
    with Store.open(night.db) as store:
        assert store.tables.numbers(tid) == [1, 2]


def test_standings_count_only_results_that_verify(night):
    night.record("R1-01", ["Anna", "Dan"], [2, 1])
    night.record("R1-02", ["Cid", "Ben"], [0, 2])
    conn = sqlite3.connect(night.db)
    conn.execute("UPDATE matches SET score1 = 2, score2 = 0, winner_id = player1_id "
                 "WHERE code = 'R1-02'")  # someone made Cid the winner in the file
    conn.commit()
    conn.close()
    night.record("R2-01", ["Cid", "Anna"], [2, 0], signed=False)  # as an older pilkku kept it
    table = standings(night)
    rows = {r["player"]: (r["played"], r["won"]) for r in table["standings"]}
    assert rows == {"Anna": (1, 1), "Dan": (1, 0), "Cid": (0, 0), "Ben": (0, 0)}
    assert table["not_counted"] == [{"match": "R1-02", "board": "pk-R1-02", "check": "FAILED"},
                                    {"match": "R2-01", "board": "pk-R2-01", "check": "unsigned"}]
    code, out, _err = night("standings")
    assert code == 1 and "Not counted: R1-02 (from pk-R1-02), its result is FAILED" in out
    assert "FAILED: match R2-01: its result (from pk-R2-01) is not signed: not counted" in out
    night.ok("correct", "R1-02", "--score", "0:2", "--reason", "the file was edited")
    assert [r["match"] for r in standings(night)["not_counted"]] == ["R2-01"]
    night.ok("correct", "R2-01", "--score", "2:0", "--reason", "entered unsigned")
    assert standings(night)["problems"] == [] and night("standings")[0] == 0


def test_db_and_tournament_go_before_or_after_the_command(night, capsys):
    db = str(night.db)
    night.ok("tournament", "new", "Later", "--game", "8ball", "--race", "3")
    outputs = []
    for args in (["--db", db, "--tournament", "Club Night", "players", "list"],
                 ["players", "list", "--db", db, "--tournament", "Club Night"],
                 ["--tournament", "Club Night", "players", "--db", db, "list"],
                 ["--db", db, "players", "list", "--tournament", "Club Night"]):
        assert cli.main(args) == 0
        outputs.append(capsys.readouterr().out)
    assert "Anna" in outputs[0] and len(set(outputs)) == 1


def test_a_v2_store_is_upgraded_keeping_its_results(tmp_path):
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.row_factory = sqlite3.Row
    assert schema.migrate(conn, target=2) == 2
    old = Store(Database(conn, db))
    tid = ops.new_tournament(old, "Cup", "9ball", 2)
    ops.import_players(old, tid, [(2, "Anna", ""), (3, "Ben", "")])
    ops.draw_round_robin(old, tid)
    conn.execute("INSERT INTO results (match_id, document, board_id, hmac, received) "
                 "VALUES (1, ?, 'pk-1', NULL, 'then')",
                 (log_text(["Anna", "Ben"], [2, 0]).encode(),))
    old.close()
    with Store.open(db) as store:
        assert schema.schema_version(store.db.conn) >= 3
        result = store.results.current("R1-01", tid)
        assert result is not None and (result["kind"], result["board_id"]) == ("manual", "pk-1")
