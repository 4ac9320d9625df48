"""The hakukaavio engine, rule by rule (../shared/HAKUKAAVIO.md): the opening for odd, even and
N = 2 (mod 4) fields, the lone player, the open draw, both views of who is out, the exhaustive
search and its scores, seeding, late entries, walkovers, placings, and the §13 worked example
exactly."""

from __future__ import annotations

import random

import pytest

from host.tournament.formats import hakukaavio_exhaustive as exhaustive
from host.tournament.formats import hakukaavio_places as places
from host.tournament.formats import hakukaavio_search as search
from host.tournament.formats.hakukaavio import Game, Hakukaavio, OpeningFailed
from tests.host.formats_conformance import key, play, recorded, replay, seeded_outcome


def listing(draw: Hakukaavio, round_: int | None = None) -> list[tuple]:
    return [(g.first, g.second) for g in draw.games if round_ in (None, g.round)]


# -- §3 rounds 1 and 2 ---------------------------------------------------------------------

def test_round_one_pairs_neighbours_and_the_odd_player_sits_out():
    assert listing(Hakukaavio(8), 1) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert listing(Hakukaavio(7), 1) == [(1, 2), (3, 4), (5, 6)]


def test_round_two_for_eight_players():
    assert listing(Hakukaavio(8), 2) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_round_two_for_ten_players_starts_with_the_two_fixed_games():
    draw = Hakukaavio(10)
    # §3's creation order is 6-9, 8-10, 1-3, 2-4, 5-7; the list is sorted by first number.
    assert listing(draw, 2) == [(1, 3), (2, 4), (5, 7), (6, 9), (8, 10)]
    for n in (6, 14, 18):
        assert {(n - 4, n - 1), (n - 2, n)} <= set(listing(Hakukaavio(n), 2))
    assert (8, 11) not in listing(Hakukaavio(12), 2)  # only when N = 2 (mod 4)


def test_round_two_for_seven_lists_the_player_in_his_first_round_first():
    draw = Hakukaavio(7)
    assert listing(draw, 2) == [(7, 1), (2, 3), (4, 5), (6, 7)]
    assert draw.games[3].rounds == (1, 2)
    assert all(sum(p in g.players() for g in draw.games) == 2 for p in range(1, 8))


def test_the_game_list_is_sorted_by_round_then_first_own_round_then_numbers():
    draw = Hakukaavio(9)
    keys = [g.key() for g in draw.games]
    assert keys == sorted(keys)


# -- §5 when the draw runs ----------------------------------------------------------------

def test_nothing_is_drawn_while_more_than_eight_games_are_unfinished():
    draw = Hakukaavio(20)
    assert draw.record(1, 2, 1) == []
    assert sum(g.result is None for g in draw.games) == 19


def test_an_open_draw_adds_only_games_every_outcome_agrees_on():
    draw = Hakukaavio(7)
    for a, b, w in ((1, 2, 1), (3, 4, 3), (5, 6, 5), (7, 1, 1)):
        assert draw.record(a, b, w) == []
    new = draw.record(2, 3, 2)  # 4-5 and 6-7 are still being played: four outcomes
    assert [(g["first"], g["second"], g["rounds"]) for g in new] == [(1, 3, (3, 3))]


def test_a_result_for_a_game_not_in_the_list_is_refused():
    draw = Hakukaavio(8)
    with pytest.raises(ValueError):
        draw.record(1, 8, 1)
    with pytest.raises(ValueError):
        draw.record(1, 2, 5)


# -- §13 the worked example ----------------------------------------------------------------

RESULTS_13 = {(1, 2): 1, (3, 4): 3, (5, 6): 5, (1, 7): 1, (2, 3): 2, (4, 5): 5, (6, 7): 7,
              (1, 3): 1, (2, 7): 2, (2, 5): 5}


