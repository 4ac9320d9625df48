"""The store's connection: opening a store file (creating and migrating it), transactions, and
the lookups every part of the store needs (a tournament, its key, a match by its code)."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from host.tournament.imports import shown
from host.tournament.schema import StoreError, default_path, dicts, ensure_revision, migrate

Opened = TypeVar("Opened", bound="Database")
BUSY_SECONDS = 10  # how long a command waits for another one's write to end


def _busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def busy_text(where: Path) -> str:
    """What to tell a director whose command found the store locked by another one."""
    args = sys.argv[1:] if Path(sys.argv[0]).name == "pilkku" else []
    command = " ".join(["pilkku"] + [shlex.quote(a) for a in args]) if args else "the command"
    return ("the store %s is busy: another pilkku command (a sync?) has been writing to it for "
            "over %d s; nothing was changed: run `%s` again when it is done"
            % (where, BUSY_SECONDS, command))


class Database:
    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls: type[Opened], path: str | os.PathLike | None = None) -> Opened:
        where = Path(path) if path else default_path()
        try:
            conn = sqlite3.connect(where, isolation_level=None, timeout=BUSY_SECONDS)
        except sqlite3.Error as error:
            raise StoreError("cannot open the store %s: %s" % (where, error)) from None
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            migrate(conn)
            ensure_revision(conn)
        except sqlite3.OperationalError as error:
            conn.close()
            if _busy(error):
                raise StoreError(busy_text(where)) from None
            raise StoreError("%s is not a pilkku store (%s); give another file with --db"
                             % (where, error)) from None
        except sqlite3.DatabaseError as error:
            conn.close()
            raise StoreError("%s is not a pilkku store (%s); give another file with --db"
                             % (where, error)) from None
        except StoreError:
            conn.close()
            raise
        return cls(conn, where)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self: Opened) -> Opened:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE takes the write lock first, so sync and a command never interleave."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if _busy(error):
                raise StoreError(busy_text(self.path)) from None
            raise
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def revision(self) -> int:
        """The store's revision: every write to it moves it on (schema.ensure_revision)."""
        return self.conn.execute("SELECT n FROM revision").fetchone()[0]

    def _one(self, sql: str, *args: Any) -> dict | None:
        row = self.conn.execute(sql, args).fetchone()
        return dict(row) if row is not None else None

    def tournament(self, name: str | None = None) -> dict:
        """The tournament named, or the latest one created."""
        if name is None:
            row = self._one("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1")
            if row is None:
                raise StoreError("no tournament in %s yet: start one with `pilkku tournament "
                                 "new NAME --game 9ball --race 5`" % self.path)
        else:
            row = self._one("SELECT * FROM tournaments WHERE name = ?", name)
            if row is None:
                known = ", ".join(t["name"] for t in self.tournaments()) or "none"
                raise StoreError("no tournament named '%s' (known: %s)" % (shown(name), known))
        row["rules"] = json.loads(row["rules"])
        del row["pairing_key"]  # kept out of listings; ask pairing_key() for it
        return row

    def tournaments(self) -> list[dict]:
        return dicts(self.conn.execute(
            "SELECT t.id, t.name, t.game, t.race_to, t.format, t.created, "
            "(SELECT COUNT(*) FROM players WHERE tournament_id = t.id) AS players, "
            "(SELECT COUNT(*) FROM matches WHERE tournament_id = t.id) AS matches "
            "FROM tournaments t ORDER BY t.id"))

    def pairing_key(self, tournament_id: int) -> bytes:
        row = self.conn.execute("SELECT pairing_key FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        if row is None:
            raise StoreError("no tournament with id %d" % tournament_id)
        return bytes(row[0])

    def tournament_by_id(self, tournament_id: int) -> dict:
        row = self._one("SELECT name FROM tournaments WHERE id = ?", tournament_id)
        if row is None:
            raise StoreError("no tournament with id %d" % tournament_id)
        return self.tournament(row["name"])

    def _match(self, tournament_id: int | None, code: str) -> dict:
        if tournament_id is None:
            row = self._one("SELECT * FROM matches WHERE code = ? ORDER BY tournament_id DESC "
                            "LIMIT 1", code)
        else:
            row = self._one("SELECT * FROM matches WHERE tournament_id = ? AND code = ?",
                            tournament_id, code)
        if row is None:
            raise StoreError("no match '%s': `pilkku matches` lists them" % shown(code))
        return row
