"""Referee keys: debounce and gestures (press, release, long press, auto-repeat).

``Key`` is a small state machine fed with (level, ms): it never reads pins or a clock, so
tests drive it with recorded bounce patterns. A level change counts only once it has held
for ``debounce_ms`` (contact chatter and short spikes are ignored); ``update`` returns at most
one event per call, and a held key's LONG / REPEAT come from later calls. ``Keypad`` scans a
row/column matrix and ``Buttons`` a set of one-pin buttons; both take pin objects that
offer ``value()`` / ``value(v)`` and hand events to ``emit(name, event)``.
"""

from hardware.compat import const, due, ticks_add, ticks_diff

NONE = const(0)
PRESS = const(1)
RELEASE = const(2)
LONG = const(3)
REPEAT = const(4)

EVENT_NAMES = ("none", "press", "release", "long", "repeat")

# Layout of the common 4x4 membrane keypad, row by row from the top.
KEYPAD_4X4 = "123A456B789C*0#D"


class Key:
    """One key's debounced state and gestures.

    ``long_ms`` > 0 sends LONG once while held that long (``long`` then stays True until
    the next press, so RELEASE can tell a long press from a short one). ``repeat_ms`` > 0
    sends REPEAT while held: first after ``repeat_delay_ms`` (or ``repeat_ms`` if 0), then
    every ``repeat_ms``.
    """

    # The defaults live in the class: a key keeps only the timings that differ and the
    # state it has used (a keypad's 16 keys would hold 64 copies of the same four numbers,
    # and each attribute costs its instance's table a slot of heap).
    debounce_ms = 20
    long_ms = 0
    repeat_delay_ms = 0
    repeat_ms = 0
    pressed = False  # debounced state
    long = False  # LONG was sent during the current (or last) press
    _raw = False
    _since = 0  # when _raw last changed
    _pressed_at = 0
    _next_repeat = 0  # set on a press only where the key repeats

    def __init__(
        self,
        debounce_ms: int = 20,
        long_ms: int = 0,
        repeat_delay_ms: int = 0,
        repeat_ms: int = 0,
    ) -> None:
        if debounce_ms != Key.debounce_ms:
            self.debounce_ms = debounce_ms
        if long_ms != Key.long_ms:
            self.long_ms = long_ms
        if repeat_delay_ms != Key.repeat_delay_ms:
            self.repeat_delay_ms = repeat_delay_ms
        if repeat_ms != Key.repeat_ms:
            self.repeat_ms = repeat_ms

    def update(self, level: bool, now_ms: int) -> int:
        """Feed the raw level (True = pressed) sampled at ``now_ms``; return an event."""
        if level != self._raw:
            self._raw = level
            self._since = now_ms
            return NONE
        if level != self.pressed:
            if ticks_diff(now_ms, self._since) < self.debounce_ms:
                return NONE
            self.pressed = level
            if not level:
                return RELEASE
            self.long = False
            self._pressed_at = now_ms
            if self.repeat_ms:
                first = self.repeat_delay_ms or self.repeat_ms
                self._next_repeat = ticks_add(now_ms, first)
            return PRESS
        if not level:
            return NONE
        if self.long_ms and not self.long:
            if ticks_diff(now_ms, self._pressed_at) >= self.long_ms:
                self.long = True
                return LONG
        if self.repeat_ms and due(now_ms, self._next_repeat):
            following = ticks_add(self._next_repeat, self.repeat_ms)
            if due(now_ms, following):
                following = ticks_add(now_ms, self.repeat_ms)  # late caller: no burst
            self._next_repeat = following
            return REPEAT
        return NONE

    def held_ms(self, now_ms: int) -> int:
        """How long the key has been down (0 when up)."""
        if not self.pressed:
            return 0
        return ticks_diff(now_ms, self._pressed_at)


class _Bank:
    """Named keys sharing one timing setup."""

    def __init__(
        self,
        names,
        debounce_ms: int,
        long_ms: int,
        repeat_delay_ms: int,
        repeat_ms: int,
    ) -> None:
        self.names = tuple(names)
        self.keys = [
            Key(debounce_ms, long_ms, repeat_delay_ms, repeat_ms) for _ in range(len(self.names))
        ]

    def key(self, name: str) -> Key:
        """The ``Key`` called ``name``, e.g. to give it its own long-press or repeat times."""
        for i in range(len(self.names)):
            if self.names[i] == name:
                return self.keys[i]
        raise KeyError(name)


