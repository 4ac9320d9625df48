"""The firmware app under CPython on a desk board: keys in, decoded displays out."""

from __future__ import annotations

import pytest
from desk_board import DeskBoard


@pytest.fixture
def board() -> DeskBoard:
    return DeskBoard().boot()


def start_nine_ball(board, race: str = "3") -> None:
    board.tap(race, "#")  # race to 3, start
    board.tap("1")  # PL 1 won the lag
    board.tap("1")  # ... and breaks


def test_menu_shows_game_and_race(board):
    assert board.texts() == {"score_1": "PL 1", "score_2": "PL 2", "clock": "  r5",
                             "message": "9BALL GO", "mark_1": "", "mark_2": ""}
    board.tap("C")
    assert board.texts()["message"].startswith("8BALL")
    for _ in range(len(board.app.menu.games) - 1):  # round the games back to 9-ball
        board.tap("C")
    board.tap("7")
    assert board.texts()["clock"] == "  r7"


def test_lag_break_and_a_run_of_pots(board):
    board.tap("3", "#")
    assert board.texts()["message"] == "LAG 1/2?"
    board.tap("2")  # PL 2 won the lag
    assert board.texts()["message"] == "PL 2 BRK"
    board.tap("1")  # PL 2 gives the break to PL 1
    assert board.texts() == {"score_1": "   0", "score_2": "   0", "clock": "  r1",
                             "message": "PL 1 BRK", "mark_1": ":", "mark_2": ""}
    board.tap("#")  # the break: the 1 went in
    assert board.texts()["message"] == "PL 1"
    board.tap("A")  # a miss
    assert board.texts()["message"] == "PL 2"


def test_the_nine_wins_the_rack(board):
    start_nine_ball(board)
    board.tap("3", "9", "A")  # break: 3 and 9 down, won on the break
    assert board.texts()["score_1"] == "   1"
    assert board.texts()["clock"] == "  r2"


def test_foul_gives_ball_in_hand_and_counts(board):
    start_nine_ball(board)
    board.tap("A")  # dry break, PL 2 to the table
    board.tap("B")  # arm a foul: scratch
    assert board.texts()["message"] == "FSCR"
    board.tap("A")
    assert board.texts()["message"] == "PL 1 BIH"


def test_refused_event_shows_why_and_changes_nothing(board):
    start_nine_ball(board)
    board.tap("A")  # dry break
    board.tap("A", "C")  # PL 2 misses, then arms a push out: no longer allowed
    before = board.app.match.state.to_dict()
    board.tap("A")
    assert board.app.match.state.to_dict() == before
    assert board.texts()["message"] == "NO PUSH"  # the reason, for a moment
    board.run(3000)
    assert board.texts()["message"] == "PL 1"


def test_long_press_of_undo_undoes(board):
    start_nine_ball(board)
    board.tap("2", "A")
    assert board.app.match.state.on_table == [1, 3, 4, 5, 6, 7, 8, 9]
    board.hold("D")
    assert board.app.match.state.on_table == list(range(1, 10))
    assert board.texts()["message"] == "PL 1 BRK"
    board.tap("*", "D")  # redo
    assert board.app.match.state.on_table == [1, 3, 4, 5, 6, 7, 8, 9]


def test_match_result_stays_until_the_referee_leaves_it(board):
    board.tap("1", "#", "1", "1")  # race to 1, lag and break to PL 1
    board.tap("9", "A")
    assert board.texts()["message"] == "PL 1 WON"
    board.tap("#")
    assert board.texts()["message"] == "9BALL GO"


