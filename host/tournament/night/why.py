"""The hakukaavio's next pairings and why each was drawn (issue 28, item 2): the games still to
play, each with the rule that gave it — the opening (§3), the search (the fast search's
searcher and the partners it passed over, or the exhaustive search's scores:
formats/hakukaavio_why.py), pilkku's rule for a stuck draw, or the director's manual pairing
(night/pairing.py) with its reason. Read by replaying the night's results into a fresh engine
as the correction's plan does (night/draw_replay.py), the search watched at each draw.

    next_pairings(store, tid) -> [{"match", "round", "players", "state", "why"}, ...]
"""

from __future__ import annotations

from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.formats.hakukaavio_why import why as search_why
from host.tournament.night import draw_replay as dr
from host.tournament.night.consequences import _fresh, _manual, _read
from host.tournament.night.engine import is_drawn
from host.tournament.store import Store


def next_pairings(store: Store, tid: int) -> list[dict]:
    """The hakukaavio's undecided games in order of play (state "waiting", "queued" at a
    table, or "playing" on its board), each with why it was drawn; [] for other formats."""
    plan = store.tournaments.plan(tid)
    if plan.get("format") != "hakukaavio" or not is_drawn(store, tid):
        return []
    numbers = {int(k): v for k, v in plan["numbers"].items()}
    names = {p["id"]: p["name"] for p in store.players.all(tid)}
    stored = _read(store, tid, -1)
    engine = _fresh(store, tid)
    reasons = _watch(engine)
    run = dr.replay(engine, stored, numbers, {}, _manual(store, tid, stored))
    by_stored = {row.stored: (game, row) for game, row in run.made if row.stored is not None}
    manual = {p["match_id"]: p for p in plan.get("pairings", [])}
    ids = {n: pid for pid, n in numbers.items()}
    shown = []
    for s in stored:
        if s.outcome is not None:
            continue
        game, row = by_stored.get(s.id, (None, None))
        if s.id in manual:
            reason = {"how": "manual", "reason": manual[s.id]["reason"],
                      "overridden": manual[s.id].get("overridden", [])}
        elif row is not None and row.after == 0:
            reason = {"how": "opening", "round": s.round}
        else:
            reason = _named(reasons.get(id(game), {"how": "unknown"}), ids, names)
        shown.append({"match": s.code, "round": s.round,
                      "players": [names.get(p) for p in s.players],
                      "state": "playing" if s.playing else "queued" if s.table else "waiting",
                      "table": s.table, "why": reason})
    return shown


def _watch(engine: Hakukaavio) -> dict[int, dict]:
    """The engine's draws watched: id(game) -> why the search drew it (each game kept
    alive in `reasons`' "game" so that no other takes its id)."""
    reasons: dict[int, dict] = {}
    real = engine.run_draw

    def run_draw():
        found = search_why(engine.games, engine.count, engine.knockout)
        made = real()
        for game in made:
            a, b = sorted(game.players())  # (a drawn game has two)
            reasons[id(game)] = dict(found.get((a, b), {"how": "unknown"}), game=game)
        return made

    engine.run_draw = run_draw  # type: ignore[method-assign]
    return reasons


def _named(reason: dict, ids: dict[int, int], names: dict[int, str]) -> dict:
    """The reason with the players' numbers given as their names."""
    def name(number: int) -> str:
        return names.get(ids.get(number, -1), "?")

    named = {k: v for k, v in reason.items() if k != "game"}
    if "first" in named:
        named["first"] = name(named["first"])
    if "passed" in named:
        named["passed"] = [(name(p), test) for p, test in named["passed"]]
    if "scores" in named:
        named["scores"] = [("%s – %s" % (name(a), name(b)), score)
                           for (a, b), score in named["scores"]]
    return named
