"""The keypad's latch (hardware/keypad_latch.py): a tap made while the loop is busy (between
two scans: flash work) is taken at the next scan, once; a key the scans see goes the usual,
debounced way and is not taken twice; a held key leaves the latch off (no interrupt storm)."""

from __future__ import annotations

from pathlib import Path

import pytest
from driver_build import driver_build
from unix_port import run_micropython

from hardware.keypad_latch import LatchedKeypad
from hardware.keys import LONG, PRESS, RELEASE


class Matrix:
    """A 4x4 keypad's wires: a column reads low while a held key joins it to a low row; a
    column that falls calls its interrupt handler (as the RP2040's edge IRQ would)."""

    def __init__(self) -> None:
        self.held: set[int] = set()
        self.rows = [Row(self, r) for r in range(4)]
        self.cols = [Col(self, c) for c in range(4)]
        self.levels = [1, 1, 1, 1]
        self.ops = 0  # pin reads and writes so far
        self.press_at: tuple[int, int] | None = None  # (op, key): pressed after that op

    def op(self) -> None:
        self.ops += 1
        if self.press_at is not None and self.press_at[0] == self.ops:
            self.press(self.press_at[1])

    def level(self, c: int) -> int:
        return 0 if any(k % 4 == c and self.rows[k // 4].level == 0 for k in self.held) else 1

    def changed(self) -> None:
        for c, col in enumerate(self.cols):
            now = self.level(c)
            if self.levels[c] == 1 and now == 0 and col.handler is not None:
                self.levels[c] = now
                col.handler(col)
            self.levels[c] = self.level(c)

    def press(self, k: int) -> None:
        self.held.add(k)
        self.changed()

    def release(self, k: int) -> None:
        self.held.discard(k)
        self.changed()


class Row:
    def __init__(self, matrix: Matrix, r: int) -> None:
        self.matrix, self.r, self.level = matrix, r, 1

    def value(self, v: int | None = None) -> int:
        if v is not None:
            self.level = v
            self.matrix.changed()
        self.matrix.op()
        return self.level


class Col:
    def __init__(self, matrix: Matrix, c: int) -> None:
        self.matrix, self.c, self.handler = matrix, c, None

    def value(self) -> int:
        level = self.matrix.level(self.c)
        self.matrix.op()
        return level

    def irq(self, trigger, handler, hard) -> None:
        assert trigger == "falling" and hard
        self.handler = handler


INTERRUPTS = ("falling", None, None)  # a board's trigger; no interrupts to hold off here


@pytest.fixture
def pad():
    matrix = Matrix()
    keypad = LatchedKeypad(matrix.rows, matrix.cols, interrupts=INTERRUPTS)
    assert keypad.can_latch
    return matrix, keypad


def scan(keypad, now):
    out = []
    keypad.scan(now, lambda name, event: out.append((name, event)))
    return out


def test_a_tap_inside_busy_work_is_taken_at_the_next_scan_once(pad):
    matrix, keypad = pad
    assert scan(keypad, 0) == []
    matrix.press(5)  # between scans: the loop is in a flash erase
    matrix.release(5)
    assert scan(keypad, 150) == [("5", PRESS)]
    assert scan(keypad, 160) == [] and keypad.taken == 1


def test_a_key_still_down_at_the_next_scan_is_taken_once(pad):
    matrix, keypad = pad
    scan(keypad, 0)
    matrix.press(0)  # latched, and still down at the next scan
    events = [e for t in range(10, 200, 10) for e in scan(keypad, t)]
    matrix.release(0)
    events += [e for t in range(200, 300, 10) for e in scan(keypad, t)]
    assert events == [("1", PRESS), ("1", RELEASE)]  # once: the latch took it, the scans
    assert keypad.taken == 1  # went on from pressed (its debounce may be cut by busy work)


def test_a_held_keys_row_stays_high_and_a_tap_in_another_row_is_latched(pad):
    matrix, keypad = pad
    scan(keypad, 0)
    matrix.press(3)  # "A", row 0, held
    for t in range(10, 100, 10):
        scan(keypad, t)
    assert [row.level for row in matrix.rows] == [1, 0, 0, 0]  # no edge while it is held
    matrix.press(14)  # "#", row 3, tapped while the loop is busy
    matrix.release(14)
    assert scan(keypad, 250) == [("#", PRESS)]
    matrix.release(3)
    scan(keypad, 260)
    scan(keypad, 290)
    assert keypad._armed and all(row.level == 0 for row in matrix.rows)  # noqa: SLF001


def test_a_tap_while_a_key_is_acted_on_is_latched(pad):
    """The latch is armed before the scan's events are handed on: a press made while the
    app acts on one (a match's start) is kept."""
    matrix, keypad = pad
    scan(keypad, 0)
    matrix.press(14)
    got = []

    def slow_start(name, event):
        got.append((name, event))
        if name == "#":  # the start takes long; the referee lifts # and taps 2
            matrix.release(14)
            matrix.press(1)
            matrix.release(1)

    keypad.scan(10, slow_start)
    assert got == [("#", PRESS)]
    assert scan(keypad, 300) == [("2", PRESS)]


def test_without_interrupts_it_is_a_plain_keypad():
    matrix = Matrix()
    keypad = LatchedKeypad(matrix.rows, matrix.cols)  # a board that gives no interrupts
    assert not keypad.can_latch
    scan(keypad, 0)
    matrix.press(5)
    matrix.release(5)
    assert scan(keypad, 150) == []  # missed, as before the latch


@pytest.mark.parametrize("key", [0, 6, 15])
def test_a_press_at_any_moment_of_a_scan_is_taken_at_the_next(key: int):
    """A key pressed during a scan, once its column has been read (rows low, the latch off:
    its edge interrupts for nothing), is latched as the scan arms the latch, not left to
    the scans' 20 ms debounce (on the emulated Pico: one key in four or five 30 ms late).
    Pressed at each pin read or write of a scan in turn: PRESS at the next scan where the
    scan never saw it down, 20 ms later (debounced) at most where it did; once."""
    def run(at: int | None) -> tuple[list, bool, int]:
        matrix = Matrix()
        keypad = LatchedKeypad(matrix.rows, matrix.cols, interrupts=INTERRUPTS)
        for t in (0, 10):
            scan(keypad, t)
        began = matrix.ops
        if at is not None:
            matrix.press_at = (began + at, key)
        got = [(20, e) for e in scan(keypad, 20)]
        ops = matrix.ops - began
        seen = keypad.keys[key]._raw  # the scan read it down: its debounce runs  # noqa: SLF001
        for t in (30, 40, 50):
            got += [(t, e) for e in scan(keypad, t)]
        return got, seen, ops

    _, _, ops = run(None)
    assert ops >= 4
    name = "123A456B789C*0#D"[key]
    for at in range(1, ops + 1):
        got, seen, _ = run(at)
        assert [e for _, e in got] == [(name, PRESS)], (at, got)
        assert got[0][0] == (40 if seen else 30), (at, seen)


def test_a_latched_key_still_down_is_taken_without_driving_the_rows_one_by_one():
    """The press the latch found, its key still down: the scan that takes it (the key's own
    tick) reads the columns with every row low and takes the latched key as the key down,
    without driving the rows one at a time (~0.8 ms on the chip); a second key pressed then
    in the same column is still taken."""
    matrix = Matrix()
    writes: list[int] = []
    for row in matrix.rows:
        value = row.value

        def counted(v=None, value=value):
            if v is not None:
                writes.append(v)
            return value(v)
        row.value = counted  # type: ignore[method-assign]
    keypad = LatchedKeypad(matrix.rows, matrix.cols, interrupts=INTERRUPTS)
    scan(keypad, 0)
    matrix.press(5)  # latched: the handler leaves the rows high
    writes.clear()
    assert scan(keypad, 10) == [("5", PRESS)]
    assert writes.count(0) == 4 and writes.count(1) == 1  # all low, then the held row up
    matrix.press(9)  # "8": row 2, the same column, between two scans
    events = [(t, e) for t in range(20, 80, 10) for e in scan(keypad, t)]
    assert events == [(20, ("8", PRESS))]  # its row low, "5"'s high: latched


LATCH_FILES = ["hardware/__init__.py", "hardware/compat.py", "hardware/keys.py",
               "hardware/keypad_latch.py"]


def test_a_scan_allocates_nothing_on_the_unix_port(tmp_path: Path):
    """The loop scans every 10 ms for as long as the board is on: a scan that allocates (a
    bound method, a list grown and cut back) makes garbage the collections must clear and
    leaves the heap in pieces. With the heap locked (keypad_latch_driver.py) no scan raises
    MemoryError, and the presses, the long press and the latched taps still come out."""
    build = driver_build(tmp_path, LATCH_FILES, ("keypad_latch_driver",))
    out = run_micropython(build, "keypad_latch_driver", []).splitlines()
    assert out[0] == "SCANS 200 ALLOCATED 0 EVENTS 11", out
    said = {PRESS: "press", RELEASE: "release", LONG: "long"}
    assert [(name, said[int(kind)]) for name, kind in (line.split() for line in out[1:])] == [
        ("5", "press"), ("5", "release"),  # seen by the scans
        ("1", "press"), ("1", "long"), ("1", "release"),  # held a second
        ("8", "press"), ("8", "release"),  # down between two scans: latched
        ("A", "press"), ("#", "press"), ("#", "release"), ("A", "release")]  # # under a held A


def test_a_held_key_says_when_its_long_press_falls_due(pad):
    """Issue 31: the loop's wait ends when a held key's LONG is due (wait_tick), so the
    keypad says when that is after each scan: none while no key waits for one."""
    matrix, keypad = pad
    scan(keypad, 0)
    assert keypad.long_due is None
    matrix.press(15)  # "D", latched: pressed at the next scan
    assert scan(keypad, 7) == [("D", PRESS)]
    assert keypad.long_due == 7 + 800
    assert scan(keypad, 806) == [] and keypad.long_due == 807
    assert scan(keypad, 807) == [("D", LONG)]
    assert keypad.long_due is None  # sent: nothing more to wait for while it is held
    matrix.release(15)
    scan(keypad, 817)
    assert keypad.long_due is None
