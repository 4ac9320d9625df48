"""HT16K33 LED backpack driver for MicroPython's ``machine.I2C``.

The bus object only needs ``writeto(addr, buf)``: a real ``machine.I2C``, the register-level
model in ``hardware.ht16k33_model`` or the virtual board's forwarding bus. Each backpack keeps
its 16 bytes of display RAM in one bytearray that ``show()`` sends in a single I2C transaction,
and only when it differs from what the chip last received; commands (on/off, blink,
brightness) are likewise sent only when they change. Nothing here reads a clock: the scroller
is fed milliseconds by its caller.

Text rules, shared by every display kind: a ``.`` lights the decimal point of the character
before it (or of a blank cell if there is none, or it already has one); on 7-segment displays
a ``:`` lights the centre colon and takes no cell; characters a display cannot draw show as
blanks. ``text()`` fills cells from the left (``right=True``: flush right, as scores are), and
anything beyond the last cell is dropped — longer messages go through ``Scroller``.
"""

from array import array

from hardware.compat import const, due, ticks_add
from hardware.segments import (
    SEG7_COLON,
    SEG7_DIGITS,
    SEG7_DP,
    SEG7_MARKS,
    SEG14_DP,
    glyph7,
    glyph14,
)

_CMD_RAM = const(0x00)  # display RAM address pointer: data bytes follow
_CMD_SYSTEM = const(0x20)  # system setup; bit 0 starts the oscillator
_CMD_DISPLAY = const(0x80)  # display setup; bit 0 = on, bits 2..1 = blink rate
_CMD_DIM = const(0xE0)  # dimming; bits 3..0 = duty (level + 1) / 16

BLINK_OFF = const(0)
BLINK_2HZ = const(1)
BLINK_1HZ = const(2)
BLINK_HALF_HZ = const(3)

ADDRESS_FIRST = const(0x70)  # A0..A2 jumpers open
ADDRESS_LAST = const(0x77)  # A0..A2 jumpers all bridged


class HT16K33:
    """One HT16K33 at ``address`` on ``i2c``: commands and the RAM image."""

    def __init__(self, i2c, address: int = ADDRESS_FIRST) -> None:
        if not ADDRESS_FIRST <= address <= ADDRESS_LAST:
            raise ValueError("HT16K33 address must be 0x70..0x77")
        self.i2c = i2c
        self.address = address
        # buf[0] is the RAM address pointer (0), buf[1:] the 16 RAM bytes, so one writeto
        # carries the whole image.
        self.buf = bytearray(17)
        self._sent = bytearray(17)
        self._synced = False  # False until the chip is known to hold exactly _sent
        self._cmd = bytearray(1)
        self._system = -1  # last command byte of each kind the chip acknowledged
        self._display = -1
        self._dim = -1
        self._on = True
        self._blink = BLINK_OFF
        self.writes = 0  # I2C transactions sent, for benchmarks and tests

    def init(self, brightness: int = 15) -> None:
        """Start the chip from any state: oscillator, blank RAM, display on, brightness."""
        self._system = self._display = self._dim = -1
        self.oscillator(True)
        self.fill(0)
        self.show(True)
        self._on = True
        self._blink = BLINK_OFF
        self._send_display()
        self.brightness(brightness)

    def _command(self, byte: int) -> None:
        self._cmd[0] = byte
        self.writes += 1
        self.i2c.writeto(self.address, self._cmd)

    def oscillator(self, on: bool) -> None:
        """Oscillator on/off; off is the chip's standby (display dark, RAM kept)."""
        cmd = _CMD_SYSTEM | (1 if on else 0)
        if cmd != self._system:
            self._system = -1  # unknown until the write succeeds
            self._command(cmd)
            self._system = cmd

    def power(self, on: bool) -> None:
        """Display on/off (RAM kept)."""
        self._on = bool(on)
        self._send_display()

    def blink(self, rate: int) -> None:
        """Blink the whole display: BLINK_OFF, BLINK_2HZ, BLINK_1HZ or BLINK_HALF_HZ."""
        if not BLINK_OFF <= rate <= BLINK_HALF_HZ:
            raise ValueError("blink rate must be 0..3")
        self._blink = rate
        self._send_display()

    def _send_display(self) -> None:
        cmd = _CMD_DISPLAY | (self._blink << 1) | (1 if self._on else 0)
        if cmd != self._display:
            self._display = -1
            self._command(cmd)
            self._display = cmd

    def brightness(self, level: int) -> None:
        """Brightness 0 (1/16 duty) .. 15 (full)."""
        if not 0 <= level <= 15:
            raise ValueError("brightness must be 0..15")
        cmd = _CMD_DIM | level
        if cmd != self._dim:
            self._dim = -1
            self._command(cmd)
            self._dim = cmd

    def fill(self, value: int = 0) -> None:
        """Set every RAM byte to ``value`` (0: all dark, 0xFF: every LED)."""
        buf = self.buf
        for i in range(1, 17):
            buf[i] = value

    def show(self, force: bool = False) -> bool:
        """Send the RAM image if it changed since the last successful send; True if sent."""
        if self._synced and not force and self.buf == self._sent:
            return False
        self._synced = False  # a failed write may have left anything in the chip
        self.writes += 1
        self.i2c.writeto(self.address, self.buf)
        self._sent[:] = self.buf
        self._synced = True
        return True


