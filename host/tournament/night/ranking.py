"""The night's ranking, read from the store: the one list every reader shows (`pilkku
standings`, `pilkku bracket`, their --json and --csv, the hall). The rules are the format's
(formats/ranking.py, docs/formats.md "The final ranking"); here the store's matches are
turned into the format's games and the players' numbers back into names.

    final_ranking(store, tournament_id) -> [{place, player, played, won, lost, for, against,
                                             difference, out, withdrawn}]
    standings(store, tournament_id)     -> {"final", "title", "ranking", "not_counted"}

Until the tournament has ended this is the ranking so far ("standings so far"), by the same
rules. A round robin or an imported list counts only results whose signature verifies (the
others are listed as not counted); a drawn format ranks what its draw went on from. A void
match counts for nobody; a match lost by both is a loss to each.
"""

from __future__ import annotations

from host.tournament import formats
from host.tournament.formats import ranking
from host.tournament.night.engine import engine_of
from host.tournament.store import Store

FINAL = "final ranking"
SO_FAR = "standings so far"


def final_ranking(store: Store, tournament_id: int) -> list[dict]:
    """The ranking (so far, while the tournament runs), best first, with names."""
    return standings(store, tournament_id)["ranking"]


def standings(store: Store, tournament_id: int) -> dict:
    """The ranking, whether it is final, its title, and the results not counted."""
    checked = store.results.all(tournament_id)
    not_counted = [{"match": r["match"], "board": r["board"],
                    "check": "FAILED" if r["verified"] is False else "unsigned"}
                   for r in checked if not r["verified"]]
    players = store.players.all(tournament_id)
    names = {p["id"]: p["name"] for p in players}
    matches = [m for m in store.matches.all(tournament_id) if m["outcome"] != "void"]
    name = store.tournaments.format(tournament_id)
    if name in formats.ENGINES and store.tournaments.plan(tournament_id).get("numbers"):
        engine, numbers = engine_of(store, tournament_id)
        games = [_game(m, numbers) for m in matches if m["winner_id"] is not None]
        rows = ranking.drawn(engine, games, [numbers[p["id"]] for p in players])
        by_number = {n: pid for pid, n in numbers.items()}
        for row in rows:
            row["player"] = by_number[row["player"]]
        final = engine.finished()
    elif name == "bracket":
        rows = ranking.knockout([p["id"] for p in players], [_game(m) for m in matches])
        last = max((m["round"] for m in matches), default=0)
        final = any(m["round"] == last and m["winner_id"] is not None for m in matches)
    else:
        counted = {r["match"] for r in checked if r["verified"]}
        rows = ranking.league([p["id"] for p in players],
                              [_game(m) for m in matches if m["code"] in counted
                               and (m["winner_id"] is not None or m["outcome"])])
        final = bool(matches) and all(m["winner_id"] is not None or m["outcome"]
                                      for m in matches)
    withdrawn = store.players.withdrawn(tournament_id)
    for row in rows:
        row["withdrawn"] = row["player"] in withdrawn
        row["player"] = names[row["player"]]
    return {"final": final, "title": FINAL if final else SO_FAR, "ranking": rows,
            "not_counted": not_counted}


def _game(match: dict, numbers: dict[int, int] | None = None) -> dict:
    """A stored match as a format's game (player ids, or the engine's numbers)."""
    ids = [match[k] for k in ("player1_id", "player2_id", "winner_id")]
    if numbers is not None:
        ids = [None if i is None else numbers[i] for i in ids]
    return {"player1": ids[0], "player2": ids[1], "winner": ids[2], "round": match["round"],
            "score1": match["score1"], "score2": match["score2"]}
