"""The boards' chains of signed results in the store (schema v3, `board_links`): every result
a board delivered with a valid MAC is kept as a link (its number, the MAC of the link before,
the document), and `chain_problems` finds what a person with the store file but not the key
cannot hide: a link missing (a gap), links out of order or signed again (a MAC that does not
follow), a result deleted while its link stays, a link whose MAC does not verify."""

from __future__ import annotations

import hmac

from host.i18n import _
from host.tournament.store.db import Part
from host.tournament.store.schema import ResultRefused, now
from rules_core import sync_protocol as sp


def link_mac(key: bytes, board: str, n: int, prev: str, document: bytes) -> str:
    """The MAC a link must carry: rules_core/sync_protocol.result_mac, the one definition the
    board signs with. A document that is not UTF-8 was never signed, so gets no valid MAC."""
    try:
        text = document.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    return sp.result_mac(sp.Key(key), board, n, prev, text)


class Chains(Part):
    def record(self, tournament_id: int, board: str, n: int, prev: str, mac: str,
                    document_text: str) -> bool:
        """Keep a verified link (before its result is taken: a refused result keeps its link
        too, so the chain has no gap); True if new. The same link again is a no-op; another
        link under a number already kept is refused (the chain was restarted or forged).
        `Results.take` names the link's match once the result is stored."""
        document = document_text.encode("utf-8")
        with self.db.transaction() as db:
            found = self.db.one("SELECT mac, document FROM board_links WHERE board_id = ? AND "
                              "n = ?", board, n)
            if found is not None:
                if found["mac"] == mac and bytes(found["document"]) == document:
                    return False
                raise ResultRefused(_(
                    "board %(board)s sent another result #%(n)d than the one stored: its "
                    "chain of results was restarted or forged; the result stays on the board "
                    "(see docs/security.md)") % {"board": board, "n": n})
            db.execute("INSERT INTO board_links (board_id, n, tournament_id, prev, mac, "
                       "document, received) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (board, n, tournament_id, prev, mac, document, now()))
        return True

    def links(self, board: str) -> dict[int, str]:
        """The MAC of every link kept from `board`, by its number."""
        return {row[0]: row[1] for row in self.conn.execute(
            "SELECT n, mac FROM board_links WHERE board_id = ?", (board,))}

    def last(self, board: str) -> tuple[int, str]:
        """(n, MAC) of the last link kept from `board`, (0, "") when none: the head a board
        whose chain was lost on its flash goes on from (host/sync/mend.py)."""
        row = self.conn.execute("SELECT n, mac FROM board_links WHERE board_id = ? ORDER BY n "
                                "DESC LIMIT 1", (board,)).fetchone()
        return (row[0], row[1]) if row is not None else (0, "")

    def ok(self, board: str, n: int) -> bool:
        """The stored link verifies with its tournament's key."""
        row = self.db.one("SELECT l.*, t.pairing_key FROM board_links l LEFT JOIN tournaments t "
                        "ON t.id = l.tournament_id WHERE l.board_id = ? AND l.n = ?", board, n)
        if row is None or row["pairing_key"] is None:  # (its tournament id edited away)
            return False
        key = bytes(row["pairing_key"])
        expected = link_mac(key, board, n, row["prev"], bytes(row["document"]))
        # "" is link_mac's "never signed": it must not match an empty MAC put beside it
        return expected != "" and hmac.compare_digest(expected, row["mac"])

    def problems(self, tournament_id: int) -> tuple[list[str], set[tuple[str, int]]]:
        """What is wrong with the chains of the boards that played in this tournament:
        (one line per problem, the (board, n) of every link a problem touches)."""
        problems: list[str] = []
        touched: set[tuple[str, int]] = set()
        # The boards with a link in this tournament, or a result that names a link (its link
        # may have been edited into another tournament).
        boards = [r[0] for r in self.conn.execute(
            "SELECT board_id FROM board_links WHERE tournament_id = ? UNION SELECT r.board_id "
            "FROM results r JOIN matches m ON m.id = r.match_id WHERE m.tournament_id = ? AND "
            "r.chain_n IS NOT NULL ORDER BY 1", (tournament_id, tournament_id))]
        for board in boards:
            links = [dict(r) for r in self.conn.execute(
                "SELECT n, prev, mac, match_code, tournament_id FROM board_links "
                "WHERE board_id = ? ORDER BY n", (board,))]
            before = None
            for link in links:
                n = link["n"]
                if not self.ok(board, n):
                    problems.append(_("board %(board)s: result #%(n)d does not verify (changed "
                                      "after the board signed it)") % {"board": board, "n": n})
                    touched.add((board, n))
                if before is not None and n != before["n"] + 1:
                    problems.append(_("board %(board)s: results #%(first)d to #%(last)d are "
                                      "missing (deleted?)") % {
                        "board": board, "first": before["n"] + 1, "last": n - 1})
                    touched.add((board, n))
                elif before is not None and link["prev"] != before["mac"]:
                    problems.append(_("board %(board)s: result #%(n)d does not follow "
                                      "#%(before)d (reordered or signed again)") % {
                        "board": board, "n": n, "before": before["n"]})
                    touched.update({(board, n), (board, before["n"])})
                before = link
            problems += self._unrecorded(tournament_id, board, touched)
        return problems, touched

    def _unrecorded(self, tournament_id: int, board: str, touched: set) -> list[str]:
        """Links whose result was stored (they name its match) and whose row is gone, or no
        longer that match's (moved to another match or tournament, or the match renamed)."""
        rows = self.conn.execute(
            "SELECT l.n, l.match_code, EXISTS (SELECT 1 FROM results r WHERE r.board_id = "
            "l.board_id AND r.chain_n = l.n) FROM board_links l WHERE l.board_id = ? AND "
            "l.tournament_id = ? AND l.match_code IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "
            "results r JOIN matches m ON m.id = r.match_id WHERE r.board_id = l.board_id AND "
            "r.chain_n = l.n AND m.tournament_id = l.tournament_id AND m.code = l.match_code) "
            "ORDER BY l.n", (board, tournament_id)).fetchall()
        out = []
        for n, code, elsewhere in rows:
            if elsewhere:
                out.append("board %s: the result of match %s (#%d) is no longer that match's "
                           "(moved to another match, or the match renamed?)" % (board, code, n))
            else:
                out.append("board %s: the result of match %s (#%d) is missing from the "
                           "results (deleted?)" % (board, code, n))
            touched.add((board, n))
        return out
