"""The director's commands through `pilkku` (host.cli.main) on real SQLite files: imports that
are all-or-nothing, draws, assignment, results and standings as text, CSV and JSON."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import sqlite3
from pathlib import Path

import pytest

from host import cli
from host.tournament import night
from host.tournament.store import Store
from rules_core import matchlog
from rules_core.match import Match

PLAYERS_CSV = "name,club\nAnna,BK Kuopio\nBen,BK Kuopio\nCid,\nDan,Espoo\n"


def log_text(players, score, race=2) -> str:
    """A real 9-ball match log; every rack given by a concession, the loser's racks first."""
    match = Match({"game": "9ball", "players": list(players), "race_to": race})
    match.apply({"t": "lag", "winner": 0})
    match.apply({"t": "choose", "choice": "break", "breaker": 0})
    winner = 0 if score[0] > score[1] else 1
    for player in [1 - winner] * score[1 - winner] + [winner] * score[winner]:
        match.apply({"t": "concede", "player": 1 - player})
    return matchlog.dumps(match, {})


def dump(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return "\n".join(conn.iterdump())
    finally:
        conn.close()


class Director:
    """Runs `pilkku ... --db` in a tmp folder and keeps what it printed."""

    def __init__(self, folder: Path, capsys):
        self.folder = folder
        self.db = folder / "pilkku.db"
        self.capsys = capsys

    def __call__(self, *args: str) -> tuple[int, str, str]:
        code = cli.main(list(args) + ["--db", str(self.db)])
        out, err = self.capsys.readouterr()
        return code, out, err

    def ok(self, *args: str) -> str:
        code, out, err = self(*args)
        assert code == 0, err
        return out

    def file(self, name: str, text: str | bytes) -> str:
        path = self.folder / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return str(path)

    def record(self, code: str, players, score, signed=True) -> None:
        """A board's result, as `pilkku sync` will hand it to the store."""
        text = log_text(players, score)
        with Store.open(self.db) as store:
            key = store.tournaments.key(store.tournaments.get()["id"])
            mac = hmac.new(key, text.encode(), hashlib.sha256).hexdigest() if signed else None
            assert night.record_result(store, code, text, "pk-%s" % code, mac, 1000, 2000)


def round_robin(pilkku: Director, tables: int = 0) -> Director:
    """Club Night: Anna, Ben, Cid and Dan (PLAYERS_CSV), a 9-ball round robin, race to 2,
    drawn: where the corrections' tests begin. With `tables`, that many tables set and
    round 1's first matches assigned to them (assign --auto)."""
    pilkku.ok("tournament", "new", "Club Night", "--game", "9ball", "--race", "2")
    pilkku.ok("players", "import", pilkku.file("players.csv", PLAYERS_CSV))
    pilkku.ok("matches", "generate", "--round-robin")
    if tables:
        pilkku.ok("tables", str(tables))
        pilkku.ok("assign", "--auto")
    return pilkku


@pytest.fixture
def pilkku(tmp_path, capsys) -> Director:
    return Director(tmp_path, capsys)


@pytest.fixture
def with_players(pilkku) -> Director:
    pilkku.ok("tournament", "new", "Club Night", "--game", "9ball", "--race", "2")
    pilkku.ok("players", "import", pilkku.file("players.csv", PLAYERS_CSV))
    return pilkku


def test_a_new_tournament_says_what_to_do_next(pilkku):
    out = pilkku.ok("tournament", "new", "Club Night", "--game", "9ball", "--race", "5",
                    "--rule", "break_rule=alternate")
    assert "Club Night': 9-ball, race to 5" in out and "players import" in out
    out = pilkku.ok("tournament", "list")
    assert "*  Club Night  9-ball" in out


def test_commands_without_a_tournament_say_how_to_start(pilkku):
    code, _, err = pilkku("players", "list")
    assert code == 2 and "pilkku tournament new" in err


def test_a_bad_rule_is_refused(pilkku):
    code, _, err = pilkku("tournament", "new", "X", "--game", "9ball", "--race", "5",
                          "--rule", "break_rule=never")
    assert code == 2 and "break_rule" in err


def test_players_import_and_list(with_players):
    out = with_players.ok("players", "list", "--csv")
    assert list(csv.reader(io.StringIO(out)))[1:] == [
        ["1", "Anna", "BK Kuopio"], ["2", "Ben", "BK Kuopio"], ["3", "Cid", ""],
        ["4", "Dan", "Espoo"]]
    # the options may also come before the action
    out = with_players.ok("players", "--db", str(with_players.db), "--json")
    assert [p["name"] for p in json.loads(out)] == ["Anna", "Ben", "Cid", "Dan"]


@pytest.mark.parametrize("text, says", [
    ("", "line 1: the file has no names in it"),
    ("a,b,c\nd,e,f\n", "line 1: 3 columns and no header naming the name column"),
    ("name,club\n", "line 2: no names after the header"),
    ("name,club\nEve,X\nFay,X,extra\n", "line 3: 3 fields, the header has 2"),
    ("name,club\nEve,X\nAnna,BK\n", "line 3: player 'Anna' is listed twice"),
    ("name,club\nEve,X\nEve,Y\n", "line 3: player 'Eve' is listed twice"),
    ("name,club\nEve,X\n,Y\n", "line 3: a player needs a name"),
    ("name\nEve\n" + "X" * 41 + "\n", "line 3: the name 'XXX"),
    ('name,club\nEve,X\n"Fay,Y\n', "line 3: not valid CSV"),
    (b"name,club\nEve,X\nJ\x81rvi,Y\n", "line 3: neither UTF-8 nor Windows-1252"),
])
def test_a_bad_players_file_is_refused_whole(with_players, text, says):
    before = dump(with_players.db)
    code, out, err = with_players("players", "import", with_players.file("bad.csv", text))
    assert code == 2, out
    assert "refused, nothing was changed" in err and says in err
    assert dump(with_players.db) == before


def test_the_import_says_how_it_read_the_file(with_players):
    """What Finnish Excel saves is taken, and the director is told how it was read."""
    data = "nimi;seura\nEeva Äijälä;BK Oulu\n".encode("cp1252")
    out = with_players.ok("players", "import", with_players.file("lisää.csv", data))
    assert "read as Windows-1252, separated by ';', header nimi;seura" in out
    assert "Eeva Äijälä" in with_players.ok("players", "list", "--csv")


def test_every_bad_line_is_named(with_players):
    text = "name,club\nEve,X\nAnna,\nFay,Y\nEve,Z\n"
    code, _, err = with_players("players", "import", with_players.file("bad.csv", text))
    assert code == 2
    assert "line 3: player 'Anna'" in err and "line 5: player 'Eve'" in err


MATCHES_CSV = "id,player1,player2,round,table\nM1,Anna,Ben,1,1\nM2,Cid,Dan,1,2\nM3,Anna,Cid,2,\n"


def test_matches_import_queues_matches_at_their_tables(with_players):
    out = with_players.ok("matches", "import", with_players.file("m.csv", MATCHES_CSV))
    assert "3 matches added" in out
    rows = json.loads(with_players.ok("matches", "--json"))
    assert [(r["match"], r["table"], r["status"]) for r in rows] == [
        ("M1", 1, "next at table 1, not started"), ("M2", 2, "next at table 2, not started"),
        ("M3", None, "waiting")]
    out = with_players.ok("tables")
    assert "1  M1 Anna vs Ben" in out


@pytest.mark.parametrize("text, says", [
    ("id,player1\nM9,Anna\n", "line 1: the header must be id,player1,player2[,round][,table]"),
    ("id,player1,player2\nM9,Anna,Eve\n", "line 2: unknown player 'Eve'"),
    ("id,player1,player2\nM9,Anna,Ben\nM9,Cid,Dan\n", "line 3: match id 'M9' is used twice"),
    ("id,player1,player2\nM1,Cid,Dan\n", "line 2: match id 'M1' is used twice"),
    ("id,player1,player2,round\nM9,Ben,Anna,1\n", "line 2: duplicate match: Ben vs Anna"),
    ("id,player1,player2\nM9,Anna,Anna\n", "line 2: 'Anna' cannot play themself"),
    ("id,player1,player2,round\nM9,Anna,Dan,first\n", "line 2: round must be a whole number"),
    ("id,player1,player2,table\nM9,Anna,Dan,0\n", "line 2: table must be a whole number"),
    ("id,player1,player2\nM9,Anna,Dan\nM10,Ben\n", "line 3: 2 fields, the header has 3"),
    ("id,player1,player2\n,Anna,Dan\n", "line 2: a match needs an id"),
    ("id,player1,player2,round\nM9,Anna,Dan,1180591620717411303424\n",
     "line 2: round must be a whole number"),
    ("id,player1,player2,table\nM9,Anna,Dan,%d\n" % 2**63, "line 2: table must be a whole"),
    ("id,player1,player2,table\nM9,Anna,Dan,\u00b2\n", "line 2: table must be a whole number"),
])
def test_a_bad_matches_file_is_refused_whole(with_players, text, says):
    with_players.ok("matches", "import", with_players.file("m.csv", MATCHES_CSV))
    before = dump(with_players.db)
    code, _, err = with_players("matches", "import", with_players.file("bad.csv", text))
    assert code == 2 and says in err, err
    assert dump(with_players.db) == before


def test_a_draw_is_made_once(with_players):
    with_players.ok("matches", "generate", "--round-robin")
    before = dump(with_players.db)
    code, _, err = with_players("matches", "generate", "--bracket")
    assert code == 2 and "has matches already" in err
    code, _, err = with_players("players", "import", with_players.file("p.csv", "name\nEve\n"))
    assert code == 2 and "round robin is drawn already" in err
    assert dump(with_players.db) == before


def test_round_robin_from_draw_to_standings(with_players):
    pilkku = with_players
    assert "6 matches" in pilkku.ok("matches", "generate", "--round-robin")
    assert pilkku.ok("tables", "2").startswith("Tables: 1, 2.")
    out = pilkku.ok("assign", "--auto")
    assert out.splitlines() == ["R1-01 Anna vs Dan at table 1.", "R1-02 Cid vs Ben at table 2."]
    results = {"R1-01": (["Anna", "Dan"], [2, 1]), "R1-02": (["Cid", "Ben"], [0, 2]),
               "R2-01": (["Cid", "Anna"], [2, 0]), "R2-02": (["Dan", "Ben"], [2, 1]),
               "R3-01": (["Anna", "Ben"], [2, 0]), "R3-02": (["Dan", "Cid"], [2, 1])}
    for code, (players, score) in results.items():
        pilkku.record(code, players, score)
    out = pilkku.ok("tables")
    assert "free" in out
    standings = json.loads(pilkku.ok("standings", "--json"))
    assert standings["unit"] == "racks"
    rows = [(r["place"], r["player"], r["played"], r["won"], r["lost"], r["for"], r["against"],
             r["difference"]) for r in standings["standings"]]
    # Anna, Dan: two wins, +1 each; Anna beat Dan. Ben, Cid: one win, -1 each; Ben beat Cid.
    assert rows == [(1, "Anna", 3, 2, 1, 4, 3, 1), (2, "Dan", 3, 2, 1, 5, 4, 1),
                    (3, "Ben", 3, 1, 2, 3, 4, -1), (4, "Cid", 3, 1, 2, 3, 4, -1)]
    text = pilkku.ok("standings")
    assert "Final ranking:\nplace  player  played  won  lost  racks for  against  diff" in text
    assert list(csv.reader(io.StringIO(pilkku.ok("standings", "--csv"))))[1] == [
        "1", "Anna", "3", "2", "1", "4", "3", "1", "", "False"]
    out = pilkku.ok("results")
    assert "R1-01      1      1  Anna     2:1    Dan      Anna    pk-R1-01  ok" in out
    results_json = json.loads(pilkku.ok("results", "--json"))
    assert len(results_json) == 6 and all(r["verified"] for r in results_json)


def test_an_edited_result_shows_as_failed(with_players):
    with_players.ok("matches", "generate", "--round-robin")
    with_players.record("R1-01", ["Anna", "Dan"], [2, 1])
    conn = sqlite3.connect(with_players.db)
    conn.execute("UPDATE matches SET score2 = 2, winner_id = player2_id WHERE code = 'R1-01'")
    conn.commit()
    conn.close()
    code, out, _err = with_players("results")
    assert code == 1  # a problem shown is a non-zero exit
    assert ("FAILED: match R1-01: its result (from pk-R1-01) does not verify: the log, the "
            "score, the winner or the match was changed in the store after it was signed; "
            "not counted") in out


def test_bracket_of_5_by_hand(pilkku):
    pilkku.ok("tournament", "new", "Cup", "--game", "9ball", "--race", "2")
    pilkku.ok("players", "import", pilkku.file("p.csv", "name\nAnna\nBen\nCid\nDan\nEve\n"))
    assert "4 matches" in pilkku.ok("matches", "generate", "--bracket")
    code, _, err = pilkku("assign", "R2-01", "1")
    assert code == 2 and "when both players are known" in err
    assert pilkku.ok("assign", "R1-01", "1") == "R1-01 Dan vs Eve at table 1 plays now.\n"
    assert "is 2nd in the queue" in pilkku.ok("assign", "R2-02", "1")
    out = pilkku.ok("record", "R1-01", pilkku.file("r1.json", log_text(["Dan", "Eve"], [1, 2])))
    assert out.splitlines() == [
        "R1-01: Dan 1 : 2 Eve, Eve wins (entered by hand, signed by the director).",
        "Table 1: R2-02 Ben vs Cid."]
    assert "has this result already" in pilkku.ok("record", "R1-01",
                                                  str(pilkku.folder / "r1.json"))
    text = pilkku.ok("standings")
    assert "R2-01  Anna (bye)         Eve" in text and "Champion: to be decided" in text
    pilkku.ok("record", "R2-02", pilkku.file("r2.json", log_text(["Ben", "Cid"], [2, 0])))
    pilkku.ok("record", "R2-01", pilkku.file("r3.json", log_text(["Anna", "Eve"], [2, 0])))
    pilkku.ok("record", "R3-01", pilkku.file("r4.json", log_text(["Anna", "Ben"], [2, 1])))
    bracket = json.loads(pilkku.ok("standings", "--json"))
    assert bracket["winner"] == "Anna"
    assert [[m["match"] for m in r["matches"]] for r in bracket["rounds"]] == [
        ["R1-01"], ["R2-01", "R2-02"], ["R3-01"]]
    assert [r["stage"] for r in bracket["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    assert "Champion: Anna" in pilkku.ok("standings")


def test_record_refuses_a_log_naming_other_players(with_players):
    with_players.ok("matches", "generate", "--round-robin")
    before = dump(with_players.db)
    code, _, err = with_players("record", "R1-01",
                                with_players.file("x.json", log_text(["Ben", "Cid"], [2, 0])))
    assert code == 2 and "names Ben and Cid; match R1-01 is Anna vs Dan" in err
    assert dump(with_players.db) == before


def test_tournament_option_picks_an_older_tournament(with_players):
    with_players.ok("tournament", "new", "Later", "--game", "8ball", "--race", "3")
    assert with_players.ok("players", "list").count("\n") == 2  # header and rule only
    out = with_players.ok("players", "list", "--tournament", "Club Night")
    assert "Anna" in out


@pytest.mark.parametrize("command", [
    ["tournament", "new"], ["tournament", "list"], ["players"], ["players", "import"],
    ["matches"], ["matches", "import"], ["matches", "generate"], ["tables"], ["assign"],
    ["record"], ["results"], ["standings"]])
def test_every_command_has_help(capsys, command):
    with pytest.raises(SystemExit) as done:
        cli.main(command + ["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "usage: pilkku " + " ".join(command) in out and "--db PATH" in out
