"""A score typed in by the director from a paper sheet (issue 27 item 5): `pilkku record MATCH
--score A:B --reason TEXT`, a signed director's entry of kind 'hand' followed as any result;
every score checked against the game (a race to 2 is not 3:1, Kaisa's 60 and KaisaKaavio's
'v' for a game decided otherwise); the one parser `pilkku correct --score` uses too."""

from __future__ import annotations

import json

import pytest

from host.tournament import night as ops
from host.tournament.night.scores import read_score
from host.tournament.store import Store, StoreError
from tests.host.test_tournament_cli import PLAYERS_CSV, Director, dump, round_robin


@pytest.fixture
def night(tmp_path, capsys) -> Director:
    """Anna, Ben, Cid, Dan: a 9-ball round robin, race to 2, two tables (R1-01 Anna vs Dan at
    table 1, R1-02 Cid vs Ben at table 2)."""
    return round_robin(Director(tmp_path, capsys), tables=2)


@pytest.fixture
def kaisa(tmp_path, capsys) -> Director:
    """The same four at Kaisa, race to 60."""
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Kaisa-ilta", "--game", "kaisa", "--race", "60")
    pilkku.ok("players", "import", pilkku.file("players.csv", PLAYERS_CSV))
    pilkku.ok("matches", "generate", "--round-robin")
    return pilkku


def match(pilkku: Director, code: str) -> dict:
    with Store.open(pilkku.db) as store:
        return next(m for m in store.matches.all(store.tournaments.get()["id"])
                    if m["code"] == code)


def test_a_score_from_the_sheet_is_a_signed_hand_result_followed_as_any(night):
    out = night.ok("record", "R1-01", "--score", "1:2", "--reason", "board broke, the sheet")
    assert "R1-01: Anna 1 : 2 Dan, Dan wins (typed in by the director" in out
    assert "Table 1: " in out  # the table took its next match
    row = match(night, "R1-01")
    assert (row["winner"], row["score1"], row["score2"]) == ("Dan", 1, 2)
    history = json.loads(night.ok("results", "--history", "--json"))
    assert [(h["match"], h["kind"], h["board"], h["score1"], h["score2"], h["winner"],
             h["verified"], h["reason"]) for h in history] == [
        ("R1-01", "hand", "director", 1, 2, "Dan", True, "board broke, the sheet")]
    with Store.open(night.db) as store:
        document = json.loads(store.results.current("R1-01")["document"])
    assert (document["kind"], document["score"], document["winner"]) == ("hand", [1, 2], 2)
    standing = json.loads(night.ok("standings", "--json"))["standings"]
    assert [(r["player"], r["won"], r["for"]) for r in standing if r["played"]] == [
        ("Dan", 1, 2), ("Anna", 0, 1)]
    # Entered once: the match is decided, and says how to change it.
    code, _, err = night("record", "R1-01", "--score", "2:0", "--reason", "again")
    assert code == 2 and "pilkku correct R1-01" in err


@pytest.mark.parametrize("score, says", [
    ("3:1", "a race to 2 has no score above 2"),
    ("1:1", "a level score needs --winner NAME"),
    ("1:0", "neither reached the race (2): if the match was decided otherwise, mark the "
            "winner with v (1v:0)"),
    ("2:2", "only one player can reach the race (2)"),
    ("2.0:1", "two whole numbers"),
    ("1v:0v", "mark only the winner's score with v"),
    ("abc", "'abc' is not a score"),
])
def test_a_score_the_game_cannot_end_with_is_refused_and_nothing_changes(night, score, says):
    before = dump(night.db)
    code, _, err = night("record", "R1-01", "--score", score, "--reason", "the sheet")
    assert code == 2 and says in err, err
    assert dump(night.db) == before


