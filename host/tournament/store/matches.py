"""The store's matches: inserted as a draw makes them, found by code, listed in order of play
with names, table and score, and decided (winner and score set, a bracket's winner moved on)."""

from __future__ import annotations

from host.i18n import _
from host.tournament.store.db import Part
from host.tournament.store.schema import StoreError, dicts
from host.tournament.store.text import shown


class Matches(Part):
    def get(self, tournament_id: int | None, code: str) -> dict:
        """The match row by its code (tournament None: the latest tournament having it)."""
        if tournament_id is None:
            row = self.db.one("SELECT * FROM matches WHERE code = ? ORDER BY tournament_id DESC "
                              "LIMIT 1", code)
        else:
            row = self.db.one("SELECT * FROM matches WHERE tournament_id = ? AND code = ?",
                              tournament_id, code)
        if row is None:
            raise StoreError(_("no match '%(match)s': `pilkku matches` lists them") % {
                "match": shown(code)})
        return row

    def all(self, tournament_id: int) -> list[dict]:
        """Every match in order of play, with names, table, queue place, score and winner."""
        return dicts(self.conn.execute(
            "SELECT m.id, m.code, m.round, m.seq, m.player1_id, m.player2_id, m.winner_id, "
            "p1.name AS player1, p2.name AS player2, w.name AS winner, m.score1, m.score2, "
            "m.table_number AS 'table', m.queued, n.code AS next, m.next_slot, m.outcome "
            "FROM matches m LEFT JOIN players p1 ON p1.id = m.player1_id "
            "LEFT JOIN players p2 ON p2.id = m.player2_id "
            "LEFT JOIN players w ON w.id = m.winner_id "
            "LEFT JOIN matches n ON n.id = m.next_match_id "
            "WHERE m.tournament_id = ? ORDER BY m.seq", (tournament_id,)))

    def any(self, tournament_id: int) -> bool:
        return self.conn.execute("SELECT 1 FROM matches WHERE tournament_id = ?",
                                 (tournament_id,)).fetchone() is not None

    def insert(self, tournament_id: int, match: dict) -> int:
        """A new match last in order of play: {"code", "round", "player1", "player2"} (ids)."""
        seq = self.conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM matches WHERE "
                                "tournament_id = ?", (tournament_id,)).fetchone()[0]
        cursor = self.conn.execute(
            "INSERT INTO matches (tournament_id, code, round, seq, player1_id, player2_id) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (tournament_id, match["code"], match.get("round"), seq, match.get("player1"),
             match.get("player2")))
        return int(cursor.lastrowid or 0)

    def link(self, match_id: int, next_id: int, slot: int | None) -> None:
        """A bracket: the winner of `match_id` plays `next_id` in `slot`."""
        self.conn.execute("UPDATE matches SET next_match_id = ?, next_slot = ? WHERE id = ?",
                          (next_id, slot, match_id))

    def codes(self, tournament_id: int) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT code FROM matches WHERE "
                                                "tournament_id = ?", (tournament_id,))}

    def open(self, tournament_id: int) -> list[dict]:
        """The matches not decided (no winner, no outcome), in order of play."""
        return dicts(self.conn.execute(
            "SELECT * FROM matches WHERE tournament_id = ? AND winner_id IS NULL AND outcome IS "
            "NULL ORDER BY seq",
            (tournament_id,)))

    def decided_codes(self, tournament_id: int) -> set[str]:
        return {r[0] for r in self.conn.execute(
            "SELECT code FROM matches WHERE tournament_id = ? AND (winner_id IS NOT NULL OR "
            "outcome IS NOT NULL)",
            (tournament_id,))}

    def later_of_players(self, match: dict) -> dict | None:
        """The first match after `match` in order of play that either of its players plays."""
        return self.db.one(
            "SELECT code FROM matches WHERE tournament_id = ? AND seq > ? AND (player1_id IN "
            "(?, ?) OR player2_id IN (?, ?)) ORDER BY seq LIMIT 1", match["tournament_id"],
            match["seq"], match["player1_id"], match["player2_id"], match["player1_id"],
            match["player2_id"])

    def decide(self, match: dict, winner_id: int, score1: int, score2: int) -> None:
        """The match's winner and score; a bracket's winner takes the next match's slot."""
        self.conn.execute("UPDATE matches SET winner_id = ?, score1 = ?, score2 = ?, "
                          "outcome = NULL WHERE id = ?", (winner_id, score1, score2, match["id"]))
        if match["next_match_id"] is not None:
            self.conn.execute("UPDATE matches SET player%d_id = ? WHERE id = ?"
                              % match["next_slot"], (winner_id, match["next_match_id"]))

    def set_outcome(self, match: dict, outcome: str | None) -> None:
        """The match decided without a winner: 'void' (it does not count) or 'both_lose';
        None: open again. Its winner and score are cleared either way."""
        if outcome not in (None, "void", "both_lose"):
            raise StoreError("a match's outcome is void or both_lose, not %r" % (outcome,))
        self.conn.execute("UPDATE matches SET winner_id = NULL, score1 = NULL, score2 = NULL, "
                          "outcome = ? WHERE id = ?", (outcome, match["id"]))

    def undo_advance(self, match: dict) -> None:
        """A bracket's winner taken back out of the next match's slot."""
        if match["next_match_id"] is not None:
            self.conn.execute("UPDATE matches SET player%d_id = NULL WHERE id = ?"
                              % match["next_slot"], (match["next_match_id"],))

    # A correction redraws (night/consequences.py): the rows made what the replayed draw is.

    def place(self, match_id: int, round_: int | None, seq: int) -> None:
        """The match's round and place in order of play, as the draw is now."""
        self.conn.execute("UPDATE matches SET round = ?, seq = ? WHERE id = ?",
                          (round_, seq, match_id))

    def set_players(self, match_id: int, player1: int, player2: int) -> None:
        """A bracket's place given to other players (it was not started): off its table."""
        self.conn.execute("UPDATE matches SET player1_id = ?, player2_id = ?, table_number = "
                          "NULL, queued = NULL WHERE id = ?", (player1, player2, match_id))

    def relink(self, old_id: int, new_id: int) -> None:
        """A bracket: the matches whose winners went to `old_id` go to `new_id` instead."""
        self.conn.execute("UPDATE matches SET next_match_id = ? WHERE next_match_id = ?",
                          (new_id, old_id))

    def rename(self, match_id: int, code: str) -> None:
        self.conn.execute("UPDATE matches SET code = ? WHERE id = ?", (code, match_id))

    def remove(self, match_id: int) -> None:
        """A match never started that the draw no longer makes (no result refers to it)."""
        self.conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    def by_id(self, match_id: int) -> dict | None:
        return self.db.one("SELECT * FROM matches WHERE id = ?", match_id)
