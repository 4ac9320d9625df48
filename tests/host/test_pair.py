"""Pairing a virtual board over its pty, then syncing with the key."""

from __future__ import annotations

from sync_setup import Raw

from host.board import firmware_image
from host.board.virtual_board import VirtualBoard
from host.sync.pair import pair
from host.sync.session import Link
from rules_core import sync_protocol as sp


def test_pairing_lets_signed_writes_through(tmp_path):
    board = VirtualBoard(tmp_path / "b")
    board.install(firmware_image.image())
    board.start()
    try:
        board.run(100)
        key = bytes(range(100, 132))
        raw = Raw(board.pty_path, key)
        try:
            assert raw.hello()["paired"] is False
            refused = Raw.payload(raw.exchange(sp.encode(raw.next_seq(), sp.TABLE,
                                                         {"table": 2})))
            assert refused == {"ok": False, "error": "this board is not paired: run "
                                                     "`pilkku pair` for this tournament"}
        finally:
            raw.close()
        board_id = pair(board.pty_path, key).board
        assert board_id.startswith("pk-")
        link = Link(board.pty_path, key)
        try:
            hello = link.hello()
            assert hello["paired"] is True and hello["board"] == board_id
            assert link.call(sp.TABLE, {"table": 2})["table"] == 2
        finally:
            link.close()
    finally:
        board.close()
