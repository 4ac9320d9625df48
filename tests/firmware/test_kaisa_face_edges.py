"""Kaisa's game clock on the board (firmware/kaisa_face.py) where its other tests leave it
open: a power cut while the result stands (the clock still stopped where the game ended, and
an undo after it goes on from there), the clock display at time up, the words for a break key
without a game clock, and what the referee hears: a shot's points with a short beep only,
the five-minute warning, time up and a break's end each played whole, a key pressed at once
not cutting them. Desk board, CPython."""

from __future__ import annotations

import json

import pytest
from desk_board import DeskBoard
from displays import seen, shown

from firmware import kaisa_face
from firmware.between_keys import FLASH_IDLE_MS
from hardware.buzzer import SHORT, TIME_UP, WARNING

MINUTE = 60 * 1000


class Ear:
    """What the buzzer sounded, as (start ms, Hz, ms on) for each tone, from the PWM's
    calls timed by the board's clock (a tone ends when the duty goes to 0 or the frequency
    changes)."""

    def __init__(self, board: DeskBoard):
        self.board = board
        self.tones: list[list[int]] = []
        pwm = board.pwm
        freq, duty = pwm.freq, pwm.duty_u16
        self.hz, self.on = pwm.freq(), pwm.duty_u16() > 0

        def changed(hz: int, on: bool) -> None:
            if (hz, on) == (self.hz, self.on):
                return
            if self.on and self.tones:
                self.tones[-1][2] = board.now - self.tones[-1][0]
            if on:
                self.tones.append([board.now, hz, -1])
            self.hz, self.on = hz, on

        def timed_freq(hz=None):
            if hz is not None:
                changed(hz, self.on)
            return freq(hz)

        def timed_duty(value=None):
            if value is not None:
                changed(self.hz, value > 0)
            return duty(value)

        pwm.freq, pwm.duty_u16 = timed_freq, timed_duty

    def since(self, start: int) -> list[tuple[int, int]]:
        """(Hz, ms) of each tone begun at or after `start` and ended (one cut off in the ms
        it began, by a pattern of higher priority, is not heard)."""
        return [(hz, ms) for at, hz, ms in self.tones if at >= start and ms > 0]


def pattern(tones: tuple) -> list[tuple[int, int]]:
    """The (Hz, ms) tones of a buzzer pattern, its pauses left out."""
    return [(tones[i], tones[i + 1]) for i in range(0, len(tones), 2) if tones[i]]


def seconds(text: str) -> int:
    minutes, _, secs = text.strip().partition(":")
    return int(minutes) * 60 + int(secs)


def kaisa(clock: bool = True) -> DeskBoard:
    """A Kaisa game to 20 from the menu, PL 1 won the lag and took the one-dot ball."""
    board = DeskBoard().boot()
    board.tap("C", "C", "C")
    if clock:
        board.tap("B")
    board.tap("2", "0", "#", "1", "1")
    return board


def test_a_power_cut_while_the_result_stands_keeps_the_clock_stopped():
    board = kaisa()
    board.tap("A")  # the opening shot: PL 2 to the table
    board.run(54 * MINUTE, tick=1000)  # six minutes left
    board.tap("*", "A", "2", "1", "8", "#")  # PL 2 on 18
    board.tap("3")  # +6: PL 2 wins
    assert board.app.match.state.finished
    stopped = seen(board)[2]
    board.run(MINUTE, tick=1000)
    again = board.power_cut()  # the result still up
    assert again.app.match.state.finished and seen(again)[2] == stopped
    ear = Ear(again)
    start = again.now
    again.run(20 * MINUTE, tick=1000)
    assert ear.since(start) == []  # no "5 MIN LEFT", no time up while the result stands
    again.tap("5")  # a key while the result is up: its words, and every display drawn again
    assert seen(again)[2] == stopped  # not running while the result stands
    again.run(3000)
    again.hold("D")  # the last shot undone: play goes on from where the clock stopped
    assert not again.app.match.state.finished
    assert 0 <= seconds(stopped) - seconds(seen(again)[2]) <= 1
    again.run(MINUTE, tick=1000)
    assert 60 <= seconds(stopped) - seconds(seen(again)[2]) <= 61


