"""What a sync reports is what the board and the store hold: a result reported stored is gone
from the board by the end of the sync, even when the pull that carried its acknowledgement was
lost on the line and only damage came back (issue 22, item 5)."""

from __future__ import annotations

import time

from fault_relay import AckAndNakLost
from sync_setup import board_results, make_board

from host.bench.syncing import fill_journal, tournament
from host.board import firmware_image
from host.sync.commands import Desk
from host.sync.session import Link, sync_board
from host.tournament.store import Store

COUNT = 3  # the third result's first pull carries the first one's acknowledgement


def test_a_lost_acknowledgement_does_not_leave_a_stored_result_on_the_board(tmp_path):
    db = tmp_path / "acks.db"
    held, key, matches = tournament(db, COUNT)
    board = make_board(tmp_path / "board", firmware_image.image(), key, 1, "pk-acks")
    try:
        fill_journal(board.pty_path, matches)
        time.sleep(0.5)  # the firmware boots
        relay = AckAndNakLost(board.pty_path)
        desk = Desk(str(db), held)
        # A long first wait, so the damaged NAK comes while the pull it answers is awaited.
        link = Link(relay.port, key, timeout=1.5)
        try:
            summary = sync_board(link, desk.store_result, desk.schedule_for,
                                 say=lambda _s: None)
        finally:
            link.close()
            relay.close()
        assert relay.state == "done"  # the acknowledgement and its NAK were both damaged
        left = board_results(board.pty_path, key)
    finally:
        board.close()
    assert (summary["stored"], summary["duplicates"], summary["kept"]) == (COUNT, 0, 0)
    assert left == []  # reported stored: freed on the board
    with Store.open(db) as store:
        assert len(store.results.all(held["id"])) == COUNT
