"""The shot clock (firmware/shotclock.py) at its edges, fed with milliseconds: the display's
seconds rounded up to the last millisecond, the warning at exactly 10 s left and not a
millisecond before, one extension per player in the first rack too (before any new_rack), a
stopped clock showing nothing left; and on the desk board, the clock stopped when the match
is won."""

from __future__ import annotations

from desk_board import DeskBoard

from firmware.shotclock import NONE, TIME_UP, WARN, ShotClock


def test_the_seconds_shown_round_up_to_the_last_millisecond():
    clock = ShotClock()
    clock.start(0)
    assert [clock.seconds(t) for t in (0, 1, 34000, 34001, 34999, 35000)] == [35, 35, 1, 1, 1, 0]


def test_the_warning_comes_at_exactly_ten_seconds_left():
    clock = ShotClock()
    clock.start(0)
    assert clock.tick(24999) == NONE  # 10.001 s left
    assert clock.tick(25000) == WARN
    assert clock.tick(34999) == NONE and clock.tick(35000) == TIME_UP


def test_one_extension_each_in_the_first_rack():
    clock = ShotClock()
    clock.start(0)
    assert clock.extend(0, 1000) and not clock.extend(0, 2000)
    assert clock.extend(1, 3000) and not clock.extend(1, 4000)
    assert clock.seconds(4000) == 35 + 25 + 25 - 4


def test_an_extension_after_the_warning_warns_again_at_ten_seconds():
    clock = ShotClock()
    clock.start(0)
    assert clock.tick(25000) == WARN
    assert clock.extend(0, 30000)  # 5 s left + 25 s
    assert clock.tick(30000) == NONE
    assert clock.tick(49999) == NONE and clock.tick(50000) == WARN
    assert clock.tick(60000) == TIME_UP


def test_a_stopped_clock_has_nothing_left_and_takes_no_extension():
    clock = ShotClock()
    clock.start(0)
    clock.stop()
    assert (clock.running, clock.left_ms(1000), clock.seconds(1000)) == (False, 0, 0)
    assert clock.tick(40000) == NONE
    assert not clock.extend(0, 1000)


def test_the_shot_clock_stops_when_the_match_is_won():
    board = DeskBoard().boot()
    board.tap("B")  # the shot clock on
    board.tap("1", "#", "1", "1")  # race to 1; PL 1 won the lag and breaks
    assert board.texts()["clock"] == "  35"
    board.tap("9", "A")  # the 9 on the break: the match is won
    assert board.texts()["message"] == "PL 1 WON"
    assert not board.app.shot_clock.running
    board.run(5000)
    assert board.texts()["clock"] == "  r1"  # the rack, no seconds counting down
