"""Register-level model of HT16K33 backpacks on one I2C bus, and what a person would see.

``Bus`` stands where ``machine.I2C`` would: ``writeto(addr, buf)`` delivers one write
transaction to the device at ``addr`` (OSError ENODEV if none is there, as a real bus NACKs).
Each ``Device`` decodes the command set the way the chip does (system setup, display setup,
dimming, RAM pointer with auto-increment wrapping at 16 bytes) and keeps the 16 bytes of
display RAM. ``Bus.text(addr)`` turns the RAM back into the characters on the glass, with
points and colons, dark while the oscillator or the display is off; ``Bus.mark(addr)`` reads
the 1.2" display's left colon alone (pilkku lights it on the shooter's score display), and
``Bus.text(addr, mark=False)`` the rest without it.

Runs under MicroPython (the virtual board) and CPython (tests, the host's simulator face).

Decoding does NOT use the driver's font (``hardware.segments``): it has its own glyph tables,
written from the backpacks' segment maps, so a wrong glyph in the driver's font reads as
another character (or ``UNKNOWN``) and fails the display tests. Each table entry is a
character followed by the letters of its lit segments, the letter's place in the alphabet
being the segment's bit in the chip's RAM:

    7 segments   a top, b upper right, c lower right, d bottom, e lower left, f upper left,
                 g middle (h the point: never part of a glyph)
    14 segments  a top, b upper right, c lower right, d bottom, e lower left, f upper left,
                 g middle left, h middle right, i upper-left diagonal, j upper centre,
                 k upper-right diagonal, l lower-left diagonal, m lower centre,
                 n lower-right diagonal, o the point (part of '?' only)

A shape several characters share reads as the first entry that has it: digits first, then
the letter in the case the shape looks like (a 7-segment ``S`` reads as ``5``, ``N`` as
``n``: that is what a person sees); a shape no entry has decodes to ``UNKNOWN``. Letters the
font transliterates (``Ä`` drawn as ``A``, see ``hardware/segments.py``) read as what they are
drawn as.
"""

from hardware.compat import const
from hardware.segments import (
    SEG7_COLON,
    SEG7_DIGITS,
    SEG7_DOT,
    SEG7_DP,
    SEG7_LEFT_LOWER,
    SEG7_LEFT_UPPER,
    SEG7_MARKS,
    SEG14_DP,
)

KIND_SEG7 = "seg7"  # 0.56" 4-digit: a point after every digit, centre colon
KIND_SEG7_BIG = "seg7big"  # 1.2" 4-digit: no digit points; centre and left colon, one dot
KIND_SEG14 = "seg14"  # 0.54" quad alphanumeric

UNKNOWN = "\ufffd"

_ENODEV = const(19)

# One bytes object each (no dict, no per-glyph strings): the model also runs on a board-sized
# heap, and decoding is rare enough for a linear search.
_GLYPHS7 = (
    b"0abcdef 1bc 2abdeg 3abcdg 4bcfg 5acdfg 6acdefg 7abc 8abcdefg 9abcdfg -g _d "
    b"Aabcefg bcdefg Cadef cdeg dbcdeg Eadefg Faefg Gacdef Hbcefg hcefg Ief Jbcde Ldef "
    b"nceg ocdeg Pabefg qabcfg reg tdefg Ubcdef vcde ybcdfg "
)
_GLYPHS14 = (
    b"0abcdefkl 1bc 2abdegh 3abcdh 4bcfgh 5adfgn 6acdefgh 7abc 8abcdefgh 9abcdfgh -gh "
    b"_d Aabcefgh Babcdhjm Cadef Dabcdjm Eadefgh Faefg Gacdefh Hbcefgh Iadjm Jbcde "
    b"Kefgkn Ldef Mbcefik Nbcefin Oabcdef Pabefgh Qabcdefn Rabefghn Sacdfgh Tajm "
    b"Ubcdef Vefkl Wbcefln Xikln Yikm Zadkl adegm bdefgn cdegh dbcdhl edegl faefg "
    b"gbcdhk hefgm im jbcd kjkmn lef mceghm negm ocdegh pefgi qbchk reg sdhn tdefg "
    b"ucde vcn wceln xghln ycdn zdgl !bco \"fj #bcdghjm $acdfghjm %cfkl &acdegijn 'k "
    b"(kn )il *ghijklmn +ghjm ,l /kl :jm ;jl <gkn =dgh >hil ?abfhno @abdefhj [adef "
    b"\\in ]abcd ^abkl `i {adgil |jm }adhkn ~fik "
)

_BLINK_PERIOD_MS = (0, 500, 1000, 2000)


def _read(table, shape: int) -> str:
    if not shape:
        return " "
    i = 0
    end = len(table)
    while i < end:
        char = table[i]
        i += 1
        bits = 0
        while table[i] != 32:  # every entry ends with a space
            bits |= 1 << (table[i] - 97)
            i += 1
        i += 1
        if bits == shape:
            return chr(char)
    return UNKNOWN


# The model reads a display back as one-character strings (chr), which MicroPython interns in
# its names' pool for good. It stands for the displays' silicon, not board code: the printable
# set is interned here at import, so reading back never grows the pool under the board's code
# (a board's firmware interns none of them: hardware/segments.py).
for _code in range(32, 127):
    chr(_code)
del _code


def char7(shape: int) -> str:
    """The character a 7-segment shape (without its point) reads as."""
    return _read(_GLYPHS7, shape & 0x7F)


def char14(shape: int) -> str:
    """The character a 14-segment shape (without its point) reads as."""
    return _read(_GLYPHS14, shape & 0x3FFF)


