"""Double elimination and groups into a knockout, as engines: the seeded winners' bracket with
byes, the losers' bracket fed in reverse, the grand final and its reset, placings; snake
groups ranked by the league tie-breaks, the seeded knockout of the top K."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.tournament.formats.double import Double
from host.tournament.formats.groups import Groups
from tests.host.formats_conformance import budget


def pairs(rows: list[dict]) -> list[tuple]:
    return [(r["code"], r["first"], r["second"]) for r in rows]


def play(draw, pick) -> list[dict]:
    """Play to the end, the first pending game each time; pick(first, second) wins."""
    played = []
    while not draw.finished():
        game = draw.pending()[0]
        draw.record(game["first"], game["second"], pick(game["first"], game["second"]))
        played.append(game)
    return played


def test_eight_players_seeded_first_round_and_losers_fed_in_reverse():
    draw = Double(8)
    assert pairs(draw.pending()) == [("W1-01", 1, 8), ("W1-02", 4, 5), ("W1-03", 2, 7),
                                     ("W1-04", 3, 6)]
    for a, b in ((1, 8), (4, 5), (2, 7), (3, 6)):
        draw.record(a, b, a)
    assert ("L1-01", 8, 5) in pairs(draw.pending()) and ("L1-02", 7, 6) in pairs(
        draw.pending())
    draw.record(1, 4, 1)
    draw.record(2, 3, 2)
    # Losers' round 2: L1-01's winner meets the loser of the *last* winners' round-2 match.
    draw.record(8, 5, 5)
    draw.record(7, 6, 6)
    assert ("L2-01", 5, 3) in pairs(draw.pending()) and ("L2-02", 6, 4) in pairs(
        draw.pending())


def test_byes_go_to_the_top_seeds_and_are_no_games():
    draw = Double(5)
    assert pairs(draw.pending()) == [("W1-02", 4, 5), ("W2-02", 2, 3)]
    assert all(None not in (r["first"], r["second"]) and 0 not in (r["first"], r["second"])
               for r in draw.games())


def test_the_bracket_reset_is_played_only_when_the_losers_side_wins_the_final():
    favourite = play(Double(4), min)  # the top seed wins everything: no reset game
    assert [g["code"] for g in favourite][-1] == "F-1"
    draw = Double(4)
    # The losers' bracket winner (2) beats 1 in the first final: the reset decides.
    for game in iter(lambda: draw.pending()[0] if draw.pending() else None, None):
        if game["code"] == "F-1":
            draw.record(game["first"], game["second"], 2)
        else:
            draw.record(game["first"], game["second"], min(game["first"], game["second"]))
    assert draw.matches["F-2"].result is not None and draw.finished()
    one_final = Double(4, reset=False)
    for game in iter(lambda: one_final.pending()[0] if one_final.pending() else None, None):
        one_final.record(game["first"], game["second"],
                         2 if game["code"] == "F-1" else min(game["first"], game["second"]))
    assert one_final.winner() == 2 and "F-2" not in one_final.matches


def test_placings_share_the_losers_round_they_went_out_in():
    draw = Double(8)
    play(draw, min)
    rows = draw.placings()
    assert [(r["place"], r["player"]) for r in rows[:4]] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert [r["place"] for r in rows[4:]] == [5, 5, 7, 7]


def test_a_result_for_no_waiting_game_is_refused():
    draw = Double(4)
    with pytest.raises(ValueError):
        draw.record(1, 2, 1)
    with pytest.raises(ValueError):
        draw.record(1, 4, 2)
    with pytest.raises(ValueError):
        Double(2)


@budget(ci=25, nightly=5000)  # more in the nightly run (docs/testing.md)
@given(players=st.integers(3, 40), seed=st.integers(0, 10**6), reset=st.booleans())
def test_double_elimination_ends_with_everyone_else_out_twice(players, seed, reset):
    rng = random.Random(seed)
    draw = Double(players, reset)
    while not draw.finished():
        pending = draw.pending()
        assert pending
        game = rng.choice(pending)
        draw.record(game["first"], game["second"], rng.choice([game["first"],
                                                               game["second"]]))
    losses: dict[int, int] = {}
    for game in draw.games():
        loser = game["second"] if game["winner"] == game["first"] else game["first"]
        losses[loser] = losses.get(loser, 0) + 1
    champion = draw.winner()
    assert losses.get(champion, 0) <= 1
    assert all(losses.get(p, 0) == 2 for p in range(1, players + 1) if p != champion) or \
        not reset
    assert sorted(r["player"] for r in draw.placings()) == list(range(1, players + 1))
    assert len(draw.games()) in (2 * players - 2, 2 * players - 1)


# -- groups --------------------------------------------------------------------------------

def test_snake_seeding_fills_the_groups():
    assert Groups(12, 4, 2).groups == [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12]]
    assert Groups(7, 2, 2).groups == [[1, 4, 5], [2, 3, 6, 7]]


def test_groups_are_ranked_by_the_league_tie_breaks_and_seed_the_knockout():
    draw = Groups(8, 2, 2)  # A: 1 4 5 8, B: 2 3 6 7
    assert len(draw.pending()) == 12
    # Group A: 8 wins all; 1, 4, 5 tie on one win each -> racks difference decides.
    scores = {(1, 4): (1, 4, 2, 0), (1, 5): (5, 1, 2, 1), (4, 5): (4, 5, 2, 1),
              (1, 8): (8, 1, 2, 1), (4, 8): (8, 4, 2, 1), (5, 8): (8, 5, 2, 1)}
    for game in list(draw.pending()):
        a, b = game["first"], game["second"]
        if {a, b} <= {1, 4, 5, 8}:
            key = tuple(sorted((a, b)))
            x, y, winner_score, loser_score = scores[key]  # type: ignore[index]
            draw.record(x, y, x, (winner_score, loser_score))
        else:
            draw.record(a, b, min(a, b), (2, 0))
    table = [r.player for r in draw.standings(0)]
    assert table[0] == 8
    assert table[1:] == [1, 5, 4]  # one win each; racks difference 0, -1, -2
    knockout = pairs(draw.pending())
    # Seeds: A1 (8), B1 (2), A2 (1), B2 (3): 8 v 3 and 2 v 1 — group mates apart.
    assert knockout == [("K1-01", 8, 3), ("K1-02", 2, 1)]
    draw.record(8, 3, 8)
    draw.record(2, 1, 2)
    draw.record(8, 2, 8)
    assert draw.winner() == 8
    places = [(r["place"], r["player"]) for r in draw.placings()]
    assert places[:4] == [(1, 8), (2, 2), (3, 1), (3, 3)]
    assert sorted(p for _place, p in places) == list(range(1, 9))


def test_group_options_are_checked():
    with pytest.raises(ValueError):
        Groups(5, 3, 1)  # three groups need six players
    with pytest.raises(ValueError):
        Groups(8, 2, 5)  # more than a group's size
    with pytest.raises(ValueError):
        Groups(8, 4, 2).record(1, 2, 3)
