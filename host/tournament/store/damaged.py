"""Results that came from a board damaged (docs/journal.md, "Damaged results"): the board set
the journal file aside whole and `pilkku sync` pulled its bytes as they are. The store keeps
them once (schema v7, `damaged_results`) with what their good records say (`salvage`), and
names each in store.results.problems until the director has entered its match in its place
(`pilkku correct CODE --score A:B`, or a walkover): the board's file is freed, never lost."""

from __future__ import annotations

import hashlib
import io
from typing import Any

from firmware.journal_records import KIND_EVENT, KIND_FINISH, KIND_SETTINGS, OVERHEAD, Records
from host.i18n import _
from host.tournament.store.db import Database, Part
from host.tournament.store.matches import Matches
from host.tournament.store.players import Players
from host.tournament.store.schema import StoreError, dicts, now
from rules_core import bounded, canon, sync_protocol

_PAYLOAD_MAX = 65535  # a record's payload (firmware/journal_records.py)
_TEXT_MAX = 40  # characters kept of a name or a code read from a damaged file
_BIG = 1 << 40


def salvage(data: bytes) -> dict:
    """What the whole records of a damaged journal file say, read with the board's own record
    format (firmware/journal_records.py), each value kept only if it has its right type:
    from the S record at the start the match code, players, game, race, table and start
    time; the count of whole events before the first bad record (`damaged_at`, its offset);
    from an F record whole at the very end the score (in the order of `players`), the winner
    (0, 1 or None) and the end time. Bounded: one pass from the start, one look back from the
    end over at most one record's length."""
    found: dict[str, Any] = {"first": False, "events": 0, "damaged_at": None, "last": False}
    f = io.BytesIO(data)
    reader = Records()
    offset, size = 0, len(data)
    while offset < size:
        n = reader.read(f, offset, size)
        if n < 0 or (offset == 0) != (reader.kind == KIND_SETTINGS):
            found["damaged_at"] = offset
            break
        value = _json(reader) if reader.kind in (KIND_SETTINGS, KIND_FINISH) else None
        if offset == 0 and isinstance(value, dict):
            found["first"] = True
            found.update(_start(value))
        elif reader.kind == KIND_EVENT:
            found["events"] += 1
        offset += n + OVERHEAD
    finish = _last_record(data, reader)
    if finish is not None:
        found["last"] = True
        found.update(_finish(finish))
    return found


def _json(reader: Records) -> Any:
    try:
        return bounded.loads(bytes(reader.payload()), _PAYLOAD_MAX, 12)
    except bounded.Malformed:
        return None


def _last_record(data: bytes, reader: Records) -> dict | None:
    """The F record that ends the file, if it is whole: the record whose length reaches the
    file's end exactly, found looking back (only where a kind and a length fit is a CRC
    computed)."""
    size = len(data)
    f = io.BytesIO(data)
    for at in range(size - OVERHEAD, max(-1, size - OVERHEAD - _PAYLOAD_MAX - 1), -1):
        if data[at] == KIND_FINISH and at + OVERHEAD + (data[at + 1] | data[at + 2] << 8) == size:
            if reader.read(f, at, size) >= 0:
                value = _json(reader)
                return value if isinstance(value, dict) else None
    return None


def _text(value: Any) -> str | None:
    if isinstance(value, str) and 0 < len(value) <= _TEXT_MAX and value.isprintable():
        return value
    return None


def _whole(value: Any, low: int = 0, high: int = _BIG) -> int | None:
    return value if bounded.whole(value, low, high) else None


def _object(value: dict, name: str) -> dict:
    inner = value.get(name)
    return inner if isinstance(inner, dict) else {}


def _start(value: dict) -> dict:
    meta, settings = _object(value, "meta"), _object(value, "settings")
    players = settings.get("players")
    names = [_text(p) for p in players] if isinstance(players, list) and len(players) == 2 \
        else None
    return {"match_id": _text(meta.get("match_id")), "table": _whole(meta.get("table"), 1, 9999),
            "started": _whole(meta.get("started")), "game": _text(settings.get("game")),
            "race_to": _whole(settings.get("race_to"), 1, 9999),
            "players": names if names and None not in names else None}


def _finish(value: dict) -> dict:
    meta = _object(value, "meta")
    score = meta.get("score")
    whole = isinstance(score, list) and len(score) == 2 and all(
        bounded.whole(s, 0, 9999) for s in score)
    winner = meta.get("winner")
    return {"score": score if whole else None,
            "winner": winner if winner in (0, 1) and type(winner) is int else None,
            "ended": _whole(meta.get("ended")), "abandoned": meta.get("abandoned") is True}


