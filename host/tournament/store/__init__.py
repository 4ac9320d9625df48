"""The tournament store: one SQLite file (standard library) holding tournaments, players,
tables, matches, results, the boards' chains of signed results, their live states and the
results that came damaged. It keeps; it decides nothing: what follows a result, a correction or
a withdrawal is the director's operations' (host/tournament/night/).

    store = Store.open(path=None)   # path: --db, else $PILKKU_DB, else ./pilkku.db; creates the
                                    # file and applies pending migrations (schema.py)
    store.tournaments   new, get(name=None) (the latest), all, by_id, key (the pairing key),
                        plan / set_plan (the format and its options), format / set_format
    store.players       add, all, get(name), names(match), known, order, slot_of, rename,
                        withdraw, withdrawn
    store.matches       get(code), all (in order of play), insert, link, open, decide,
                        undo_advance, later_of_players, codes, decided_codes
    store.tables        ensure, numbers, queue, unqueue, remove, waiting, busy, schedule(table)
    store.boards        note, all, holder, release
    store.results       take (a log, checked), entry / director_document / replace (the
                        director's signed entries), current(code), all, problems, verify,
                        history
    store.chains        record, links, last, ok, problems (docs/security.md)
    store.damaged       record, all, problems, settle, waits_for (docs/journal.md)
    store.live          put, silent, states (the boards' live states, `pilkku sync --watch`)
    store.people        complete, add, find, link_tournament, join, joins (a person across
                        the store's tournaments, store/people.py)
    store.series        the ranking series and their point tables (store/series.py)
    store.db            the connection: transaction(), revision() (every write moves it)

Each part is a small object over the one connection, handed the parts it reads from; a
change of several parts is one transaction (`with store.db.transaction():`). Errors are
StoreError (its text says what to do); ImportRefused carries one "line N: reason" per bad
line; ResultRefused says why a result was not taken.
"""

from __future__ import annotations

import os

from host.tournament.store.chain import Chains
from host.tournament.store.damaged import Damaged
from host.tournament.store.db import Database
from host.tournament.store.live import Live
from host.tournament.store.matches import Matches
from host.tournament.store.people import People
from host.tournament.store.players import Players
from host.tournament.store.results import Results
from host.tournament.store.schema import ImportRefused, ResultRefused, StoreError
from host.tournament.store.series import Series
from host.tournament.store.tables import Boards, Tables
from host.tournament.store.tournaments import Tournaments

__all__ = ["ImportRefused", "ResultRefused", "Store", "StoreError"]


class Store:
    """The store's parts over one connection."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.tournaments = Tournaments(db)
        self.players = Players(db)
        self.matches = Matches(db)
        self.tables = Tables(db)
        self.boards = Boards(db)
        self.chains = Chains(db)
        self.damaged = Damaged(db, self.matches, self.players)
        self.results = Results(db, self.tournaments, self.players, self.matches, self.chains,
                               self.damaged)
        self.live = Live(db)
        self.people = People(db)
        self.series = Series(db)

    @classmethod
    def open(cls, path: str | os.PathLike | None = None) -> Store:
        return cls(Database.open(path))

    @property
    def path(self):
        return self.db.path

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
