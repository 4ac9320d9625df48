"""Referee keys: debounce with real chatter, long press, auto-repeat, matrix and buttons."""

from __future__ import annotations

import pytest

import hardware.compat
import hardware.keys
from hardware.fakes import FakePin, KeyMatrix
from hardware.keys import LONG, NONE, PRESS, RELEASE, REPEAT, Buttons, Key, Keypad

# Contact chatter as a 1 kHz scan sees a tactile switch settle: (ms from the first edge,
# level). The press bounces for 5 ms, with a 2 ms open that a too-short debounce would take
# for a release; the release bounces for 9 ms, closing again twice.
PRESS_CHATTER = [(0, 1), (1, 0), (2, 1), (3, 0), (5, 1)]
RELEASE_CHATTER = [(0, 0), (1, 1), (2, 0), (4, 1), (5, 0), (8, 1), (9, 0)]


def level_at(t: int, edges: list[tuple[int, int]], before: int) -> int:
    level = before
    for at, lv in edges:
        if at <= t:
            level = lv
    return level


def sample(key: Key, start: int, end: int, level_fn, every: int = 1):
    """Feed ``key`` every ``every`` ms in [start, end); return [(ms, event)] for events."""
    out = []
    for ms in range(start, end, every):
        ev = key.update(bool(level_fn(ms)), ms)
        if ev != NONE:
            out.append((ms, ev))
    return out


def press_release(press_at: int, release_at: int):
    """Level function of one press with chatter on both edges."""

    def level(ms: int) -> int:
        if ms < press_at:
            return 0
        if ms < release_at:
            return level_at(ms - press_at, PRESS_CHATTER, 0)
        return level_at(ms - release_at, RELEASE_CHATTER, 1)

    return level


def test_chatter_gives_one_press_and_one_release() -> None:
    key = Key(debounce_ms=20)
    events = sample(key, 0, 1000, press_release(100, 400))
    # stable from 105 ms (press) and 409 ms (release): recognised debounce_ms later
    assert events == [(125, PRESS), (429, RELEASE)]


def test_chatter_sampled_slowly_like_a_real_scan_loop() -> None:
    key = Key(debounce_ms=20)
    events = sample(key, 0, 1000, press_release(100, 400), every=5)
    kinds = [e for _, e in events]
    assert kinds == [PRESS, RELEASE]
    assert 120 <= events[0][0] <= 130 and 420 <= events[1][0] <= 430


def test_short_spike_is_ignored() -> None:
    key = Key(debounce_ms=20)
    spike = lambda ms: 1 if 200 <= ms < 215 else 0  # noqa: E731  15 ms of noise
    assert sample(key, 0, 500, spike) == []
    dropout = lambda ms: 0 if 300 <= ms < 310 else (1 if ms >= 100 else 0)  # noqa: E731
    assert [e for _, e in sample(Key(), 0, 600, dropout)] == [PRESS]


def test_long_press_fires_once_while_held() -> None:
    key = Key(debounce_ms=20, long_ms=800)
    events = sample(key, 0, 3000, press_release(100, 2000))
    assert events == [(125, PRESS), (925, LONG), (2029, RELEASE)]
    assert key.long  # release can tell a long press from a short one


def test_short_press_is_not_long() -> None:
    key = Key(debounce_ms=20, long_ms=800)
    events = sample(key, 0, 1500, press_release(100, 500))
    assert [e for _, e in events] == [PRESS, RELEASE]
    assert not key.long
    events = sample(key, 1500, 4000, press_release(2000, 3500))
    assert [e for _, e in events] == [PRESS, LONG, RELEASE]


def test_auto_repeat_timing() -> None:
    key = Key(debounce_ms=20, repeat_delay_ms=500, repeat_ms=100)
    events = sample(key, 0, 1200, press_release(100, 1000))
    assert events == [
        (125, PRESS),
        (625, REPEAT),
        (725, REPEAT),
        (825, REPEAT),
        (925, REPEAT),
        (1029, RELEASE),  # release chatter (1000..1009) neither repeats nor releases early
    ]


