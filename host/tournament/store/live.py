"""The boards' live states in the store (schema v3, table `live`): what each board last
confirmed about the match on its table, written by `pilkku sync --watch`, read by the hall.
A state is stored only after the watcher has checked it; the hall shows it as it came and
never moves a clock or a score on by itself."""

from __future__ import annotations

import json
import time

from host.tournament.store.db import Part
from host.tournament.store.schema import dicts
from rules_core import canon


def now_ms() -> int:
    return int(time.time() * 1000)


class Live(Part):
    def put(self, board_id: str, tournament_id: int, table: int | None,
            state: dict | None, at_ms: int | None = None) -> bool:
        """Record a board's answer; True when what the hall shows changed."""
        at = now_ms() if at_ms is None else at_ms
        text = None if state is None else canon.dumps(state)
        with self.db.transaction() as conn:
            row = conn.execute("SELECT tournament_id, table_number, state, silent FROM live "
                               "WHERE board_id = ?", (board_id,)).fetchone()
            changed = row is None or tuple(row) != (tournament_id, table, text, 0)
            conn.execute(
                "INSERT INTO live (board_id, tournament_id, table_number, state, answered_ms, "
                "changed_ms, silent) VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT (board_id) DO UPDATE "
                "SET tournament_id = excluded.tournament_id, table_number = excluded.table_number,"
                " state = excluded.state, answered_ms = excluded.answered_ms, silent = 0, "
                "changed_ms = CASE WHEN ? THEN excluded.changed_ms ELSE live.changed_ms END",
                (board_id, tournament_id, table, text, at, at, changed))
        return changed


    def silent(self, board_id: str, at_ms: int | None = None) -> None:
        """The board stopped answering: its last state stays, marked as no longer confirmed."""
        at = now_ms() if at_ms is None else at_ms
        with self.db.transaction() as conn:
            conn.execute("UPDATE live SET silent = 1, changed_ms = ? WHERE board_id = ? AND "
                         "silent = 0", (at, board_id))


    def states(self, tournament_id: int) -> list[dict]:
        """Every board's row for the tournament, its state parsed (None: no match on it)."""
        rows = dicts(self.conn.execute(
            "SELECT board_id, table_number AS 'table', state, answered_ms, changed_ms, silent "
            "FROM live WHERE tournament_id = ? ORDER BY table_number, board_id", (tournament_id,)))
        for row in rows:
            row["state"] = json.loads(row["state"]) if row["state"] else None
            row["silent"] = bool(row["silent"])
        return rows

    def started(self, tournament_id: int) -> dict[str, bool]:
        """The matches a board has started, by code: True once that board shows it finished
        (its result may not be stored yet). A match queued at a table whose board has not
        started it (the board in its menu, on another match) is not here: it is not being
        played. The newest state of a match wins (a board that showed it last)."""
        seen: dict[str, bool] = {}
        for row in sorted(self.states(tournament_id), key=lambda r: r["changed_ms"]):
            state = row["state"]
            if state is not None and state.get("match_id"):
                seen[state["match_id"]] = bool(state["finished"])
        return seen
