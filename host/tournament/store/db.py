"""The store's connection: opening a store file (creating and migrating it), transactions, the
revision every write moves on (and the facts' revision, which the boards' live scores leave),
and the base of the store's parts (they share one connection)."""

from __future__ import annotations

import os
import shlex
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from host.i18n import N_, _
from host.tournament.store.schema import StoreError, default_path, dicts, ensure_revision, migrate

Opened = TypeVar("Opened", bound="Database")
BUSY_SECONDS = 10  # how long a command waits for another one's write to end


def _busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def busy_text(where: Path) -> str:
    """What to tell a director whose command found the store locked by another one."""
    args = sys.argv[1:] if Path(sys.argv[0]).name == "pilkku" else []
    command = " ".join(["pilkku"] + [shlex.quote(a) for a in args]) if args else _(
        "the command")
    return _("the store %(store)s is busy: another pilkku command (a sync?) has been writing to "
             "it for over %(seconds)d s; nothing was changed: run `%(command)s` again when it "
             "is done") % {"store": where, "seconds": BUSY_SECONDS, "command": command}


# SQLite's own reasons (English whatever the locale), said in the CLI's language.
_SQLITE = {"unable to open database file": N_("the file cannot be opened"),
           "file is not a database": N_("the file is not a database"),
           "database disk image is malformed": N_("the database file is damaged")}


def _reason(error: Exception) -> str:
    return _(_SQLITE[str(error)]) if str(error) in _SQLITE else str(error)


def not_a_store(where: Path, error: Exception) -> str:
    return _("%(store)s is not a pilkku store (%(why)s); give another file with --db") % {
        "store": where, "why": _reason(error)}


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
            raise StoreError(_("cannot open the store %(store)s: %(why)s") % {
                "store": where, "why": _reason(error)}) from None
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            migrate(conn)
            ensure_revision(conn)
        except sqlite3.OperationalError as error:
            conn.close()
            if _busy(error):
                raise StoreError(busy_text(where)) from None
            raise StoreError(not_a_store(where, error)) from None
        except sqlite3.DatabaseError as error:
            conn.close()
            raise StoreError(not_a_store(where, error)) from None
        except StoreError:
            conn.close()
            raise
        return cls(conn, where)

    def copy_to(self, path: Path) -> None:
        """The whole store written to a new file at `path`, as it stands now (SQLite's online
        backup: a consistent copy while others write), e.g. to try a change on it."""
        target = sqlite3.connect(path)
        try:
            self.conn.backup(target)
        finally:
            target.close()

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

    def facts(self) -> int:
        """The revision of the store's facts: every write but a board's live state and a
        sync's "last seen" moves it on (schema.NOT_FACTS): what is kept per revision is kept
        by it, not redone at each live score while boards play."""
        return self.conn.execute("SELECT facts FROM revision").fetchone()[0]

    def one(self, sql: str, *args: Any) -> dict | None:
        row = self.conn.execute(sql, args).fetchone()
        return dict(row) if row is not None else None

    def rows(self, sql: str, *args: Any) -> list[dict]:
        return dicts(self.conn.execute(sql, args))


class Part:
    """One part of the store (store/__init__.py): the connection it shares with the others,
    and the parts it reads from handed in."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn
