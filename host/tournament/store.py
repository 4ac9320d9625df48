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

The schema and its migrations: host/tournament/schema.py. Tables and boards
(host/tournament/tables.py) and results (host/tournament/results.py) are the layers Store is built
on, each a class on top of the connection (host/tournament/db.py).
"""

from __future__ import annotations

import secrets

from host.tournament import formats, imports
from host.tournament.drawn import ENGINES, Drawn
from host.tournament.imports import shown
from host.tournament.schema import (  # noqa: F401 (the errors are the store's API)
    ImportRefused,
    ResultRefused,
    StoreError,
    dicts,
    now,
)
from rules_core import canon
from rules_core.match import check_settings
from rules_core.refusal import Refused

TOURNAMENT_NAME_MAX = 80


class Store(Drawn):
    """The whole store: tournaments, players and matches here, on top of the director's
    corrections, results and tables."""

    # -- tournaments -------------------------------------------------------------------

    def new_tournament(self, name: str, game: str, race_to: int,
                       rules: dict | None = None) -> int:
        name = name.strip()
        if not name or len(name) > TOURNAMENT_NAME_MAX or not name.isprintable():
            raise StoreError("a tournament's name is 1 to %d characters, no control "
                             "characters (found '%s')" % (TOURNAMENT_NAME_MAX, shown(name)))
        try:
            settings = check_settings({"game": game, "players": ["1", "2"], "race_to": race_to,
                                       "rules": rules})
        except Refused as refusal:
            raise StoreError(refusal.text) from None
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM tournaments WHERE name = ?", (name,)).fetchone():
                raise StoreError("a tournament named '%s' exists already: pick another name, "
                                 "or act on it with --tournament '%s'" % (shown(name), shown(name)))
            cursor = db.execute(
                "INSERT INTO tournaments (name, game, race_to, rules, pairing_key, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, settings["game"], race_to, canon.dumps(settings["rules"]),
                 secrets.token_bytes(32), now()))
            return int(cursor.lastrowid or 0)

    # -- players -----------------------------------------------------------------------

    def import_players(self, tournament_id: int, rows: list[tuple[int, str, str]]) -> int:
        """Add players from (line, name, club) rows, all or none."""
        with self.transaction() as db:
            self._refuse_after_draw(tournament_id, "players")
            names = {r[0] for r in db.execute("SELECT name FROM players WHERE tournament_id = ?",
                                              (tournament_id,))}
            problems = []
            for line, name, _club in rows:
                problem = imports.name_problem(name) or (
                    "player '%s' is listed twice" % shown(name) if name in names else None)
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
        return dicts(self.conn.execute(
            "SELECT id, seed, name, club FROM players WHERE tournament_id = ? ORDER BY seed",
            (tournament_id,)))

    def _refuse_after_draw(self, tournament_id: int, what: str) -> None:
        row = self.conn.execute("SELECT format FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        if row[0] in ("round_robin", "bracket") + ENGINES:
            raise StoreError("the %s is drawn already, so new %s would not play in it; start "
                             "a new tournament to draw again"
                             % (row[0].replace("_", " "), what))

    # -- matches -----------------------------------------------------------------------

    def import_matches(self, tournament_id: int, rows: list[tuple[int, dict]]) -> int:
        """Add matches from (line, {"id", "player1", "player2", "round", "table"}) rows, all
        or none. round and table are text from the file, or None."""
        with self.transaction() as db:
            if self._format(tournament_id) in ("bracket",) + ENGINES:
                raise StoreError("this tournament is a bracket: its matches come from the draw "
                                 "and its results; start a new tournament to import a list")
            ids = {p["name"]: p["id"] for p in self.players(tournament_id)}
            codes = {r[0] for r in db.execute("SELECT code FROM matches WHERE "
                                              "tournament_id = ?", (tournament_id,))}
            pairs = {imports.pair_key(r["player1_id"], r["player2_id"], r["round"]) for r in
                     db.execute("SELECT * FROM matches WHERE tournament_id = ?",
                                (tournament_id,))}
            problems, ready = [], []
            for line, row in rows:
                problem, match = imports.check_match_row(row, ids, codes, pairs)
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
        return dicts(self.conn.execute(
            "SELECT m.id, m.code, m.round, m.seq, m.player1_id, m.player2_id, m.winner_id, "
            "p1.name AS player1, p2.name AS player2, w.name AS winner, m.score1, m.score2, "
            "m.table_number AS 'table', m.queued, n.code AS next, m.next_slot "
            "FROM matches m LEFT JOIN players p1 ON p1.id = m.player1_id "
            "LEFT JOIN players p2 ON p2.id = m.player2_id "
            "LEFT JOIN players w ON w.id = m.winner_id "
            "LEFT JOIN matches n ON n.id = m.next_match_id "
            "WHERE m.tournament_id = ? ORDER BY m.seq", (tournament_id,)))

