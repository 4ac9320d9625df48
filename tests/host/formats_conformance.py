"""Test helpers for the hakukaavio: play a whole tournament on the engine (results from a
function of the game, tables taking ready games in a chosen order), and the conformance replay
of HAKUKAAVIO.md §12, which redraws a recorded tournament on one table and checks that every
game drawn is one of the recorded games and that nobody out (or who could still go out) was
drawn."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from hypothesis import HealthCheck, settings

from host.tournament.formats.hakukaavio import Hakukaavio

Outcome = Callable[[dict], int]  # a pending game -> its winner (first, second, or 0)


def budget(ci: int, nightly: int) -> settings:
    """A format property's examples: a few in CI, thousands when HYPOTHESIS_PROFILE=nightly
    (`make formats-nightly`, docs/testing.md). No deadline: a 64-player draw takes seconds."""
    count = nightly if os.environ.get("HYPOTHESIS_PROFILE") == "nightly" else ci
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def key(game: dict) -> tuple:
    return (game["round"], game["first"], game["second"], tuple(game["rounds"]))


def seeded_outcome(seed: int, both_lose: float = 0.0) -> Outcome:
    """Results that depend only on the game and the seed, so two schedules that draw the same
    game see the same result."""

    def outcome(game: dict) -> int:
        rng = random.Random("%d/%s" % (seed, key(game)))
        if rng.random() < both_lose:
            return 0
        return game["first"] if rng.random() < 0.5 else game["second"]

    return outcome


def play(players: int, knockout: int | None, outcome: Outcome, rng: random.Random | None,
         check: Callable[[Hakukaavio, list[dict], dict], None] | None = None,
         limit: int = 10000) -> Hakukaavio:
    """Play to the end: each step one ready game (the first in list order, or a random one
    with `rng`) gets its result. `check(draw, new_games, played)` runs after every result."""
    draw = Hakukaavio(players, knockout)
    for _step in range(limit):
        if draw.finished():
            return draw
        ready = [g for g in draw.pending() if g["ready"]]
        assert ready, "not finished, but no game may start: the draw is stuck (%d in)" % len(
            draw.players_in())
        game = rng.choice(ready) if rng else ready[0]
        new = draw.record(game["first"], game["second"], outcome(game))
        if check:
            check(draw, new, game)
    raise AssertionError("the tournament did not end in %d results" % limit)


def recorded(draw: Hakukaavio) -> dict[tuple, int]:
    """A played tournament as the §12 replay reads it: game -> result (1, 2 or 0)."""
    return {key(g.as_dict()): g.result for g in draw.games if g.second is not None}


def could_go_out(draw: Hakukaavio, player: int, before: int) -> bool:
    """§12.4: out (tournament view), or could still go out through a game listed before
    index `before`: an unfinished knockout game, or unfinished games plus losses >= 2."""
    if not draw.is_in(player):
        return True
    losses = sum(1 for g in draw.games if player in g.losers())
    open_before = [g for g in draw.games[:before] if g.result is None and player in g.players()]
    knockout = draw.knockout
    if knockout is not None and any(g.own_round(player) >= knockout for g in open_before):
        return True
    return len(open_before) + losses >= 2


def replay(players: int, knockout: int | None, games: dict[tuple, int]) -> Hakukaavio:
    """§12: redraw a recorded tournament on a single table; fails (AssertionError) on the first
    game drawn that was not recorded, or drawn for a player who is or could go out."""
    draw = Hakukaavio(players, knockout)
    _all_recorded(draw, games)
    while True:
        ready = [g for g in draw.pending() if g["ready"]]
        if not ready:
            break
        game = ready[0]
        result = games[key(game)]
        winner = {1: game["first"], 2: game["second"], 0: 0}[result]
        before = [id(g) for g in draw.games]
        draw.record(game["first"], game["second"], winner)
        for index, g in enumerate(draw.games):
            if id(g) not in before:
                for p in g.players():
                    assert not could_go_out(draw, p, index), (
                        "game %s drawn for player %d, who is or could go out" % (g.key(), p))
        _all_recorded(draw, games)
    assert not draw.pending()
    assert set(recorded(draw)) == set(games), "the replay drew another set of games"
    return draw


def _all_recorded(draw: Hakukaavio, games: dict[tuple, int]) -> None:
    for g in draw.games:
        if g.second is not None:
            assert key(g.as_dict()) in games, "game %s is not in the record" % (g.key(),)
