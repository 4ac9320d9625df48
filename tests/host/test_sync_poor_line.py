"""A sync on a poor line: results over a cable that damages 1 % of its bytes (any byte, Ctrl-C
included) arrive in one `pilkku sync`, each stored once and verified; the pieces shrink to what
the line carries whole, and the sync says how many frames it sent again. (Two results here, to
keep the suite quick; `pilkku bench` syncs twenty over a 115200 baud line damaging 1 %:
sync_completes_at_1pct_byte_errors.)"""

from __future__ import annotations

import time

from fault_relay import FaultRelay
from sync_setup import make_board

from host.bench.syncing import fill_journal, tournament
from host.board import firmware_image
from host.sync.commands import Desk
from host.sync.session import Link, sync_board
from host.tournament.store import Store
from rules_core import sync_protocol as sp

COUNT = 2


def test_results_over_a_line_damaging_one_byte_in_a_hundred(tmp_path):
    db = tmp_path / "poor.db"
    held, key, matches = tournament(db, COUNT)
    board = make_board(tmp_path / "board", firmware_image.image(), key, 1, "pk-poor")
    try:
        fill_journal(board.pty_path, matches)
        time.sleep(0.5)  # the firmware boots
        relay = FaultRelay(board.pty_path, 0.0, seed=7, byte_rate=0.01)
        desk = Desk(str(db), held)
        link = Link(relay.port, key)
        try:
            summary = sync_board(link, desk.store_result, desk.schedule_for,
                                 say=lambda _s: None)
        finally:
            link.close()
            relay.close()
    finally:
        board.close()
    assert summary["stored"] == COUNT
    assert summary["retransmissions"] > 0 and relay.faults["byte"] > 100
    assert link.piece < sp.PIECE_MAX  # the pieces adapted to the line
    with Store.open(db) as store:
        rows = store.results.all(held["id"])
        assert len(rows) == COUNT and all(row["verified"] for row in rows)
        assert store.chains.problems(held["id"]) == ([], set())
