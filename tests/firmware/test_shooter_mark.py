"""The shooter's mark on the score displays (the left colon of the player at the table), on a
desk board, game by game: it follows every turn change, undo, redo and new rack, comes back
after a power cut, and is off in the menu, the lag and once the match is over. It changes
the displays' RAM only when it moves (no I2C write on a quiet tick) and never blinks.

Every read of a desk board's displays also checks the mark against the engine's shooter
(tests/firmware/desk_board.py); the expectations here are written out by hand."""

from __future__ import annotations

from desk_board import DeskBoard
from displays import marked, seen, shown

from hardware.panel import SCORE_1, SCORE_2


def menu_to(board: DeskBoard, game: str) -> None:
    while not board.app.menu.frame()[3].startswith(game):
        board.tap("C")


def test_nine_ball_turns_undo_redo_rack_power_cut_and_the_end():
    board = DeskBoard().boot()
    assert marked(board) is None  # the menu
    board.tap("2", "#")
    assert seen(board)[3] == "LAG 1/2?" and marked(board) is None
    board.tap("2")
    assert seen(board)[3] == "PL 2 BRK" and marked(board) is None  # PL 2 chooses who breaks
    board.tap("1")
    assert marked(board) == 1  # PL 1 to break
    board.tap("A")  # a dry break
    assert marked(board) == 2
    board.hold("D")  # undo
    assert seen(board)[3] == "PL 1 BRK" and marked(board) == 1
    board.tap("*", "D")  # redo
    assert seen(board)[3] == "PL 2" and marked(board) == 2
    board.tap("B", "A")  # PL 2 scratches: PL 1 has ball in hand
    assert seen(board)[3] == "PL 1 BIH" and marked(board) == 1
    board.tap("A", "9", "A")  # PL 1 misses, PL 2 pots the 9: the rack and the next break
    assert seen(board)[:2] == ("   0", "   1") and seen(board)[3] == "PL 2 BRK"
    assert marked(board) == 2
    board = board.power_cut()
    assert seen(board)[3] == "PL 2 BRK" and marked(board) == 2
    board.tap("A")
    assert marked(board) == 1
    board.tap("*", "1")  # PL 1 concedes the rack: PL 2 wins the race to 2
    assert seen(board)[3] == "PL 2 WON" and marked(board) is None
    board = board.power_cut()
    assert seen(board)[3] == "PL 2 WON" and marked(board) is None  # the result, unmarked
    board.hold("D")  # the last shot undone from the result: PL 1 at the table again
    assert marked(board) == 1
    board.tap("*", "1", "#")
    assert seen(board)[3] == "9BALL GO" and marked(board) is None  # left: the menu


def test_eight_ball_groups_an_early_eight_and_the_rack_winner_to_break():
    board = DeskBoard().boot()
    menu_to(board, "8BALL")
    board.tap("3", "#", "1", "2")  # PL 1 won the lag; PL 2 breaks
    assert seen(board)[3] == "PL 2 BRK" and marked(board) == 2
    board.tap("1", "A", "2", "A")  # the 1 on the break, the 2: PL 2 has the solids
    assert seen(board)[3] == "PL 2 SOL" and marked(board) == 2
    board.tap("A")
    assert seen(board)[3] == "PL 1 STR" and marked(board) == 1
    board.tap("8", "A")  # PL 1 pots the 8 early: the rack to PL 2, who breaks again
    assert seen(board)[:2] == ("   0", "   1") and marked(board) == 2
    board.hold("D")
    assert seen(board)[3] == "PL 1 STR" and marked(board) == 1


def test_straight_pool_runs_keep_it_and_a_continuation_rack_keeps_the_shooter():
    board = DeskBoard().boot()
    menu_to(board, "14.1")
    board.tap("2", "0", "#", "1", "1")
    assert seen(board)[3] == "PL 1 BRK" and marked(board) == 1
    board.tap("B", "A", "1")  # a failed safety break; PL 2 accepts the table
    assert marked(board) == 2
    board.tap("#", "#", "#")  # a run of three called balls
    assert seen(board)[3] == "PL 2 3" and marked(board) == 2
    board.tap("9", "#", "2", "#")  # eleven more: the 14th is down, the rack is due
    assert seen(board)[3].startswith("RACK DUE") and marked(board) == 2
    board.tap("1", "#")  # the rack: PL 2 shoots on
    assert board.app.match.state.rack == 2 and marked(board) == 2
    board = board.power_cut()
    assert marked(board) == 2
    board.tap("A")
    assert marked(board) == 1
    board.tap("*", "2")  # PL 2 concedes
    assert seen(board)[3] == "PL 1 WON" and marked(board) is None


def test_kaisa_the_opener_the_turns_and_the_result():
    board = DeskBoard().boot()
    menu_to(board, "KAISA")
    board.tap("2", "0", "#")
    assert seen(board)[3] == "LAG 1/2?" and marked(board) is None
    board.tap("2")  # PL 2 won the lag and chooses the cue balls
    assert marked(board) is None
    board.tap("2")  # PL 2 takes two-dot: PL 1 opens
    assert seen(board)[3] == "PL 1 1D" and marked(board) == 1
    board.tap("A")  # the opening shot missed
    assert seen(board)[3] == "PL 2 2D" and marked(board) == 2
    board.hold("D")
    assert seen(board)[3] == "PL 1 1D" and marked(board) == 1
    board.tap("A", "A")
    assert marked(board) == 1
    board = board.power_cut()
    assert marked(board) == 1
    board.tap("*", "2")  # PL 2 concedes
    assert shown(board) == "PL 1 WON 20-0" and marked(board) is None


def test_the_mark_costs_no_i2c_when_it_stays_and_one_write_per_display_when_it_moves():
    board = DeskBoard().boot()
    board.tap("B", "5", "#", "1", "1")  # 9-ball with the shot clock: a redraw every second
    score_1, score_2 = board.model.device(SCORE_1), board.model.device(SCORE_2)
    board.tap("1", "A")  # the 1 on the break: PL 1 shoots on, the shot clock runs
    assert marked(board) == 1
    before = (score_1.ram_writes, score_2.ram_writes)
    seen_marks = set()
    for _ in range(500):  # five seconds of ticks: the clock counts down, nothing is pressed
        board.run(10)
        seen_marks.add((score_1.left_mark(), score_2.left_mark()))
    assert seen(board)[2] != "  60" and seen_marks == {(":", "")}  # never blinks off
    assert (score_1.ram_writes, score_2.ram_writes) == before  # not one byte more
    board.tap("A")  # a miss: the turn to PL 2
    assert marked(board) == 2
    assert (score_1.ram_writes, score_2.ram_writes) == (before[0] + 1, before[1] + 1)
    assert seen(board)[:2] == ("   0", "   0")  # the digits as they were
