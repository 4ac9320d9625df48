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

from hardware.compat import const, due, ticks_add
from hardware.segments import (
    SEG7_COLON,
    SEG7_DIGITS,
    SEG7_DP,
    SEG7_MARKS,
    SEG14_DP,
    layout,
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


# render's rows of cells, shared by every display (one text is drawn at a time): the text laid
# out, and shifted flush right (a Chain of up to four 14-segment backpacks fits).
_ROW = 32
_OUT = bytearray(_ROW)
_SHIFTED = bytearray(_ROW)
_OUT_VIEW = memoryview(_OUT)
_SHIFTED_VIEW = memoryview(_SHIFTED)
_BLANK = bytes(_ROW)


def render(disp, text: str, right: bool = False) -> None:
    """Show ``text`` on any cell display (``Seg7x4``, ``Seg14x4``, ``Chain``): its cells laid
    out once, as they sit in RAM (``segments.layout``), and each backpack's RAM written in
    one go."""
    cells = disp.cells
    width = disp.width
    _OUT[:] = _BLANK
    used = layout(text.encode(), _OUT, cells * width, width == 2, disp.has_colon)
    if used >> 1 < cells and right:
        _SHIFTED[:] = _BLANK
        start = (cells - (used >> 1)) * width
        _SHIFTED[start : cells * width] = _OUT_VIEW[: cells * width - start]
        disp.draw(_SHIFTED_VIEW, 0)
    else:
        disp.draw(_OUT_VIEW, 0)
    if disp.has_colon:
        disp.set_colon(used & 1)


class Seg7x4(HT16K33):
    """4-digit 7-segment backpack (0.56" or 1.2"): digits, points, colon, extra dots."""

    cells = 4
    width = 1  # RAM bytes a cell takes
    dp = SEG7_DP
    has_colon = True

    def put(self, index: int, mask: int) -> None:
        """Raw segments (bit 7 = point) of digit ``index`` (0 = leftmost)."""
        self.buf[1 + SEG7_DIGITS[index]] = mask & 0xFF

    def get(self, index: int) -> int:
        return self.buf[1 + SEG7_DIGITS[index]]

    def draw(self, cells, at: int) -> None:
        """The four digits from cell ``at`` on of ``cells`` (a memoryview of a row that
        ``segments.layout`` made)."""
        buf = self.buf
        buf[1] = cells[at]  # the digits' RAM bytes: SEG7_DIGITS
        buf[3] = cells[at + 1]
        buf[7] = cells[at + 2]
        buf[9] = cells[at + 3]

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
    width = 2
    dp = SEG14_DP
    has_colon = False

    def put(self, index: int, mask: int) -> None:
        """Raw 16-bit segments (bit 14 = point) of character ``index`` (0 = leftmost)."""
        buf = self.buf
        buf[1 + 2 * index] = mask & 0xFF
        buf[2 + 2 * index] = (mask >> 8) & 0xFF

    def get(self, index: int) -> int:
        return self.buf[1 + 2 * index] | (self.buf[2 + 2 * index] << 8)

    def draw(self, cells, at: int) -> None:
        """As Seg7x4.draw; the row is in RAM's own order: one copy."""
        at *= 2
        self.buf[1:9] = cells[at : at + 8]

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
        self.width = first.width
        if self.cells * self.width > _ROW:
            raise ValueError("too many backpacks in one chain")

    def draw(self, cells, at: int) -> None:
        for d in self.displays:
            d.draw(cells, at)
            at += self._per

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


class Scroller:
    """Moves a message longer than ``disp`` through it, one cell per ``step_ms``.

    The first window waits ``hold_ms`` so the start can be read; a looping message runs on
    with ``gap`` blank cells between its end and its start, a single run waits ``hold_ms`` on
    its last window and then reports ``done``. Late ticks move one step, never a burst.
    The message is laid out once, on a tape (kept for the next: longer only for a longer
    message), its first window again after its end, so that each step is a copy per backpack.
    """

    def __init__(self, disp, step_ms: int = 300, hold_ms: int = 1200, gap: int = 3) -> None:
        self.disp = disp
        self.step_ms = step_ms
        self.hold_ms = hold_ms
        self.gap = gap
        self.done = True
        self._tape = bytearray(0)
        self._view = memoryview(self._tape)
        self._data: bytes | None = None  # the message, until it is laid out whole
        self._gap = 0
        self._length = 0
        self._offset = 0
        self._next = 0
        self._loop = False

    def start(self, text: str, now_ms: int, loop: bool = True) -> None:
        """Put ``text`` on the display (first window) and start timing from ``now_ms``."""
        disp = self.disp
        cells = disp.cells
        width = disp.width
        data = text.encode()
        gap = self.gap if loop else 0
        size = (len(data) + gap + cells) * width  # a cell takes a byte of the text at least
        if len(self._tape) < size:
            self._tape = bytearray(size)
            self._view = memoryview(self._tape)
        tape = self._tape
        view = self._view
        # The first window and one cell past it: the rest at the next tick (_whole); a key
        # waits for the first window alone (a menu's 40 cells take ~4 ms on the chip).
        used = layout(data, tape, size, width == 2, False, cells * width) >> 1
        if used <= cells:
            if disp.has_colon:
                render(disp, text)  # (a 7-segment display takes its ':' as the colon)
            else:
                tape[used * width : cells * width] = bytes((cells - used) * width)
                disp.draw(view, 0)
            self.done = True
            return
        self._data = data
        self._gap = gap
        self._loop = loop
        self._offset = 0
        self.done = False
        disp.draw(view, 0)
        self._next = ticks_add(now_ms, self.hold_ms)

    def _whole(self) -> None:
        """The whole message on the tape, its gap, and its first window again after it."""
        tape = self._tape
        width = self.disp.width
        cells = self.disp.cells
        used = layout(self._data, tape, len(tape), width == 2, False) >> 1
        self._data = None
        length = used + self._gap
        if self._gap:
            tape[used * width : length * width] = bytes(self._gap * width)
        if self._loop:  # the windows across the end, without a modulo per cell
            tape[length * width : (length + cells) * width] = self._view[: cells * width]
        self._length = length

    def stop(self) -> None:
        self.done = True

    def tick(self, now_ms: int) -> bool:
        """Advance if a step is due; True when the display buffer changed."""
        if self.done:
            return False
        if self._data is not None:
            self._whole()
        if not due(now_ms, self._next):
            return False
        last = self._length - self.disp.cells  # offset of the final window of a single run
        if not self._loop and self._offset >= last:
            self.done = True  # the final window has been held
            return False
        self._offset += 1
        if self._offset >= self._length:
            self._offset = 0
        self.disp.draw(self._view, self._offset)
        wait = self.step_ms
        if self._offset == 0 or (not self._loop and self._offset >= last):
            wait = self.hold_ms
        self._next = ticks_add(now_ms, wait)
        return True
