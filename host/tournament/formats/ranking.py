"""The final ranking of each format, free of storage: one definition per format
(docs/formats.md, "The final ranking"), the same rows for `pilkku standings`, `pilkku bracket`
and the hall. While a tournament runs it is the ranking so far, by the same rules.

    league(players, games)            round robin, imported list: wins, then lists.league's ties
    knockout(players, matches)        single elimination: the round a player went out in
    drawn(engine, games, registered)  double, groups, hakukaavio: the engine's placings()

Each gives rows in order: {place, player, played, won, lost, for, against, difference, out}.
Players level on every key share a place: its number repeats (1, 2, 3, 3, 5). `out` says
where a player went out ("round 4", "losers' round 3", "semi-final", "group place 3"), None
while he is in (and for the winner). A game is a dict {player1, player2, winner, score1,
score2}: player2 None is a walkover (won by player1), winner None a game lost by both.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from host.tournament.formats import lists
from host.tournament.formats.double import Double
from host.tournament.formats.groups import Groups
from host.tournament.formats.hakukaavio import Hakukaavio

FIGURES = ("played", "won", "lost", "for", "against", "difference")
DOUBLE_STAGES = {"final": "grand final", "reset": "grand final, reset"}


def tally(players: Iterable[Hashable], games: Iterable[dict]) -> dict[Any, dict]:
    """Each player's played, won, lost, for, against and difference over `games`."""
    rows: dict[Any, dict] = {p: dict.fromkeys(FIGURES, 0) for p in players}
    for game in games:
        sides = [(game["player1"], game["score1"] or 0, game["score2"] or 0)]
        if game["player2"] is not None:
            sides.append((game["player2"], game["score2"] or 0, game["score1"] or 0))
        winner = game["player1"] if game["player2"] is None else game["winner"]
        for player, mine, theirs in sides:
            row = rows[player]
            row["played"] += 1
            row["won" if player == winner else "lost"] += 1
            row["for"] += mine
            row["against"] += theirs
    for row in rows.values():
        row["difference"] = row["for"] - row["against"]
    return rows


def _placed(order: Sequence[tuple[Any, Any, str | None]], figures: dict) -> list[dict]:
    """Rows from (player, key, out) in ranked order: a key equal to the row before's shares
    its place (a key of None never shares)."""
    rows: list[dict] = []
    for index, (player, key, out) in enumerate(order):
        shares = index and key is not None and order[index - 1][1] == key
        rows.append(dict({"place": rows[-1]["place"] if shares else index + 1,
                          "player": player}, **figures[player], out=out))
    return rows


def league(players: Sequence[Any], games: Iterable[dict]) -> list[dict]:
    """A round robin or an imported list: lists.league's order (wins, difference,
    head-to-head among those level, points or racks for, then the players' order); players
    level on all four share a place."""
    games = list(games)
    figures = tally(players, games)
    ranked = lists.league(players, [dict(g, score1=g["score1"] or 0, score2=g["score2"] or 0)
                                    for g in games])
    return _placed([(r.player, (r.won, r.difference, r.head_to_head, r.scored), None)
                    for r in ranked], figures)


def _stage_name(number: int, last: int) -> str:
    return {0: "final", 1: "semi-final", 2: "quarter-final"}.get(last - number,
                                                                  "round %d" % number)


def knockout(players: Sequence[Any], matches: Sequence[dict]) -> list[dict]:
    """Single elimination: the champion, then the players still in (sharing a place), then
    by the round a player went out in, later first; those out in the same round share a
    place (3, 3, 5, 5, 5, 5). `matches` also carry their `round`; the last round is the
    final."""
    played = [m for m in matches if m["winner"] is not None and m["player2"] is not None]
    figures = tally(players, played)
    last = max((m["round"] for m in matches), default=0)
    final = [m for m in matches if m["round"] == last and m["winner"] is not None]
    champion = final[0]["winner"] if final else None
    out = {(m["player2"] if m["winner"] == m["player1"] else m["player1"]): m["round"]
           for m in played}
    order = [p for p in players if p == champion]
    order += [p for p in players if p != champion and p not in out]
    order += sorted((p for p in players if p in out), key=lambda p: -out[p])
    return _placed([(p, ("champion",) if p == champion else ("in",) if p not in out
                     else ("out", out[p]), _stage_name(out[p], last) if p in out else None)
                    for p in order], figures)


def drawn(engine: Any, games: Iterable[dict], registered: Sequence[int]) -> list[dict]:
    """A drawn format, by its engine's placings() (the places as the engine gives them, ties
    shared there). `games`: the decided games in the engine's numbers (a hakukaavio counts
    its own list, walkovers and games lost by both included); `registered`: the numbers in
    registration order (a hakukaavio's ties keep it)."""
    if isinstance(engine, Hakukaavio):
        figures = tally(registered, [_game_row(g) for g in engine.games if g.result is not None])
        return [dict({"place": r["place"], "player": r["player"]}, **figures[r["player"]],
                     out=None if r["out"] is None else "round %d" % r["out"])
                for r in engine.placings(registered=registered)]
    figures = tally(range(1, engine.count + 1), games)
    rows = []
    for r in engine.placings():
        if isinstance(engine, Double):
            stage = r["out"]
            out = None if stage is None else (DOUBLE_STAGES.get(stage[0])
                                              or "%s' round %d" % stage)
        elif isinstance(engine, Groups):
            out = r["out"]
        else:
            raise ValueError("no ranking for %r" % (engine,))
        rows.append(dict({"place": r["place"], "player": r["player"]}, **figures[r["player"]],
                         out=out))
    return rows


def _game_row(game: Any) -> dict:
    """A hakukaavio game as a game dict (result 0: lost by both)."""
    winner = {1: game.first, 2: game.second}.get(game.result)
    return {"player1": game.first, "player2": game.second, "winner": winner,
            "score1": game.points[0], "score2": game.points[1]}
