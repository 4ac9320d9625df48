"""The tournament store's schema as it is opened: its migrations applied in order
(store/migrations.py holds them and the schema they make), the store's revision kept by
triggers on every table, and the store's errors."""

from __future__ import annotations

import os
import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from host.i18n import _
from host.tournament.store.migrations import MIGRATIONS, REBUILDS

DEFAULT_PATH = "pilkku.db"
ENV_PATH = "PILKKU_DB"
SCHEMA_VERSION = MIGRATIONS[-1][0]


class StoreError(Exception):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class ImportRefused(StoreError):
    """A file refused whole; `problems` holds "line N: reason" for each bad line."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


class ResultRefused(StoreError):
    pass


def default_path() -> Path:
    return Path(os.environ.get(ENV_PATH) or DEFAULT_PATH)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def schema_version(conn: sqlite3.Connection) -> int:
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                         "AND name = 'schema_version'").fetchone()
    if not found:
        return 0
    return conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Apply the migrations above the file's version up to `target`, each atomically. Many
    processes may open a new store at once: each step takes the write lock first and reads the
    version again under it, so a step another process has applied meanwhile is skipped."""
    current = schema_version(conn)
    if current > SCHEMA_VERSION:
        raise StoreError(_("this store has schema version %(version)d, newer than this pilkku "
                           "knows (%(known)d): update pilkku") % {"version": current,
                                                                  "known": SCHEMA_VERSION})
    for version, script in MIGRATIONS:
        if current < version <= target:
            rebuild = version in REBUILDS
            if rebuild:  # (only outside a transaction does this pragma take effect)
                conn.execute("PRAGMA foreign_keys = OFF")
            conn.execute("BEGIN IMMEDIATE")
            try:
                if schema_version(conn) < version:
                    if callable(script):
                        script(conn)
                    else:
                        for statement in _statements(script):
                            conn.execute(statement)
                    if rebuild and conn.execute("PRAGMA foreign_key_check").fetchone():
                        raise StoreError(_("migration %(version)d would break the store's "
                                           "references; nothing was changed") % {
                            "version": version})
                    conn.execute("INSERT INTO schema_version VALUES (?, ?)", (version, now()))
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            finally:
                if rebuild:
                    conn.execute("PRAGMA foreign_keys = ON")
            current = version
    return current


# The store's revision: one number that every write moves on, in the same transaction, by
# triggers on every table (AFTER INSERT, UPDATE, DELETE). The hall pushes its pages when it
# moves, so whatever a page shows reaches it, whichever code wrote it. The triggers are made on
# open for every table that lacks them (ensure_revision), so a table a later migration adds, or
# rebuilds, gets them too: no code path and no migration can forget them.
REVISION = ("CREATE TABLE IF NOT EXISTS revision (id INTEGER PRIMARY KEY CHECK (id = 1), "
            "n INTEGER NOT NULL, facts INTEGER NOT NULL DEFAULT 0)")
# The facts' revision (revision.facts) moves with every write but the boards' live scores and
# a sync's "last seen" (table -> the columns that leave it, None: all): boards at play move the
# revision several times a second, and what is read once per revision (store/per_revision.py:
# the results verified, the engine, the open matches) and the table's matches the watcher
# sends do not depend on them; they are kept by this one.
NOT_FACTS: dict[str, tuple[str, ...] | None] = {"live": None, "boards": ("last_seen",)}
# Columns whose writes alone do not move it: a board's heartbeat, written by `pilkku sync
# --watch` each second per board. Whether a board still answers is judged from it and the clock
# by the hall at each look; moving the revision with it would re-render every watched page
# each second for nothing.
HEARTBEATS = {"live": ("answered_ms",)}
_NAME = re.compile(r"[a-z_][a-z0-9_]*", re.ASCII)


def revision_triggers(conn: sqlite3.Connection) -> dict[str, str]:
    """name -> CREATE TRIGGER statement, for every trigger the revision needs on the tables
    the store has now."""
    wanted = {}
    tables = [row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' "
        "AND name != 'revision' ORDER BY name")]
    for table in tables:
        if not _NAME.fullmatch(table):
            continue  # not a table of pilkku's: no SQL is made of its name
        columns = [row[1] for row in conn.execute("PRAGMA table_info(%s)" % table)
                   if _NAME.fullmatch(row[1])]
        for event in ("INSERT", "UPDATE", "DELETE"):
            name = "revision_%s_%s" % (table, event.lower())
            when, facts = "", ", facts = facts + 1"
            if event == "UPDATE" and table in HEARTBEATS:
                when = " WHEN " + _changed([c for c in columns if c not in HEARTBEATS[table]])
            leave = NOT_FACTS.get(table, ())
            if leave is None:
                facts = ""
            elif leave and event == "UPDATE":
                facts = ", facts = facts + (%s)" % _changed([c for c in columns
                                                             if c not in leave])
            wanted[name] = ("CREATE TRIGGER %s AFTER %s ON %s%s BEGIN "
                            "UPDATE revision SET n = n + 1%s; END" % (name, event, table, when,
                                                                      facts))
    return wanted


def _changed(columns: list[str]) -> str:
    return " OR ".join("OLD.%s IS NOT NEW.%s" % (c, c) for c in columns)


def _revision_as_wanted(conn: sqlite3.Connection) -> tuple[dict[str, str], dict[str, str]]:
    have = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                             "AND name LIKE 'revision!_%' ESCAPE '!'").fetchall())
    made = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                        "AND name = 'revision'").fetchone()
    return have, (revision_triggers(conn) if made else {})


def ensure_revision(conn: sqlite3.Connection) -> None:
    """Make the revision and its triggers where they are missing or no longer fit their
    table's columns (a look at the schema on each open; a write only when something lacks)."""
    have, wanted = _revision_as_wanted(conn)
    if wanted and have == wanted:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(REVISION)
        if "facts" not in [row[1] for row in conn.execute("PRAGMA table_info(revision)")]:
            conn.execute("ALTER TABLE revision ADD COLUMN facts INTEGER NOT NULL DEFAULT 0")
        conn.execute("INSERT OR IGNORE INTO revision (id, n) VALUES (1, 0)")
        have, wanted = _revision_as_wanted(conn)  # again, under the write lock
        for name, sql in have.items():
            if wanted.get(name) != sql:
                conn.execute('DROP TRIGGER "%s"' % name.replace('"', '""'))
        for name, sql in wanted.items():
            if have.get(name) != sql:
                conn.execute(sql)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """A migration's statements one by one (executescript would commit the lock away)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        statements.append(pending.strip())
    return statements


def dicts(rows) -> list[dict]:
    return [dict(row) for row in rows]
