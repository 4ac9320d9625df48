"""The store's results: a board's match log taken (replayed, checked against the match, the
bracket winner advanced), read back, and verified against the pairing key."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from host.tournament.chain import Chains, link_mac
from host.tournament.damaged import DamagedResults
from host.tournament.schema import ResultRefused, dicts, now
from host.tournament.tables import Tables
from rules_core import bounded, matchlog


class Results(Tables, Chains, DamagedResults):
    """Results on top of the tables: a result frees its table for the next match. Results
    that came damaged are kept apart (host/tournament/damaged.py)."""

    # -- results -----------------------------------------------------------------------

    def record_result(self, match_id: str, document_text: str, board_id: str,
                      hmac_hex: str | None, started: Any, ended: Any, *,
                      tournament_id: int | None = None, kind: str | None = None,
                      chain_n: int | None = None) -> bool:
        """(See store.py.) `chain_n`: the result's link, kept already by record_link."""
        document = document_text.encode("utf-8")
        with self.transaction() as db:
            match = self._match(tournament_id, match_id)
            tid = match["tournament_id"]
            # Any result the match ever had: a board re-sending a log the director has since
            # replaced is a duplicate (freed on the board), not a second result.
            for earlier in self.conn.execute("SELECT document FROM results WHERE match_id = ?",
                                             (match["id"],)):
                if bytes(earlier[0]) == document:
                    return False
            earlier = self._one("SELECT * FROM results WHERE match_id = ? AND replaced_by IS "
                                "NULL", match["id"])
            if earlier is not None:
                raise ResultRefused("match %s has a result already (from board %s, received "
                                    "%s); a different log is not taken (the director may "
                                    "replace it: pilkku correct %s)"
                                    % (match_id, earlier["board_id"], earlier["received"],
                                       match_id))
            if None in (match["player1_id"], match["player2_id"]):
                raise ResultRefused("match %s has no players yet: it waits for earlier "
                                    "matches" % match_id)
            slot, score1, score2 = self._outcome_or_refuse(document_text, tid, match_id, match)
            if chain_n is not None:
                self._name_link(board_id, chain_n, hmac_hex, document, match_id)
            db.execute("INSERT INTO results (match_id, document, board_id, hmac, started, ended,"
                       " received, kind, chain_n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (match["id"], document, board_id, hmac_hex, started, ended, now(),
                        kind or ("board" if hmac_hex else "manual"), chain_n))
            self._decide(match, match["player%d_id" % slot], score1, score2)
        return True

    def _name_link(self, board: str, n: int, mac: str | None, document: bytes,
                   code: str) -> None:
        link = self._one("SELECT mac, document FROM board_links WHERE board_id = ? AND n = ?",
                         board, n)
        if link is None or link["mac"] != mac or bytes(link["document"]) != document:
            raise ResultRefused("the result for %s is not the one board %s signed as #%d"
                                % (code, board, n))
        self.conn.execute("UPDATE board_links SET match_code = ? WHERE board_id = ? AND n = ?",
                          (code, board, n))

    def _decide(self, match: dict, winner_id: int, score1: int, score2: int) -> None:
        """A match's winner and score set, the bracket winner advanced, free tables filled."""
        self.conn.execute("UPDATE matches SET winner_id = ?, score1 = ?, score2 = ? WHERE id = ?",
                          (winner_id, score1, score2, match["id"]))
        if match["next_match_id"] is not None:
            self.conn.execute("UPDATE matches SET player%d_id = ? WHERE id = ?"
                              % match["next_slot"], (winner_id, match["next_match_id"]))
        self._after_result(match["tournament_id"])
        self._fill_tables(match["tournament_id"], match["table_number"])

    def _after_result(self, tournament_id: int) -> None:
        """What follows any result (host/tournament/corrections.py: a withdrawn player's next
        opponent wins by walkover)."""

    def _names(self, match: dict) -> list[str | None]:
        names = []
        for key in ("player1_id", "player2_id"):
            row = self.conn.execute("SELECT name FROM players WHERE id = ?",
                                    (match[key],)).fetchone()
            names.append(row[0] if row else None)
        return names

    def _known(self, player_id: int | None) -> set[str]:
        """Every name a player has had (a renamed player's older logs still name them)."""
        names = {r[0] for r in self.conn.execute(
            "SELECT name FROM players WHERE id = ? UNION SELECT name FROM former_names "
            "WHERE player_id = ?", (player_id, player_id))}
        return names

    def _order(self, logged: list, match: dict) -> tuple[int, int] | None:
        """Which of the match's slots (1, 2) each player the log names holds, or None if the
        log names other players."""
        one, two = self._known(match["player1_id"]), self._known(match["player2_id"])
        if logged[0] in one and logged[1] in two:
            return (1, 2)
        if logged[0] in two and logged[1] in one:
            return (2, 1)
        return None

    def _outcome_or_refuse(self, text: str, tournament_id: int, code: str,
                           match: dict) -> tuple[int, int, int]:
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
        elif self._order(settings["players"], match) is None:
            names = self._names(match)
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
        return _outcome(played, self._order(settings["players"], match) or (1, 2))

    def result(self, match_id: str, tournament_id: int | None = None) -> dict | None:
        """The match's current result."""
        match = self._match(tournament_id, match_id)
        row = self._one("SELECT id, board_id, hmac, started, ended, received, document, kind, "
                        "reason FROM results WHERE match_id = ? AND replaced_by IS NULL",
                        match["id"])
        if row is not None:
            row["document"] = bytes(row["document"]).decode("utf-8", "replace")
        return row

    def results(self, tournament_id: int) -> list[dict]:
        """Every current result of the tournament's matches, in order of play (a result the
        store file moved onto a match with no players or no winner too: its names or score
        are None). "verified" is True, False (edited, signed by another key, or a board's
        result without its signature) or None (entered unsigned by an older pilkku)."""
        key = self.pairing_key(tournament_id)
        rows = dicts(self.conn.execute(
            "SELECT r.id AS result_id, m.code AS 'match', m.round, m.table_number AS 'table', "
            "p1.name AS player1, m.score1, m.score2, p2.name AS player2, w.name AS winner, "
            "r.board_id AS board, r.kind, r.reason, r.started, r.ended, r.received, r.hmac, "
            "r.chain_n "
            "FROM results r JOIN matches m ON m.id = r.match_id "
            "LEFT JOIN players p1 ON p1.id = m.player1_id "
            "LEFT JOIN players p2 ON p2.id = m.player2_id "
            "LEFT JOIN players w ON w.id = m.winner_id "
            "WHERE m.tournament_id = ? AND r.replaced_by IS NULL ORDER BY m.seq",
            (tournament_id,)))
        _problems, broken = self.chain_problems(tournament_id)
        for row in rows:
            signed = row.pop("hmac") is not None
            link = (row["board"], row.pop("chain_n"))
            if signed:
                row["verified"] = self.verify_result(row["result_id"], key) \
                    and link not in broken
            else:  # a board's result is signed by the board: without its signature it fails
                row["verified"] = False if row["kind"] == "board" or link[1] is not None \
                    else None
        return rows

    def problems(self, tournament_id: int, rows: list[dict] | None = None) -> list[str]:
        """Everything wrong with the tournament's results, one line each: the boards' chains,
        every current result that does not verify or is unsigned, a finished match without a
        current result, a result marked replaced by one that does not replace it, a board's
        result that came damaged and waits for the director. The one list every command that
        shows results prints (docs/security.md); a result a line names is not counted.
        `rows`: results(tournament_id) when the caller has them."""
        lines, _broken = self.chain_problems(tournament_id)
        for row in self.results(tournament_id) if rows is None else rows:
            if row["verified"] is None:
                lines.append("match %s: its result (from %s) is not signed: not counted"
                             % (row["match"], row["board"]))
            elif not row["verified"]:
                lines.append("match %s: its result (from %s) does not verify: the log, the "
                             "score, the winner or the match was changed in the store after "
                             "it was signed; not counted" % (row["match"], row["board"]))
        for code, in self.conn.execute(
                "SELECT code FROM matches m WHERE tournament_id = ? AND winner_id IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.match_id = m.id AND "
                "r.replaced_by IS NULL) ORDER BY seq", (tournament_id,)):
            lines.append("match %s has a winner but no current result (its result was "
                         "deleted, moved or marked replaced in the store): not counted" % code)
        for result, code, by in self.conn.execute(
                "SELECT r.id, m.code, r.replaced_by FROM results r JOIN matches m ON "
                "m.id = r.match_id WHERE m.tournament_id = ? AND r.replaced_by IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM results n WHERE n.id = r.replaced_by AND "
                "n.match_id = r.match_id AND n.id > r.id) ORDER BY m.seq, r.id",
                (tournament_id,)):
            lines.append("match %s: result %d is marked replaced by %s, which is no later "
                         "result of that match (the store was edited)" % (code, result, by))
        return lines + self.damaged_problems(tournament_id)

    def verify_result(self, result_id: int, key: bytes) -> bool:
        """The signature holds over the stored document, and the document gives the match's
        stored winner and score (a replaced result: the score it gave then is not checked)."""
        row = self._one("SELECT r.document, r.hmac, r.replaced_by, r.board_id, r.chain_n, "
                        "r.started, r.ended, m.player1_id, m.player2_id, m.winner_id, m.score1, "
                        "m.score2, m.tournament_id FROM results r JOIN matches m ON "
                        "m.id = r.match_id WHERE r.id = ?", result_id)
        if row is None or row["hmac"] is None:
            return False
        document = bytes(row["document"])
        if row["chain_n"] is None:  # entered by hand, or protocol 1: over the document alone
            expected = sign(key, document)
        else:  # a board's link: over board, number, the MAC before and the document
            link = self._one("SELECT prev, tournament_id FROM board_links WHERE board_id = ? "
                             "AND n = ?", row["board_id"], row["chain_n"])
            if link is None or link["tournament_id"] != row["tournament_id"]:
                return False  # (a link edited into another tournament is not this one's)
            expected = link_mac(key, str(row["board_id"]), row["chain_n"], link["prev"],
                                document)
        if expected == "" or not hmac.compare_digest(expected, str(row["hmac"]).lower()):
            return False
        if row["chain_n"] is not None and not _same_times(row, document):
            return False
        if row["replaced_by"] is not None:
            return True
        try:
            text = document.decode("utf-8")
            decided = director_outcome(text) or self._log_outcome(text, row)
        except (matchlog.BadLog, UnicodeDecodeError, bounded.Malformed):
            return False
        if decided is None:
            return False
        slot, score1, score2 = decided
        return (row["player%d_id" % slot], score1, score2) == (row["winner_id"], row["score1"],
                                                              row["score2"])

    def _log_outcome(self, text: str, match: dict) -> tuple[int, int, int] | None:
        played = matchlog.loads(text)
        order = self._order(played.settings["players"], match)
        if order is None or played.state.winner is None:
            return None
        return _outcome(played, order)