class Device:
    """One HT16K33: the state its commands set and its 16 bytes of display RAM."""

    def __init__(self, address: int, kind: str = KIND_SEG7) -> None:
        if kind not in (KIND_SEG7, KIND_SEG7_BIG, KIND_SEG14):
            raise ValueError("unknown backpack kind")
        self.address = address
        self.kind = kind
        # Power-on state per the datasheet: standby, display off, full duty.
        self.ram = bytearray(16)
        self.oscillator = False
        self.on = False
        self.blink = 0
        self.brightness = 15
        self.pointer = 0
        self.transactions = 0
        self.ram_writes = 0  # transactions that carried display data
        self.unknown = 0  # transactions the chip would not understand

    def receive(self, data) -> None:
        """Apply one I2C write transaction (the bytes after the address)."""
        self.transactions += 1
        if not len(data):
            return  # address-only probe: the chip just ACKs
        cmd = data[0]
        high = cmd & 0xF0
        if high == 0x00:
            self.pointer = cmd & 0x0F
            if len(data) > 1:
                self.ram_writes += 1
            for i in range(1, len(data)):
                self.ram[self.pointer] = data[i]
                self.pointer = (self.pointer + 1) & 0x0F
            return
        if len(data) != 1:
            self.unknown += 1  # setup commands are single bytes
            return
        if high == 0x20:
            self.oscillator = bool(cmd & 0x01)
        elif high == 0x80:
            self.on = bool(cmd & 0x01)
            self.blink = (cmd >> 1) & 0x03
        elif high == 0xE0:
            self.brightness = cmd & 0x0F
        elif high in (0x40, 0x60) or cmd in (0xA0, 0xA1, 0xA3):
            pass  # key-scan and INT pin settings: no effect on the display
        else:
            self.unknown += 1

    @property
    def lit(self) -> bool:
        """True when the chip is driving the LEDs at all."""
        return self.oscillator and self.on

    def left_mark(self) -> str:
        """The 1.2" display's left colon, outside the digits (pilkku's shooter mark): ":" both
        dots, "'" the upper, "." the lower, "" none or another kind of display."""
        if self.kind != KIND_SEG7_BIG:
            return ""
        left = self.ram[SEG7_MARKS] & (SEG7_LEFT_UPPER | SEG7_LEFT_LOWER)
        if left == SEG7_LEFT_UPPER | SEG7_LEFT_LOWER:
            return ":"
        if left == SEG7_LEFT_UPPER:
            return "'"
        return "." if left else ""

    def raw_text(self, mark: bool = True) -> str:
        """Decode RAM as characters, whether or not the display is lit; ``mark`` False leaves
        the left colon out (``left_mark`` reads it)."""
        ram = self.ram
        parts = []
        if self.kind == KIND_SEG14:
            for i in range(4):
                word = ram[2 * i] | (ram[2 * i + 1] << 8)
                char = char14(word)
                if char == UNKNOWN and word & SEG14_DP:
                    # '?' uses the point segment as part of its shape.
                    char = _read(_GLYPHS14, word)
                elif word & SEG14_DP:
                    char += "."
                parts.append(char)
            return "".join(parts)
        big = self.kind == KIND_SEG7_BIG
        marks = ram[SEG7_MARKS]
        if mark:
            parts.append(self.left_mark())
        for i in range(4):
            shape = ram[SEG7_DIGITS[i]]
            parts.append(char7(shape))
            if big:
                if i == 2 and marks & SEG7_DOT:
                    parts.append(".")
            elif shape & SEG7_DP:
                parts.append(".")
            if i == 1 and marks & SEG7_COLON:
                parts.append(":")
        return "".join(parts)

    def dark(self, now_ms=None) -> bool:
        """True when a person sees nothing lit: off, or (with ``now_ms``) blinked off."""
        if not self.lit:
            return True
        if now_ms is not None and self.blink:
            period = _BLINK_PERIOD_MS[self.blink]
            return now_ms % period >= period // 2
        return False

    def text(self, now_ms=None, mark: bool = True) -> str:
        """What a person sees: dark (spaces) when off; with ``now_ms``, blinking too;
        ``mark`` False: without the left colon."""
        return "    " if self.dark(now_ms) else self.raw_text(mark)

    def mark(self, now_ms=None) -> str:
        """The left colon as a person sees it (``left_mark``; "" while dark)."""
        return "" if self.dark(now_ms) else self.left_mark()


class Bus:
    """A fake I2C bus holding HT16K33 devices at 0x70..0x77 (or any address)."""

    def __init__(self) -> None:
        self.devices: dict = {}
        self.transactions = 0

    def add(self, address: int, kind: str = KIND_SEG7) -> Device:
        if address in self.devices:
            raise ValueError("address already in use")
        dev = Device(address, kind)
        self.devices[address] = dev
        return dev

    def device(self, address: int) -> Device:
        return self.devices[address]

    def scan(self) -> list:
        return sorted(self.devices)

    def writeto(self, addr: int, buf, stop: bool = True) -> int:
        dev = self.devices.get(addr)
        if dev is None:
            raise OSError(_ENODEV)
        self.transactions += 1
        dev.receive(buf)
        return len(buf)

    def text(self, address: int, now_ms=None, mark: bool = True) -> str:
        return self.devices[address].text(now_ms, mark)

    def mark(self, address: int, now_ms=None) -> str:
        return self.devices[address].mark(now_ms)

    def raw_text(self, address: int) -> str:
        return self.devices[address].raw_text()
