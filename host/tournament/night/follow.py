"""What follows a decided match, whoever decided it (a board's result, the director's entry,
a walkover): the winner and score set, a bracket's winner moved on, the draw run (double,
groups, hakukaavio), a withdrawn player's next opponent given the walkover (the format's rule,
formats/withdrawal.py), and every free table (this one first) given its next match."""

from __future__ import annotations

from host.tournament.formats import withdrawal
from host.tournament.night.engine import draw_next, is_drawn
from host.tournament.night.tables import fill_tables
from host.tournament.store import Store

WITHDRAWN = "withdrawn"  # the reason of the walkovers a withdrawal gives


def decide(store: Store, match: dict, winner_id: int, score1: int, score2: int) -> None:
    """(Inside a transaction.)"""
    tournament_id = match["tournament_id"]
    store.matches.decide(match, winner_id, score1, score2)
    after_result(store, tournament_id)
    fill_tables(store, tournament_id, match["table_number"])


def after_result(store: Store, tournament_id: int) -> None:
    withdrawal_walkovers(store, tournament_id, WITHDRAWN)
    if is_drawn(store, tournament_id) and draw_next(store, tournament_id):
        # A new game may be between players who have withdrawn (a double's walkover losers
        # meet in the losers' bracket): decided now, not left at a table.
        withdrawal_walkovers(store, tournament_id, WITHDRAWN)


def walk_over(store: Store, tournament_id: int, match: dict, slot: int, reason: str) -> None:
    """The player in `slot` wins without playing: a signed entry by the director, the race
    to the winner, 0 to the other."""
    race = store.tournaments.by_id(tournament_id)["race_to"]
    score = (race, 0) if slot == 1 else (0, race)
    store.results.entry(tournament_id, match, store.results.director_document(
        match, "walkover", slot, score, reason, None), "walkover", reason)
    decide(store, match, match["player%d_id" % slot], score[0], score[1])


def withdrawal_walkovers(store: Store, tournament_id: int, reason: str) -> None:
    """Every open match of a withdrawn player that the format's rule gives away, given: to
    the one who did not withdraw, or when both did, to the one who left later."""
    withdrawn = store.players.withdrawn(tournament_id)
    if not withdrawn:
        return
    rule = withdrawal.rule_for(store.tournaments.format(tournament_id))
    for match in store.matches.open(tournament_id):
        a, b = match["player1_id"], match["player2_id"]
        if None in (a, b) or not withdrawn.keys() & {a, b}:
            continue
        if rule(match, set(withdrawn)) != "walkover":
            continue
        if a in withdrawn and b in withdrawn:
            slot = 1 if withdrawn[a] >= withdrawn[b] else 2
        else:
            slot = 2 if a in withdrawn else 1
        row = store.matches.get(tournament_id, match["code"])
        if row["winner_id"] is None:  # (an earlier walkover's advance may have decided it)
            walk_over(store, tournament_id, row, slot, reason)
