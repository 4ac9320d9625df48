"""Register-level model of HT16K33 backpacks on one I2C bus, and what a person would see.

``Bus`` stands where ``machine.I2C`` would: ``writeto(addr, buf)`` delivers one write
transaction to the device at ``addr`` (OSError ENODEV if none is there, as a real bus NACKs).
Each ``Device`` decodes the command set the way the chip does (system setup, display setup,
dimming, RAM pointer with auto-increment wrapping at 16 bytes) and keeps the 16 bytes of
display RAM. ``Bus.text(addr)`` turns the RAM back into the characters on the glass, with
points and colons, dark while the oscillator or the display is off.

Runs under MicroPython (the virtual board) and CPython (tests, the host's simulator face).
Decoding uses the shared font in ``hardware.segments``; a shape several characters share
decodes to one reading: digits first, then the letter in the case the shape looks like (a
7-segment ``S`` reads as ``5``, ``N`` as ``n``: that is what a person sees); a shape no
character has decodes to ``UNKNOWN``.
"""

from hardware.compat import const
from hardware.segments import (
    SEG7,
    SEG7_COLON,
    SEG7_DIGITS,
    SEG7_DOT,
    SEG7_DP,
    SEG7_LEFT_LOWER,
    SEG7_LEFT_UPPER,
    SEG7_MARKS,
    SEG14,
    SEG14_DP,
)

KIND_SEG7 = "seg7"  # 0.56" 4-digit: a point after every digit, centre colon
KIND_SEG7_BIG = "seg7big"  # 1.2" 4-digit: no digit points; centre and left colon, one dot
KIND_SEG14 = "seg14"  # 0.54" quad alphanumeric

UNKNOWN = "\ufffd"

_ENODEV = const(19)

# Which character a shared shape is read as: these first, then ASCII order. On 7 segments
# the case that matches the shape comes first (n, d, r look small; A, E, H look capital).
_FIRST7 = b"0123456789 -_AbCcdEFGHhIJLnoPqrStUvy"
_FIRST14 = b"0123456789 -_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

_BLINK_PERIOD_MS = (0, 500, 1000, 2000)

def _read(table, shape: int, first: bytes) -> str:
    # A linear search over byte codes, not a reverse dict or str iteration: decoding is rare,
    # and a board-sized heap has no room for tables or one-character strings made in a loop.
    for code in first:
        if table[code - 32] == shape:
            return chr(code)
    if shape:
        for code in range(95):
            if table[code] == shape:
                return chr(code + 32)
    return UNKNOWN


def char7(shape: int) -> str:
    """The character a 7-segment shape (without its point) reads as."""
    return _read(SEG7, shape & 0x7F, _FIRST7)


def char14(shape: int) -> str:
    """The character a 14-segment shape (without its point) reads as."""
    return _read(SEG14, shape & 0x3FFF, _FIRST14)


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

    def raw_text(self) -> str:
        """Decode RAM as characters, whether or not the display is lit."""
        ram = self.ram
        parts = []
        if self.kind == KIND_SEG14:
            for i in range(4):
                word = ram[2 * i] | (ram[2 * i + 1] << 8)
                char = char14(word)
                if char == UNKNOWN and word & SEG14_DP:
                    # '?' uses the point segment as part of its shape.
                    char = _read(SEG14, word, _FIRST14)
                elif word & SEG14_DP:
                    char += "."
                parts.append(char)
            return "".join(parts)
        big = self.kind == KIND_SEG7_BIG
        marks = ram[SEG7_MARKS]
        if big:
            left = marks & (SEG7_LEFT_UPPER | SEG7_LEFT_LOWER)
            if left == SEG7_LEFT_UPPER | SEG7_LEFT_LOWER:
                parts.append(":")
            elif left == SEG7_LEFT_UPPER:
                parts.append("'")
            elif left:
                parts.append(".")
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

    def text(self, now_ms=None) -> str:
        """What a person sees: dark (spaces) when off; with ``now_ms``, blinking too."""
        if not self.lit:
            return "    "
        if now_ms is not None and self.blink:
            period = _BLINK_PERIOD_MS[self.blink]
            if now_ms % period >= period // 2:
                return "    "
        return self.raw_text()


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

    def text(self, address: int, now_ms=None) -> str:
        return self.devices[address].text(now_ms)

    def raw_text(self, address: int) -> str:
        return self.devices[address].raw_text()