def play_13() -> tuple[Hakukaavio, list]:
    draw = Hakukaavio(7)
    drawn_after = []
    for number in range(1, 100):
        if draw.finished():
            break
        game = [g for g in draw.pending() if g["ready"]][0]
        pair = tuple(sorted((game["first"], game["second"])))
        new = draw.record(game["first"], game["second"], RESULTS_13.get(pair, 5))
        drawn_after += [(number, g["round"], g["first"], g["rounds"][0], g["second"],
                         g["rounds"][1]) for g in new]
    return draw, drawn_after


def test_the_worked_example_draws_games_8_to_12_after_the_results_the_spec_names():
    draw, drawn_after = play_13()
    assert drawn_after == [(5, 3, 1, 3, 3, 3), (8, 3, 2, 3, 7, 3), (9, 4, 5, 3, 1, 4),
                           (10, 4, 2, 4, 5, 4), (11, 5, 1, 5, 5, 5)]
    assert draw.finished() and draw.winner() == 5
    assert not draw.is_in(1) and draw.players_in() == [5]


def test_the_worked_example_scores_of_the_exhaustive_search():
    state = Hakukaavio(7)
    for a, b, w in ((1, 2, 1), (3, 4, 3), (5, 6, 5), (7, 1, 1), (2, 3, 2), (4, 5, 5),
                    (6, 7, 7)):
        state.record(a, b, w)
    state._game(1, 3).result = 1  # result 8, entered without running the draw yet
    active = [p for p in range(1, 8) if state.drawable(p)]
    assert active == [1, 2, 5, 7]  # 3, 4 and 6 are out: the exhaustive search runs
    g = {p: sum(p in x.players() for x in state.games) for p in active}
    losses = {p: sum(p in x.losers() for x in state.games) for p in active}
    met: dict = {}
    for x in state.games:
        met[frozenset(x.players())] = met.get(frozenset(x.players()), 0) + 1
    assert exhaustive.scored(active, g, losses, met, None) == [
        ((2, 5), 140), ((2, 7), 100), ((2, 1), 364), ((5, 7), 141), ((5, 1), 145)]
    assert exhaustive.best(active, g, losses, met, None) == ((2, 7), 100)
    assert [(x.first, x.second) for x in state.run_draw()] == [(2, 7)]


def test_the_lone_player_of_a_round_waits_and_meets_the_next_round():
    draw, _ = play_13()
    # Round 3 has 1-3 and 2-7; 5 (the fifth player in) rests, then plays his own round 3
    # against 1's own round 4: one round apart, never two.
    assert [(g.first, g.second) for g in draw.games if g.round == 3] == [(1, 3), (2, 7)]
    fives = [g for g in draw.games if 5 in g.players()]
    assert (fives[2].first, fives[2].rounds, fives[2].second) == (5, (3, 4), 1)
    assert all(abs(g.rounds[0] - g.rounds[1]) <= 1 for g in draw.games if g.second)


def test_the_worked_example_default_placings():
    """§13's default placings (§10's "default", pilkku's "wins"); pilkku's own default,
    "rounds", places this example the same (docs/formats.md, "The final ranking")."""
    draw, _ = play_13()
    rows = [(r["place"], r["player"]) for r in draw.placings("wins")]
    assert rows == [(1, 5), (2, 1), (3, 2), (4, 3), (4, 7), (6, 4), (6, 6)]
    assert [(r["place"], r["player"]) for r in draw.placings()] == rows
    assert draw.placing == "rounds" and Hakukaavio(7, placing="default").placing == "rounds"


def test_placings_options_on_the_worked_example():
    draw, _ = play_13()
    finalists = [(r["place"], r["player"]) for r in draw.placings("finalists")]
    assert finalists[:2] == [(1, 5), (2, 1)]
    top3 = [(r["place"], r["player"]) for r in draw.placings("top3")]
    # Of those not in the final, 2 played most (four games): third alone.
    assert top3[:3] == [(1, 5), (2, 1), (3, 2)]
    cup = [(r["place"], r["player"]) for r in draw.placings("cup")]
    # cup: games played by those with a win; 4 and 6 (no win) share last.
    assert cup[:2] == [(1, 5), (2, 1)] and cup[-2:] == [(6, 4), (6, 6)]
    assert cup[2:5] == [(3, 2), (4, 3), (4, 7)]


