"""The tournament store: one SQLite file (standard library) holding tournaments, players,
tables, matches, results and the boards' match logs. Every change is one transaction: an
import, a generated draw or a result is written whole or not at all.

The API `pilkku sync` and the tournament commands use:

    store = Store.open(path=None)       # path: --db, else $PILKKU_DB, else ./pilkku.db;
                                        # creates the file, applies pending migrations
    store.new_tournament(name, game, race_to, rules=None) -> int       # makes its pairing key
    store.tournament(name=None) -> dict       # the latest tournament, or the one named
    store.pairing_key(tournament_id) -> bytes # 32 random bytes, written to boards by pair/flash
    store.table_schedule(tournament_id, table) -> list[dict]
        # the matches queued at this table and not finished, next first, each
        # {"match_id": "R1-02", "round": 1 or None,
        #  "settings": {"game", "players": [two names], "race_to", "rules"}}
    store.record_result(match_id, document_text, board_id, hmac_hex, started, ended,
                        *, tournament_id=None) -> bool
        # stores a finished match log (the "pilkku.match/1" text exactly as received, its
        # bytes kept for the HMAC). True: recorded; False: this match already has this exact
        # document (sync delivered it twice). ResultRefused when the log does not replay, is
        # not finished, names other players/game/race/rules, or the match already has another
        # result. In the same transaction: winner and score from the replay, the bracket
        # winner advanced, and every free table (this one first) given its next waiting match.
        # tournament_id None: the latest tournament holding a match with this id.
    store.result(match_id, tournament_id=None) -> dict | None     # includes "id"
    store.verify_result(result_id, key) -> bool
        # HMAC-SHA256(key, stored document bytes) equals the stored hex, and a replay of the
        # stored document gives the stored winner and score: an edit of either is caught.
    store.note_board(tournament_id, board_id, table) / store.boards(tournament_id)  # v2

Errors are StoreError (its text says what to do); ImportRefused carries one "line N: reason"
per bad line; ResultRefused says why a result was not taken.

Schema (version in `schema_version`, one row per applied migration; MIGRATIONS run in order
on open, each in its own transaction):
  v1  tournaments(id, name, game, race_to, rules JSON, format, pairing_key, created)
      players(id, tournament_id, seed, name, club)
      tables(tournament_id, number)
      matches(id, tournament_id, code, round, seq, player1_id, player2_id, table_number,
              queued, winner_id, score1, score2, next_match_id, next_slot)
      results(id, match_id, document BLOB, board_id, hmac, started, ended, received)
  v2  boards(board_id, tournament_id, table_number, last_seen); index on the table queues
A match is finished when it has a winner; its table stays recorded (where it was played).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from host import tournament as formats
from rules_core import canon, matchlog
from rules_core.match import check_settings
from rules_core.refusal import Refused

DEFAULT_PATH = "pilkku.db"
ENV_PATH = "PILKKU_DB"
NAME_MAX = 40  # the board's limit for a player's name (rules_core.match)
CODE_MAX = 20

V1 = """
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TEXT NOT NULL);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    race_to INTEGER NOT NULL,
    rules TEXT NOT NULL,                -- canonical JSON: the ruleset options, resolved
    format TEXT CHECK (format IN ('list', 'round_robin', 'bracket')),  -- NULL: no matches yet
    pairing_key BLOB NOT NULL,
    created TEXT NOT NULL);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    seed INTEGER NOT NULL,              -- import order: the bracket seeds by it
    name TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    UNIQUE (tournament_id, name));
