"""Run in the MicroPython unix port by tests/firmware/test_keypad_latch.py (compiled with
mpy-cross beside hardware/): the keypad's latched scan with the heap locked. The loop scans
every 10 ms, all its life: a scan that allocates makes garbage the loop's collections must
clear and leaves the heap in pieces. Prints "SCANS n ALLOCATED k EVENTS e": k scans of n
raised MemoryError (they allocated), e events were handed on; then each event "name kind".

The matrix here allocates nothing itself (held keys are bits of an int, the handler is called
from a row's value() as the RP2040's edge interrupt would), so a MemoryError is the keypad's.
"""

import sys

import micropython

from hardware.keypad_latch import LatchedKeypad


class Matrix:
    """A 4x4 keypad's wires: a column reads low while a held key joins it to a low row."""

    def __init__(self):
        self.held = 0  # bit k: key k is down
        self.low = 0  # bit r: row r is driven low
        self.falling = 0  # bit c: column c is low (to find its falling edges)
        self.rows = [Row(self, r) for r in range(4)]
        self.cols = [Col(self, c) for c in range(4)]

    def level(self, c):
        for r in range(4):
            if self.low & (1 << r) and self.held & (1 << (r * 4 + c)):
                return 0
        return 1

    def changed(self):
        for c in range(4):
            low = self.level(c) == 0
            was = self.falling & (1 << c)
            if low and not was:
                self.falling |= 1 << c
                handler = self.cols[c].handler
                if handler is not None:
                    handler(self.cols[c])
            elif not low and was:
                self.falling &= ~(1 << c)


class Row:
    def __init__(self, matrix, r):
        self.matrix = matrix
        self.bit = 1 << r

    def value(self, v=None):
        matrix = self.matrix
        if v is not None:
            if v:
                matrix.low &= ~self.bit
            else:
                matrix.low |= self.bit
            matrix.changed()
        return 0 if matrix.low & self.bit else 1


class Col:
    def __init__(self, matrix, c):
        self.matrix = matrix
        self.c = c
        self.handler = None

    def value(self):
        return self.matrix.level(self.c)

    def irq(self, trigger, handler, hard):
        self.handler = handler


class Events:
    """What the scans hand on, kept in lists made before the heap is locked."""

    def __init__(self, most):
        self.names = [None] * most
        self.kinds = bytearray(most)
        self.count = 0
        self.emit = self._emit  # bound once

    def _emit(self, name, kind):
        if self.count < len(self.kinds):
            self.names[self.count] = name
            self.kinds[self.count] = kind
            self.count += 1


def main(_argv):
    matrix = Matrix()
    keypad = LatchedKeypad(matrix.rows, matrix.cols, interrupts=("falling", None, None))
    events = Events(64)
    # (ms after the warm-up, key, down): presses the scans see, a key held long (LONG), a
    # tap made between two scans (latched), a tap in another row while a key is held.
    script = ((20, 5, 1), (80, 5, 0), (200, 0, 1), (1200, 0, 0), (1300, 9, 1), (1301, 9, 0),
              (1500, 3, 1), (1600, 14, 1), (1601, 14, 0), (1700, 3, 0))
    # First every key pressed once, the heap free: a key's state (Key in hardware/keys.py)
    # takes its slots at its first press, once for the board's life, not at every scan.
    warm = Events(64)
    for key in range(16):
        matrix.held |= 1 << key
        matrix.changed()
        for now in range(key * 100, key * 100 + 50, 10):
            keypad.scan(now, warm.emit)
        matrix.held &= ~(1 << key)
        matrix.changed()
        for now in range(key * 100 + 50, key * 100 + 100, 10):
            keypad.scan(now, warm.emit)
    step = 0
    scans = 0
    allocated = 0
    for now in range(2000, 4000, 10):
        while step < len(script) and 2000 + script[step][0] <= now:
            _at, key, down = script[step]
            if down:
                matrix.held |= 1 << key
            else:
                matrix.held &= ~(1 << key)
            matrix.changed()
            step += 1
        scans += 1
        micropython.heap_lock()
        try:
            keypad.scan(now, events.emit)
        except MemoryError:
            allocated += 1
        finally:
            micropython.heap_unlock()
    sys.stdout.write("SCANS %d ALLOCATED %d EVENTS %d\n" % (scans, allocated, events.count))
    for i in range(events.count):
        sys.stdout.write("%s %d\n" % (events.names[i], events.kinds[i]))
