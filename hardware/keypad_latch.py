"""A keypad that keeps a press made while the loop is busy (a flash erase, littlefs' filing
between keys): between scans every row is held low, so a key pressed pulls its column low,
and that falling edge interrupts (a hard IRQ: it runs as soon as interrupts are on again,
between two flash operations, not when the loop comes back). The handler finds which key is
down and latches it; the next scan emits PRESS for a latched key not yet pressed (a tap
over by then, or one still down whose debounce more busy work would cut), and the key goes
on from pressed, so its RELEASE and LONG come as usual and it is never taken twice.

    keypad = LatchedKeypad(rows, cols, ..., interrupts=board.key_interrupts())
    # as hardware.keys.Keypad; latches only where the board gives its interrupts (the
    # falling edge's trigger, disable_irq, enable_irq: the board file's, which alone
    # imports machine) and the column pins offer irq(); else a plain Keypad

One latch per busy stretch (every key down then): the handler leaves the rows high after
it (lowering them again with the key still down would interrupt again); the next scan arms
it again. A row with a key held stays high (its key would interrupt at once); a press in
another row is latched. The latch is armed before the scan's events are acted on: a press
made while the referee's last key is being acted on (a match's start) is kept too.
"""

from hardware.compat import ticks_add, ticks_diff
from hardware.keys import PRESS, Keypad


class LatchedKeypad(Keypad):
    def __init__(self, rows, cols, *args, interrupts=None, **kwargs):
        super().__init__(rows, cols, *args, **kwargs)
        self._armed = False
        self._raised = -1  # bit r: row r left high by the last scan (-1: every row)
        self.latched = 0  # bit k: key k went down while the loop was busy
        self.taken = 0  # presses emitted from the latch (for tests and benchmarks)
        # When the next held key's LONG is due (ms), None while no key waits for one: the
        # loop's wait ends then (firmware/between_keys.py wait_tick), so a long press (the
        # undo) is taken at its moment, not up to a whole tick after it.
        self.long_due = None
        # The scan under way's events, in buffers made once: the loop scans every 10 ms for
        # as long as the board is on, and a scan allocates nothing (no garbage for the
        # collections, no heap cut into pieces). A key gives at most two a scan: its own
        # (a RELEASE, say) and a latched PRESS.
        most = 2 * len(self.keys)
        self._names = [None] * most
        self._kinds = bytearray(most)
        self._count = 0
        self._collect_bound = self._collect  # bound once, not at every scan
        falling, self._disable_irq, self._enable_irq = interrupts or (None, None, None)
        self.can_latch = falling is not None and all(hasattr(c, "irq") for c in cols)
        if self.can_latch:
            edge = self._edge  # bound once: the handler allocates nothing
            for col in cols:
                col.irq(trigger=falling, handler=edge, hard=True)

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

    def _collect(self, name, event):
        n = self._count
        self._names[n] = name
        self._kinds[n] = event
        self._count = n + 1

    def scan(self, now_ms, emit):
        """As Keypad.scan; the latch is armed again before the events are handed on, so a
        press made while one is being acted on (a match's start, its filing) is kept."""
        state = self._disable_irq() if self._disable_irq is not None else None
        self._armed = False  # (the handler, if it runs now, finds it off)
        latched = self.latched
        self.latched = 0
        if state is not None:
            self._enable_irq(state)
        # The rows the last scan left high (with the latch armed: the held keys' rows; the
        # handler, if it has run, left them all high) go low for the first read.
        high = -1 if latched else self._raised
        self._raised = -1
        self._count = 0
        self._sample(now_ms, self._collect_bound, high, latched)
        keys = self.keys
        ncols = len(self.cols)
        down = 0  # rows with a key down: they stay high (their key would interrupt at once)
        due = None
        # Only the keys latched or not idle: an idle key is up, holds no row and waits for
        # no LONG (its bit in _busy is clear).
        todo = latched | self._busy
        busy = self._busy
        k = 0
        while todo:
            if todo & 1:
                key = keys[k]
                if latched & (1 << k) and not key.pressed:
                    # Down while the loop was busy: pressed now, whether it is still down or
                    # over (the scans' own 20 ms may be cut by more busy work). The key goes
                    # on from pressed: its RELEASE (and LONG) come from the scans as usual.
                    key.pressed = key._raw = True
                    key._since = key._pressed_at = now_ms
                    key.long = False
                    busy |= 1 << k
                    self._collect(self.names[k], PRESS)
                    self.taken += 1
                if key._raw:
                    down |= 1 << (k // ncols)
                    if key.pressed and not key.long and key.long_ms:
                        at = ticks_add(key._pressed_at, key.long_ms)
                        if due is None or ticks_diff(at, due) < 0:
                            due = at
            todo >>= 1
            k += 1
        self._busy = busy
        self.long_due = due
        rows = self.rows
        if self.can_latch and down != (1 << len(rows)) - 1:
            # Armed first: a key pressed during the scan, after its row was read, pulls its
            # column low as its row goes low here, and that edge must find the latch on.
            self._armed = True
            if self._rows_high:  # (then every row is high)
                for r in range(len(rows)):
                    if not (down >> r) & 1:
                        rows[r].value(0)
                self._raised = down
            else:
                # Every row was low through the scan, the latch off: a key pressed after the
                # columns were read fell then, for nothing, and no row goes low now to
                # interrupt again. Its column is low (once the held keys' rows are up and
                # their columns have followed): find it as the handler would have (it does
                # nothing if the interrupt has come meanwhile).
                if down:
                    for r in range(len(rows)):
                        if (down >> r) & 1:
                            rows[r].value(1)
                    if self.settle is not None:
                        self.settle()
                cols = self.cols
                for c in range(ncols):
                    if cols[c].value() == 0:
                        self._edge(None)
                        break
                self._raised = down if self._armed else -1
        else:
            for row in rows:
                row.value(1)
        count = self._count
        names = self._names
        kinds = self._kinds
        for i in range(count):
            emit(names[i], kinds[i])
        return count