def test_a_notice_the_heap_has_no_room_for_is_let_go_and_the_board_goes_on(board, monkeypatch):
    # On a Pico after a match the heap is in small holes: a notice's text that finds none
    # ended the loop (and the watchdog reset the board mid-match).
    start = board.app.scroller.start
    failed = []

    def short_of_heap(text, now, loop=True):
        if text == "NO EXT" and not failed:
            failed.append(text)
            raise MemoryError
        start(text, now, loop)

    monkeypatch.setattr(board.app.scroller, "start", short_of_heap)
    start_nine_ball(board)
    board.tap("*", "C")  # an extension with no shot clock: a notice, "NO EXT"
    assert failed == ["NO EXT"]
    assert board.texts()["message"] == "PL 1 BRK"  # the message as it was
    board.tap("*", "C")
    assert board.texts()["message"] == "NO EXT"  # the next notice is shown


def test_shot_clock_counts_down_warns_and_extends(board):
    board.tap("B")  # shot clock on
    assert board.texts()["clock"] == "  :r5"  # the colon says the shot clock will run
    board.tap("3", "#", "1", "1")
    board.tap("#")  # the break: the 1 went in; 60 s for the first shot after the break
    assert board.texts()["clock"] == "  60"
    board.run(50000)
    tones = len(board.pwm.log)
    board.run(1000)  # 10 s left: the warning sounds
    assert len(board.pwm.log) > tones
    board.tap("*", "C")  # PL 1's extension: +25 s
    assert board.texts()["clock"] in ("  33", "  34")
    board.tap("*", "C")  # only one a rack
    assert board.texts()["message"] == "NO EXT"
    board.run(40000)
    assert board.texts()["clock"] == "   0"
    board.run(3000)
    board.tap("A")  # the next shot restarts the clock
    assert board.texts()["clock"] == "  35"


def test_the_referee_corrects_a_score_from_the_panel(board):
    start_nine_ball(board)
    board.tap("*", "A")
    assert board.texts()["message"] == "SET P?"
    board.tap("2", "3")
    assert board.texts()["message"] == "SET P2 3"
    board.tap("#")
    assert board.texts()["score_2"] == "   3"
    assert board.app.match.log[-1]["reason"] == "score corrected on the panel"


def test_a_flash_error_confirms_nothing_and_says_so(board):
    start_nine_ball(board)
    match = board.app.match

    def broken(event):
        raise OSError(28)  # ENOSPC

    match.log.append = broken
    before = match.state.to_dict()
    board.tap("#")
    assert match.state.to_dict() == before
    assert board.texts()["message"].startswith("FLASH")


def test_a_power_cut_rebuilds_the_match_from_the_journal():
    desk = DeskBoard().boot()
    desk.tap("B", "3", "#", "1", "1", "A")  # shot clock on; race to 3, PL 1 breaks; dry
    desk.tap("B", "A", "2", "A")  # PL 2 fouls (scratch); PL 1, ball in hand, pots the 2
    assert desk.texts()["clock"] == "  35"
    before = desk.app.match.state.to_dict()
    events = [desk.app.match.log[i] for i in range(len(desk.app.match.log))]
    assert len(events) == 5 and before["stats"][1]["fouls"] == 1

    again = desk.power_cut()  # a new app on the same flash: nothing kept in RAM
    match = again.app.match
    assert match is not desk.app.match and match.log is not desk.app.match.log
    assert [match.log[i] for i in range(len(match.log))] == events
    assert match.state.to_dict() == before
    assert again.texts()["score_1"] == desk.texts()["score_1"]
    assert again.texts()["message"] == desk.texts()["message"] == "PL 1"
    again.tap("A")  # the shot clock was kept on, and restarts with the next shot
    assert again.texts()["clock"] == "  35"
    again.hold("D")  # an undo after the power cut reaches back before it
    assert again.app.match.state.to_dict() == before


def test_a_board_without_a_match_resumes_to_the_menu():
    desk = DeskBoard().boot()
    desk.tap("1", "#", "1", "1", "9", "A")  # race to 1: won on the break
    desk.tap("#")  # the referee leaves the result: filed away in the journal
    again = desk.power_cut()
    assert again.app.match is None
    assert again.texts()["message"] == "9BALL GO"
    assert again.app.store.finished() == [1]
