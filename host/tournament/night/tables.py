"""The tables of the night: a match queued at a table by the director, every free table given
the waiting match whose players are free and have waited longest since their last game
(lists.pick_next; or one table: start_next), a match taken off its table before it started
(unassign), a table removed (its queue goes to the others) or its board released."""

from __future__ import annotations

from host.i18n import _
from host.tournament import formats
from host.tournament.formats import lists
from host.tournament.night.how import Refused
from host.tournament.night.in_play import playing
from host.tournament.store import Store, StoreError


def assign(store: Store, tournament_id: int, code: str, table: int) -> int:
    """Queue a match at a table (moving it if it was queued elsewhere); returns its place in
    the queue, 1 being the match the table plays now."""
    if table < 1:
        raise StoreError(_("tables are numbered from 1"))
    with store.db.transaction():
        match = store.matches.get(tournament_id, code)
        if match["winner_id"] is not None:
            raise StoreError(_("match %(match)s is finished already") % {"match": code})
        if None in (match["player1_id"], match["player2_id"]):
            raise StoreError(_("match %(match)s waits for the winners of earlier matches; "
                               "assign it when both players are known") % {"match": code})
        store.tables.queue(tournament_id, match["id"], table)
        return len(store.tables.schedule(tournament_id, table))


def assign_free_tables(store: Store, tournament_id: int, first: int | None = None) -> list[tuple]:
    """Give every table with nothing queued (`first` before the others) the next waiting
    match whose players are free. Returns the (match code, table) pairs assigned."""
    with store.db.transaction():
        return fill_tables(store, tournament_id, first)


def fill_tables(store: Store, tournament_id: int, first: int | None) -> list[tuple]:
    """(Inside a transaction.) As assign_free_tables."""
    numbers = store.tables.numbers(tournament_id)
    if first in numbers:
        numbers.remove(first)
        numbers.insert(0, first)
    free = [n for n in numbers if not store.tables.schedule(tournament_id, n)]
    if not free:
        return []
    given = lists.fill(free, store.tables.waiting(tournament_id),
                       store.tables.busy(tournament_id), in_order(store, tournament_id),
                       last_games(store, tournament_id))
    for match, number in given:
        store.tables.queue(tournament_id, match["id"], number)
    return [(match["code"], number) for match, number in given]


def in_order(store: Store, tournament_id: int) -> bool:
    """A player's games are played in their order of play (the drawn formats)."""
    return store.tournaments.format(tournament_id) in formats.DRAWN


def last_games(store: Store, tournament_id: int) -> dict[int, int]:
    """player id -> when his last game finished, as the number of its first entry in the
    store (entries are numbered as they come): the rest a free table's choice weighs
    (lists.pick_next). A walkover is no game: its winner has waited on since his last one."""
    last: dict[int, int] = {}
    for row in store.db.rows(
            "SELECT m.player1_id, m.player2_id, r.id FROM matches m JOIN results r ON r.id = "
            "(SELECT MIN(id) FROM results WHERE match_id = m.id) WHERE m.tournament_id = ? "
            "AND r.kind != 'walkover'", tournament_id):
        for player in (row["player1_id"], row["player2_id"]):
            if player is not None and row["id"] > last.get(player, 0):
                last[player] = row["id"]
    return last


def start_next(store: Store, tournament_id: int, table: int | None = None) -> tuple[str, int]:
    """The next match (as fill_tables picks it: its players have waited longest) queued at
    `table`, or at the first table with nothing queued. Returns (its code, the table)."""
    with store.db.transaction():
        numbers = store.tables.numbers(tournament_id)
        if table is not None and table not in numbers:
            raise StoreError(no_table(table, numbers))
        free = [n for n in numbers if not store.tables.schedule(tournament_id, n)]
        if table is None and not free:
            raise StoreError(_("every table has a match; pick a table to queue the next one "
                               "at"))
        number = table if table is not None else free[0]
        match = lists.pick_next(store.tables.waiting(tournament_id),
                                store.tables.busy(tournament_id),
                                in_order(store, tournament_id), last_games(store, tournament_id))
        if match is None:
            raise StoreError(_("no waiting match can start now: its players are at tables or "
                               "wait for earlier matches"))
        store.tables.queue(tournament_id, match["id"], number)
        return match["code"], number


def no_table(number: int, numbers: list[int]) -> str:
    return _("there is no table %(table)d (tables: %(tables)s)") % {
        "table": number, "tables": ", ".join(map(str, numbers)) or _("none")}


def unassign(store: Store, tournament_id: int, code: str) -> int:
    """A match queued at a table and not started taken off it (back to waiting; it is not
    given to a free table again until the tables are filled). Returns the table it was at.
    Refused if its board has started it (night/in_play.py)."""
    with store.db.transaction():
        match = store.matches.get(tournament_id, code)
        if match["winner_id"] is not None or match["outcome"] is not None:
            raise StoreError(_("match %(match)s is decided already") % {"match": code})
        if match["table_number"] is None:
            raise StoreError(_("match %(match)s is not at a table") % {"match": code})
        why = playing(store, tournament_id, match)
        if why:  # (its words may name a way out: night/how.py)
            raise Refused(_("%(why)s: it cannot be taken off its table (a walkover or void "
                            "decides it)") % {"why": why})
        store.tables.unqueue_match(match["id"])
        return match["table_number"]


def remove_table(store: Store, tournament_id: int, number: int) -> list[str]:
    """The table is no longer used: its waiting matches go back to the queue (and on to the
    free tables), its board is released. Returns the matches it had queued."""
    with store.db.transaction():
        numbers = store.tables.numbers(tournament_id)
        if number not in numbers:
            raise StoreError(no_table(number, numbers))
        queued = [m["match_id"] for m in store.tables.schedule(tournament_id, number)]
        store.tables.unqueue(tournament_id, number)
        store.tables.remove(tournament_id, number)
        store.boards.release(tournament_id, number)
        fill_tables(store, tournament_id, None)
    return queued


def release_table(store: Store, tournament_id: int, number: int) -> str | None:
    """Forget which board holds the table (it broke, another takes its place); returns the
    board that held it."""
    with store.db.transaction():
        holder = store.boards.holder(tournament_id, number)
        store.boards.release(tournament_id, number)
    return holder