def test_the_clock_reads_0_00_at_time_up():
    board = kaisa()
    board.run(60 * MINUTE, tick=1000)
    assert board.app.match.state.phase == "final"
    assert board.app.game_clock.text() == "0:00"  # what the hall's live state shows


def test_a_break_key_without_the_game_clock_says_so():
    board = kaisa(clock=False)
    notices = []
    notify = board.app.notify

    def noted(text, now, quiet=False, **more):
        notices.append((text, quiet))
        notify(text, now, quiet, **more)

    board.app.notify = noted
    board.tap("*", "C")
    assert shown(board) == "BREAK 1/2?"
    board.tap("1")
    assert notices == [("NO CLOCK", False)]  # with the warning beep: nothing happened
    assert board.app.game_clock.on_break() is None


def test_a_shot_gives_a_short_beep_only():
    board = kaisa()
    ear = Ear(board)
    start = board.now
    board.tap("2")  # the opening shot pots a red: its points flash on the message row
    assert seen(board)[3] == "RED 3"
    board.run(2000)
    assert ear.since(start) == pattern(SHORT)


@pytest.mark.parametrize("signal", ["five_left", "time_up"])
def test_the_clocks_signals_are_played_whole_even_when_a_key_is_pressed(signal):
    board = kaisa()
    board.tap("A")  # PL 2 to the table
    ear = Ear(board)
    minutes = 55 if signal == "five_left" else 60
    board.run(minutes * MINUTE - 2000, tick=1000)
    start = board.now
    board.run(2000, tick=1000)
    board.run(10)  # the signal: then at once the referee's key
    board.tap("A")  # a miss entered: its short beep must not cut the signal
    board.run(3000)
    expected = pattern(WARNING if signal == "five_left" else TIME_UP)
    assert ear.since(start)[:len(expected)] == expected


def test_a_breaks_end_is_played_whole():
    board = kaisa()
    board.tap("*", "C", "2")  # PL 2's break
    ear = Ear(board)
    board.run(5 * MINUTE - 1000, tick=1000)
    start = board.now
    board.run(1000, tick=1000)
    board.run(10)
    board.tap("A")
    board.run(2000)
    assert ear.since(start)[:3] == pattern(WARNING)
    assert seen(board)[2].startswith("59:")


def test_a_clock_file_left_by_the_match_before_is_not_this_ones(tmp_path):
    board = DeskBoard(tmp_path).boot()
    board.tap("C", "C", "C", "B", "2", "0", "#", "1", "1")
    board.run(10 * MINUTE, tick=1000)
    file = tmp_path / "journal" / kaisa_face.FILE
    left = file.read_bytes()  # the clock of this match, ten minutes in
    board.tap("*", "2", "#")  # PL 2 concedes: the match is over; left with #
    assert board.app.match is None and not file.exists()
    assert seen(board)[2:] == (" r:20", "KAISA GO")  # the menu stays on Kaisa, clock on
    file.write_bytes(left)  # as if the power had gone before it was removed
    board.tap("B", "#")  # the next Kaisa game, without the clock this time
    assert board.app.game_clock.clock is None  # the file left is another match's
    board.tap("1", "1")
    assert ":" not in seen(board)[2]


def test_a_power_cut_after_the_lag_was_undone_boots_with_a_fresh_clock():
    board = kaisa()
    board.run(5000)
    board.hold("D")  # the lag undone: the clock starts over
    assert board.app.match.state.phase == "lag"
    again = board.power_cut()
    assert again.app.match.state.phase == "lag"
    again.tap("1", "1")
    again.run(10000)
    assert seen(again)[2] == "59:50"