def test_points_break_ties_in_the_default_placings():
    draw = Hakukaavio(4)
    draw.record(1, 2, 1, points=(60, 30))
    draw.record(3, 4, 3, points=(60, 50))
    rows = {r["player"]: r for r in draw.placings("wins")}
    assert rows[4]["points"] == 50 and rows[2]["points"] == 30
    assert rows[4]["key"] > rows[2]["key"]


# -- §4 who is out ------------------------------------------------------------------------

def test_knockout_from_round_three_one_loss_there_is_enough():
    draw = Hakukaavio(8, knockout_from=3)
    for g in list(draw.pending()):
        draw.record(g["first"], g["second"], min(g["first"], g["second"]))
    third = [g for g in draw.pending() if g["round"] == 3]
    assert third
    game = third[0]
    loser = max(game["first"], game["second"])
    draw.record(game["first"], game["second"], min(game["first"], game["second"]))
    assert not draw.is_in(loser)
    assert sum(loser in g.losers() for g in draw.games) == 1


def test_the_two_views_differ_for_the_odd_player_when_r_is_two():
    draw = Hakukaavio(5, knockout_from=2)
    draw.record(1, 2, 1)
    draw.record(3, 4, 3)
    draw.record(5, 1, 1)  # 5 in his own round 1 loses a round-2 game
    assert draw.is_in(5)  # tournament view: own round 1 < R
    assert not draw.drawable(5)  # draw view: game round 2 >= R
    final = play(5, 2, lambda g: 5 if {g["first"], g["second"]} == {4, 5}
                 else min(g["first"], g["second"]), None)
    assert all(5 not in g.players() for g in final.games if g.round >= 3)
    assert final.is_in(5) and not final.drawable(5)
    # Two are in (tournament view) but only 1 can be drawn: pilkku ends it there, 1 wins,
    # and 5 is placed as out (docs/formats.md).
    assert final.players_in() == [1, 5]
    assert final.finished() and final.winner() == 1
    rows = final.placings()
    assert rows[0]["player"] == 1 and [r["in"] for r in rows if r["player"] == 5] == [False]


def test_both_lose_gives_each_a_loss():
    draw = Hakukaavio(4)
    draw.record(1, 2, 0)
    assert all(sum(p in g.losers() for g in draw.games) == 1 for p in (1, 2))
    with pytest.raises(ValueError):
        Hakukaavio(3)


# -- §11 seeding, walkovers; §2 late entries ----------------------------------------------

def test_eight_seeds_take_their_numbers():
    assert places.seed_numbers(16, 8) == [15, 8, 4, 12, 10, 2, 6, 14]
    assert places.seed_numbers(33, 3) == [32, 16, 8]
    numbers = places.numbering(16, 2, __import__("random").Random(1))
    assert numbers[:2] == [15, 8] and sorted(numbers) == list(range(1, 17))


def test_only_the_24_seed_opening_skips_the_fixed_round_two_games():
    assert (6, 9) in listing(Hakukaavio(10, seeds=2), 2)  # else round 2 would fail
    assert (70, 73) not in listing(Hakukaavio(74, seeds=24), 2)


