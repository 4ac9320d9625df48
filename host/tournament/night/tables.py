"""The tables of the night: a match queued at a table by the director, every free table given
the next waiting match whose players are free, a table removed (its queue goes to the others)
or its board released."""

from __future__ import annotations

from host.tournament import formats
from host.tournament.formats import lists
from host.tournament.store import Store, StoreError


def assign(store: Store, tournament_id: int, code: str, table: int) -> int:
    """Queue a match at a table (moving it if it was queued elsewhere); returns its place in
    the queue, 1 being the match the table plays now."""
    if table < 1:
        raise StoreError("tables are numbered from 1")
    with store.db.transaction():
        match = store.matches.get(tournament_id, code)
        if match["winner_id"] is not None:
            raise StoreError("match %s is finished already" % code)
        if None in (match["player1_id"], match["player2_id"]):
            raise StoreError("match %s waits for the winners of earlier matches; assign it "
                             "when both players are known" % code)
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
    in_order = store.tournaments.format(tournament_id) in formats.DRAWN
    done = []
    for number in numbers:
        if store.tables.schedule(tournament_id, number):
            continue
        match = lists.pick_next(store.tables.waiting(tournament_id),
                                store.tables.busy(tournament_id), in_order)
        if match is None:
            break
        store.tables.queue(tournament_id, match["id"], number)
        done.append((match["code"], number))
    return done


def remove_table(store: Store, tournament_id: int, number: int) -> list[str]:
    """The table is no longer used: its waiting matches go back to the queue (and on to the
    free tables), its board is released. Returns the matches it had queued."""
    with store.db.transaction():
        numbers = store.tables.numbers(tournament_id)
        if number not in numbers:
            raise StoreError("there is no table %d (tables: %s)" % (
                number, ", ".join(map(str, numbers)) or "none"))
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
