"""Stand-ins for ``machine.Pin`` and ``machine.PWM`` for the virtual board and tests.

``FakePin`` holds a level, ``KeyMatrix`` wires fake row and column pins through a set of
held keys the way a membrane keypad does, and ``FakePWM`` records every frequency and duty
change, so tests see what the piezo would have played.
"""

from hardware.keys import KEYPAD_4X4


class FakePin:
    """A pin whose level is set by the program (output) or by the test (input)."""

    def __init__(self, level: int = 0) -> None:
        self.level = level
        self.changes = 0  # writes that changed the level

    def value(self, level=None):
        if level is None:
            return self.level
        level = 1 if level else 0
        if level != self.level:
            self.changes += 1
        self.level = level
        return None

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def toggle(self) -> None:
        self.value(0 if self.level else 1)


class _ColumnPin:
    """A keypad column with a pull-up: low while a held key joins it to a low row."""

    def __init__(self, matrix, col: int) -> None:
        self._matrix = matrix
        self._col = col

    def value(self, level=None):
        if level is not None:
            raise ValueError("column pins are inputs")
        return self._matrix._column_level(self._col)


class KeyMatrix:
    """A row/column key matrix: ``rows`` are output pins, ``cols`` read through held keys."""

    def __init__(self, names: str = KEYPAD_4X4, nrows: int = 4, ncols: int = 4) -> None:
        if len(names) != nrows * ncols:
            raise ValueError("need one name per key")
        self.names = names
        self.ncols = ncols
        self.rows = [FakePin(1) for _ in range(nrows)]
        self.cols = [_ColumnPin(self, c) for c in range(ncols)]
        self.held = [False] * (nrows * ncols)

    def set(self, name: str, down: bool) -> None:
        """Hold (True) or let go of (False) the key called ``name``."""
        index = self.names.find(name)
        if index < 0:
            raise KeyError(name)
        self.held[index] = bool(down)

    def press(self, name: str) -> None:
        self.set(name, True)

    def release(self, name: str) -> None:
        self.set(name, False)

    def _column_level(self, col: int) -> int:
        for r in range(len(self.rows)):
            if self.rows[r].level == 0 and self.held[r * self.ncols + col]:
                return 0
        return 1


class FakePWM:
    """Records ``freq``/``duty_u16`` calls as ("freq", hz) / ("duty", value) in ``log``."""

    def __init__(self) -> None:
        self.log: list = []
        self._freq = 0
        self._duty = 0

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz
        self.log.append(("freq", hz))
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value
        self.log.append(("duty", value))
        return None

    def deinit(self) -> None:
        self.duty_u16(0)

    @property
    def sounding(self) -> bool:
        """True while a tone is coming out (a frequency and a non-zero duty)."""
        return self._freq > 0 and self._duty > 0
