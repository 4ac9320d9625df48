"""Buzzer patterns on the recording fake PWM."""

from __future__ import annotations

import pytest

from hardware.buzzer import DUTY_HALF, SHORT, TIME_UP, WARNING, Buzzer
from hardware.fakes import FakePWM


def play_out(pattern, priority: int = 0, until: int = 5000, step: int = 1):
    """Play ``pattern`` from 0 ms, ticking every ``step`` ms; return the tone timeline as
    [(ms, freq or 0)] at every change, and the buzzer."""
    pwm = FakePWM()
    buzzer = Buzzer(pwm)
    buzzer.play(pattern, 0, priority)
    timeline = [(0, pwm.freq() if pwm.sounding else 0)]
    for ms in range(step, until, step):
        buzzer.tick(ms)
        now = pwm.freq() if pwm.sounding else 0
        if now != timeline[-1][1]:
            timeline.append((ms, now))
    return timeline, buzzer, pwm


def test_silent_at_start() -> None:
    pwm = FakePWM()
    Buzzer(pwm)
    assert pwm.log == [("duty", 0)] and not pwm.sounding


def test_short_beep() -> None:
    timeline, buzzer, pwm = play_out(SHORT)
    assert timeline == [(0, 2700), (60, 0)]
    assert not buzzer.playing
    assert pwm.log == [("duty", 0), ("freq", 2700), ("duty", DUTY_HALF), ("duty", 0)]


def test_warning_three_pips() -> None:
    timeline, _, _ = play_out(WARNING)
    assert timeline == [(0, 2700), (150, 0), (250, 2700), (400, 0), (500, 2700), (650, 0)]


def test_time_up_falls_in_pitch_and_ends_silent() -> None:
    timeline, buzzer, pwm = play_out(TIME_UP)
    assert timeline == [
        (0, 2000), (400, 0), (550, 2000), (950, 0), (1100, 1500), (2100, 0),
    ]
    assert not buzzer.playing and pwm.duty_u16() == 0


def test_pwm_touched_only_on_changes() -> None:
    pwm = FakePWM()
    buzzer = Buzzer(pwm)
    buzzer.play(WARNING, 0)
    for ms in range(1, 2000):
        buzzer.tick(ms)
    # same frequency all through: set once; duty on/off for each of the three pips
    assert [e for e in pwm.log if e[0] == "freq"] == [("freq", 2700)]
    assert len([e for e in pwm.log if e[0] == "duty"]) == 1 + 6


def test_priority_keeps_time_up_from_being_cut() -> None:
    pwm = FakePWM()
    buzzer = Buzzer(pwm)
    assert buzzer.play(TIME_UP, 0, priority=2)
    assert buzzer.play(SHORT, 100, priority=0) is False  # a key click does not cut in
    assert buzzer.pattern is TIME_UP
    assert buzzer.play(WARNING, 200, priority=2)  # equal priority replaces
    assert buzzer.pattern is WARNING
    buzzer.stop()
    assert not pwm.sounding and buzzer.play(SHORT, 300)


def test_late_tick_starts_next_step_then() -> None:
    pwm = FakePWM()
    buzzer = Buzzer(pwm)
    buzzer.play(WARNING, 0)
    assert buzzer.tick(1000)  # main loop stalled past the first pip
    assert not pwm.sounding  # in the pause, which lasts its full 100 ms from now
    assert buzzer.tick(1099) and not pwm.sounding
    assert buzzer.tick(1100) and pwm.sounding


def test_bad_pattern() -> None:
    buzzer = Buzzer(FakePWM())
    for bad in ((), (2000,), (2000, 10, 0)):
        with pytest.raises(ValueError):
            buzzer.play(bad, 0)


def test_tick_when_idle_is_harmless() -> None:
    pwm = FakePWM()
    buzzer = Buzzer(pwm)
    assert buzzer.tick(100) is False
    assert pwm.log == [("duty", 0)]
