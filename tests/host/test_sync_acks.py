"""What a sync reports is what the board and the store hold: a result reported stored is gone
from the board by the end of the sync, even when the pull that carried its acknowledgement was
lost on the line and only damage came back (issue 22, item 5)."""

from __future__ import annotations

from fault_relay import AckAndNakLost
from sync_setup import board_holding, board_results, sync_through

from host.tournament.store import Store

COUNT = 3  # the third result's first pull carries the first one's acknowledgement


def test_a_lost_acknowledgement_does_not_leave_a_stored_result_on_the_board(tmp_path):
    with board_holding(tmp_path, COUNT, "pk-acks") as (db, held, key, board):
        relay = AckAndNakLost(board.pty_path)
        # A long first wait, so the damaged NAK comes while the pull it answers is awaited.
        summary, _link = sync_through(relay, db, held, key, timeout=1.5)
        assert relay.state == "done"  # the acknowledgement and its NAK were both damaged
        left = board_results(board.pty_path, key)
    assert (summary["stored"], summary["duplicates"], summary["kept"]) == (COUNT, 0, 0)
    assert left == []  # reported stored: freed on the board
    with Store.open(db) as store:
        assert len(store.results.all(held["id"])) == COUNT