def test_the_time_played_is_written_once_the_keys_stop_and_on_a_quiet_table_seldom():
    # The write takes ~100 ms on a Pico and a press falling in it waits: every 5 s of play,
    # one press in 50 did. Now where presses are fewest.
    board = kaisa()
    face = board.app.game_clock
    writes: list[tuple[int, int]] = []  # (play, ms since the last key) at each write
    save = face.save

    def counted():
        writes.append((face.mono, board.app.now - board.app.key_at))
        save()

    face.save = counted
    board.run(MINUTE, tick=1000)  # a quiet table: every SAVE_QUIET_MS
    assert len(writes) == MINUTE // kaisa_face.SAVE_QUIET_MS
    assert {b[0] - a[0] for a, b in zip(writes, writes[1:], strict=False)} == \
        {kaisa_face.SAVE_QUIET_MS}
    writes.clear()
    for _ in range(6):  # a shot entered every 7 s: written once the keys stop, each time
        board.tap("A")
        board.run(7000, tick=100)
    assert len(writes) == 6  # each once the keys had stopped, SAVE_MS of play apart at least
    assert all(since >= FLASH_IDLE_MS for _play, since in writes)
    assert min(b[0] - a[0] for a, b in zip(writes, writes[1:], strict=False)) >= \
        kaisa_face.SAVE_MS
    writes.clear()
    for _ in range(20):  # keys coming fast for some 10 s: none written among them ...
        board.tap("A")
        board.run(300, tick=10)
    assert writes == []
    board.run(1500, tick=10)  # ... but once they stop
    assert len(writes) == 1 and writes[0][1] >= FLASH_IDLE_MS


def test_a_new_game_opens_no_clock_file_to_look_for_one(monkeypatch):
    """Opening a file on littlefs takes its 1 KB cache from the heap before it finds the file
    missing: a Kaisa start (its modules just loaded, the heap at its fullest) has no clock
    file to read back, and on the emulated Pico with a 66 KB heap that open was the
    allocation that failed ("MEMORY")."""
    opened = []
    real = open

    def counted(path, *args, **kwargs):
        if kaisa_face.FILE in str(path):
            opened.append((str(path), args[0] if args else kwargs.get("mode", "r")))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(kaisa_face, "open_file", counted)
    board = kaisa()
    assert board.app.game_clock.clock is not None
    board.tap("A")  # the opening shot: the clock runs
    board.run(6000, tick=1000)  # the clock saved, as every 5 s
    assert opened and all(mode == "w" for _path, mode in opened)  # written, never read
    del opened[:]
    again = board.power_cut()  # read back after a cut
    assert again.app.game_clock.clock.started is not None
    assert [mode for _path, mode in opened][:1] == ["r"]


def test_a_clock_save_with_no_heap_for_its_file_keeps_the_game_going(monkeypatch):
    """The clock's file only shortens what a power cut costs: a save the heap has no room for
    (a MemoryError from the file's open) leaves the clock running in RAM, as a full flash
    does, and does not end the board's loop."""
    board = kaisa()
    board.tap("A")  # the opening shot: the clock runs

    def no_heap(*_args, **_kwargs):
        raise MemoryError("memory allocation failed, allocating 1148 bytes")

    monkeypatch.setattr(kaisa_face, "open_file", no_heap)
    before = board.app.game_clock.text()
    board.run(7000, tick=1000)  # a save falls in here
    assert board.app.game_clock.text() != before
    board.tap("2")
    assert seen(board)[3] == "RED 3"


def test_the_clock_file_is_never_written_in_a_keys_tick(tmp_path, monkeypatch):
    """A littlefs write takes ~30 ms on a Pico: the lag's last key (the clock starts), a
    break and the winning shot (the clock stops) wrote the file before the key's display
    was drawn (48–57 ms from the key to the display). Each is written in the next tick."""
    in_key = []
    real = open

    def watched(path, *args, **kwargs):
        if kaisa_face.FILE in str(path):
            in_key.append(board.app.now == board.app.key_at)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(kaisa_face, "open_file", watched)
    board = DeskBoard(tmp_path).boot()
    file = tmp_path / "journal" / kaisa_face.FILE
    board.tap("C", "C", "C", "B", "2", "0", "#", "1", "1")  # the lag's end: the clock starts
    board.tap("A")  # PL 2 to the table
    board.tap("*", "C", "2")  # PL 2's break
    board.run(20)
    assert in_key and not any(in_key)
    saved = json.loads(file.read_text())
    assert saved["started"] is not None and saved["on_break"] == 1
    board.tap("*", "A", "2", "1", "8", "#")  # PL 2 on 18
    board.tap("*", "C")  # the break ends
    board.tap("3")  # +6: PL 2 wins, the clock stops
    assert board.app.match.state.finished
    board.run(20)
    assert not any(in_key) and json.loads(file.read_text())["stopped"] is not None