CREATE TABLE tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL CHECK (number >= 1),
    PRIMARY KEY (tournament_id, number));
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    code TEXT NOT NULL,                 -- the match id the director, sync and the board use
    round INTEGER,
    seq INTEGER NOT NULL,               -- order of play: the next waiting match is the lowest
    player1_id INTEGER REFERENCES players(id),  -- NULL: waits for an earlier bracket match
    player2_id INTEGER REFERENCES players(id),
    table_number INTEGER,
    queued INTEGER,                     -- order in the table's queue
    winner_id INTEGER REFERENCES players(id),   -- set: finished
    score1 INTEGER,
    score2 INTEGER,
    next_match_id INTEGER REFERENCES matches(id),  -- bracket: where the winner goes
    next_slot INTEGER CHECK (next_slot IN (1, 2)),
    UNIQUE (tournament_id, code),
    FOREIGN KEY (tournament_id, table_number) REFERENCES tables(tournament_id, number));
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL UNIQUE REFERENCES matches(id),
    document BLOB NOT NULL,             -- the match log, byte for byte as the board sent it
    board_id TEXT NOT NULL,
    hmac TEXT,                          -- hex HMAC-SHA256 of document; NULL: entered unsigned
    started,
    ended,
    received TEXT NOT NULL);
"""

V2 = """
CREATE TABLE boards (
    board_id TEXT PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments(id),
    table_number INTEGER,
    last_seen TEXT NOT NULL);
CREATE INDEX matches_by_table ON matches (tournament_id, table_number, queued);
"""

MIGRATIONS: list[tuple[int, str]] = [(1, V1), (2, V2)]
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


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def schema_version(conn: sqlite3.Connection) -> int:
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                         "AND name = 'schema_version'").fetchone()
    if not found:
        return 0
    return conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Apply the migrations above the file's version up to `target`, each atomically."""
    current = schema_version(conn)
    if current > SCHEMA_VERSION:
        raise StoreError("this store has schema version %d, newer than this pilkku knows "
                         "(%d): update pilkku" % (current, SCHEMA_VERSION))
    for version, script in MIGRATIONS:
        if current < version <= target:
            try:
                # executescript commits first, so BEGIN ... COMMIT makes the step atomic.
                conn.executescript("BEGIN IMMEDIATE;\n%s\nINSERT INTO schema_version "
                                   "VALUES (%d, '%s');\nCOMMIT;" % (script, version, _now()))
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            current = version
    return current


def _dicts(rows) -> list[dict]:
    return [dict(row) for row in rows]


