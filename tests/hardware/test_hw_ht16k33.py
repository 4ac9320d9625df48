"""The HT16K33 driver against the register-level model: commands, writes, text rules."""

from __future__ import annotations

import pytest

from hardware.ht16k33 import (
    BLINK_1HZ,
    BLINK_2HZ,
    BLINK_HALF_HZ,
    BLINK_OFF,
    HT16K33,
    Chain,
    Seg7x4,
    Seg14x4,
)
from hardware.ht16k33_model import Bus


class CountingBus(Bus):
    """The model bus, remembering every transaction as (addr, bytes)."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[int, bytes]] = []

    def writeto(self, addr, buf, stop=True):
        self.log.append((addr, bytes(buf)))
        return super().writeto(addr, buf, stop)


def test_init_sequence_on_the_wire() -> None:
    bus = CountingBus()
    bus.add(0x70)
    Seg7x4(bus, 0x70).init(brightness=9)
    assert bus.log == [
        (0x70, b"\x21"),  # oscillator on, before anything else
        (0x70, bytes(17)),  # RAM pointer 0 + 16 blank bytes, one transaction
        (0x70, b"\x81"),  # display on, no blink
        (0x70, b"\xe9"),  # dimming 10/16
    ]
    dev = bus.device(0x70)
    assert (dev.oscillator, dev.on, dev.blink, dev.brightness) == (True, True, 0, 9)


def test_ram_written_once_and_only_when_changed(bus: Bus) -> None:
    disp = Seg7x4(bus, 0x70)
    disp.init()
    dev = bus.device(0x70)
    assert dev.ram_writes == 1
    disp.number(42)
    assert disp.show() is True
    assert dev.ram_writes == 2
    for _ in range(50):  # a main loop redrawing the same frame
        disp.number(42)
        assert disp.show() is False
    assert dev.ram_writes == 2
    disp.number(43)
    disp.show()
    disp.number(43)
    disp.show()
    assert dev.ram_writes == 3
    assert bus.text(0x70) == "  43"
    assert disp.show(force=True) is True
    assert dev.ram_writes == 4


def test_commands_only_sent_when_they_change(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    dev = bus.device(0x73)
    before = dev.transactions
    for _ in range(10):
        disp.brightness(15)
        disp.blink(BLINK_OFF)
        disp.power(True)
        disp.oscillator(True)
    assert dev.transactions == before
    disp.brightness(3)
    disp.brightness(3)
    assert dev.transactions == before + 1
    assert dev.brightness == 3


def test_on_off_blink_brightness_reach_the_chip(bus: Bus) -> None:
    disp = Seg7x4(bus, 0x70)
    disp.init()
    disp.text("8888")
    disp.show()
    dev = bus.device(0x70)
    disp.power(False)
    assert not dev.on and bus.text(0x70) == "    "
    assert dev.raw_text() == "8888"  # RAM kept while dark
    disp.power(True)
    assert bus.text(0x70) == "8888"
    for rate in (BLINK_2HZ, BLINK_1HZ, BLINK_HALF_HZ, BLINK_OFF):
        disp.blink(rate)
        assert dev.blink == rate and dev.on
    for level in range(16):
        disp.brightness(level)
        assert dev.brightness == level
    disp.oscillator(False)
    assert not dev.oscillator and bus.text(0x70) == "    "
    with pytest.raises(ValueError):
        disp.brightness(16)
    with pytest.raises(ValueError):
        disp.blink(4)


def test_address_range() -> None:
    for bad in (0x6F, 0x78):
        with pytest.raises(ValueError):
            HT16K33(Bus(), bad)


def test_several_backpacks_on_one_bus(bus: Bus) -> None:
    p1 = Seg7x4(bus, 0x70)
    p2 = Seg7x4(bus, 0x71)
    m1 = Seg14x4(bus, 0x73)
    m2 = Seg14x4(bus, 0x74)
    for d in (p1, p2, m1, m2):
        d.init()
    p1.number(7)
    p2.number(-12)
    m1.text("FOUL")
    m2.text("P2")
    for d in (p1, p2, m1, m2):
        d.show()
    assert [bus.text(a) for a in (0x70, 0x71, 0x73, 0x74)] == ["   7", " -12", "FOUL", "P2  "]
    writes = [bus.device(a).ram_writes for a in (0x70, 0x71, 0x73, 0x74)]
    m2.text("P1")
    for d in (p1, p2, m1, m2):
        d.show()
    after = [bus.device(a).ram_writes for a in (0x70, 0x71, 0x73, 0x74)]
    assert after == [writes[0], writes[1], writes[2], writes[3] + 1]


def test_write_to_missing_backpack_raises_and_is_retried() -> None:
    bus = Bus()
    disp = Seg7x4(bus, 0x72)
    disp.text("12")
    with pytest.raises(OSError):
        disp.show()
    bus.add(0x72)  # the cable is plugged back in
    disp.oscillator(True)
    disp.power(True)
    assert disp.show() is True  # not skipped as "unchanged"
    assert bus.text(0x72) == "12  "


def test_failed_write_is_not_taken_as_sent() -> None:
    bus = Bus()
    bus.add(0x70)
    disp = Seg7x4(bus, 0x70)
    disp.init()
    disp.text("1")
    disp.show()
    del bus.devices[0x70]
    disp.text("2")
    with pytest.raises(OSError):
        disp.show()
    bus.add(0x70)
    disp.text("1")  # back to what was sent before the failure
    assert disp.show() is True


@pytest.mark.parametrize(
    "text, right, seen",
    [
        ("12:34", False, "12:34"),
        ("1234", False, "1234"),
        ("-5", True, "  -5"),
        ("-5", False, "-5  "),
        ("3.14", True, " 3.14"),
        ("1.2.3.4.", False, "1.2.3.4."),
        ("..", True, "   . ."),
        ("1..", True, "  1. ."),
        (".5", True, "   .5"),
        ("12345", False, "1234"),
        ("12345", True, "1234"),
        ("End", False, "End "),
        ("Hi", False, "HI  "),  # the only i 7 segments have is a capital
        ("HOLD", False, "HoLd"),  # capital O and D do not exist; the shapes are small
        ("SAFE", False, "5AFE"),  # what a person reads: S and 5 are one shape
        ("rAc", False, "rAc "),
        ("!?", False, "    "),  # nothing 7 segments can draw
        ("__ 5", False, "__ 5"),
        ("", False, "    "),
    ],
)
def test_seven_segment_text_rules(bus: Bus, text: str, right: bool, seen: str) -> None:
    disp = Seg7x4(bus, 0x70)
    disp.init()
    disp.text(text, right=right)
    disp.show()
    assert bus.text(0x70) == seen


def test_colon_follows_text_and_number(bus: Bus) -> None:
    disp = Seg7x4(bus, 0x70)
    disp.init()
    disp.text("12:34")
    disp.show()
    assert bus.text(0x70) == "12:34"
    disp.text("1234")  # no colon in the text: colon off
    disp.show()
    assert bus.text(0x70) == "1234"
    disp.number(905, colon=True)
    disp.show()
    assert bus.text(0x70) == " 9:05"
    disp.set_colon(False)
    disp.show()
    assert bus.text(0x70) == " 905"


def test_number_range() -> None:
    disp = Seg7x4(Bus(), 0x70)
    for n in (-999, 0, 9999):
        disp.number(n)
    for n in (-1000, 10000):
        with pytest.raises(ValueError):
            disp.number(n)


def test_big_display_marks_and_invisible_points(bus: Bus) -> None:
    """The 1.2" digits have no points; its extra dots live in RAM byte 4."""
    from hardware.segments import SEG7_DOT, SEG7_LEFT_LOWER, SEG7_LEFT_UPPER

    disp = Seg7x4(bus, 0x71)
    disp.init()
    disp.text("1.2:34")
    disp.show()
    assert bus.text(0x71) == "12:34"
    disp.set_marks(SEG7_LEFT_UPPER | SEG7_LEFT_LOWER, True)
    disp.show()
    assert bus.text(0x71) == ":12:34"
    disp.set_marks(SEG7_LEFT_LOWER, False)
    disp.set_marks(SEG7_DOT, True)
    disp.show()
    assert bus.text(0x71) == "'12:3.4"
    disp.text("1")  # text leaves the extra dots alone; they are the firmware's to set
    disp.show()
    assert bus.text(0x71) == "'1  . "


