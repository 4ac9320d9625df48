"""The store's tables and boards: how many tables, which match each table plays next (queues
filled from the waiting matches as tables free up), and the boards seen at each table."""

from __future__ import annotations

import json

from host.tournament import formats
from host.tournament.db import Database
from host.tournament.schema import StoreError, dicts, now

DRAWN = ("double", "groups", "hakukaavio")  # formats whose players play their games in order


class Tables(Database):
    def set_tables(self, tournament_id: int, count: int) -> list[int]:
        """Make sure tables 1..count exist (a removed one among them is back in use)."""
        if count < 1:
            raise StoreError("give the number of tables, 1 or more")
        with self.transaction():
            for number in range(1, count + 1):
                self._ensure_table(tournament_id, number)
        return self.table_numbers(tournament_id)

    def _ensure_table(self, tournament_id: int, number: int) -> None:
        self.conn.execute("INSERT INTO tables (tournament_id, number) VALUES (?, ?) "
                          "ON CONFLICT DO UPDATE SET removed = NULL", (tournament_id, number))

    def table_numbers(self, tournament_id: int) -> list[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT number FROM tables WHERE tournament_id = ? AND removed IS NULL "
            "ORDER BY number",
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
            match = formats.pick_next(self._waiting(tournament_id), self._busy(tournament_id),
                                      self._format_of(tournament_id) in DRAWN)
            if match is None:
                break
            self._queue(tournament_id, match["id"], number)
            done.append((match["code"], number))
        return done

    def _format_of(self, tournament_id: int) -> str | None:
        row = self.conn.execute("SELECT format FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        return row[0] if row else None

    def _waiting(self, tournament_id: int) -> list[dict]:
        return dicts(self.conn.execute(
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

    # -- boards (v2) -------------------------------------------------------------------

    def note_board(self, tournament_id: int, board_id: str, table: int | None,
                   firmware: str | None = None) -> None:
        """Remember that a board was seen at a table, and its firmware (for `pilkku sync`)."""
        with self.transaction():
            self.conn.execute(
                "INSERT INTO boards (board_id, tournament_id, table_number, last_seen, firmware) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (board_id) DO UPDATE SET "
                "tournament_id = excluded.tournament_id, table_number = excluded.table_number, "
                "last_seen = excluded.last_seen, firmware = COALESCE(excluded.firmware, "
                "firmware)", (board_id, tournament_id, table, now(), firmware))

    def boards(self, tournament_id: int) -> list[dict]:
        return dicts(self.conn.execute(
            "SELECT board_id, table_number AS 'table', last_seen, firmware FROM boards "
            "WHERE tournament_id = ? ORDER BY table_number, board_id", (tournament_id,)))