class Store:
    def __init__(self, conn: sqlite3.Connection, path: Path):
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, path: str | os.PathLike | None = None) -> Store:
        where = Path(path) if path else default_path()
        try:
            conn = sqlite3.connect(where, isolation_level=None, timeout=10)
        except sqlite3.Error as error:
            raise StoreError("cannot open the store %s: %s" % (where, error)) from None
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            migrate(conn)
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

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE takes the write lock first, so sync and a command never interleave."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _one(self, sql: str, *args: Any) -> dict | None:
        row = self.conn.execute(sql, args).fetchone()
        return dict(row) if row is not None else None

    # -- tournaments -------------------------------------------------------------------

    def new_tournament(self, name: str, game: str, race_to: int,
                       rules: dict | None = None) -> int:
        name = name.strip()
        if not name:
            raise StoreError("a tournament needs a name")
        try:
            settings = check_settings({"game": game, "players": ["1", "2"], "race_to": race_to,
                                       "rules": rules})
        except Refused as refusal:
            raise StoreError(refusal.text) from None
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM tournaments WHERE name = ?", (name,)).fetchone():
                raise StoreError("a tournament named '%s' exists already: pick another name, "
                                 "or act on it with --tournament '%s'" % (name, name))
            cursor = db.execute(
                "INSERT INTO tournaments (name, game, race_to, rules, pairing_key, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, settings["game"], race_to, canon.dumps(settings["rules"]),
                 secrets.token_bytes(32), _now()))
            return int(cursor.lastrowid or 0)

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
                raise StoreError("no tournament named '%s' (known: %s)" % (name, known))
        row["rules"] = json.loads(row["rules"])
        del row["pairing_key"]  # kept out of listings; ask pairing_key() for it
        return row

    def tournaments(self) -> list[dict]:
        return _dicts(self.conn.execute(
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

    # -- players -----------------------------------------------------------------------

    def import_players(self, tournament_id: int, rows: list[tuple[int, str, str]]) -> int:
        """Add players from (line, name, club) rows, all or none."""
        with self.transaction() as db:
            self._refuse_after_draw(tournament_id, "players")
            names = {r[0] for r in db.execute("SELECT name FROM players WHERE tournament_id = ?",
                                              (tournament_id,))}
            problems = []
            for line, name, _club in rows:
                problem = _name_problem(name) or (
                    "player '%s' is listed twice" % name if name in names else None)
                if problem:
                    problems.append("line %d: %s" % (line, problem))
                names.add(name)
            if problems:
                raise ImportRefused(problems)
            seed = db.execute("SELECT COALESCE(MAX(seed), 0) FROM players WHERE "
                              "tournament_id = ?", (tournament_id,)).fetchone()[0]
            for offset, (_line, name, club) in enumerate(rows, 1):
                db.execute("INSERT INTO players (tournament_id, seed, name, club) "
                           "VALUES (?, ?, ?, ?)", (tournament_id, seed + offset, name, club))
        return len(rows)

    def players(self, tournament_id: int) -> list[dict]:
        return _dicts(self.conn.execute(
            "SELECT id, seed, name, club FROM players WHERE tournament_id = ? ORDER BY seed",
            (tournament_id,)))

    def _refuse_after_draw(self, tournament_id: int, what: str) -> None:
        row = self.conn.execute("SELECT format FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        if row[0] in ("round_robin", "bracket"):
            raise StoreError("the %s is drawn already, so new %s would not play in it; start "
                             "a new tournament to draw again"
                             % (row[0].replace("_", " "), what))

    # -- matches -----------------------------------------------------------------------

    def import_matches(self, tournament_id: int, rows: list[tuple[int, dict]]) -> int:
        """Add matches from (line, {"id", "player1", "player2", "round", "table"}) rows, all
        or none. round and table are text from the file, or None."""
        with self.transaction() as db:
            if self._format(tournament_id) == "bracket":
                raise StoreError("this tournament is a bracket: its matches come from the draw "
                                 "and its results; start a new tournament to import a list")
            ids = {p["name"]: p["id"] for p in self.players(tournament_id)}
            codes = {r[0] for r in db.execute("SELECT code FROM matches WHERE "
                                              "tournament_id = ?", (tournament_id,))}
            pairs = {self._pair_key(r["player1_id"], r["player2_id"], r["round"]) for r in
                     db.execute("SELECT * FROM matches WHERE tournament_id = ?",
                                (tournament_id,))}
            problems, ready = [], []
            for line, row in rows:
                problem, match = _check_match_row(row, ids, codes, pairs)
                if problem:
                    problems.append("line %d: %s" % (line, problem))
                else:
                    ready.append(match)
            if problems:
                raise ImportRefused(problems)
            for match in ready:
                self._insert_match(tournament_id, match)
            db.execute("UPDATE tournaments SET format = COALESCE(format, 'list') WHERE id = ?",
                       (tournament_id,))
        return len(rows)

    @staticmethod
    def _pair_key(a: Any, b: Any, round_: Any) -> tuple:
        return (min(a, b), max(a, b), round_)

    def _format(self, tournament_id: int) -> str | None:
        return self.conn.execute("SELECT format FROM tournaments WHERE id = ?",
                                 (tournament_id,)).fetchone()[0]

    def _insert_match(self, tournament_id: int, match: dict) -> int:
        seq = self.conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM matches WHERE "
                                "tournament_id = ?", (tournament_id,)).fetchone()[0]
        cursor = self.conn.execute(
            "INSERT INTO matches (tournament_id, code, round, seq, player1_id, player2_id) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (tournament_id, match["code"], match.get("round"), seq, match.get("player1"),
             match.get("player2")))
        match_id = int(cursor.lastrowid or 0)
        if match.get("table") is not None:
            self._queue(tournament_id, match_id, match["table"])
        return match_id

    def generate_round_robin(self, tournament_id: int) -> int:
        with self.transaction():
            players = self._players_for_draw(tournament_id, "round robin")
            count = 0
            for number, pairs in enumerate(formats.round_robin(players), 1):
                for index, (a, b) in enumerate(pairs, 1):
                    self._insert_match(tournament_id, {"code": "R%d-%02d" % (number, index),
                                                       "round": number, "player1": a,
                                                       "player2": b})
                    count += 1
            self._set_format(tournament_id, "round_robin")
        return count

    def generate_bracket(self, tournament_id: int) -> int:
        with self.transaction() as db:
            players = self._players_for_draw(tournament_id, "bracket")
            plan = formats.bracket(players)
            ids = [self._insert_match(tournament_id, {
                "code": m.code, "round": m.round, "player1": m.player1, "player2": m.player2})
                for m in plan]
            for match_id, m in zip(ids, plan, strict=True):
                if m.next is not None:
                    db.execute("UPDATE matches SET next_match_id = ?, next_slot = ? "
                               "WHERE id = ?", (ids[m.next], m.next_slot, match_id))
            self._set_format(tournament_id, "bracket")
        return len(plan)

    def _players_for_draw(self, tournament_id: int, what: str) -> list[int]:
        if self.conn.execute("SELECT 1 FROM matches WHERE tournament_id = ?",
                             (tournament_id,)).fetchone():
            raise StoreError("this tournament has matches already; a %s is drawn once, on an "
                             "empty tournament (start a new one)" % what)
        players = [p["id"] for p in self.players(tournament_id)]
        if len(players) < 2:
            raise StoreError("a %s needs at least two players: `pilkku players import "
                             "FILE.csv` first" % what)
        return players

    def _set_format(self, tournament_id: int, name: str) -> None:
        self.conn.execute("UPDATE tournaments SET format = ? WHERE id = ?", (name, tournament_id))

    def matches(self, tournament_id: int) -> list[dict]:
        """Every match in order of play, with names, table, queue place, score and winner."""
        return _dicts(self.conn.execute(
            "SELECT m.id, m.code, m.round, m.seq, m.player1_id, m.player2_id, m.winner_id, "
            "p1.name AS player1, p2.name AS player2, w.name AS winner, m.score1, m.score2, "
            "m.table_number AS 'table', m.queued, n.code AS next, m.next_slot "
            "FROM matches m LEFT JOIN players p1 ON p1.id = m.player1_id "
            "LEFT JOIN players p2 ON p2.id = m.player2_id "
            "LEFT JOIN players w ON w.id = m.winner_id "
            "LEFT JOIN matches n ON n.id = m.next_match_id "
            "WHERE m.tournament_id = ? ORDER BY m.seq", (tournament_id,)))

    def _match(self, tournament_id: int | None, code: str) -> dict:
        if tournament_id is None:
            row = self._one("SELECT * FROM matches WHERE code = ? ORDER BY tournament_id DESC "
                            "LIMIT 1", code)
        else:
            row = self._one("SELECT * FROM matches WHERE tournament_id = ? AND code = ?",
                            tournament_id, code)
        if row is None:
            raise StoreError("no match '%s': `pilkku matches` lists them" % code)
        return row

    # -- tables and assignment -----------------------------------------------------------

    def set_tables(self, tournament_id: int, count: int) -> list[int]:
        """Make sure tables 1..count exist (tables are never removed: they keep history)."""
        if count < 1:
            raise StoreError("give the number of tables, 1 or more")
        with self.transaction():
            for number in range(1, count + 1):
                self._ensure_table(tournament_id, number)
        return self.table_numbers(tournament_id)

    def _ensure_table(self, tournament_id: int, number: int) -> None:
        self.conn.execute("INSERT OR IGNORE INTO tables (tournament_id, number) VALUES (?, ?)",
                          (tournament_id, number))

    def table_numbers(self, tournament_id: int) -> list[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT number FROM tables WHERE tournament_id = ? ORDER BY number",
            (tournament_id,))]

    def assign(self, tournament_id: int, code: str, table: int) -> int:
        """Queue a match at a table (moving it if it was queued elsewhere); returns its place
        in the queue, 1 being the match the table plays now."""
        if table < 1:
            raise StoreError("tables are numbered from 1")
        with self.transaction():
            match = self._match(tournament_id, code)
            if match["winner_id"] is not None:
                raise StoreError("match %s is finished already" % code)
            if None in (match["player1_id"], match["player2_id"]):
                raise StoreError("match %s waits for the winners of earlier matches; assign it "
                                 "when both players are known" % code)
            self._queue(tournament_id, match["id"], table)
            return len(self.table_schedule(tournament_id, table))

    def _queue(self, tournament_id: int, match_id: int, table: int) -> None:
        self._ensure_table(tournament_id, table)
        self.conn.execute(
            "UPDATE matches SET table_number = ?, queued = (SELECT COALESCE(MAX(queued), 0) + 1 "
            "FROM matches WHERE tournament_id = ?) WHERE id = ?",
            (table, tournament_id, match_id))

    def assign_free_tables(self, tournament_id: int, first: int | None = None) -> list[tuple]:
        """Give every table with nothing queued (`first` before the others) the next waiting
        match whose players are free. Returns the (match code, table) pairs assigned."""
        with self.transaction():
            return self._fill_tables(tournament_id, first)

    def _fill_tables(self, tournament_id: int, first: int | None) -> list[tuple]:
        numbers = self.table_numbers(tournament_id)
        if first in numbers:
            numbers.remove(first)
            numbers.insert(0, first)
        done = []
        for number in numbers:
            if self.table_schedule(tournament_id, number):
                continue
            match = formats.pick_next(self._waiting(tournament_id), self._busy(tournament_id))
            if match is None:
                break
            self._queue(tournament_id, match["id"], number)
            done.append((match["code"], number))
        return done

    def _waiting(self, tournament_id: int) -> list[dict]:
        return _dicts(self.conn.execute(
            "SELECT id, code, player1_id AS player1, player2_id AS player2 FROM matches WHERE "
            "tournament_id = ? AND winner_id IS NULL AND table_number IS NULL ORDER BY seq",
            (tournament_id,)))

    def _busy(self, tournament_id: int) -> set:
        """Players in a match queued at a table: they cannot start another one elsewhere."""
        busy = set()
        for row in self.conn.execute(
                "SELECT player1_id, player2_id FROM matches WHERE tournament_id = ? AND "
                "winner_id IS NULL AND table_number IS NOT NULL", (tournament_id,)):
            busy.update(row)
        return busy

    def table_schedule(self, tournament_id: int, table: int) -> list[dict]:
        """What the board at `table` plays: its unfinished matches, the next one first."""
        t = self._one("SELECT game, race_to, rules FROM tournaments WHERE id = ?", tournament_id)
        if t is None:
            raise StoreError("no tournament with id %d" % tournament_id)
        rows = self.conn.execute(
            "SELECT m.code, m.round, p1.name, p2.name FROM matches m "
            "JOIN players p1 ON p1.id = m.player1_id JOIN players p2 ON p2.id = m.player2_id "
            "WHERE m.tournament_id = ? AND m.table_number = ? AND m.winner_id IS NULL "
            "ORDER BY m.queued", (tournament_id, table))
        return [{"match_id": code, "round": round_,
                 "settings": {"game": t["game"], "players": [one, two],
                              "race_to": t["race_to"], "rules": json.loads(t["rules"])}}
                for code, round_, one, two in rows]

    # -- results -----------------------------------------------------------------------

    def record_result(self, match_id: str, document_text: str, board_id: str,
                      hmac_hex: str | None, started: Any, ended: Any, *,
                      tournament_id: int | None = None) -> bool:
        document = document_text.encode("utf-8")
        with self.transaction() as db:
            match = self._match(tournament_id, match_id)
            tid = match["tournament_id"]
            earlier = self._one("SELECT * FROM results WHERE match_id = ?", match["id"])
            if earlier is not None:
                if bytes(earlier["document"]) == document:
                    return False
                raise ResultRefused("match %s has a result already (from board %s, received "
                                    "%s); a different log is not taken"
                                    % (match_id, earlier["board_id"], earlier["received"]))
            names = self._names(match)
            if None in names:
                raise ResultRefused("match %s has no players yet: it waits for earlier "
                                    "matches" % match_id)
            winner, score1, score2 = self._outcome_or_refuse(document_text, tid, match_id, names)
            winner_id = match["player1_id"] if winner == names[0] else match["player2_id"]
            db.execute("INSERT INTO results (match_id, document, board_id, hmac, started, ended,"
                       " received) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (match["id"], document, board_id, hmac_hex, started, ended, _now()))
            db.execute("UPDATE matches SET winner_id = ?, score1 = ?, score2 = ? WHERE id = ?",
                       (winner_id, score1, score2, match["id"]))
            if match["next_match_id"] is not None:
                db.execute("UPDATE matches SET player%d_id = ? WHERE id = ?"
                           % match["next_slot"], (winner_id, match["next_match_id"]))
            self._fill_tables(tid, match["table_number"])
        return True

    def _names(self, match: dict) -> list[str | None]:
        names = []
        for key in ("player1_id", "player2_id"):
            row = self.conn.execute("SELECT name FROM players WHERE id = ?",
                                    (match[key],)).fetchone()
            names.append(row[0] if row else None)
        return names

    def _outcome_or_refuse(self, text: str, tournament_id: int, code: str,
                           names: list) -> tuple[str, int, int]:
        try:
            doc = json.loads(text)
        except ValueError:
            raise ResultRefused("the result for %s is not JSON: is it a pilkku match log?"
                                % code) from None
        try:
            played = matchlog.load(doc)
        except matchlog.BadLog as bad:
            raise ResultRefused("the log for %s does not replay: %s" % (code, bad.text)) from None
        t = self.tournament_by_id(tournament_id)
        settings = played.settings
        meta_id = doc.get("meta", {}).get("match_id")
        problem = None
        if meta_id is not None and meta_id != code:
            problem = "the log is for match %s, not %s" % (meta_id, code)
        elif sorted(settings["players"]) != sorted(names):
            problem = "the log names %s and %s; match %s is %s vs %s" % (
                settings["players"][0], settings["players"][1], code, names[0], names[1])
        elif settings["game"] != t["game"]:
            problem = "the log is a %s match; the tournament plays %s" % (settings["game"],
                                                                          t["game"])
        elif settings["race_to"] != t["race_to"]:
            problem = "the log is a race to %d; the tournament's is %d" % (settings["race_to"],
                                                                           t["race_to"])
        elif settings["rules"] != t["rules"]:
            problem = "the log was played with other ruleset options than the tournament's"
        elif not played.state.finished or played.state.winner is None:
            problem = "match %s is not finished in the log" % code
        if problem:
            raise ResultRefused(problem)
        return _outcome(played, names)

    def tournament_by_id(self, tournament_id: int) -> dict:
        row = self._one("SELECT name FROM tournaments WHERE id = ?", tournament_id)
        if row is None:
            raise StoreError("no tournament with id %d" % tournament_id)
        return self.tournament(row["name"])

    def result(self, match_id: str, tournament_id: int | None = None) -> dict | None:
        match = self._match(tournament_id, match_id)
        row = self._one("SELECT id, board_id, hmac, started, ended, received, document "
                        "FROM results WHERE match_id = ?", match["id"])
        if row is not None:
            row["document"] = bytes(row["document"]).decode("utf-8", "replace")
        return row

    def results(self, tournament_id: int) -> list[dict]:
        """Finished matches with their result, in order of play. "verified" is True, False
        (edited or signed by another key) or None (entered unsigned)."""
        key = self.pairing_key(tournament_id)
        rows = _dicts(self.conn.execute(
            "SELECT r.id AS result_id, m.code AS 'match', m.round, m.table_number AS 'table', "
            "p1.name AS player1, m.score1, m.score2, p2.name AS player2, w.name AS winner, "
            "r.board_id AS board, r.started, r.ended, r.received, r.hmac "
            "FROM results r JOIN matches m ON m.id = r.match_id "
            "JOIN players p1 ON p1.id = m.player1_id JOIN players p2 ON p2.id = m.player2_id "
            "LEFT JOIN players w ON w.id = m.winner_id "
            "WHERE m.tournament_id = ? ORDER BY m.seq", (tournament_id,)))
        for row in rows:
            signed = row.pop("hmac") is not None
            row["verified"] = self.verify_result(row["result_id"], key) if signed else None
        return rows

    def verify_result(self, result_id: int, key: bytes) -> bool:
        row = self._one("SELECT r.document, r.hmac, m.player1_id, m.player2_id, m.winner_id, "
                        "m.score1, m.score2 FROM results r JOIN matches m ON m.id = r.match_id "
                        "WHERE r.id = ?", result_id)
        if row is None or row["hmac"] is None:
            return False
        document = bytes(row["document"])
        expected = hmac.new(key, document, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, str(row["hmac"]).lower()):
            return False
        names = self._names(row)
        try:
            played = matchlog.loads(document.decode("utf-8"))
        except (matchlog.BadLog, UnicodeDecodeError):
            return False
        if sorted(played.settings["players"]) != sorted(n or "" for n in names) \
                or played.state.winner is None:
            return False
        winner, score1, score2 = _outcome(played, names)
        winner_id = row["player1_id"] if winner == names[0] else row["player2_id"]
        return (winner_id, score1, score2) == (row["winner_id"], row["score1"], row["score2"])

    # -- boards (v2) -------------------------------------------------------------------

    def note_board(self, tournament_id: int, board_id: str, table: int | None) -> None:
        """Remember that a board was seen at a table (for `pilkku sync`'s bookkeeping)."""
        with self.transaction():
            self.conn.execute(
                "INSERT INTO boards (board_id, tournament_id, table_number, last_seen) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (board_id) DO UPDATE SET "
                "tournament_id = excluded.tournament_id, table_number = excluded.table_number, "
                "last_seen = excluded.last_seen", (board_id, tournament_id, table, _now()))

    def boards(self, tournament_id: int) -> list[dict]:
        return _dicts(self.conn.execute(
            "SELECT board_id, table_number AS 'table', last_seen FROM boards "
            "WHERE tournament_id = ? ORDER BY table_number, board_id", (tournament_id,)))


def _outcome(played: Any, names: list) -> tuple[str, int, int]:
    """(winner's name, score of names[0], score of names[1]) from a replayed match; the log
    may list the players in either order."""
    logged = played.settings["players"]
    state = played.state
    score = {logged[0]: state.score[0], logged[1]: state.score[1]}
    return logged[state.winner], score[names[0]], score[names[1]]


def _name_problem(name: str) -> str | None:
    if not name:
        return "a player needs a name"
    if len(name) > NAME_MAX:
        return "the name '%s' is longer than the board's %d characters" % (name, NAME_MAX)
    return None


def _check_match_row(row: dict, ids: dict, codes: set, pairs: set) -> tuple[str | None, dict]:
    """One imported match checked against the players, the ids and pairings seen so far (which
    it joins when good). Returns (problem, match ready to insert)."""
    code = row["id"]
    if not code:
        return "a match needs an id", {}
    if len(code) > CODE_MAX:
        return "match id '%s' is longer than %d characters" % (code, CODE_MAX), {}
    if code in codes:
        return "match id '%s' is used twice" % code, {}
    unknown = [n for n in (row["player1"], row["player2"]) if n not in ids]
    if unknown:
        return ("unknown player '%s' (import players first: `pilkku players import`)"
                % unknown[0], {})
    if row["player1"] == row["player2"]:
        return "'%s' cannot play themself" % row["player1"], {}
    round_, problem = _whole(row.get("round"), "round")
    table, problem2 = _whole(row.get("table"), "table")
    if problem or problem2:
        return problem or problem2, {}
    pair = Store._pair_key(ids[row["player1"]], ids[row["player2"]], round_)
    if pair in pairs:
        return ("duplicate match: %s vs %s is listed already%s" % (
            row["player1"], row["player2"], " in round %d" % round_ if round_ else ""), {})
    codes.add(code)
    pairs.add(pair)
    return None, {"code": code, "round": round_, "table": table,
                  "player1": ids[row["player1"]], "player2": ids[row["player2"]]}


def _whole(text: str | None, what: str) -> tuple[int | None, str | None]:
    """An optional whole number of 1 or more from a CSV cell."""
    if text is None or text == "":
        return None, None
    if not text.isdigit() or int(text) < 1:
        return None, "%s must be a whole number from 1 (found '%s')" % (what, text)
    return int(text), None
