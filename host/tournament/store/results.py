"""The store's results: a match log taken (replayed and checked against its match), the
director's signed entries, the current result of each match and the history of all, the
problems a director must see, and every result verified against the pairing key. What follows
a result (the draw, the tables) is the director's operations' (night/results.py)."""

from __future__ import annotations

import hmac
from typing import Any, NamedTuple

from host.errors import json_reason
from host.i18n import _
from host.tournament.store import per_revision
from host.tournament.store.chain import Chains, link_mac
from host.tournament.store.damaged import Damaged
from host.tournament.store.db import Database, Part
from host.tournament.store.documents import (  # (importers of results.py take them here too)
    DIRECTOR,
    NO_WINNER,
    director_outcome,
    log_players,
    no_winner_kind,
    outcome,
    points,
    replayed,
    sign,
    signed_times,
)
from host.tournament.store.matches import Matches
from host.tournament.store.players import Players
from host.tournament.store.schema import ResultRefused, dicts, now
from host.tournament.store.tournaments import Tournaments
from rules_core import bounded, canon, matchlog


class SetAside(NamedTuple):
    """A board's result kept in the history but not counted: the match had `by` (its
    current result, of `kind`, from `source`) when it came."""
    result: int
    by: int
    kind: str
    source: str


class Results(Part):
    def __init__(self, db: Database, tournaments: Tournaments, players: Players,
                 matches: Matches, chains: Chains, damaged: Damaged) -> None:
        super().__init__(db)
        self.tournaments, self.players, self.matches = tournaments, players, matches
        self.chains, self.damaged = chains, damaged

    def take(self, match: dict, document_text: str, board_id: str, hmac_hex: str | None,
             started: Any, ended: Any, kind: str | None = None,
             chain_n: int | None = None,
             played_as: str | None = None) -> tuple[int, int, int] | SetAside | None:
        """Store a match log as `match`'s result, inside the caller's transaction: (winner's
        slot, score1, score2), or None when the match has had this very document (sync
        delivered it twice, or a board sends again a log the director has since replaced).
        A board's result (`chain_n`: its link, kept already by Chains.record) for a match
        decided already (the director's walkover, hand result, void, both lose; another
        board's result) is kept not counted, marked replaced by the current result: SetAside.
        ResultRefused when the log does not replay, is not finished, names other players,
        game, race or rules, or (a log the director records) the match has another result.
        `played_as`: the code the log names, when `match` is the void copy of the game its
        board played (night/results.py: the code has other players now)."""
        document = document_text.encode("utf-8")
        code = played_as or match["code"]
        for earlier in self.conn.execute("SELECT document FROM results WHERE match_id = ?",
                                         (match["id"],)):
            if bytes(earlier[0]) == document:
                return None
        earlier = self.current_row(match["id"])
        if earlier is not None and chain_n is None:
            source = _("the director") if earlier["board_id"] == "director" else \
                _("board %(board)s") % {"board": earlier["board_id"]}
            raise ResultRefused(_("match %(match)s has a result already (from %(source)s, "
                                  "received %(when)s); a different log is not taken: to "
                                  "replace it, pilkku correct %(match)s --log FILE --reason "
                                  "TEXT") % {"match": code, "source": source,
                                             "when": earlier["received"]})
        if earlier is not None and chain_n is not None:  # a board's: kept, not counted
            self.outcome_or_refuse(document_text, match["tournament_id"], code, match)
            self._name_link(board_id, chain_n, hmac_hex, document, match["code"])
            cursor = self.conn.execute(
                "INSERT INTO results (match_id, document, board_id, hmac, started, ended, "
                "received, kind, chain_n, replaced_by) VALUES (?, ?, ?, ?, ?, ?, ?, 'board', "
                "?, ?)", (match["id"], document, board_id, hmac_hex, started, ended, now(),
                          chain_n, earlier["id"]))
            return SetAside(int(cursor.lastrowid or 0), earlier["id"], earlier["kind"],
                            earlier["board_id"])
        if None in (match["player1_id"], match["player2_id"]):
            raise ResultRefused(_("match %(match)s has no players yet: it waits for earlier "
                                  "matches") % {"match": code})
        outcome = self.outcome_or_refuse(document_text, match["tournament_id"], code, match)
        if chain_n is not None:
            self._name_link(board_id, chain_n, hmac_hex, document, code)
        self.conn.execute(
            "INSERT INTO results (match_id, document, board_id, hmac, started, ended, received, "
            "kind, chain_n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match["id"], document, board_id, hmac_hex, started, ended, now(),
             kind or ("board" if hmac_hex else "manual"), chain_n))
        return outcome

    def current_row(self, match_id: int) -> dict | None:
        """The match's current result row (by the match's row id), if any."""
        return self.db.one("SELECT * FROM results WHERE match_id = ? AND replaced_by IS NULL",
                           match_id)

    def entry(self, tournament_id: int, match: dict, document: str, kind: str,
              reason: str) -> int:
        """A result entered by the director, signed with the tournament's own key as a board
        signs its logs (an edit in the store afterwards fails like any other)."""
        data = document.encode("utf-8")
        cursor = self.conn.execute(
            "INSERT INTO results (match_id, document, board_id, hmac, received, kind, reason) "
            "VALUES (?, ?, 'director', ?, ?, ?, ?)",
            (match["id"], data, sign(self.tournaments.key(tournament_id), data), now(), kind,
             reason))
        return int(cursor.lastrowid or 0)

    def director_document(self, match: dict, kind: str, slot: int | None,
                          score: tuple[int, int] | None, reason: str,
                          replaces: int | None) -> str:
        """A "pilkku.director/1" entry: {format, kind, match_id, players, score, winner (the
        slot, 1 or 2), reason, at, replaces}; a match without a winner (kind 'void' or
        'both_lose') has score and winner null."""
        return canon.dumps({"format": DIRECTOR, "kind": kind, "match_id": match["code"],
                            "players": self.players.names(match),
                            "score": None if score is None else list(score),
                            "winner": slot, "reason": reason, "at": now(),
                            "replaces": replaces})

    def replace(self, old: int, new_document: str, tournament_id: int, match: dict, kind: str,
                reason: str) -> int:
        """A new current result in place of `old` (kept, marked replaced by it)."""
        # One current result per match (a unique index): the old one steps aside first.
        self.conn.execute("UPDATE results SET replaced_by = 0 WHERE id = ?", (old,))
        new = self.entry(tournament_id, match, new_document, kind, reason)
        self.conn.execute("UPDATE results SET replaced_by = ? WHERE id = ?", (new, old))
        return new

    def _name_link(self, board: str, n: int, mac: str | None, document: bytes,
                   code: str) -> None:
        link = self.db.one("SELECT mac, document FROM board_links WHERE board_id = ? AND n = ?",
                         board, n)
        if link is None or link["mac"] != mac or bytes(link["document"]) != document:
            raise ResultRefused(_("the result for %(match)s is not the one board %(board)s "
                                  "signed as #%(n)d") % {"match": code, "board": board, "n": n})
        self.conn.execute("UPDATE board_links SET match_code = ? WHERE board_id = ? AND n = ?",
                          (code, board, n))

    def outcome_or_refuse(self, text: str, tournament_id: int, code: str,
                           match: dict) -> tuple[int, int, int]:
        try:
            doc = bounded.loads(text, matchlog.MAX_TEXT, matchlog.MAX_DEPTH)
        except bounded.Malformed as why:
            raise ResultRefused(_("the result for %(match)s is not a pilkku match log "
                                  "(%(why)s)") % {"match": code, "why": json_reason(why)}
                                ) from None
        try:
            played = matchlog.load(doc)
        except matchlog.BadLog as bad:
            raise ResultRefused(_("the log for %(match)s does not replay: %(why)s") % {
                "match": code, "why": bad.text}) from None
        t = self.tournaments.by_id(tournament_id)
        settings = played.settings
        meta_id = doc.get("meta", {}).get("match_id")
        problem = None
        if meta_id is not None and meta_id != code:
            problem = _("the log is for match %(log)s, not %(match)s") % {"log": meta_id,
                                                                          "match": code}
        elif self.players.order(settings["players"], match) is None:
            names = self.players.names(match)
            problem = _("the log names %(one)s and %(two)s; match %(match)s is %(player1)s "
                        "vs %(player2)s") % {
                "one": settings["players"][0], "two": settings["players"][1], "match": code,
                "player1": names[0], "player2": names[1]}
        elif settings["game"] != t["game"]:
            problem = _("the log is a %(game)s match; the tournament plays %(played)s") % {
                "game": settings["game"], "played": t["game"]}
        elif settings["race_to"] != t["race_to"]:
            problem = _("the log is a race to %(race)d; the tournament's is %(played)d") % {
                "race": settings["race_to"], "played": t["race_to"]}
        elif settings["rules"] != t["rules"]:
            problem = _("the log was played with other ruleset options than the "
                        "tournament's")
        elif not played.state.finished or played.state.winner is None:
            problem = _("match %(match)s is not finished in the log") % {"match": code}
        if problem:
            raise ResultRefused(problem)
        order = self.players.order(settings["players"], match) or (1, 2)
        return outcome(played.state.winner, points(played.state), order)

    def current_ids(self, tournament_id: int) -> dict[int, int]:
        """Match row id -> its current result's id, for every match of the tournament that
        has one (without the documents: current_row's for all at once)."""
        return dict(self.conn.execute(
            "SELECT r.match_id, r.id FROM results r JOIN matches m ON m.id = r.match_id "
            "WHERE m.tournament_id = ? AND r.replaced_by IS NULL", (tournament_id,)).fetchall())

    def current(self, code: str, tournament_id: int | None = None) -> dict | None:
        """The match's current result."""
        match = self.matches.get(tournament_id, code)
        row = self.db.one("SELECT id, board_id, hmac, started, ended, received, document, kind, "
                        "reason FROM results WHERE match_id = ? AND replaced_by IS NULL",
                        match["id"])
        if row is not None:
            row["document"] = bytes(row["document"]).decode("utf-8", "replace")
        return row

    def all(self, tournament_id: int) -> list[dict]:
        """Every current result of the tournament's matches, in order of play (a result the
        store file moved onto a match with no players or no winner too: its names or score
        are None). "verified" is True, False (edited, signed by another key, or a board's
        result without its signature) or None (entered unsigned by an older pilkku). Read
        and verified once per store revision (per_revision.py), shared by all who read it."""
        kept = per_revision.read(self.db, ("results", tournament_id),
                                 lambda: self._all(tournament_id))
        return [dict(row) for row in kept]

    def _all(self, tournament_id: int) -> list[dict]:
        key = self.tournaments.key(tournament_id)
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
        _problems, broken = self.chains.problems(tournament_id)
        for row in rows:
            signed = row.pop("hmac") is not None
            link = (row["board"], row.pop("chain_n"))
            if signed:
                row["verified"] = self.verify(row["result_id"], key) \
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
        lines, _broken = self.chains.problems(tournament_id)
        for row in self.all(tournament_id) if rows is None else rows:
            if row["verified"] is None:
                lines.append(_("match %(match)s: its result (from %(board)s) is not signed: not "
                               "counted") % {"match": row["match"], "board": row["board"]})
            elif not row["verified"]:
                lines.append(_("match %(match)s: its result (from %(board)s) does not verify: "
                               "the log, the score, the winner or the match was changed in the "
                               "store after it was signed; not counted") % {
                    "match": row["match"], "board": row["board"]})
        for code, in self.conn.execute(
                "SELECT code FROM matches m WHERE tournament_id = ? AND winner_id IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.match_id = m.id AND "
                "r.replaced_by IS NULL) ORDER BY seq", (tournament_id,)):
            lines.append(_("match %(match)s has a winner but no current result (its result "
                           "was deleted, moved or marked replaced in the store): not counted")
                         % {"match": code})
        for result, code, by in self.conn.execute(
                "SELECT r.id, m.code, r.replaced_by FROM results r JOIN matches m ON "
                "m.id = r.match_id WHERE m.tournament_id = ? AND r.replaced_by IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM results n WHERE n.id = r.replaced_by AND "
                "n.match_id = r.match_id AND (n.id > r.id OR r.kind = 'board' AND r.chain_n "
                "IS NOT NULL)) ORDER BY m.seq, r.id",  # (a board's set aside: by an earlier)
                (tournament_id,)):
            lines.append(_("match %(match)s: result %(result)d is marked replaced by %(by)s, "
                           "which is no later result of that match (the store was edited)")
                         % {"match": code, "result": result, "by": by})
        return lines + self.damaged.problems(tournament_id)

    def verify(self, result_id: int, key: bytes) -> bool:
        """The signature holds over the stored document, and the document gives the match's
        stored winner and score (a replaced result: the score it gave then is not checked)."""
        row = self.db.one("SELECT r.document, r.hmac, r.replaced_by, r.board_id, r.chain_n, "
                        "r.started, r.ended, m.player1_id, m.player2_id, m.winner_id, m.score1, "
                        "m.score2, m.tournament_id, m.outcome FROM results r JOIN matches m ON "
                        "m.id = r.match_id WHERE r.id = ?", result_id)
        if row is None or row["hmac"] is None:
            return False
        document = bytes(row["document"])
        if row["chain_n"] is None:  # entered by hand, or protocol 1: over the document alone
            expected = sign(key, document)
        else:  # a board's link: over board, number, the MAC before and the document
            link = self.db.one("SELECT prev, tournament_id FROM board_links WHERE board_id = ? "
                             "AND n = ?", row["board_id"], row["chain_n"])
            if link is None or link["tournament_id"] != row["tournament_id"]:
                return False  # (a link edited into another tournament is not this one's)
            expected = link_mac(key, str(row["board_id"]), row["chain_n"], link["prev"],
                                document)
        if expected == "" or not hmac.compare_digest(expected, str(row["hmac"]).lower()):
            return False
        if row["chain_n"] is not None and signed_times(document) != (row["started"],
                                                                      row["ended"]):
            return False
        if row["replaced_by"] is not None:
            return True
        try:
            text = document.decode("utf-8")
            without = no_winner_kind(text)
            if without is not None:  # a void or both-lose entry: the match says so, no winner
                return (row["outcome"], row["winner_id"]) == (without, None)
            decided = director_outcome(text) or self._log_outcome(text, row)
        except (matchlog.BadLog, UnicodeDecodeError, bounded.Malformed):
            return False
        if decided is None:
            return False
        slot, score1, score2 = decided
        return (row["player%d_id" % slot], score1, score2) == (row["winner_id"], row["score1"],
                                                              row["score2"])

    def history(self, tournament_id: int) -> list[dict]:
        """Every result ever taken, the replaced ones too, in order of play then of arrival:
        {result, match, kind, board, received, reason, score1, score2, winner, replaced_by,
        set_aside, verified}."""
        key = self.tournaments.key(tournament_id)
        rows = dicts(self.conn.execute(
            "SELECT r.id AS result, m.code AS 'match', r.kind, r.board_id AS board, r.received, "
            "r.reason, r.replaced_by, r.document, r.hmac, m.player1_id, m.player2_id "
            "FROM results r JOIN matches m ON m.id = r.match_id WHERE m.tournament_id = ? "
            "ORDER BY m.seq, r.id", (tournament_id,)))
        for row in rows:
            # A board's result that came after the match was decided: not counted (SetAside).
            row["set_aside"] = row["replaced_by"] is not None and row["replaced_by"] < row[
                "result"]
            decided = self._decided(bytes(row.pop("document")), row)
            slot, row["score1"], row["score2"] = decided or (None, None, None)
            row["winner"] = self.players.names(row)[slot - 1] if slot else None
            # (as results(): a board's result without its signature fails)
            row["verified"] = (self.verify(row["result"], key)
                               if row.pop("hmac") is not None
                               else False if row["kind"] == "board" else None)
            del row["player1_id"], row["player2_id"]
        return rows

    def _decided(self, document: bytes, match: dict) -> tuple[int, int, int] | None:
        try:
            text = document.decode("utf-8")
            if no_winner_kind(text) is not None:
                return None
            return director_outcome(text) or self._log_outcome(text, match)
        except (UnicodeDecodeError, bounded.Malformed, matchlog.BadLog):
            return None

    def _log_outcome(self, text: str, match: dict) -> tuple[int, int, int] | None:
        done = replayed(text)  # (once per log: documents.py remembers it)
        if done is None:
            return None
        names, winner, recorded = done
        order = self.players.order(list(names), match) if len(names) == 2 else None
        if order is None or winner is None:
            return None
        return outcome(winner, recorded, order)


__all__ = ["DIRECTOR", "NO_WINNER", "Results", "SetAside", "director_outcome", "log_players",
           "no_winner_kind", "sign"]
