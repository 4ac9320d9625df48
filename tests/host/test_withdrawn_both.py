"""A match whose two players have both withdrawn (host/tournament/night/follow.py): the one who
left later gets the walkover, whichever slot they hold. In a double elimination a withdrawn
player's walkover loss drops them into the losers' bracket, so two who left meet there: Anna
(W1-01) and Ben (W1-02) both withdraw, and L1-01 is Anna vs Ben. The director sees it in
`pilkku matches` as won by walkover by the later leaver. The withdrawal times come from a
clock the test steps (the store keeps them to the second: two withdrawals in one second are
a tie, which player 1 takes)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from host.tournament.store import players as players_part
from tests.host.test_tournament_cli import Director


@pytest.fixture
def double(tmp_path, capsys, monkeypatch) -> Director:
    """Anna, Ben, Cid, Dan in a double elimination: W1-01 Anna-Dan, W1-02 Ben-Cid."""
    times = iter("2026-12-04T20:%02d:00+00:00" % minute for minute in range(60))
    monkeypatch.setattr(players_part, "now", lambda: next(times))
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Cup", "--game", "9ball", "--race", "2", "--format",
              "double")
    pilkku.ok("players", "import", pilkku.file("players.csv", "name\nAnna\nBen\nCid\nDan\n"))
    pilkku.ok("matches", "generate")
    pilkku.ok("tables", "2")
    return pilkku


def matches(pilkku: Director) -> dict[str, dict]:
    return {m["match"]: m for m in json.loads(pilkku.ok("matches", "--json"))}


@pytest.mark.parametrize("first, later", [("Anna", "Ben"), ("Ben", "Anna")])
def test_the_player_who_left_later_wins_the_match_of_two_withdrawn(double, first, later):
    double.ok("withdraw", first, "--reason", "ill")
    double.ok("withdraw", later, "--reason", "went home")
    shown = matches(double)
    assert (shown["W1-01"]["status"], shown["W1-02"]["status"]) == ("won by Dan 2:0",
                                                                    "won by Cid 2:0")
    l1 = shown["L1-01"]
    assert (l1["player1"], l1["player2"]) == ("Anna", "Ben")
    assert l1["status"] == "won by %s 2:0" % later
    # The draw goes on: the later leaver, the losers' bracket's winner so far, walks on too.
    double.record("W2-01", ["Dan", "Cid"], [2, 1])
    assert matches(double)["L2-01"]["status"] == "won by Cid 2:0"


def test_a_match_of_two_withdrawn_players_is_decided_at_once_and_given_no_table(double):
    double.ok("withdraw", "Anna", "--reason", "ill")
    out = double.ok("withdraw", "Ben", "--reason", "went home")
    l1 = matches(double)["L1-01"]
    # Drawn by Ben's walkover loss in W1-02, between two players who have left: decided by
    # Ben's withdrawal itself, not left at a table for a board to offer until a result comes.
    assert l1["status"] == "won by Ben 2:0" and l1["table"] is None, l1
    assert out.startswith("Ben has withdrawn. Walkovers: L1-01, W1-02")
    assert "L1-01" not in double.ok("tables")


def entry(pilkku: Director, code: str) -> dict:
    """The signed entry the director's walkover left for a match (its document)."""
    conn = sqlite3.connect(pilkku.db)
    try:
        (document,) = conn.execute(
            "SELECT r.document FROM results r JOIN matches m ON m.id = r.match_id WHERE "
            "m.code = ? AND r.replaced_by IS NULL", (code,)).fetchone()
    finally:
        conn.close()
    return json.loads(bytes(document))


@pytest.mark.parametrize("later, slot, score", [("Anna", 1, [2, 0]), ("Ben", 2, [0, 2])])
def test_the_walkover_entry_says_walkover_why_and_the_race_to_its_winner(double, later, slot,
                                                                          score):
    first = "Ben" if later == "Anna" else "Anna"
    double.ok("withdraw", first, "--reason", "ill")
    double.ok("withdraw", later, "--reason", "went home")
    signed = entry(double, "L1-01")
    assert (signed["kind"], signed["reason"], signed["winner"], signed["score"]) == (
        "walkover", "withdrawn", slot, score)
    w1 = entry(double, "W1-01" if later == "Anna" else "W1-02")  # the later one's own match
    assert (w1["kind"], w1["reason"], w1["score"]) == ("walkover", "went home", [0, 2])


def test_two_withdrawals_in_the_same_second_give_the_match_to_player_1(double, monkeypatch):
    monkeypatch.setattr(players_part, "now", lambda: "2026-12-04T20:00:00+00:00")
    double.ok("withdraw", "Ben", "--reason", "ill")
    double.ok("withdraw", "Anna", "--reason", "ill")
    assert matches(double)["L1-01"]["status"] == "won by Anna 2:0"


def test_a_withdrawal_walks_over_matches_of_its_own_tournament_only(double):
    double.ok("tournament", "new", "Cup 2", "--game", "9ball", "--race", "2", "--format",
              "double")  # the same match codes, in the newer tournament
    double.ok("players", "import", double.file("p2.csv", "name\nAnna\nBen\nCid\nDan\n"))
    double.ok("matches", "generate")
    double.ok("withdraw", "Anna", "--reason", "ill", "--tournament", "Cup")
    double.ok("withdraw", "Ben", "--reason", "ill", "--tournament", "Cup")
    cup = {m["match"]: m for m in json.loads(double.ok("matches", "--json", "--tournament",
                                                       "Cup"))}
    assert cup["L1-01"]["status"] == "won by Ben 2:0"
    assert all(m["status"] != "finished" and not m["status"].startswith("won") for m in
               json.loads(double.ok("matches", "--json", "--tournament", "Cup 2")))