def test_twenty_four_seeds_single_precision_and_walkovers():
    numbers = places.seed_numbers(25, 24)
    assert numbers[places.SLOTS_24[7] - 1] == 7  # N = 25, i = 7 gives 7 in single precision
    assert len(set(numbers)) == 24
    draw = Hakukaavio(49, seeds=24)
    walkovers = [g for g in draw.games if g.second is None]
    seeds = places.seed_numbers(49, 24)
    for seed, number in enumerate(seeds, 1):
        mine = [g for g in walkovers if g.first == number]
        assert [g.rounds[0] for g in mine] == ([1, 2] if seed <= 12 else [1])
    assert all(g.result == 1 for g in walkovers)
    assert all(sum(p in g.players() for g in draw.games) == 2 for p in range(1, 50)
               if p not in seeds[12:])
    rows = {r["player"]: r for r in draw.placings()}
    assert rows[seeds[0]]["wins"] == 2  # a walkover counts as a win


def test_the_opening_can_fail_with_walkovers():
    # 48 players: the seeds sit on the odd numbers, so round 1 pairs 46-48 and round 2 comes
    # to those two last; the spec says the opening then fails.
    with pytest.raises(OpeningFailed, match="player 46"):
        Hakukaavio(48, seeds=24)
    assert Hakukaavio(49, seeds=24).games


def test_late_entries_keep_started_games_and_redraw_the_rest():
    draw = Hakukaavio(7)
    draw.start(1, 2)
    draw.record(3, 4, 3)
    assert draw.add_players(3) == [8, 9, 10]
    assert listing(draw) == listing(Hakukaavio(10))
    assert draw.games[1].result == 1  # 3-4 keeps its result
    draw.start(1, 3)
    with pytest.raises(ValueError):
        draw.add_players(1)


# -- a draw with nothing to wait for that the spec leaves stuck (docs/formats.md) -----------

def closed_draws(players: int, knockout: int | None, seed: int) -> tuple[Hakukaavio, list]:
    """The seeded tournament on random tables, as the property tests play it, and what each
    draw added when it had nothing unfinished to wait for: (who was in, the pairs added)."""
    closed = []

    def check(draw: Hakukaavio, new: list[dict], _game: dict) -> None:
        added = {key(g) for g in new}
        if all(g.result is not None for g in draw.games if key(g.as_dict()) not in added):
            closed.append((draw.players_in(), [(g["first"], g["second"]) for g in new]))

    return play(players, knockout, seeded_outcome(seed), random.Random(seed), check), closed


@pytest.mark.parametrize("players,seed,five_in,drawn", [
    # 14, 17 and 21 have each met the other two, and 7 has met 2: every pairing of the round
    # has a rematch. Exhaustive scores: 7-14 148, 7-17 148, 7-21 148, 14-2 149, ...
    (27, 5213, [2, 7, 14, 17, 21], (7, 14)),
    (51, 90632, [1, 12, 25, 30, 37], (12, 25)),  # 25, 30, 37 have all met; 12 has met 1
    # 18-34 and 32-14 (36 resting) would pair the round with no rematch, but §8 step 3 asks
    # the last two searchers, 32 and 36 (or 34 and 36, or 32 and 34), to be able to meet.
    (36, 249308, [14, 18, 32, 34, 36], (18, 34)),
    # The same: 8-10 and 9-6 with 15 resting, but 9 and 15 have met.
    (15, 941933, [6, 8, 9, 10, 15], (8, 10)),
])
def test_five_in_whose_round_the_fast_search_cannot_pair_still_get_a_game(players, seed,
                                                                          five_in, drawn):
    """Issue 32: the fast search (§8) found no partner for its first searcher with nothing
    unfinished, so no result was left to change that: the draw added nothing and the
    tournament 'ended' with five in and no winner. The exhaustive search (§9) now draws."""
    draw, closed = closed_draws(players, None, seed)
    assert (five_in, [drawn]) in closed
    assert all(new for _in, new in closed if len(_in) > 1)  # never stuck again
    assert draw.winner() is not None and len(draw.players_in()) == 1