def test_a_match_decided_otherwise_is_marked_with_v(night):
    night.ok("record", "R1-01", "--score", "1v:0", "--reason", "Dan conceded, ill")
    assert (match(night, "R1-01")["winner"], match(night, "R1-01")["score1"]) == ("Anna", 1)
    code, _, err = night("record", "R1-02", "--score", "1v:0", "--winner", "Ben",
                         "--reason", "x")
    assert code == 2 and "marks player 1 as the winner, --winner names player 2" in err
    night.ok("record", "R1-02", "--score", "1:1", "--winner", "Ben", "--reason", "time ran out")
    assert match(night, "R1-02")["winner"] == "Ben"


def test_record_says_what_it_needs(night):
    code, _, err = night("record", "R1-01")
    assert code == 2 and "pilkku record R1-01 --score A:B --reason TEXT" in err
    code, _, err = night("record", "R1-01", "--score", "2:1")
    assert code == 2 and "needs --reason" in err
    code, _, err = night("record", "R1-01", "--score", "2:1", "--reason", "   ")
    assert code == 2 and "say why with --reason" in err


@pytest.mark.parametrize("typed, slot, score", [
    ("45v-35", 1, (45, 35)), ("45v:35", 1, (45, 35)), ("35-45v", 2, (35, 45)),
    ("60-12", 1, (60, 12)), ("12:60", 2, (12, 60)), ("60:60", None, None),
])
def test_kaisa_takes_kaisakaavios_v_and_the_recorded_60(kaisa, typed, slot, score):
    if slot is None:  # both at 60: the winner had more, named
        kaisa.ok("record", "R1-01", "--score", typed, "--winner", "Dan", "--reason", "sheet")
        assert match(kaisa, "R1-01")["winner"] == "Dan"
        return
    out = kaisa.ok("record", "R1-01", "--score", typed, "--reason", "the sheet")
    row = match(kaisa, "R1-01")
    assert (row["score1"], row["score2"], row["winner"]) == (*score, ["Anna", "Dan"][slot - 1])
    assert "%d : %d" % score in out


@pytest.mark.parametrize("typed, says", [
    ("45-35", "neither reached 60: if the game was decided otherwise (a concession, time), "
              "mark the winner with v, e.g. 45v:35"),
    ("66:9", "Kaisa records the winner's 60 (the points played past it are not counted): "
             "type 60:9"),
    ("65v:61", "Kaisa records the loser's points at most 60"),
])
def test_kaisa_refuses_a_score_it_cannot_record(kaisa, typed, says):
    code, _, err = kaisa("record", "R1-01", "--score", typed, "--reason", "the sheet")
    assert code == 2 and says in err, err


def test_correct_reads_the_score_the_same_way(kaisa):
    kaisa.ok("record", "R1-01", "--score", "60:12", "--reason", "the sheet")
    code, _, err = kaisa("correct", "R1-01", "--score", "45-35", "--reason", "x")
    assert code == 2 and "mark the winner with v" in err
    out = kaisa.ok("correct", "R1-01", "--score", "35-45v", "--reason", "Anna conceded")
    assert "Anna 35 : 45 Dan, Dan wins" in out


def test_read_score():
    assert read_score("5:3") == (5, 3, 0)
    assert read_score(" 45 v - 35 ") == (45, 35, 1)
    assert read_score("-3:100") == (-3, 100, 0)  # 14.1's penalties
    assert read_score("35\u201345V") == (35, 45, 2)
    assert read_score((2, 1)) == (2, 1, 0)
    for bad in ("5", "5:3:1", "12345:1", "", "5;3", (1, 2, 3), (1.0, 2)):
        with pytest.raises(StoreError):
            read_score(bad)  # type: ignore[arg-type]


def test_a_hand_result_settles_nothing_else_and_a_straight_race_may_pass(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        tid = ops.new_tournament(store, "Straight", "14.1", 50)
        ops.import_players(store, tid, [(1, "A", ""), (2, "B", "")])
        ops.draw_round_robin(store, tid)
        code = store.matches.all(tid)[0]["code"]
        with pytest.raises(StoreError, match="ends at most at 64"):
            ops.record_hand(store, tid, code, "70:3", "sheet")
        ops.record_hand(store, tid, code, "-4:53", "sheet")
        assert store.matches.get(tid, code)["score1"] == -4