def _layout(disp, text: str, start: int, write: bool) -> int:
    """Place ``text`` into ``disp``'s cells from ``start``; return the next free cell.

    With ``write`` False nothing is stored, which measures the text for alignment.

    The text is walked as UTF-8 code points, never as one-character strings: MicroPython
    interns every such string in its qstr pool for good, and the first "Ä" of a name could
    then need the pool's next block (kilobytes, contiguous) in the middle of a match: a
    MemoryError out of the main loop on a fragmented heap (tests/firmware/test_names_heap.py).
    """
    cells = disp.cells
    dp = disp.dp
    colon = disp.has_colon
    glyph = disp.glyph
    pos = start
    last = -1  # cell a following '.' may join; -1 once it has its point
    data = text.encode()
    end = len(data)
    i = 0
    while i < end:
        code = data[i]
        i += 1
        if code >= 0xC0:  # a lead byte: 110xxxxx, 1110xxxx or 11110xxx, then 10xxxxxx each
            more = 1 if code < 0xE0 else 2 if code < 0xF0 else 3
            code &= 0x7F >> (more + 1)
            while more and i < end:
                code = (code << 6) | (data[i] & 0x3F)
                i += 1
                more -= 1
        if code == 0x2E:  # .
            if last >= 0:
                if write and last < cells:
                    disp.put(last, disp.get(last) | dp)
                last = -1
                continue
            if write and pos < cells:
                disp.put(pos, dp)
            pos += 1
        elif colon and code == 0x3A:  # :
            if write:
                disp.set_colon(True)
        else:
            if write and pos < cells:
                disp.put(pos, glyph(code))
            last = pos
            pos += 1
    return pos


def render(disp, text: str, right: bool = False) -> None:
    """Show ``text`` on any cell display (``Seg7x4``, ``Seg14x4``, ``Chain``)."""
    cells = disp.cells
    start = 0
    if right:
        used = _layout(disp, text, 0, False)
        if used < cells:
            start = cells - used
    for i in range(cells):
        disp.put(i, 0)
    if disp.has_colon:
        disp.set_colon(False)
    _layout(disp, text, start, True)


class Seg7x4(HT16K33):
    """4-digit 7-segment backpack (0.56" or 1.2"): digits, points, colon, extra dots."""

    cells = 4
    dp = SEG7_DP
    has_colon = True

    def glyph(self, code: int) -> int:
        return glyph7(code)

    def put(self, index: int, mask: int) -> None:
        """Raw segments (bit 7 = point) of digit ``index`` (0 = leftmost)."""
        self.buf[1 + SEG7_DIGITS[index]] = mask & 0xFF

    def get(self, index: int) -> int:
        return self.buf[1 + SEG7_DIGITS[index]]

    def set_colon(self, on: bool) -> None:
        self.set_marks(SEG7_COLON, on)

    def set_marks(self, bits: int, on: bool) -> None:
        """Light or clear colon/dot bits of RAM byte 4 (``segments.SEG7_COLON`` etc.)."""
        if on:
            self.buf[1 + SEG7_MARKS] |= bits
        else:
            self.buf[1 + SEG7_MARKS] &= ~bits & 0xFF

    def text(self, text: str, right: bool = False) -> None:
        render(self, text, right)

    def number(self, value: int, colon: bool = False) -> None:
        """Show an integer flush right, -999..9999; ValueError outside that."""
        if not -999 <= value <= 9999:
            raise ValueError("number does not fit in 4 digits")
        render(self, "%d" % value, True)
        if colon:
            self.set_colon(True)


