"""A keypad that keeps a press made while the loop is busy (a flash erase, littlefs' filing
between keys): between scans every row is held low, so a key pressed pulls its column low,
and that falling edge interrupts (a hard IRQ: it runs as soon as interrupts are on again,
between two flash operations, not when the loop comes back). The handler finds which key is
down and latches it; the next scan emits PRESS for a latched key that it does not see down
itself (a tap over by then). A key the scan sees down goes the usual way (debounced), so a
key is never taken twice.

    keypad = LatchedKeypad(rows, cols, ...)   # as hardware.keys.Keypad; latches only where
                                              # the column pins offer irq() (else a Keypad)

One key is latched per busy stretch: the handler leaves the rows high after it (lowering
them again with the key still down would interrupt again, for as long as it is held); the
next scan arms it again. While a key is held the rows stay high (no edge to wait for).
"""

from hardware.keys import PRESS, Keypad

try:
    import machine as _machine
except ImportError:  # CPython's tests: no interrupts
    _machine = None  # type: ignore[assignment]

_FALLING = getattr(getattr(_machine, "Pin", None), "IRQ_FALLING", None)
_disable_irq = getattr(_machine, "disable_irq", None)
_enable_irq = getattr(_machine, "enable_irq", None)


class LatchedKeypad(Keypad):
    def __init__(self, rows, cols, *args, **kwargs):
        super().__init__(rows, cols, *args, **kwargs)
        self._armed = False
        self.latched = 0  # bit k: key k went down while the loop was busy
        self.taken = 0  # presses emitted from the latch (for tests and benchmarks)
        self.can_latch = _FALLING is not None and all(hasattr(c, "irq") for c in cols)
        if self.can_latch:
            edge = self._edge  # bound once: the handler allocates nothing
            for col in cols:
                col.irq(trigger=_FALLING, handler=edge, hard=True)

    def _edge(self, _pin):
        """A column fell while armed: find the key that is down (rows one at a time)."""
        if not self._armed:
            return
        self._armed = False
        rows = self.rows
        cols = self.cols
        ncols = len(cols)
        for r in range(len(rows)):
            rows[r].value(1)
        for r in range(len(rows)):
            rows[r].value(0)
            if self.settle is not None:
                self.settle()
            for c in range(ncols):
                if cols[c].value() == 0:
                    self.latched |= 1 << (r * ncols + c)
            rows[r].value(1)
        # (rows stay high: with the key still down, lowering them would interrupt again)

    def scan(self, now_ms, emit):
        state = _disable_irq() if _disable_irq is not None else None
        self._armed = False  # (the handler, if it runs now, finds it off)
        latched = self.latched
        self.latched = 0
        if state is not None:
            _enable_irq(state)
        rows = self.rows
        for r in range(len(rows)):
            rows[r].value(1)  # the scan lowers one row at a time from all high
        count = Keypad.scan(self, now_ms, emit)
        keys = self.keys
        held = False
        for k in range(len(keys)):
            key = keys[k]
            if key._raw or key.pressed:
                held = True
            elif latched & (1 << k):
                emit(self.names[k], PRESS)  # a tap the scans never saw: over by now
                self.taken += 1
                count += 1
        if self.can_latch and not held:
            for r in range(len(rows)):
                rows[r].value(0)
            self._armed = True
        return count
