"""Kaisa hakukaavio nights for the season's tests, made by the engine through the director's
operations (night/): a tournament, its players, the opening drawn, every game's score typed in
(night.record_hand, as from a paper sheet) until the night has its champion. Who wins a game
is `pick`'s choice; seeded nights pick with a random.Random."""

from __future__ import annotations

import random
from collections.abc import Callable

from host.tournament import night
from host.tournament.store import Store

POOL = ["Aino Aalto", "Bror Berg", "Cai Carlsson", "Dora Dahl", "Eero Esko", "Fanni Forss",
        "Gus Grön", "Hilja Heino", "Iivo Ilola", "Jade Juva", "Kalle Koski", "Lumi Laine"]


def open_games(store: Store, tid: int) -> list[dict]:
    return [m for m in store.matches.all(tid) if m["winner"] is None and m["outcome"] is None
            and None not in (m["player1"], m["player2"])]


def ready(games: list[dict]) -> list[dict]:
    """The open games whose players have no earlier open game (a table would take them)."""
    busy: set = set()
    found = []
    for m in games:
        players = {m["player1"], m["player2"]}
        if not players & busy:
            found.append(m)
        busy |= players
    return found


def score_for(m: dict, winner: str, loser_points: int = 40) -> str:
    return "60:%d" % loser_points if winner == m["player1"] else "%d:60" % loser_points


def play(store: Store, tid: int, pick: Callable[[dict], str], limit: int = 200,
         stop: Callable[[], bool] = lambda: False) -> None:
    """Play the ready games in order until the night has its champion (or `stop()`)."""
    for _step in range(limit):
        engine, _numbers = night.engine_of(store, tid)
        if engine.finished() or stop():
            return
        games = ready(open_games(store, tid))
        assert games, "not finished, but nothing to play"
        m = games[0]
        night.record_hand(store, tid, m["code"], score_for(m, pick(m)), "sheet")
    raise AssertionError("no champion after %d games" % limit)


def new_night(store: Store, name: str, players: list[str],
              rng: random.Random | None = None) -> int:
    """A Kaisa hakukaavio night drawn: its number draw by `rng` (seeded: the same night)."""
    tid = night.new_tournament(store, name, "kaisa", 60)
    night.plan_format(store, tid, "hakukaavio", {})
    night.import_players(store, tid, [(i + 2, n, "") for i, n in enumerate(players)])
    night.draw_opening(store, tid, rng)
    return tid


def seeded_pick(rng: random.Random, strength: dict[str, int]) -> Callable[[dict], str]:
    """The stronger player wins more often (strength 1-10), by the seeded random."""
    def pick(m: dict) -> str:
        a, b = m["player1"], m["player2"]
        sa, sb = strength.get(a, 5), strength.get(b, 5)
        return a if rng.random() < sa / (sa + sb) else b
    return pick


def first_player(m: dict) -> str:
    return m["player1"]
