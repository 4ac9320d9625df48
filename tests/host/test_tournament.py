"""Tournament formats without a store: round robin, bracket seeding and byes, picking the next
match for a free table, and the league table's order."""

from __future__ import annotations

from itertools import combinations

import pytest

from host.tournament.formats import lists as t


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_everyone_meets_everyone_once(count):
    players = list("ABCDEFGH"[:count])
    rounds = t.round_robin(players)
    met = [frozenset(pair) for pairs in rounds for pair in pairs]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(players, 2)), key=sorted)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    for pairs in rounds:  # nobody plays twice in a round
        seen = [p for pair in pairs for p in pair]
        assert len(seen) == len(set(seen)) == 2 * (count // 2)


def test_round_robin_for_5_has_one_player_resting_each_round():
    rounds = t.round_robin(list("ABCDE"))
    resting = [set("ABCDE") - {p for pair in pairs for p in pair} for pairs in rounds]
    assert sorted(r.pop() for r in resting) == list("ABCDE")


def test_seed_order_keeps_top_seeds_apart():
    assert t.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert t.seed_order(4) == [1, 4, 2, 3]


def test_bracket_of_8_has_no_byes():
    plan = t.bracket(list("ABCDEFGH"))
    assert [(m.code, m.player1, m.player2) for m in plan[:4]] == [
        ("R1-01", "A", "H"), ("R1-02", "D", "E"), ("R1-03", "B", "G"), ("R1-04", "C", "F")]
    assert [m.round for m in plan] == [1, 1, 1, 1, 2, 2, 3]
    assert [(m.next, m.next_slot) for m in plan] == [
        (4, 1), (4, 2), (5, 1), (5, 2), (6, 1), (6, 2), (None, None)]


def test_bracket_of_5_gives_the_top_three_seeds_byes():
    plan = t.bracket(list("ABCDE"))
    assert len(plan) == 4  # always players - 1 matches
    first = plan[0]
    assert (first.code, first.player1, first.player2) == ("R1-01", "D", "E")
    assert (plan[1].code, plan[1].player1, plan[1].player2) == ("R2-01", "A", None)
    assert (plan[2].code, plan[2].player1, plan[2].player2) == ("R2-02", "B", "C")
    assert (first.next, first.next_slot) == (1, 2)
    assert plan[3].code == "R3-01" and plan[3].next is None


@pytest.mark.parametrize("count", range(2, 17))
def test_bracket_sizes(count):
    plan = t.bracket(list(range(count)))
    assert len(plan) == count - 1
    entered = [p for m in plan for p in (m.player1, m.player2) if p is not None]
    assert sorted(entered) == list(range(count))  # each player enters exactly once
    assert sum(m.next is None for m in plan) == 1  # one final


def test_pick_next_skips_busy_and_unknown_players():
    waiting = [{"player1": 1, "player2": None}, {"player1": 1, "player2": 2},
               {"player1": 3, "player2": 4}]
    assert t.pick_next(waiting, {2}) == waiting[2]
    assert t.pick_next(waiting, set()) == waiting[1]
    assert t.pick_next(waiting, {1, 3}) is None


def game(a, b, sa, sb):
    return {"player1": a, "player2": b, "score1": sa, "score2": sb,
            "winner": a if sa > sb else b}


def test_league_ranks_by_wins_then_difference():
    rows = t.league("ABC", [game("A", "B", 5, 1), game("B", "C", 5, 0), game("C", "A", 5, 4)])
    # one win each: difference A +3, B +1, C -4
    assert [(r.rank, r.player, r.won, r.difference) for r in rows] == [
        (1, "A", 1, 3), (2, "B", 1, 1), (3, "C", 1, -4)]
    a = rows[0]
    assert (a.played, a.lost, a.scored, a.conceded) == (2, 1, 9, 6)


def test_league_breaks_a_tie_by_head_to_head():
    # B and C: one win and +1 each; C beat B. B scored more racks and is seeded higher, but
    # head-to-head comes first.
    rows = t.league("ABC", [game("C", "B", 3, 2), game("B", "A", 3, 1)])
    assert [(r.player, r.won, r.difference) for r in rows] == [
        ("C", 1, 1), ("B", 1, 1), ("A", 0, -2)]


def test_league_three_way_tie_falls_back_to_racks_then_seed():
    rows = t.league("ABC", [game("A", "B", 3, 2), game("B", "C", 3, 2), game("C", "A", 3, 2)])
    assert [r.player for r in rows] == ["A", "B", "C"]
    rows = t.league("ABC", [game("A", "B", 2, 1), game("B", "C", 3, 2), game("C", "A", 4, 3)])
    assert [r.scored for r in rows] == [6, 5, 4] and [r.player for r in rows] == ["C", "A", "B"]


def test_league_without_games_keeps_the_seed_order():
    assert [r.player for r in t.league(["Z", "A"], [])] == ["Z", "A"]
