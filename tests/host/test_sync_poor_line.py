"""A sync on a poor line: results over a cable that damages 1 % of its bytes (any byte, Ctrl-C
included) arrive in one `pilkku sync`, each stored once and verified; the pieces shrink to what
the line carries whole, and the sync says how many frames it sent again. (Two results here, to
keep the suite quick; `pilkku bench` syncs twenty over a 115200 baud line damaging 1 %:
sync_completes_at_1pct_byte_errors.)"""

from __future__ import annotations

from fault_relay import FaultRelay
from sync_setup import board_holding, sync_through

from host.tournament.store import Store
from rules_core import sync_protocol as sp

COUNT = 2


def test_results_over_a_line_damaging_one_byte_in_a_hundred(tmp_path):
    with board_holding(tmp_path, COUNT, "pk-poor") as (db, held, key, board):
        relay = FaultRelay(board.pty_path, 0.0, seed=7, byte_rate=0.01)
        summary, link = sync_through(relay, db, held, key)
    assert summary["stored"] == COUNT
    assert summary["retransmissions"] > 0 and relay.faults["byte"] > 100
    assert link.piece < sp.PIECE_MAX  # the pieces adapted to the line
    with Store.open(db) as store:
        rows = store.results.all(held["id"])
        assert len(rows) == COUNT and all(row["verified"] for row in rows)
        assert store.chains.problems(held["id"]) == ([], set())
