"""The store's results: a board's match log taken (replayed, checked against the match, the
bracket winner advanced), read back, and verified against the pairing key."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from host.tournament.schema import ResultRefused, dicts, now
from host.tournament.tables import Tables
from rules_core import bounded, matchlog


class Results(Tables):
    """Results on top of the tables: a result frees its table for the next match."""

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
                       (match["id"], document, board_id, hmac_hex, started, ended, now()))
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
            doc = bounded.loads(text, matchlog.MAX_TEXT, matchlog.MAX_DEPTH)
        except bounded.Malformed as why:
            raise ResultRefused("the result for %s is not a pilkku match log (%s)"
                                % (code, why)) from None
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
        rows = dicts(self.conn.execute(
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


def _outcome(played: Any, names: list) -> tuple[str, int, int]:
    """(winner's name, score of names[0], score of names[1]) from a replayed match; the log
    may list the players in either order."""
    logged = played.settings["players"]
    state = played.state
    score = {logged[0]: state.score[0], logged[1]: state.score[1]}
    return logged[state.winner], score[names[0]], score[names[1]]