class Damaged(Part):
    def __init__(self, db: Database, matches: Matches, players: Players) -> None:
        super().__init__(db)
        self.matches, self.players = matches, players

    def record(self, tournament_id: int, board: str, seq: int, data: bytes) -> bool:
        """Keep a damaged result's bytes and what can be read of them; False if these very
        bytes from this board under this number are kept already (a sync cut before its
        acknowledgement reached the board brings them again)."""
        if not sync_protocol.board_id_ok(board) or not bounded.whole(seq, 0, _BIG):
            raise StoreError(_("a damaged result from a board that is not one: not kept"))
        readable = salvage(data)
        digest = hashlib.sha256(data).hexdigest()
        code = readable.get("match_id")
        named = "unreadable" if not readable["first"] else "match" if code else "free"
        with self.db.transaction() as db:
            if db.execute("SELECT 1 FROM damaged_results WHERE board_id = ? AND seq = ? AND "
                          "digest = ?", (board, seq, digest)).fetchone():
                return False
            db.execute("INSERT INTO damaged_results (tournament_id, board_id, seq, data, digest, "
                       "received, named, match_code, readable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                       "?)", (tournament_id, board, seq, data, digest, now(), named, code,
                              canon.dumps(readable)))
        return True

    def all(self, tournament_id: int) -> list[dict]:
        """Every damaged result kept for the tournament, oldest first, with `readable` parsed
        and `open`: True while it waits for the director (its match has no current result
        and it was not settled; a free game never waits)."""
        rows = dicts(self.conn.execute(
            "SELECT d.id, d.board_id AS board, d.seq, length(d.data) AS bytes, d.received, "
            "d.named, d.match_code, d.readable, d.settled_match, d.settled_result, m.id AS "
            "match_row, (SELECT r.id FROM results r WHERE r.match_id = m.id AND "
            "r.replaced_by IS NULL) AS current FROM damaged_results d LEFT JOIN matches m ON "
            "m.tournament_id = d.tournament_id AND m.code = d.match_code "
            "WHERE d.tournament_id = ? ORDER BY d.id", (tournament_id,)))
        for row in rows:
            try:
                row["readable"] = bounded.loads(row["readable"], 1 << 16, 4)
            except bounded.Malformed:
                row["readable"] = {}
            row["open"] = row["settled_result"] is None and row["named"] != "free" and (
                row["match_row"] is None or row["current"] is None)
        return rows

    def problems(self, tournament_id: int) -> list[str]:
        """One line for each damaged result that waits for the director: what it is, what
        could be read of it, and the command that settles it."""
        lines = []
        for row in self.all(tournament_id):
            if row["open"]:
                lines.append(self._damaged_line(tournament_id, row))
        return lines

    def _damaged_line(self, tournament_id: int, row: dict) -> str:
        seen = row["readable"] if isinstance(row["readable"], dict) else {}
        head = _("board %(board)s's result #%(seq)d came damaged (received %(when)s; its "
                 "%(bytes)d bytes are kept in the store)") % {
            "board": row["board"], "seq": row["seq"], "when": row["received"],
            "bytes": row["bytes"]}
        last = _last_words(seen)
        code = row["match_code"]
        if row["named"] == "match" and row["match_row"] is not None:
            score = self._score_for(tournament_id, code, seen)
            return _("%(head)s: it is match %(match)s%(players)s; %(last)s; not counted until "
                     "the director enters it: pilkku correct %(match)s --score %(score)s "
                     "--reason WHY (or pilkku walkover %(match)s WINNER)") % {
                "head": head, "match": code, "players": _players(seen), "last": last,
                "score": score or "A:B"}
        what = (_("it names match %(match)s, which this tournament does not have") % {
                    "match": code} if row["named"] == "match" else
                _("its first record is damaged, so which match it was cannot be read"))
        return _("%(head)s: %(what)s; %(last)s; find the match board %(board)s's table played "
                 "and enter it: pilkku correct MATCH --score A:B --damaged %(id)d --reason WHY"
                 ) % {"head": head, "what": what, "last": last, "board": row["board"],
                      "id": row["id"]}

    def _score_for(self, tournament_id: int, code: str, seen: dict) -> str | None:
        """The F record's score as `pilkku correct --score` takes it (the match's player 1
        first), when the record is whole and names the match's players."""
        score, players = seen.get("score"), seen.get("players")
        if not isinstance(score, list) or not isinstance(players, list):
            return None
        match = self.matches.get(tournament_id, code)
        order = self.players.order(players, match)
        if order is None:
            return None
        by_slot = {order[0]: score[0], order[1]: score[1]}
        return "%d:%d" % (by_slot[1], by_slot[2])

    def settle(self, tournament_id: int, code: str, result_id: int,
                       damaged_id: int | None) -> None:
        """Within the director's entry of match `code` (result `result_id`): the damaged result
        `damaged_id` (or every open one naming the match) is settled by it."""
        args: tuple
        if damaged_id is not None:
            row = self.db.one("SELECT id, settled_result FROM damaged_results WHERE id = ? AND "
                            "tournament_id = ?", damaged_id, tournament_id)
            if row is None or row["settled_result"] is not None:
                raise StoreError(_("there is no damaged result %(id)d waiting in this "
                                   "tournament (pilkku results names those that wait)") % {
                    "id": damaged_id})
            where, args = "id = ?", (damaged_id,)
        else:
            where, args = "match_code = ? AND tournament_id = ?", (code, tournament_id)
        self.conn.execute("UPDATE damaged_results SET settled_match = ?, settled_result = ? "
                          "WHERE settled_result IS NULL AND " + where, (code, result_id) + args)

    def waits_for(self, tournament_id: int, code: str) -> bool:
        """A damaged result names match `code` and waits: the director may enter its result
        though the match has none to replace."""
        return any(row["open"] and row["match_code"] == code and row["named"] == "match"
                   for row in self.all(tournament_id))


def _players(seen: dict) -> str:
    players = seen.get("players")
    return " (%s)" % (_("%(player1)s vs %(player2)s") % {
        "player1": players[0], "player2": players[1]}) if isinstance(players, list) else ""


def _last_words(seen: dict) -> str:
    """What its last record (F) says, or that it is damaged too."""
    if not seen.get("last"):
        return _("its last record is damaged too: ask the referee for the score")
    if seen.get("abandoned"):
        return _("its last record says the match was abandoned")
    score, players, winner = seen.get("score"), seen.get("players"), seen.get("winner")
    if score is None:
        return _("its last record holds no score")
    if isinstance(players, list):
        said = "%s %d, %s %d" % (players[0], score[0], players[1], score[1])
        if winner is not None:
            said += ", " + _("%(player)s won") % {"player": players[winner]}
    else:
        said = "%d:%d" % (score[0], score[1])
    return _("its last record is whole: %(said)s") % {"said": said}