def test_repeat_without_delay_uses_repeat_interval() -> None:
    key = Key(debounce_ms=10, repeat_ms=200)
    held = lambda ms: 1 if ms >= 0 else 0  # noqa: E731
    events = sample(key, 0, 700, held)
    assert events == [(10, PRESS), (210, REPEAT), (410, REPEAT), (610, REPEAT)]


def test_late_calls_do_not_burst_repeats() -> None:
    key = Key(debounce_ms=10, repeat_delay_ms=100, repeat_ms=50)
    key.update(True, 0)
    assert key.update(True, 10) == PRESS
    assert key.update(True, 1000) == REPEAT  # main loop stalled: one repeat, not 18
    assert key.update(True, 1010) == NONE
    assert key.update(True, 1050) == REPEAT


def test_long_and_repeat_on_one_key_one_event_per_call() -> None:
    key = Key(debounce_ms=10, long_ms=500, repeat_delay_ms=500, repeat_ms=100)
    key.update(True, 0)
    assert key.update(True, 10) == PRESS
    assert key.update(True, 510) == LONG
    assert key.update(True, 511) == REPEAT  # the one that was also due comes next call


def test_held_ms() -> None:
    key = Key(debounce_ms=10)
    key.update(True, 0)
    key.update(True, 10)
    assert key.held_ms(510) == 500
    key.update(False, 600)
    key.update(False, 610)
    assert key.held_ms(700) == 0