class Keypad(_Bank):
    """Matrix keypad: rows are driven low one at a time, columns read with pull-ups.

    Row pins should be open-drain (or switched to input when idle) so two keys in one column
    cannot short a high row to a low one. ``settle``, if given, is called after a row goes
    low, to let the column lines (weak pull-ups, cable capacitance) follow before reading.
    A keypad without diodes may show a phantom key when three keys of a rectangle are held.
    """

    def __init__(
        self,
        rows,
        cols,
        names=KEYPAD_4X4,
        debounce_ms: int = 20,
        long_ms: int = 800,
        repeat_delay_ms: int = 0,
        repeat_ms: int = 0,
        settle=None,
    ) -> None:
        if len(names) != len(rows) * len(cols):
            raise ValueError("need one name per key")
        super().__init__(names, debounce_ms, long_ms, repeat_delay_ms, repeat_ms)
        self.rows = rows
        self.cols = cols
        self.settle = settle
        self._busy = 0  # bit k: key k is not idle (down, or its release not yet debounced)
        self._rows_high = True  # where the last _sample left the rows: all high, or all low
        for row in rows:
            row.value(1)

    def scan(self, now_ms: int, emit) -> int:
        """Sample every key once; call ``emit(name, event)`` per event; return their count."""
        count = self._sample(now_ms, emit, -1)
        if not self._rows_high:
            for row in self.rows:
                row.value(1)  # idle between scans
        return count

    def _sample(self, now_ms: int, emit, high: int, known: int = 0) -> int:
        """Read the matrix and update the keys that can change (``high``: bit r set where row
        r is high now, -1 for all; the others low long enough to have settled). Leaves every
        row low, or every row high where a column read low. ``known``: keys found down a
        moment ago (hardware/keypad_latch.py: as a press interrupted): where the columns
        low are theirs, they are taken as the keys down without driving the rows one by one
        (the next scan does, and finds another key in their columns then).

        One read with every row low first: a column that stays high has no key down in any
        row. Only a low column's rows are then driven one at a time, and only the keys that
        read down or are not idle (down, or their release not yet debounced) are updated:
        an idle key read up would stay as it is (``Key.update`` returns NONE and changes
        nothing), so a scan with nothing pressed costs a few pin calls, not 16 updates (the
        loop scans every 10 ms, before each key it acts on: docs/performance.md)."""
        rows = self.rows
        cols = self.cols
        settle = self.settle
        ncols = len(cols)
        if high:
            for r in range(len(rows)):
                if (high >> r) & 1:
                    rows[r].value(0)
            if settle is not None:
                settle()
        low = 0  # bit c: column c reads low (a key down in it, in some row)
        for c in range(ncols):
            if cols[c].value() == 0:
                low |= 1 << c
        down = 0  # bit k: key k reads down
        if low and known:
            cover = 0  # the columns of the known keys
            k = 0
            m = known
            while m:
                if m & 1:
                    cover |= 1 << (k % ncols)
                m >>= 1
                k += 1
            if cover == low:
                down = known
                low = 0
        self._rows_high = low != 0
        if low:
            # From every row low to one at a time: the others raised first, then each row
            # raised as the next goes low; one low column (a key held: the usual) read alone.
            one = None
            if low & (low - 1) == 0:
                one = 0
                while not (low >> one) & 1:
                    one += 1
            last = len(rows) - 1
            for r in range(1, last + 1):
                rows[r].value(1)
            k = 0
            for r in range(last + 1):
                if r:
                    rows[r - 1].value(1)
                    rows[r].value(0)
                if settle is not None:
                    settle()
                if one is not None:
                    if cols[one].value() == 0:
                        down |= 1 << (k + one)
                else:
                    for c in range(ncols):
                        if low & (1 << c) and cols[c].value() == 0:
                            down |= 1 << (k + c)
                k += ncols
            rows[last].value(1)
        todo = self._busy | down
        if not todo:
            return 0
        keys = self.keys
        names = self.names
        busy = 0
        count = 0
        k = 0
        while todo:
            if todo & 1:
                key = keys[k]
                event = key.update((down >> k) & 1 == 1, now_ms)
                if event:
                    emit(names[k], event)
                    count += 1
                if key._raw or key.pressed:
                    busy |= 1 << k
            todo >>= 1
            k += 1
        self._busy = busy
        return count


class Buttons(_Bank):
    """Discrete buttons, one input pin each (to ground with a pull-up by default)."""

    def __init__(
        self,
        pins,
        names,
        active_low: bool = True,
        debounce_ms: int = 20,
        long_ms: int = 800,
        repeat_delay_ms: int = 0,
        repeat_ms: int = 0,
    ) -> None:
        if len(names) != len(pins):
            raise ValueError("need one name per pin")
        super().__init__(names, debounce_ms, long_ms, repeat_delay_ms, repeat_ms)
        self.pins = pins
        self._pressed_level = 0 if active_low else 1

    def scan(self, now_ms: int, emit) -> int:
        """Sample every button once; call ``emit(name, event)`` per event; return their count."""
        count = 0
        keys = self.keys
        pins = self.pins
        for i in range(len(pins)):
            event = keys[i].update(pins[i].value() == self._pressed_level, now_ms)
            if event:
                emit(self.names[i], event)
                count += 1
        return count
