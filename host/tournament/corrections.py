"""The director corrects the night: a result replaced (the old one kept, the new one a signed
entry by the director), a walkover, a player withdrawn (the format says what becomes of their
remaining matches: host/tournament/withdrawal.py), a player renamed, a table removed or its board
released; the history of every result, and which results the standings may count.

An entry by the director is signed with the tournament's own key, as a board signs its logs, so
an edit in the store afterwards shows as FAILED like any other. Its document is either a match
log (a corrected log) or a "pilkku.director/1" object: {format, kind, match_id, players, score,
winner (the slot, 1 or 2), reason, at, replaces}.
"""

from __future__ import annotations

from host.tournament import imports, withdrawal
from host.tournament.results import DIRECTOR, Results, director_outcome, sign
from host.tournament.schema import ResultRefused, StoreError, dicts, now
from rules_core import bounded, canon, matchlog

SCORE_MAX = 9999


class Corrections(Results):
    # -- results --------------------------------------------------------------------------

    def replace_result(self, tournament_id: int, code: str, reason: str, *,
                       log_text: str | None = None, score: tuple[int, int] | None = None,
                       winner: str | None = None, damaged: int | None = None) -> dict:
        """Replace a finished match's result by the director's: a corrected match log, or a
        score (and the winner, if the score does not say). Returns the new current result.
        A match whose result came damaged from its board (host/tournament/damaged.py: one
        naming it, or `damaged`, the one the director says it was) has none to replace: the
        director's is its first, and settles the damaged one."""
        reason = _reason(reason)
        with self.transaction():
            match = self._match(tournament_id, code)
            old = self._one("SELECT id FROM results WHERE match_id = ? AND replaced_by IS NULL",
                            match["id"])
            if old is None and damaged is None and not self.damaged_waits_for(tournament_id,
                                                                               code):
                raise StoreError("match %s has no result to replace: enter one with pilkku "
                                 "record %s LOG, or pilkku walkover %s WINNER" % (code, code, code))
            if log_text is not None:
                slot, score1, score2 = self._outcome_or_refuse(log_text, tournament_id, code,
                                                               match)
                document = log_text
            else:
                slot, score1, score2 = self._director_score(match, score, winner)
                document = self._director_entry(match, "correction", slot, (score1, score2),
                                                reason, None if old is None else old["id"])
            self._refuse_if_next_played(match, slot)
            # One current result per match (a unique index): the old one steps aside first.
            if old is not None:
                self.conn.execute("UPDATE results SET replaced_by = 0 WHERE id = ?",
                                  (old["id"],))
            new = self._insert_entry(tournament_id, match, document, "correction", reason)
            if old is not None:
                self.conn.execute("UPDATE results SET replaced_by = ? WHERE id = ?",
                                  (new, old["id"]))
            self.settle_damaged(tournament_id, code, new, damaged)
            self._undo_advance(match)
            self._decide(match, match["player%d_id" % slot], score1, score2)
        return self.result(code, tournament_id) or {}

    def walkover(self, tournament_id: int, code: str, winner: str, reason: str) -> None:
        """The match is won by `winner` without being played (the opponent did not come)."""
        reason = _reason(reason)
        with self.transaction():
            match = self._match(tournament_id, code)
            if match["winner_id"] is not None:
                raise StoreError("match %s is finished already; to change its result: pilkku "
                                 "correct %s" % (code, code))
            if None in (match["player1_id"], match["player2_id"]):
                raise StoreError("match %s waits for the winners of earlier matches" % code)
            slot = self._slot_of(match, winner)
            self._walk_over(tournament_id, match, slot, reason)

    def _walk_over(self, tournament_id: int, match: dict, slot: int, reason: str) -> None:
        race = self.tournament_by_id(tournament_id)["race_to"]
        score = (race, 0) if slot == 1 else (0, race)
        self._insert_entry(tournament_id, match, self._director_entry(
            match, "walkover", slot, score, reason, None), "walkover", reason)
        self._decide(match, match["player%d_id" % slot], score[0], score[1])

    def _director_score(self, match: dict, score: tuple[int, int] | None,
                        winner: str | None) -> tuple[int, int, int]:
        if score is None or not all(type(s) is int and 0 <= s <= SCORE_MAX for s in score):
            raise StoreError("give the corrected score as A:B (whole numbers, player 1's "
                             "first), or a corrected match log with --log")
        if winner is not None:
            slot = self._slot_of(match, winner)
        elif score[0] != score[1]:
            slot = 1 if score[0] > score[1] else 2
        else:
            raise StoreError("a level score needs --winner NAME")
        return slot, score[0], score[1]

    def _slot_of(self, match: dict, name: str) -> int:
        for slot in (1, 2):
            if name in self._known(match["player%d_id" % slot]):
                return slot
        names = self._names(match)
        raise StoreError("%s does not play match %s (%s vs %s)" % (name, match["code"], names[0],
                                                                  names[1]))

    def _director_entry(self, match: dict, kind: str, slot: int, score: tuple[int, int],
                        reason: str, replaces: int | None) -> str:
        return canon.dumps({"format": DIRECTOR, "kind": kind, "match_id": match["code"],
                            "players": self._names(match), "score": list(score),
                            "winner": slot, "reason": reason, "at": now(),
                            "replaces": replaces})

    def _insert_entry(self, tournament_id: int, match: dict, document: str, kind: str,
                      reason: str) -> int:
        data = document.encode("utf-8")
        cursor = self.conn.execute(
            "INSERT INTO results (match_id, document, board_id, hmac, received, kind, reason) "
            "VALUES (?, ?, 'director', ?, ?, ?, ?)",
            (match["id"], data, sign(self.pairing_key(tournament_id), data), now(), kind,
             reason))
        return int(cursor.lastrowid or 0)

    def _refuse_if_next_played(self, match: dict, slot: int) -> None:
        """A bracket winner changed after the next match was played cannot be undone here."""
        if match["next_match_id"] is None or match["player%d_id" % slot] == match["winner_id"]:
            return
        following = self._one("SELECT code, winner_id FROM matches WHERE id = ?",
                              match["next_match_id"])
        if following is not None and following["winner_id"] is not None:
            raise StoreError("the winner of %s has played %s already; correct %s first"
                             % (match["code"], following["code"], following["code"]))

    def _undo_advance(self, match: dict) -> None:
        if match["next_match_id"] is not None:
            self.conn.execute("UPDATE matches SET player%d_id = NULL WHERE id = ?"
                              % match["next_slot"], (match["next_match_id"],))

    def history(self, tournament_id: int) -> list[dict]:
        """Every result ever taken, the replaced ones too, in order of play then of arrival:
        {result, match, kind, board, received, reason, score1, score2, winner, replaced_by,
        verified}."""
        key = self.pairing_key(tournament_id)
        rows = dicts(self.conn.execute(
            "SELECT r.id AS result, m.code AS 'match', r.kind, r.board_id AS board, r.received, "
            "r.reason, r.replaced_by, r.document, r.hmac, m.player1_id, m.player2_id "
            "FROM results r JOIN matches m ON m.id = r.match_id WHERE m.tournament_id = ? "
            "ORDER BY m.seq, r.id", (tournament_id,)))
        for row in rows:
            decided = self._decided(bytes(row.pop("document")), row)
            slot, row["score1"], row["score2"] = decided or (None, None, None)
            row["winner"] = self._names(row)[slot - 1] if slot else None
            # (as results(): a board's result without its signature fails)
            row["verified"] = (self.verify_result(row["result"], key)
                               if row.pop("hmac") is not None
                               else False if row["kind"] == "board" else None)
            del row["player1_id"], row["player2_id"]
        return rows

    def _decided(self, document: bytes, match: dict) -> tuple[int, int, int] | None:
        try:
            text = document.decode("utf-8")
            return director_outcome(text) or self._log_outcome(text, match)
        except (UnicodeDecodeError, bounded.Malformed, matchlog.BadLog):
            return None

    # -- withdrawals ----------------------------------------------------------------------

    def withdraw(self, tournament_id: int, name: str, reason: str) -> list[str]:
        """The player plays no more; returns the matches decided by it now (the format's rule
        decides; a bracket match still waiting for its players is decided when they are known)."""
        reason = _reason(reason)
        with self.transaction():
            player = self._player(tournament_id, name)
            if player["withdrawn"] is not None:
                raise StoreError("%s withdrew already (%s)" % (name, player["withdrawn"]))
            self.conn.execute("UPDATE players SET withdrawn = ? WHERE id = ?",
                              (now(), player["id"]))
            decided = self._decided_codes(tournament_id)
            self._withdrawal_walkovers(tournament_id, reason)
            self._fill_tables(tournament_id, None)
            # (a match the walkovers drew and decided too: a double's two withdrawn losers)
            return sorted(self._decided_codes(tournament_id) - decided)

    def _after_result(self, tournament_id: int) -> None:
        self._withdrawal_walkovers(tournament_id, "withdrawn")

    def _withdrawal_walkovers(self, tournament_id: int, reason: str) -> None:
        withdrawn = self.withdrawn(tournament_id)
        if not withdrawn:
            return
        rule = withdrawal.rule_for(self.tournament_by_id(tournament_id)["format"])
        for match in self._open_matches(tournament_id):
            a, b = match["player1_id"], match["player2_id"]
            if None in (a, b) or not withdrawn.keys() & {a, b}:
                continue
            if rule(match, set(withdrawn)) != "walkover":
                continue
            if a in withdrawn and b in withdrawn:  # both withdrew: the one who left later wins
                slot = 1 if withdrawn[a] >= withdrawn[b] else 2
            else:
                slot = 2 if a in withdrawn else 1
            row = self._match(tournament_id, match["code"])
            if row["winner_id"] is None:  # (an earlier walkover's advance may have decided it)
                self._walk_over(tournament_id, row, slot, reason)

    def _decided_codes(self, tournament_id: int) -> set[str]:
        return {r[0] for r in self.conn.execute(
            "SELECT code FROM matches WHERE tournament_id = ? AND winner_id IS NOT NULL",
            (tournament_id,))}

    def _open_matches(self, tournament_id: int) -> list[dict]:
        """The matches without a winner, in order of play."""
        return dicts(self.conn.execute(
            "SELECT * FROM matches WHERE tournament_id = ? AND winner_id IS NULL ORDER BY seq",
            (tournament_id,)))

    def withdrawn(self, tournament_id: int) -> dict[int, str]:
        """The withdrawn players' ids, with when they withdrew."""
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT id, withdrawn FROM players WHERE tournament_id = ? AND withdrawn IS NOT "
            "NULL", (tournament_id,))}

    # -- players and tables ---------------------------------------------------------------

    def _player(self, tournament_id: int, name: str) -> dict:
        row = self._one("SELECT * FROM players WHERE tournament_id = ? AND name = ?",
                        tournament_id, name)
        if row is None:
            raise StoreError("no player named '%s' in this tournament: `pilkku players` lists "
                             "them" % imports.shown(name))
        return row

    def rename_player(self, tournament_id: int, old: str, new: str) -> None:
        """A player's name corrected; logs naming the old name are still theirs."""
        new = new.strip()
        with self.transaction():
            player = self._player(tournament_id, old)
            problem = imports.name_problem(new)
            if problem:
                raise StoreError(problem)
            if new == old:
                raise StoreError("'%s' is the name already" % imports.shown(old))
            taken = self._one(
                "SELECT p.name FROM players p LEFT JOIN former_names f ON f.player_id = p.id "
                "WHERE p.tournament_id = ? AND p.id != ? AND (p.name = ? OR f.name = ?)",
                tournament_id, player["id"], new, new)
            if taken is not None:
                raise StoreError("'%s' is (or was) the name of another player, %s: pick a name "
                                 "the boards can tell apart" % (new, taken["name"]))
            self.conn.execute("INSERT INTO former_names (player_id, name, until) VALUES "
                              "(?, ?, ?)", (player["id"], old, now()))
            self.conn.execute("UPDATE players SET name = ? WHERE id = ?", (new, player["id"]))

    def remove_table(self, tournament_id: int, number: int) -> list[str]:
        """The table is no longer used: its waiting matches go back to the queue (and on to
        the free tables), its board is released. Returns the matches it had queued."""
        with self.transaction():
            if number not in self.table_numbers(tournament_id):
                raise StoreError("there is no table %d (tables: %s)" % (
                    number, ", ".join(map(str, self.table_numbers(tournament_id))) or "none"))
            queued = [m["match_id"] for m in self.table_schedule(tournament_id, number)]
            self.conn.execute("UPDATE matches SET table_number = NULL, queued = NULL WHERE "
                              "tournament_id = ? AND table_number = ? AND winner_id IS NULL",
                              (tournament_id, number))
            self.conn.execute("UPDATE tables SET removed = ? WHERE tournament_id = ? AND "
                              "number = ?", (now(), tournament_id, number))
            self._release(tournament_id, number)
            self._fill_tables(tournament_id, None)
        return queued

    def release_table(self, tournament_id: int, number: int) -> str | None:
        """Forget which board holds the table (it broke, another takes its place); returns the
        board that held it."""
        with self.transaction():
            holder = self.holder(tournament_id, number)
            self._release(tournament_id, number)
        return holder

    def _release(self, tournament_id: int, number: int) -> None:
        self.conn.execute("UPDATE boards SET table_number = NULL WHERE tournament_id = ? AND "
                          "table_number = ?", (tournament_id, number))

    def holder(self, tournament_id: int, number: int, but: str | None = None) -> str | None:
        """The board that holds a table (other than `but`), if any."""
        row = self._one("SELECT board_id FROM boards WHERE tournament_id = ? AND "
                        "table_number = ? AND board_id != ?", tournament_id, number, but or "")
        return row["board_id"] if row else None


def _reason(text: str) -> str:
    text = (text or "").strip()
    if not text or len(text) > 200 or not text.isprintable():
        raise StoreError("say why with --reason TEXT (one line, up to 200 characters)")
    return text


__all__ = ["Corrections", "ResultRefused"]
