"""The register-level HT16K33 model: command decoding, RAM, and what it says a person sees."""

from __future__ import annotations

import errno

import pytest

from hardware.ht16k33_model import (
    KIND_SEG7,
    KIND_SEG7_BIG,
    KIND_SEG14,
    UNKNOWN,
    Bus,
    char7,
    char14,
)


def lit(bus: Bus, addr: int) -> None:
    bus.writeto(addr, b"\x21")
    bus.writeto(addr, b"\x81")


def test_power_on_state_is_dark() -> None:
    bus = Bus()
    dev = bus.add(0x70)
    assert (dev.oscillator, dev.on, dev.blink, dev.brightness) == (False, False, 0, 15)
    bus.writeto(0x70, b"\x00\x3f\x00\x06")
    assert bus.text(0x70) == "    "
    assert bus.raw_text(0x70) == "01  "
    bus.writeto(0x70, b"\x81")  # display on, oscillator still off: still dark
    assert bus.text(0x70) == "    "
    bus.writeto(0x70, b"\x21")
    assert bus.text(0x70) == "01  "


def test_missing_address_nacks_like_a_real_bus() -> None:
    bus = Bus()
    bus.add(0x70)
    with pytest.raises(OSError) as raised:
        bus.writeto(0x71, b"\x21")
    assert raised.value.args[0] == errno.ENODEV
    assert bus.writeto(0x70, b"") == 0  # address-only probe is acknowledged
    assert bus.scan() == [0x70]


def test_ram_pointer_auto_increments_and_wraps() -> None:
    bus = Bus()
    dev = bus.add(0x70)
    bus.writeto(0x70, bytes([0x0E, 1, 2, 3, 4]))
    assert dev.ram[14:] == bytearray([1, 2]) and dev.ram[:2] == bytearray([3, 4])
    bus.writeto(0x70, bytes([0x06, 0x7F]))
    assert dev.ram[6] == 0x7F
    assert dev.ram_writes == 2


def test_setup_commands() -> None:
    bus = Bus()
    dev = bus.add(0x70)
    bus.writeto(0x70, b"\x21")
    assert dev.oscillator
    bus.writeto(0x70, b"\x87")
    assert dev.on and dev.blink == 3
    bus.writeto(0x70, b"\x82")
    assert not dev.on and dev.blink == 1
    bus.writeto(0x70, b"\xe4")
    assert dev.brightness == 4
    bus.writeto(0x70, b"\x20")
    assert not dev.oscillator
    assert dev.unknown == 0
    bus.writeto(0x70, b"\xa1")  # INT pin setup: harmless
    assert dev.unknown == 0
    bus.writeto(0x70, b"\x21\x81")  # two commands in one transaction: not how the chip works
    bus.writeto(0x70, b"\xc0")
    assert dev.unknown == 2


def test_blink_seen_over_time() -> None:
    bus = Bus()
    dev = bus.add(0x73, KIND_SEG14)
    lit(bus, 0x73)
    bus.writeto(0x73, bytes([0, 0xF7, 0x00]))  # 'A' in the first cell
    bus.writeto(0x73, b"\x83")  # 2 Hz
    assert dev.blink == 1
    assert bus.text(0x73, now_ms=100) == "A   "
    assert bus.text(0x73, now_ms=300) == "    "
    assert bus.text(0x73, now_ms=600) == "A   "
    assert bus.text(0x73) == "A   "  # without a time: the content


def test_decode_shapes() -> None:
    assert char7(0x6D) == "5"  # S and 5 share a shape
    assert char7(0x54) == "n" and char7(0x76) == "H" and char7(0x40) == "-"
    assert char7(0x00) == " " and char7(0x01) == UNKNOWN
    assert char14(0x00F7) == "A" and char14(0x0C3F) == "0" and char14(0x003F) == "O"
    assert char14(0x0001) == UNKNOWN


def test_decode_layouts() -> None:
    bus = Bus()
    bus.add(0x70, KIND_SEG7)
    bus.add(0x71, KIND_SEG7_BIG)
    for a in (0x70, 0x71):
        lit(bus, a)
        # digits at 0, 2, 6, 8 with points; byte 4: colon + left colon + dot
        bus.writeto(a, bytes([0, 0x86, 0, 0xDB, 0, 0x1E, 0, 0xCF, 0, 0xE6, 0]))
    assert bus.text(0x70) == "1.2.:3.4."
    assert bus.text(0x71) == ":12:3.4"  # 1.2" has no digit points; 0x10 is its one dot


def test_kinds_and_addresses_are_checked() -> None:
    bus = Bus()
    bus.add(0x70)
    with pytest.raises(ValueError):
        bus.add(0x70)
    with pytest.raises(ValueError):
        bus.add(0x71, "lcd")


def test_the_left_colon_reads_apart_from_the_digits() -> None:
    """pilkku's shooter mark: the 1.2" display's left colon, decoded from RAM byte 4 on its
    own (both dots, either dot, none) and left out of the digits on request."""
    bus = Bus()
    bus.add(0x70, KIND_SEG7)
    bus.add(0x71, KIND_SEG7_BIG)
    for a in (0x70, 0x71):
        lit(bus, a)
    for byte4, mark, rest in ((0x0C, ":", "  12"), (0x04, "'", "  12"), (0x08, ".", "  12"),
                              (0x00, "", "  12"), (0x12, "", "  :1.2"), (0x1E, ":", "  :1.2")):
        ram = bytearray(16)
        ram[6], ram[8], ram[4] = 0x06, 0x5B, byte4  # "  12", the marks of byte 4
        bus.writeto(0x71, b"\x00" + ram)
        bus.writeto(0x70, b"\x00" + ram)
        assert bus.mark(0x71) == mark, byte4
        assert bus.text(0x71, mark=False) == rest, byte4
        assert bus.text(0x71) == mark + bus.text(0x71, mark=False)
        assert bus.mark(0x70) == ""  # the 0.56" display has no left colon
    bus.writeto(0x71, bytes([0, 0, 0, 0, 0, 0x0C]))
    bus.writeto(0x71, b"\x83")  # blinking at 2 Hz: dark half the time, the mark too
    assert bus.mark(0x71, now_ms=100) == ":" and bus.mark(0x71, now_ms=300) == ""
    bus.writeto(0x71, b"\x80")  # display off
    assert bus.mark(0x71) == "" and bus.text(0x71, mark=False) == "    "
