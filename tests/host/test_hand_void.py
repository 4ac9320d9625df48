"""A match void (it did not count) or lost by both (neither came), as KaisaKaavio has them
(issue 27 item 5): `pilkku void MATCH` and `pilkku both-lose MATCH`, signed director's entries
that set matches.outcome. A round robin leaves a void out of its table and counts both-lose
as a loss to each; a hakukaavio takes a void game out of the draw (the draw runs again) and
both-lose as a loss to each; a bracket or a double refuses either, naming the walkover."""

from __future__ import annotations

import json

import pytest

from host.tournament import night as ops
from host.tournament.store import Store, StoreError
from host.tournament.store.results import sign
from tests.host.test_formats_store import NAMES, log_text, start
from tests.host.test_tournament_cli import PLAYERS_CSV, Director, dump, round_robin


@pytest.fixture
def night(tmp_path, capsys) -> Director:
    """A 9-ball round robin, race to 2: R1-01 Anna vs Dan, R1-02 Cid vs Ben, ..."""
    return round_robin(Director(tmp_path, capsys), tables=2)


def rows(pilkku: Director) -> dict:
    with Store.open(pilkku.db) as store:
        return {m["code"]: m for m in store.matches.all(store.tournaments.get()["id"])}


def test_a_void_round_robin_match_is_left_out_and_both_lose_is_a_loss_to_each(night):
    out = night.ok("void", "R1-01", "--reason", "played under the wrong rules")
    assert out.startswith("R1-01: Anna vs Dan is void (result #1, signed by the director): "
                          "it does not count.")
    assert "Table 1: R2-01 next." in out or "Table 1: " in out
    out = night.ok("both-lose", "R1-02", "--reason", "neither came")
    assert "R1-02: Cid vs Ben is lost by both" in out and "a loss to each, no points" in out
    matches = rows(night)
    assert (matches["R1-01"]["outcome"], matches["R1-01"]["winner"]) == ("void", None)
    assert (matches["R1-02"]["outcome"], matches["R1-02"]["table"]) == ("both_lose", 2)
    history = json.loads(night.ok("results", "--history", "--json"))
    assert [(h["match"], h["kind"], h["board"], h["winner"], h["score1"], h["verified"])
            for h in history] == [("R1-01", "void", "director", None, None, True),
                                  ("R1-02", "both_lose", "director", None, None, True)]
    code, _, _ = night("results")
    assert code == 0  # both verify: nothing wrong with the store
    table = {r["player"]: (r["played"], r["won"], r["lost"], r["for"], r["against"])
             for r in json.loads(night.ok("standings", "--json"))["standings"]}
    assert table["Anna"] == (0, 0, 0, 0, 0) and table["Dan"] == (0, 0, 0, 0, 0)
    assert table["Cid"] == (1, 0, 1, 0, 0) and table["Ben"] == (1, 0, 1, 0, 0)
    # An edit of the store shows: the match made to have a winner again.
    with Store.open(night.db) as store:
        store.db.conn.execute("UPDATE matches SET outcome = NULL WHERE code = 'R1-01'")
    code, out, _ = night("results")
    assert code == 1 and "R1-01" in out


def test_a_decided_match_made_void_keeps_its_result_in_the_history(night):
    night.ok("record", "R1-01", "--score", "2:1", "--reason", "the sheet")
    night.ok("void", "R1-01", "--reason", "Dan played in Anna's place")
    history = json.loads(night.ok("results", "--history", "--json"))
    assert [(h["kind"], h["replaced_by"]) for h in history] == [("hand", 2), ("void", None)]
    assert rows(night)["R1-01"]["winner"] is None
    code, _, err = night("void", "R1-01", "--reason", "again")
    assert code == 2 and "R1-01 is void already" in err


@pytest.mark.parametrize("fmt", ["bracket", "double"])
def test_a_bracket_or_a_double_refuses_naming_the_walkover(tmp_path, capsys, fmt):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Cup", "--game", "9ball", "--race", "2",
              *(["--format", "double"] if fmt == "double" else []))
    pilkku.ok("players", "import", pilkku.file("players.csv", PLAYERS_CSV))
    pilkku.ok("matches", "generate", *(["--bracket"] if fmt == "bracket" else []))
    first = next(iter(rows(pilkku).values()))
    before = dump(pilkku.db)
    for command in ("void", "both-lose"):
        code, _, err = pilkku(command, first["code"], "--reason", "x")
        assert code == 2
        assert "someone must go on" in err
        assert "give it to one of them: pilkku walkover %s \"%s\" --reason TEXT" % (
            first["code"], first["player1"]) in err
    assert dump(pilkku.db) == before


def hakukaavio(tmp_path, capsys, count=8) -> str:
    return start(tmp_path, capsys, count, "--format", "hakukaavio")


def enter(store: Store, tid: int, code: str, first_wins: bool = True) -> None:
    m = store.matches.get(tid, code)
    names = store.players.names(m)
    text = log_text(names, [2, 1] if first_wins else [1, 2])
    ops.record_result(store, code, text, "manual", sign(store.tournaments.key(tid),
                                                        text.encode()), None, None,
                      tournament_id=tid, kind="manual")


def test_a_hakukaavio_game_void_is_drawn_again_and_both_lose_is_two_losses(tmp_path, capsys):
    db = hakukaavio(tmp_path, capsys)
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        first = store.matches.all(tid)[0]
        pair = {first["player1_id"], first["player2_id"]}
        done = ops.no_winner(store, tid, first["code"], "void", "wrong players at the table")
        assert done["kind"] == "void"
        again = [m for m in store.matches.all(tid) if m["code"] != first["code"]
                 and {m["player1_id"], m["player2_id"]} == pair]
        assert len(again) == 1 and again[0]["winner_id"] is None  # to be played, new code
        assert again[0]["round"] == first["round"]
        engine, numbers = ops.engine_of(store, tid)  # the store follows the draw
        assert len([g for g in engine.games if {g.first, g.second} == {
            numbers[p] for p in pair}]) == 1
        second = store.matches.all(tid)[1]
        ops.no_winner(store, tid, second["code"], "both_lose", "neither came")
        engine, numbers = ops.engine_of(store, tid)
        lost = [g for g in engine.games if g.result == 0]
        assert len(lost) == 1 and set(lost[0].players()) == {
            numbers[second["player1_id"]], numbers[second["player2_id"]]}


def test_a_played_hakukaavio_game_made_void_after_the_draw_went_on(tmp_path, capsys):
    db = hakukaavio(tmp_path, capsys)
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        for _ in range(8):  # the opening's games, the first listed player winning
            waiting = [m for m in store.matches.all(tid) if m["winner_id"] is None
                       and m["outcome"] is None]
            enter(store, tid, waiting[0]["code"])
        first = store.matches.all(tid)[0]
        later = [m["code"] for m in store.matches.all(tid) if m["round"] >= 3]
        assert later  # the draw went on from round 1's results
        try:
            done = ops.no_winner(store, tid, first["code"], "void", "wrong players")
        except StoreError as choice:  # games played since: the director chooses
            assert "--played void" in choice.text
            done = ops.no_winner(store, tid, first["code"], "void", "wrong players",
                                 played="void")
        assert done["kind"] == "void"
        ops.engine_of(store, tid)  # the stored games still follow the draw
        assert store.results.problems(tid) == []
        names = set(NAMES[:8])
        for m in store.matches.all(tid):
            assert {m["player1"], m["player2"]} <= names