def test_fourteen_segment_text(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    for text, seen in [
        ("P1", "P1  "),
        ("9:05", "9:05"),  # ':' is a glyph here, taking a cell
        ("v2.1", "v2.1 "),
        ("a.b.c.d.", "a.b.c.d."),
        ("Hill", "Hill"),
        ("~{|}", "~{:}"),  # '|' and ':' are one shape; it reads as ':'
        ("\u00e9t\u00e9", "EtE "),  # Latin-1 letters as the capitals they are drawn as
        ("\u20ac1", " 1  "),  # beyond them (the euro sign): blank
    ]:
        disp.text(text)
        disp.show()
        assert bus.text(0x73) == seen, text


def test_fill_lights_everything(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    disp.fill(0xFF)
    disp.show()
    assert bus.device(0x73).ram == bytearray(b"\xff" * 16)


def test_chain_spans_two_backpacks(bus: Bus) -> None:
    left = Seg14x4(bus, 0x73)
    right = Seg14x4(bus, 0x74)
    row = Chain([left, right])
    for d in row.displays:
        d.init()
    assert row.cells == 8
    row.text("BREAK P1")
    assert row.show() is True
    assert bus.text(0x73) + bus.text(0x74) == "BREAK P1"
    row.text("RACK", right=True)
    row.show()
    assert bus.text(0x73) + bus.text(0x74) == "    RACK"
    before = bus.device(0x74).ram_writes
    row.text("SAFE", right=True)
    row.show()
    assert bus.device(0x73).ram_writes == bus.device(0x73).ram_writes
    assert bus.device(0x74).ram_writes == before + 1
    assert row.show() is False