def test_the_last_two_drawable_two_games_apart_still_meet():
    """9 players, R = 5, seed 9 (the nightly run, after issue 32's fix): 7 lost his round-5
    game at his own round 4, so he is in but never drawn again (§4). That leaves 5, at his
    fifth game, and 6, at his third. The exhaustive search scores only partners within a
    game of each other, so it found nobody and the draw added nothing: 'finished', no winner.
    The one game left is drawn, two rounds apart (§7 refuses that only while open)."""
    draw, closed = closed_draws(9, 5, 9)
    assert ([5, 6, 7], [(6, 5)]) in closed
    assert [g.rounds for g in draw.games if {g.first, g.second} == {5, 6}][-1] == (4, 6)
    assert draw.players_in() == [6, 7] and not draw.drawable(7)
    assert draw.finished() and draw.winner() == 6


def test_nothing_unfinished_is_not_the_end_while_two_can_still_be_drawn():
    draw = Hakukaavio(4)
    for game, result in zip(draw.games, (1, 1, 1, 1), strict=True):  # entered, not drawn on
        game.result = result
    assert [p for p in range(1, 5) if draw.drawable(p)] == [1, 2, 3]
    # Only an end (§10) or a player the draw stopped drawing (§4) ends it: a draw that has
    # not run yet, or that drew nothing, must not read as "finished, no winner".
    assert not draw.finished() and draw.winner() is None
    assert draw.run_draw() and not draw.finished()


def listed(rounds: list[list[tuple[int, int, int]]]) -> list[Game]:
    """A game list from rounds of (first, second, winner): own rounds counted, sorted (§1)."""
    count: dict[int, int] = {}
    games = []
    for games_of_round in rounds:
        for first, second, winner in games_of_round:
            own = []
            for p in (first, second):
                count[p] = count.get(p, 0) + 1
                own.append(count[p])
            game = Game(first, second, (own[0], own[1]))
            game.result = 1 if winner == first else 2
            games.append(game)
    return sorted(games, key=Game.key)


def test_two_searchers_who_have_met_with_eight_in_are_drawn_against_the_others():
    """1 and 2 are the only players a game behind, and they have met: §8 step 3 fails every
    partner of 1, and with eight in the exhaustive search is too costly. The lowest (g,
    number) player, 1, takes the first player in (g, number) order whom he has not met."""
    games = listed([
        [(1, 2, 1), (3, 9, 3), (4, 10, 4), (5, 11, 5), (6, 12, 6), (7, 13, 7), (8, 14, 8)],
        [(1, 9, 1), (2, 10, 2), (3, 11, 3), (4, 12, 4), (5, 13, 5), (6, 14, 6), (7, 8, 7)],
        [(3, 7, 3), (4, 8, 8), (5, 6, 5)],
    ])
    assert search.draw(games, 14, None) == [(1, 3)]  # own rounds 3 and 4: the pass stops


# -- §12 conformance replay ----------------------------------------------------------------

@pytest.mark.parametrize("players,knockout", [(7, None), (12, 3), (16, 2), (22, None)])
def test_the_conformance_replay_accepts_a_tournament_drawn_on_one_table(players, knockout):
    played = play(players, knockout, lambda g: g["first"] if (g["first"] * 7 + g["second"])
                  % 3 else g["second"], None)
    again = replay(players, knockout, recorded(played))
    assert again.winner() == played.winner() is not None


def test_the_conformance_replay_fails_on_a_game_that_was_not_drawn():
    played = play(8, None, lambda g: min(g["first"], g["second"]), None)
    games = recorded(played)
    late = max(games, key=lambda k: k[0])
    games[(late[0], late[2], late[1], late[3][::-1])] = games.pop(late)  # swap its players
    with pytest.raises(AssertionError):
        replay(8, None, games)


def test_a_128_player_field_runs_to_its_placings():
    played = play(128, None, lambda g: min(g["first"], g["second"]), None)
    assert played.winner() == 1
    rows = played.placings()
    assert rows[0]["player"] == 1 and len(rows) == 128
    assert len(played.games) == 2 * 128 - 2  # everyone but the winner lost twice
