"""The draw engine of a drawn tournament (double, groups, hakukaavio) rebuilt from the store,
and its new games stored: after every result the engine is made afresh from the stored
matches and asked what it draws next (docs/formats.md)."""

from __future__ import annotations

from typing import Any

from host.tournament import formats
from host.tournament.formats.double import Double
from host.tournament.formats.groups import Groups
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.store import Store, StoreError


def engine_of(store: Store, tournament_id: int) -> tuple[Any, dict[int, int]]:
    """The engine as the stored matches and results leave it, and player id -> number."""
    plan = store.tournaments.plan(tournament_id)
    numbers = {int(k): v for k, v in plan.get("numbers", {}).items()}
    engine = formats.make_engine(plan["format"], len(numbers), plan)
    rows = store.db.rows(
        "SELECT code, round, player1_id, player2_id, winner_id, score1, score2 FROM "
        "matches WHERE tournament_id = ? ORDER BY seq", tournament_id)
    try:
        if isinstance(engine, Hakukaavio):
            engine.load([(numbers[r["player1_id"]], numbers[r["player2_id"]], r["round"],
                          numbers.get(r["winner_id"]), (r["score1"] or 0, r["score2"] or 0))
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
        raise StoreError("the stored matches do not follow the %s draw (%s): was a result "
                         "changed after later games were drawn?" % (plan["format"], bad)) \
            from None
    return engine, numbers


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
    stored = store.db.rows("SELECT code, round, player1_id, player2_id FROM matches WHERE "
                           "tournament_id = ?", tournament_id)
    known = {(r["round"], r["player1_id"], r["player2_id"]) for r in stored}
    codes = {r["code"] for r in stored}
    added = 0
    for game in _engine_games(engine):
        row = (game["round"], ids[game["first"]], ids[game["second"]])
        if game.get("code") in codes or ("code" not in game and row in known):
            continue
        code = game.get("code") or _next_code(codes, game["round"])
        codes.add(code)
        store.matches.insert(tournament_id, {"code": code, "round": game["round"],
                                             "player1": row[1], "player2": row[2]})
        added += 1
    return added


def refuse_if_drawn_on(store: Store, match: dict, slot: int) -> None:
    """A corrected result the draw has gone on from cannot be undone here: a changed winner
    once a later game of either player is drawn, a group score once the knockout is."""
    tid = match["tournament_id"]
    name = store.tournaments.plan(tid).get("format")
    if not is_drawn(store, tid):
        return
    later = store.matches.later_of_players(match)
    knockout = name == "groups" and not match["code"].startswith("K") and store.db.one(
        "SELECT code FROM matches WHERE tournament_id = ? AND code LIKE 'K%' LIMIT 1", tid)
    changed = match["player%d_id" % slot] != match["winner_id"]
    blocking = knockout or (later if changed else None)
    if blocking:
        raise StoreError("the %s was drawn on from %s's result (%s came after it); it "
                         "cannot be changed now" % (name, match["code"], blocking["code"]))


def _engine_games(engine: Any) -> list[dict]:
    """Every game both of whose players are known, in the engine's creation order."""
    if isinstance(engine, Hakukaavio):
        return [g.as_dict() for g in engine.games if g.second is not None]
    if isinstance(engine, Double):
        return engine.games()
    return [dict(g) for g in engine.games]


def _next_code(codes: set, round_: int) -> str:
    number = 1
    while "R%d-%02d" % (round_, number) in codes:
        number += 1
    return "R%d-%02d" % (round_, number)