DIRECTOR = "pilkku.director/1"  # the format of an entry the director signs (no match log)


def sign(key: bytes, document: bytes) -> str:
    return hmac.new(key, document, hashlib.sha256).hexdigest()


def _same_times(row: dict, document: bytes) -> bool:
    """The stored times are the signed document's (they are kept beside it for queries)."""
    try:
        value = bounded.loads(document, matchlog.MAX_TEXT, matchlog.MAX_DEPTH)
    except bounded.Malformed:
        return False
    meta = value.get("meta", {}) if isinstance(value, dict) else None
    return isinstance(meta, dict) and (meta.get("started"), meta.get("ended")) == (
        row["started"], row["ended"])


def director_outcome(text: str) -> tuple[int, int, int] | None:
    """(winner's slot, score1, score2) of a director's entry; None for anything else."""
    doc = bounded.loads(text, matchlog.MAX_TEXT, matchlog.MAX_DEPTH)
    if not isinstance(doc, dict) or doc.get("format") != DIRECTOR:
        return None
    score, winner = doc.get("score"), doc.get("winner")
    if not (isinstance(score, list) and len(score) == 2 and winner in (1, 2)
            and all(type(s) is int for s in score)):
        raise bounded.Malformed("a director's entry needs score [a, b] and winner 1 or 2")
    return winner, score[0], score[1]


def _outcome(played: Any, order: tuple[int, int]) -> tuple[int, int, int]:
    """(winner's slot, score of slot 1, score of slot 2) from a replayed match; `order` gives
    the match slot of each player the log names."""
    state = played.state
    score = {order[0]: state.score[0], order[1]: state.score[1]}
    return order[state.winner], score[1], score[2]
