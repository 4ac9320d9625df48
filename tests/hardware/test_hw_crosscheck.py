"""Our HT16K33 driver against Adafruit's ``adafruit_ht16k33`` as a reference, RAM byte for byte.

Both drivers write to register-level models (``hardware.ht16k33_model.Bus``); the reference
reaches its model through a bus with the CircuitPython ``busio.I2C`` calls it uses.
"""

from __future__ import annotations

import pytest

from hardware.ht16k33 import Seg7x4, Seg14x4
from hardware.ht16k33_model import KIND_SEG7, KIND_SEG14, Bus

segments = pytest.importorskip("adafruit_ht16k33.segments")

PRINTABLE = "".join(chr(c) for c in range(32, 127))

# Characters where our font deliberately differs from the reference, and why.
DELIBERATE_7 = {
    "c": "small c (0x58): the reference folds case and shows C, but c and C both draw well",
    "h": "small h (0x74): the reference folds case and shows H, but h and H both draw well",
    "_": "underscore (0x08): the cursor when the referee keys in a number; reference: blank",
    "Z": "dash like K M W X: the reference's own table has a dash for z, but its letter range "
    "stops at y, so it leaves z blank",
    "z": "as Z",
}
DELIBERATE_14 = {
    "I": "capital I with serifs (A D J M): the reference's bare J M looks exactly like | and :",
}
# The reference takes ';' as a command (colon off, no cell); ours is a blank cell, and text()
# always starts with the colon off. Windows containing ';' are not compared on 7 segments.
SEVEN_SKIP = ";"


class CircuitPythonBus:
    """What adafruit_bus_device.I2CDevice needs from ``busio.I2C``, delivered to our model.

    I2CDevice probes on construction with ``writeto(addr, b"")`` inside try_lock/unlock; the
    model ACKs an empty write for a present device and raises OSError for an absent one,
    which is the real bus's behaviour and what the probe looks for.
    """

    def __init__(self, model: Bus) -> None:
        self.model = model
        self.locked = False

    def try_lock(self) -> bool:
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False

    def writeto(self, address: int, buffer, *, start: int = 0, end: int | None = None) -> None:
        assert self.locked, "reference wrote without holding the bus lock"
        self.model.writeto(address, bytes(buffer[start:end]))

    def readfrom_into(self, address: int, buffer, *, start: int = 0, end: int | None = None):
        raise OSError(5)


class Pair:
    """The reference and our driver, each on its own model at 0x70."""

    def __init__(self, kind: str) -> None:
        self.ref_bus = Bus()
        self.ref_bus.add(0x70, kind)
        self.our_bus = Bus()
        self.our_bus.add(0x70, kind)
        cp_bus = CircuitPythonBus(self.ref_bus)
        if kind == KIND_SEG14:
            self.ref = segments.Seg14x4(cp_bus, address=0x70, auto_write=False)
            self.ours = Seg14x4(self.our_bus, 0x70)
        else:
            self.ref = segments.Seg7x4(cp_bus, address=0x70, auto_write=False)
            self.ours = Seg7x4(self.our_bus, 0x70)
        self.ours.init()

    def ref_ram(self, text: str, colon: bool = False) -> bytes:
        self.ref.fill(0)
        if colon:
            self.ref.colon = True
        self.ref.print(text)
        self.ref.show()
        return bytes(self.ref_bus.device(0x70).ram)

    def our_ram(self) -> bytes:
        self.ours.show()
        return bytes(self.our_bus.device(0x70).ram)


def cells_used(text: str, colon_takes_no_cell: bool) -> int:
    """Cells ``text`` fills: a '.' joins the character before it unless that has one."""
    used = 0
    can_join = False
    for ch in text:
        if ch == "." and can_join:
            can_join = False
        elif ch == ":" and colon_takes_no_cell:
            pass
        else:
            used += 1
            can_join = ch != "."
    return used


@pytest.fixture(scope="module")
def seven() -> Pair:
    return Pair(KIND_SEG7)


@pytest.fixture(scope="module")
def fourteen() -> Pair:
    return Pair(KIND_SEG14)


def test_reference_init_leaves_chip_in_same_state_as_ours(seven: Pair, fourteen: Pair) -> None:
    for pair in (seven, fourteen):
        ref = pair.ref_bus.device(0x70)
        ours = pair.our_bus.device(0x70)
        state = lambda d: (d.oscillator, d.on, d.blink, d.brightness, d.unknown)  # noqa: E731
        assert state(ref) == state(ours) == (True, True, 0, 15, 0)


@pytest.mark.parametrize("kind", [KIND_SEG7, KIND_SEG14])
def test_every_printable_character(kind: str, seven: Pair, fourteen: Pair) -> None:
    pair = seven if kind == KIND_SEG7 else fourteen
    deliberate = DELIBERATE_7 if kind == KIND_SEG7 else DELIBERATE_14
    same, differ = [], []
    for ch in PRINTABLE:
        expected = pair.ref_ram(ch)
        pair.ours.text(ch, right=True)
        got = pair.our_ram()
        (same if got == expected else differ).append(ch)
    assert sorted(differ) == sorted(deliberate), "only the listed characters may differ"
    assert len(same) == 95 - len(deliberate)


def test_deliberate_differences_are_what_we_say(seven: Pair, fourteen: Pair) -> None:
    seven.ours.text("chZz_", right=False)
    seven.our_ram()
    assert [seven.ours.get(i) for i in range(4)] == [0x58, 0x74, 0x40, 0x40]
    seven.ours.text("_")
    assert seven.ours.get(0) == 0x08
    fourteen.ours.text("I")
    assert fourteen.ours.get(0) == 0x1209


@pytest.mark.parametrize("kind", [KIND_SEG7, KIND_SEG14])
def test_all_windows_of_printable_ascii(kind: str, seven: Pair, fourteen: Pair) -> None:
    """Every run of 1..6 consecutive printable characters that fits in 4 cells (dots and
    colons included), except runs containing a deliberately different character."""
    pair = seven if kind == KIND_SEG7 else fourteen
    skip = set(DELIBERATE_7 if kind == KIND_SEG7 else DELIBERATE_14)
    if kind == KIND_SEG7:
        skip |= set(SEVEN_SKIP)
    compared = 0
    for size in range(1, 7):
        for start in range(len(PRINTABLE) - size + 1):
            text = PRINTABLE[start : start + size]
            if skip & set(text) or cells_used(text, kind == KIND_SEG7) > 4:
                continue
            expected = pair.ref_ram(text)
            pair.ours.text(text, right=True)
            assert pair.our_ram() == expected, repr(text)
            compared += 1
    assert compared > 300


def test_numbers_on_seven_segments_with_and_without_colon(seven: Pair) -> None:
    for colon in (False, True):
        for n in range(-999, 10000):
            expected = seven.ref_ram(str(n), colon)
            seven.ours.number(n, colon=colon)
            assert seven.our_ram() == expected, (n, colon)


def test_numbers_as_text_on_fourteen_segments(fourteen: Pair) -> None:
    for n in range(-999, 10000):
        expected = fourteen.ref_ram(str(n))
        fourteen.ours.text(str(n), right=True)
        assert fourteen.our_ram() == expected, n


def test_clock_text_with_colon_matches_reference_colon(seven: Pair) -> None:
    for text in ("12:34", "0:05", "99:59", " 1:00"):
        digits = text.replace(":", "")
        expected = seven.ref_ram(digits, colon=True)
        seven.ours.text(text, right=True)
        assert seven.our_ram() == expected, text
