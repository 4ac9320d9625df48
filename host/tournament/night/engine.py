"""The draw engine of a drawn tournament (double, groups, hakukaavio) rebuilt from the store,
and its new games stored: after every result the engine is made afresh from the stored
matches and asked what it draws next (docs/formats.md)."""

from __future__ import annotations

import copy
from typing import Any

from host.i18n import _
from host.tournament import formats
from host.tournament.formats.double import Double
from host.tournament.formats.groups import Groups
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.night.status import format_word
from host.tournament.store import Store, StoreError, per_revision


def engine_of(store: Store, tournament_id: int) -> tuple[Any, dict[int, int]]:
    """The engine as the stored matches and results leave it, and player id -> number. A void
    match is left out (it does not count); a match lost by both is the hakukaavio's both-lose
    (elsewhere it is passed over: those formats refuse it). Rebuilt once per store revision
    (a 64-player hakukaavio's takes tens of ms; a page of the draw asks twice): each caller
    gets its own copy to change."""
    engine, numbers = per_revision.read(store.db, ("engine", tournament_id),
                                        lambda: _rebuilt(store, tournament_id))
    return copy.deepcopy(engine), dict(numbers)


def _rebuilt(store: Store, tournament_id: int) -> tuple[Any, dict[int, int]]:
    plan = store.tournaments.plan(tournament_id)
    numbers = {int(k): v for k, v in plan.get("numbers", {}).items()}
    engine = formats.make_engine(plan["format"], len(numbers), plan)
    rows = store.db.rows(
        "SELECT id, code, round, player1_id, player2_id, winner_id, score1, score2, outcome FROM "
        "matches WHERE tournament_id = ? AND outcome IS NOT 'void' ORDER BY seq",
        tournament_id)
    try:
        if isinstance(engine, Hakukaavio):
            # A manual pairing (night/pairing.py) takes the games it replaced out first.
            drops = {p["match_id"]: p["replaced"] for p in plan.get("pairings", [])}
            _load(engine, [(numbers[r["player1_id"]], numbers[r["player2_id"]], r["round"],
                            0 if r["outcome"] == "both_lose" else numbers.get(r["winner_id"]),
                            (r["score1"] or 0, r["score2"] or 0),
                            [(numbers[a], numbers[b], n) for a, b, n in drops.get(r["id"], ())])
                           for r in rows])
        else:
            for r in rows:
                if r["winner_id"] is not None:
                    a, b = numbers[r["player1_id"]], numbers[r["player2_id"]]
                    if isinstance(engine, Groups):
                        engine.record(a, b, numbers[r["winner_id"]],
                                      (r["score1"] or 0, r["score2"] or 0))
                    else:
                        engine.record(a, b, numbers[r["winner_id"]])
    except (ValueError, KeyError) as bad:
        raise StoreError(_("the stored matches do not follow the %(format)s draw (%(why)s): "
                           "was the store edited?") % {"format": format_word(plan["format"]),
                                                      "why": bad}) from None
    return engine, numbers


def _load(engine: Hakukaavio, rows: list[tuple]) -> None:
    """Hakukaavio.load, whichever of its two players a stored match lists first (the store
    keeps the order its results were signed in; the engine lists the lower own round first):
    each row is given in the engine's order for its round."""
    for first, second, round_, winner, points, dropped in rows:
        for a, b, n in dropped:
            engine.games = [g for g in engine.games if not (
                g.result is None and g.round == n and {g.first, g.second} == {a, b})]
        game = next((g for g in engine.games if g.result is None and g.round == round_
                     and {g.first, g.second} == {first, second}), None)
        if game is None:  # a later game: listed as §1 lists it when it is made
            own = {p: 1 + sum(1 for g in engine.games if p in g.players())
                   for p in (first, second)}
            if (own[second], second) < (own[first], first):
                first, second, points = second, first, (points[1], points[0])
        elif game.first != first:
            first, second, points = second, first, (points[1], points[0])
        engine.load([(first, second, round_, winner, points)])


def is_drawn(store: Store, tournament_id: int) -> bool:
    """The tournament is an engine's and its opening is drawn."""
    plan = store.tournaments.plan(tournament_id)
    return plan.get("format") in formats.ENGINES and bool(plan.get("numbers"))


def draw_next(store: Store, tournament_id: int) -> int:
    """After a result: the engine rebuilt, its draw run (the hakukaavio's §5), its new games
    stored; returns how many."""
    engine, _numbers = engine_of(store, tournament_id)
    if isinstance(engine, Hakukaavio):
        engine.run_draw()
    return store_new_games(store, tournament_id, engine, store.tournaments.plan(tournament_id))


def store_new_games(store: Store, tournament_id: int, engine: Any, plan: dict) -> int:
    """Insert the engine's games the store does not hold yet; returns how many."""
    ids = {n: int(pid) for pid, n in plan["numbers"].items()}
    stored = store.db.rows("SELECT code, round, player1_id, player2_id, outcome FROM matches "
                           "WHERE tournament_id = ?", tournament_id)
    # (a void match is no game of the draw: the engine's game of that pair is a new match)
    known = {(r["round"], frozenset((r["player1_id"], r["player2_id"]))) for r in stored
             if r["outcome"] != "void"}
    codes = {r["code"] for r in stored}
    added = 0
    for game in _engine_games(engine):
        row = (game["round"], ids[game["first"]], ids[game["second"]])
        if game.get("code") in codes or ("code" not in game and (row[0], frozenset(row[1:]))
                                         in known):
            continue
        code = game.get("code") or next_code(codes, game["round"])
        codes.add(code)
        store.matches.insert(tournament_id, {"code": code, "round": game["round"],
                                             "player1": row[1], "player2": row[2]})
        added += 1
    return added


def _engine_games(engine: Any) -> list[dict]:
    """Every game both of whose players are known, in the engine's creation order."""
    if isinstance(engine, Hakukaavio):
        return [g.as_dict() for g in engine.games if g.second is not None]
    if isinstance(engine, Double):
        return engine.games()
    return [dict(g) for g in engine.games]


def next_code(codes: set, round_: int) -> str:
    """The first free R<round>-<n> of a hakukaavio."""
    number = 1
    while "R%d-%02d" % (round_, number) in codes:
        number += 1
    return "R%d-%02d" % (round_, number)
