"""The watchdog on the virtual board: the firmware feeds the ROM's watchdog timer
(hardware/boards/virtual_wdt.py) every loop; a loop stuck past the timeout resets the board,
which comes back into the scoreboard with the match in play resumed from the journal. A
deliberate Ctrl-C stops the watchdog, so the REPL is not reset under the person using it."""

from __future__ import annotations

import time

import pytest

from host.board import firmware_image
from host.board.mpremote_link import Link as ReplLink
from host.board.virtual_board import BoardError, VirtualBoard
from tests.displays import powered_up
from tests.wedged import WEDGED_MAIN


@pytest.fixture
def board(tmp_path):
    vb = powered_up(tmp_path / "b", {**firmware_image.image(), "main.py": WEDGED_MAIN})
    yield vb
    vb.close()


def _answers(board: VirtualBoard, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            board.step(10, timeout=1.0)
            return True
        except BoardError:
            continue
    return False


def test_a_wedged_loop_is_reset_and_the_match_comes_back(board):
    for key in "1#11":  # a 9-ball race to 1: lag to player 1, who breaks
        board.tap(key)
    board.tap("3")
    board.tap("A")  # the 3 falls on the break, confirmed: an event in the journal
    before = board.texts()
    board.key("D", True)
    with pytest.raises(BoardError):  # the tick that takes the key never ends: stuck
        for _ in range(20):
            board.step(10, timeout=2.0)
    board.key("D", False)
    assert _answers(board, within=30.0), "the board did not come back"
    board.run(200)
    after = board.texts()
    assert (after["score_1"], after["score_2"], after["clock"]) == (
        before["score_1"], before["score_2"], before["clock"])  # the match, from the journal
    assert "watchdog reset" in (board.folder / "board.log").read_text()
    board.tap("9")
    board.tap("A")  # and it keeps score: the 9 ends the race
    assert board.texts()["score_1"].strip() == "1"


def test_the_repl_asked_for_is_not_reset_by_the_watchdog(board):
    with ReplLink.open(board.pty_path) as link:
        link.raw_repl(soft_reset=False)  # "\r\x03" then raw REPL: the firmware steps aside
        time.sleep(10)  # longer than the watchdog's 8 s
        assert link.run("print(6 * 7)").strip() == "42"
    assert "watchdog reset" not in (board.folder / "board.log").read_text()