def test_wrapping_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the board's wrapping ticks (2**30 period on 32-bit ports) nothing breaks at the
    wrap: times are only compared through ticks_diff/ticks_add."""
    period = 1 << 30

    def diff(a: int, b: int) -> int:
        return ((a - b + period // 2) % period) - period // 2

    def add(a: int, b: int) -> int:
        return (a + b) % period

    monkeypatch.setattr(hardware.compat, "ticks_diff", diff)
    monkeypatch.setattr(hardware.keys, "ticks_diff", diff)
    monkeypatch.setattr(hardware.keys, "ticks_add", add)
    key = Key(debounce_ms=20, long_ms=300, repeat_delay_ms=200, repeat_ms=100)
    start = period - 150
    events = []
    for dt in range(0, 600, 5):
        now = (start + dt) % period
        ev = key.update(dt >= 10 and dt < 500, now)
        if ev:
            events.append((dt, ev))
    assert events == [
        (30, PRESS),
        (230, REPEAT),
        (330, LONG),
        (335, REPEAT),  # was due at 330 too: comes with the next call
        (430, REPEAT),  # and the repeat grid stays where it was
        (520, RELEASE),
    ]


def test_keypad_scan_finds_each_key_with_chatter() -> None:
    matrix = KeyMatrix()
    pad = Keypad(matrix.rows, matrix.cols, debounce_ms=20, long_ms=0)
    got: list[tuple[str, int]] = []
    emit = lambda name, ev: got.append((name, ev))  # noqa: E731
    for name in "123A456B789C*0#D":
        got.clear()
        level = press_release(100, 300)
        for ms in range(0, 400, 2):
            matrix.set(name, bool(level(ms)))
            pad.scan(ms, emit)
        assert got == [(name, PRESS), (name, RELEASE)]
    assert all(r.level == 1 for r in matrix.rows)  # rows left idle (high) between scans


def test_keypad_two_keys_and_per_key_timing() -> None:
    matrix = KeyMatrix()
    pad = Keypad(matrix.rows, matrix.cols, debounce_ms=10, long_ms=0)
    pad.key("#").long_ms = 1000  # e.g. undo needs a long press
    pad.key("A").repeat_ms = 100  # e.g. +1 repeats while held
    got = []
    matrix.press("#")
    matrix.press("A")
    for ms in range(0, 1201, 10):
        pad.scan(ms, lambda n, e, ms=ms: got.append((ms, n, e)))
    assert (10, "#", PRESS) in got and (10, "A", PRESS) in got
    assert (1010, "#", LONG) in got
    assert [m for m, n, e in got if n == "A" and e == REPEAT][:3] == [110, 210, 310]
    assert not [g for g in got if g[1] not in "#A"]  # no phantom keys
    with pytest.raises(KeyError):
        pad.key("E")


class _Watched:
    """A pin that tells ``log`` when a row is written (its level changed) or a column read."""

    def __init__(self, pin, kind: str, log: list) -> None:
        self.pin, self.kind, self.log = pin, kind, log

    def value(self, level=None):
        if level is None:
            self.log.append("read")
            return self.pin.value()
        if (1 if level else 0) != self.pin.value():
            self.log.append("row")
        return self.pin.value(level)


@pytest.mark.parametrize("held", ["", "5", "5D"])
def test_keypad_settles_after_a_row_changes_before_a_column_is_read(held: str) -> None:
    matrix = KeyMatrix()
    log: list[str] = []
    rows = [_Watched(r, "row", log) for r in matrix.rows]
    cols = [_Watched(c, "col", log) for c in matrix.cols]
    pad = Keypad(rows, cols, settle=lambda: log.append("settle"))
    for name in held:
        matrix.press(name)
    for ms in range(0, 100, 10):
        log.clear()
        pad.scan(ms, lambda n, e: None)
        assert "read" in log
        changed = False
        for what in log:
            if what == "row":
                changed = True
            elif what == "settle":
                changed = False
            else:
                assert not changed, log  # a column read before the rows had settled


def test_keypad_scan_updates_only_the_keys_that_can_change() -> None:
    """An idle key read up would stay as it is: a scan with nothing pressed updates no key,
    one with a key down only that key, until its release has been debounced (the loop scans
    every 10 ms, before each key it acts on). The events are those of a scan of all 16."""
    matrix = KeyMatrix()
    pad = Keypad(matrix.rows, matrix.cols, debounce_ms=20, long_ms=300)
    updated: list[str] = []
    for name, key in zip(pad.names, pad.keys, strict=True):
        def counted(level, now, key=key, name=name, update=Key.update):
            updated.append(name)
            return update(key, level, now)
        key.update = counted  # type: ignore[method-assign]
    got: list[tuple[int, str, int]] = []
    per_scan: list[int] = []
    for ms in range(0, 800, 10):
        matrix.set("5", 100 <= ms < 500)
        matrix.set("#", 200 <= ms < 300)
        updated.clear()
        pad.scan(ms, lambda n, e, ms=ms: got.append((ms, n, e)))
        assert set(updated) <= {"5", "#"}
        per_scan.append(len(updated))
    assert got == [(120, "5", PRESS), (220, "#", PRESS), (320, "#", RELEASE),
                   (420, "5", LONG), (520, "5", RELEASE)]
    assert per_scan[:10] == [0] * 10 and per_scan[-20:] == [0] * 20
    assert max(per_scan) == 2


def test_keypad_needs_a_name_per_key() -> None:
    matrix = KeyMatrix()
    with pytest.raises(ValueError):
        Keypad(matrix.rows, matrix.cols, names="123")


def test_discrete_buttons_active_low_and_high() -> None:
    pins = [FakePin(1), FakePin(1)]
    buttons = Buttons(pins, ("ok", "undo"), debounce_ms=20)
    got = []
    for ms in range(0, 200, 5):
        pins[1].value(0 if 50 <= ms < 150 else 1)
        buttons.scan(ms, lambda n, e, ms=ms: got.append((ms, n, e)))
    assert got == [(70, "undo", PRESS), (170, "undo", RELEASE)]
    high = [FakePin(0)]
    active_high = Buttons(high, ("go",), active_low=False, debounce_ms=0)
    high[0].value(1)
    got.clear()
    active_high.scan(0, lambda n, e: got.append(e))
    active_high.scan(1, lambda n, e: got.append(e))
    assert got == [PRESS]