class Seg14x4(HT16K33):
    """4-character 14-segment alphanumeric backpack: all printable ASCII plus points."""

    cells = 4
    dp = SEG14_DP
    has_colon = False

    def glyph(self, code: int) -> int:
        return glyph14(code)

    def put(self, index: int, mask: int) -> None:
        """Raw 16-bit segments (bit 14 = point) of character ``index`` (0 = leftmost)."""
        buf = self.buf
        buf[1 + 2 * index] = mask & 0xFF
        buf[2 + 2 * index] = (mask >> 8) & 0xFF

    def get(self, index: int) -> int:
        return self.buf[1 + 2 * index] | (self.buf[2 + 2 * index] << 8)

    def set_colon(self, on: bool) -> None:
        pass  # a 14-segment character draws ':' as a glyph instead

    def text(self, text: str, right: bool = False) -> None:
        render(self, text, right)


class Chain:
    """Several backpacks of one kind side by side, addressed as one row of cells."""

    has_colon = False

    def __init__(self, displays) -> None:
        self.displays = displays
        first = displays[0]
        self._per = first.cells
        self.cells = first.cells * len(displays)
        self.dp = first.dp
        self.glyph = first.glyph

    def put(self, index: int, mask: int) -> None:
        self.displays[index // self._per].put(index % self._per, mask)

    def get(self, index: int) -> int:
        return self.displays[index // self._per].get(index % self._per)

    def set_colon(self, on: bool) -> None:
        pass

    def text(self, text: str, right: bool = False) -> None:
        render(self, text, right)

    def show(self, force: bool = False) -> bool:
        sent = False
        for d in self.displays:
            if d.show(force):
                sent = True
        return sent


class _Tape:
    """Cell masks of a whole message, so the scroller can copy windows without re-parsing."""

    has_colon = False

    def __init__(self, size: int, like) -> None:
        self.cells = size
        self.dp = like.dp
        self.glyph = like.glyph
        self.masks = array("H", [0] * size)

    def put(self, index: int, mask: int) -> None:
        self.masks[index] = mask

    def get(self, index: int) -> int:
        return self.masks[index]

    def set_colon(self, on: bool) -> None:
        pass


class Scroller:
    """Moves a message longer than ``disp`` through it, one cell per ``step_ms``.

    The first window waits ``hold_ms`` so the start can be read; a looping message runs on
    with ``gap`` blank cells between its end and its start, a single run waits ``hold_ms`` on
    its last window and then reports ``done``. Late ticks move one step, never a burst.
    """

    def __init__(self, disp, step_ms: int = 300, hold_ms: int = 1200, gap: int = 3) -> None:
        self.disp = disp
        self.step_ms = step_ms
        self.hold_ms = hold_ms
        self.gap = gap
        self.done = True
        self._tape = _Tape(0, disp)
        self._length = 0
        self._offset = 0
        self._next = 0
        self._loop = False

    def start(self, text: str, now_ms: int, loop: bool = True) -> None:
        """Put ``text`` on the display (first window) and start timing from ``now_ms``."""
        disp = self.disp
        probe = _Tape(0, disp)
        used = _layout(probe, text, 0, False)  # measured as the tape will hold it
        if used <= disp.cells:
            render(disp, text)
            self.done = True
            return
        tape = _Tape(used + (self.gap if loop else 0), disp)
        _layout(tape, text, 0, True)
        self._tape = tape
        self._length = tape.cells
        self._loop = loop
        self._offset = 0
        self.done = False
        self._draw()
        self._next = ticks_add(now_ms, self.hold_ms)

    def stop(self) -> None:
        self.done = True

    def _draw(self) -> None:
        disp = self.disp
        masks = self._tape.masks
        length = self._length
        offset = self._offset
        for i in range(disp.cells):
            disp.put(i, masks[(offset + i) % length])

    def tick(self, now_ms: int) -> bool:
        """Advance if a step is due; True when the display buffer changed."""
        if self.done or not due(now_ms, self._next):
            return False
        last = self._length - self.disp.cells  # offset of the final window of a single run
        if not self._loop and self._offset >= last:
            self.done = True  # the final window has been held
            return False
        self._offset += 1
        if self._offset >= self._length:
            self._offset = 0
        self._draw()
        wait = self.step_ms
        if self._offset == 0 or (not self._loop and self._offset >= last):
            wait = self.hold_ms
        self._next = ticks_add(now_ms, wait)
        return True
