"""A tournament as a series sees it: its final ranking (night/ranking.py final_ranking, the one
ranking every reader uses: the rules are the night's, not repeated here) and its games, with
each player as the person they are (store/people.py).

    night(store, tournament_id, played) -> {"tournament", "tournament_id", "played", "final",
        "placings": [{person, name, place, withdrawn}],
        "games": [{code, winner, loser, score}]}   (persons; in order of play)

A player not linked to a person yet (entered after the night was added to a series) is
counted on a row of his own (minus his player id), never merged with anyone, until linked.

A game counts when it was played and won against an opponent: a walkover (the withdrawn
player's games given away too) has nobody beaten, a void game or one lost by both has no
winner, and a result the night's ranking does not count (its signature fails) is left out.
"""

from __future__ import annotations

from host.tournament.night.ranking import standings
from host.tournament.store import Store

NOT_PLAYED = {"walkover"}


def night(store: Store, tournament_id: int, played: str) -> dict:
    tournament = store.tournaments.by_id(tournament_id)
    ranked = standings(store, tournament_id)
    players = {p["name"]: p["id"] for p in store.players.all(tournament_id)}
    persons = store.people.of_tournament(tournament_id)
    def person(name: str | None) -> int | None:
        """The person, or for a player not linked yet minus his player id: a row of his own
        (never anyone else's) until he is linked."""
        if name is None:
            return None
        found = persons.get(players[name])
        return -players[name] if found is None else found

    placings = [{"person": person(row["player"]), "name": row["player"], "place": row["place"],
                 "withdrawn": bool(row.get("withdrawn"))} for row in ranked["ranking"]]
    skipped = {row["match"] for row in ranked["not_counted"]}
    kinds = {r["match"]: r["kind"] for r in store.results.all(tournament_id)}
    games = []
    for match in store.matches.all(tournament_id):
        if (match["winner"] is None or None in (match["player1"], match["player2"])
                or match["code"] in skipped or kinds.get(match["code"]) in NOT_PLAYED):
            continue
        loser = match["player2"] if match["winner"] == match["player1"] else match["player1"]
        games.append({"code": match["code"], "winner": person(match["winner"]),
                      "loser": person(loser), "score": (match["score1"], match["score2"]),
                      "players": (match["player1"], match["player2"])})
    return {"tournament": tournament["name"], "tournament_id": tournament_id, "played": played,
            "final": ranked["final"], "placings": placings, "games": games}
