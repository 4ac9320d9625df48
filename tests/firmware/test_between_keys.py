"""The quiet ticks' work in the menu (firmware/between_keys.py): the modules of the game the
menu shows are loaded there, ahead of the key that starts it; a finished match on a board
with a ring is filed away there (tests/firmware/test_journal_ring_match.py has the journal's
side)."""

from __future__ import annotations

import sys

from desk_board import DeskBoard


def test_the_menus_game_is_loaded_in_a_quiet_tick_not_in_the_start_key(monkeypatch):
    for name in ("firmware.kaisa_face", "firmware.referee_kaisa"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    board = DeskBoard().boot()
    for _ in range(3):  # 9-ball, 8-ball, 14.1, Kaisa
        board.tap("C")
    assert board.texts()["message"].startswith("KAISA")
    assert "firmware.kaisa_face" not in sys.modules
    between = board.app.between
    between.busy()  # the desk board's run() ticks the app only: its loop's calls by hand
    between.quiet(board.app)
    assert "kaisa" in board.app.between._loaded  # noqa: SLF001
    assert "firmware.kaisa_face" in sys.modules
