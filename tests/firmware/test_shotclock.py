"""The shot clock's timing and signals, fed with milliseconds."""

from firmware.shotclock import NONE, TIME_UP, WARN, ShotClock


def signals(clock: ShotClock, start: int, end: int, step: int = 100) -> dict[int, int]:
    return {t: s for t in range(start, end, step) if (s := clock.tick(t)) != NONE}


def test_a_shot_warns_at_ten_seconds_and_times_out_at_thirty_five():
    clock = ShotClock()
    clock.start(1000)
    assert clock.seconds(1000) == 35 and clock.seconds(1001) == 35 and clock.seconds(2000) == 34
    assert signals(clock, 1000, 40000) == {26000: WARN, 36000: TIME_UP}
    assert clock.seconds(40000) == 0


def test_sixty_seconds_after_the_break():
    clock = ShotClock()
    clock.start(0, after_break=True)
    assert signals(clock, 0, 70000, 1000) == {50000: WARN, 60000: TIME_UP}


def test_one_extension_per_player_per_rack():
    clock = ShotClock()
    clock.start(0)
    assert signals(clock, 0, 27000, 1000) == {25000: WARN}
    assert clock.extend(1, 27000)
    assert clock.seconds(27000) == 33  # 8 s left + 25 s
    assert signals(clock, 27000, 61000, 1000) == {50000: WARN, 60000: TIME_UP}
    clock.start(61000)
    assert not clock.extend(1, 61000)  # used for this rack
    assert clock.extend(0, 61000)
    clock.new_rack()
    assert clock.extend(1, 61000)

