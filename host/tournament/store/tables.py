"""The store's tables and boards: how many tables, which matches each table's queue holds (the
next first), the waiting matches and the players busy at a table, and the boards seen at each
table. Which match a free table takes next is the director's operations' choice
(night/tables.py), not the store's."""

from __future__ import annotations

import json

from host.i18n import _
from host.tournament.store.db import Part
from host.tournament.store.schema import StoreError, dicts, now


class Tables(Part):
    def ensure(self, tournament_id: int, number: int) -> None:
        """Table `number` exists and is in use (a removed one is back)."""
        self.conn.execute("INSERT INTO tables (tournament_id, number) VALUES (?, ?) "
                          "ON CONFLICT DO UPDATE SET removed = NULL", (tournament_id, number))

    def numbers(self, tournament_id: int) -> list[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT number FROM tables WHERE tournament_id = ? AND removed IS NULL "
            "ORDER BY number", (tournament_id,))]

    def queue(self, tournament_id: int, match_id: int, table: int) -> None:
        """The match goes last in the table's queue (moved there if queued elsewhere)."""
        self.ensure(tournament_id, table)
        self.conn.execute(
            "UPDATE matches SET table_number = ?, queued = (SELECT COALESCE(MAX(queued), 0) + 1 "
            "FROM matches WHERE tournament_id = ?) WHERE id = ?",
            (table, tournament_id, match_id))

    def unqueue(self, tournament_id: int, table: int) -> None:
        """The table's unfinished matches go back to waiting."""
        self.conn.execute("UPDATE matches SET table_number = NULL, queued = NULL WHERE "
                          "tournament_id = ? AND table_number = ? AND winner_id IS NULL AND "
                          "outcome IS NULL",
                          (tournament_id, table))

    def unqueue_match(self, match_id: int) -> None:
        """One unfinished match back to waiting (off its table's queue)."""
        self.conn.execute("UPDATE matches SET table_number = NULL, queued = NULL WHERE id = ? "
                          "AND winner_id IS NULL AND outcome IS NULL", (match_id,))

    def remove(self, tournament_id: int, number: int) -> None:
        self.conn.execute("UPDATE tables SET removed = ? WHERE tournament_id = ? AND "
                          "number = ?", (now(), tournament_id, number))

    def waiting(self, tournament_id: int) -> list[dict]:
        """Unfinished matches at no table, in order of play."""
        return dicts(self.conn.execute(
            "SELECT id, code, player1_id AS player1, player2_id AS player2 FROM matches WHERE "
            "tournament_id = ? AND winner_id IS NULL AND outcome IS NULL AND table_number IS "
            "NULL ORDER BY seq",
            (tournament_id,)))

    def busy(self, tournament_id: int) -> set:
        """Players in a match queued at a table: they cannot start another one elsewhere."""
        busy = set()
        for row in self.conn.execute(
                "SELECT player1_id, player2_id FROM matches WHERE tournament_id = ? AND "
                "winner_id IS NULL AND outcome IS NULL AND table_number IS NOT NULL",
                (tournament_id,)):
            busy.update(row)
        return busy

    def schedule(self, tournament_id: int, table: int) -> list[dict]:
        """What the board at `table` plays: its unfinished matches, the next one first, each
        {"match_id", "round", "settings": {"game", "players", "race_to", "rules"}}."""
        t = self.db.one("SELECT game, race_to, rules FROM tournaments WHERE id = ?",
                        tournament_id)
        if t is None:
            raise StoreError(_("no tournament with id %(id)d") % {"id": tournament_id})
        rows = self.conn.execute(
            "SELECT m.code, m.round, p1.name, p2.name FROM matches m "
            "JOIN players p1 ON p1.id = m.player1_id JOIN players p2 ON p2.id = m.player2_id "
            "WHERE m.tournament_id = ? AND m.table_number = ? AND m.winner_id IS NULL "
            "AND m.outcome IS NULL ORDER BY m.queued", (tournament_id, table))
        return [{"match_id": code, "round": round_,
                 "settings": {"game": t["game"], "players": [one, two],
                              "race_to": t["race_to"], "rules": json.loads(t["rules"])}}
                for code, round_, one, two in rows]


class Boards(Part):
    def note(self, tournament_id: int, board_id: str, table: int | None,
             firmware: str | None = None) -> None:
        """Remember that a board was seen at a table, and its firmware (for `pilkku sync`)."""
        with self.db.transaction():
            self.conn.execute(
                "INSERT INTO boards (board_id, tournament_id, table_number, last_seen, firmware) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (board_id) DO UPDATE SET "
                "tournament_id = excluded.tournament_id, table_number = excluded.table_number, "
                "last_seen = excluded.last_seen, firmware = COALESCE(excluded.firmware, "
                "firmware)", (board_id, tournament_id, table, now(), firmware))

    def all(self, tournament_id: int) -> list[dict]:
        return dicts(self.conn.execute(
            "SELECT board_id, table_number AS 'table', last_seen, firmware FROM boards "
            "WHERE tournament_id = ? ORDER BY table_number, board_id", (tournament_id,)))

    def holder(self, tournament_id: int, number: int, but: str | None = None) -> str | None:
        """The board that holds a table (other than `but`), if any."""
        row = self.db.one("SELECT board_id FROM boards WHERE tournament_id = ? AND "
                          "table_number = ? AND board_id != ?", tournament_id, number, but or "")
        return row["board_id"] if row else None

    def release(self, tournament_id: int, number: int) -> None:
        self.conn.execute("UPDATE boards SET table_number = NULL WHERE tournament_id = ? AND "
                          "table_number = ?", (tournament_id, number))
