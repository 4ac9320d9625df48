"""Finnish and Swedish names on the 14-segment row, read back by the register-level model
with its own glyph tables (not the driver's font): every Latin-1 letter draws as its
documented ASCII letter, and a wrong glyph in the driver's font is seen as wrong."""

from __future__ import annotations

import pytest

from hardware import segments
from hardware.ht16k33 import Chain, Seg7x4, Seg14x4
from hardware.ht16k33_model import UNKNOWN, Bus

# The transliteration hardware/segments.py documents, written out again here.
DRAWN_AS = [  # (the ASCII drawn, the letters drawn so), the small letters as capitals
    ("AAAAAAA", "\u00c0\u00c1\u00c2\u00c3\u00c4\u00c5\u00c6"), ("C", "\u00c7"),
    ("EEEE", "\u00c8\u00c9\u00ca\u00cb"), ("IIII", "\u00cc\u00cd\u00ce\u00cf"), ("D", "\u00d0"),
    ("N", "\u00d1"), ("OOOOOO", "\u00d2\u00d3\u00d4\u00d5\u00d6\u00d8"),
    ("UUUU", "\u00d9\u00da\u00db\u00dc"), ("YY", "\u00dd\u0178"), ("P", "\u00de"), ("S", "\u00df"),
    ("AAAAAAA", "\u00e0\u00e1\u00e2\u00e3\u00e4\u00e5\u00e6"), ("C", "\u00e7"),
    ("EEEE", "\u00e8\u00e9\u00ea\u00eb"), ("IIII", "\u00ec\u00ed\u00ee\u00ef"), ("D", "\u00f0"),
    ("N", "\u00f1"), ("OOOOOO", "\u00f2\u00f3\u00f4\u00f5\u00f6\u00f8"),
    ("UUUU", "\u00f9\u00fa\u00fb\u00fc"), ("YY", "\u00fd\u00ff"), ("P", "\u00fe"),
    ("SSZZ", "\u0160\u0161\u017d\u017e"),
]

# Printable ASCII the font draws with another character's shape, as a person reads them.
LOOK_ALIKES = {"!": "1.", ".": " .", "[": "C", "f": "F", "|": ":"}


@pytest.fixture
def row(bus: Bus) -> Chain:
    chain = Chain([Seg14x4(bus, 0x73), Seg14x4(bus, 0x74)])
    for display in chain.displays:
        display.init()
    return chain


def read(bus: Bus, chain: Chain, text: str) -> str:
    chain.text(text)
    chain.show()
    return bus.text(0x73) + bus.text(0x74)


def test_every_latin1_letter_draws_as_its_documented_letter(bus, row):
    for drawn, letters in DRAWN_AS:
        for ascii_letter, letter in zip(drawn, letters, strict=True):
            seen = read(bus, row, letter)[0]
            assert seen != " " and seen != UNKNOWN, hex(ord(letter))
            assert seen == read(bus, row, ascii_letter)[0], (letter, seen)
    covered = "".join(letters for _, letters in DRAWN_AS)
    for code in range(0xC0, 0x100):
        if code not in (0xD7, 0xF7):  # × and ÷ are no letters
            assert chr(code) in covered, hex(code)


def test_finnish_and_swedish_names_show(bus, row):
    assert read(bus, row, "\u00c4IJ\u00c4L\u00c4") == "AIJALA  "  # Äijälä, upper-cased
    assert read(bus, row, "\u00c5STR\u00d6M") == "ASTROM  "  # Åström
    # MicroPython's str.upper leaves the small ä as it is: it still reads as a capital
    assert read(bus, row, "\u00e4IJ\u00e4L\u00e4") == "AIJALA  "
    assert read(bus, row, "\u20ac") == "        "  # no letter at all: blank, never a wrong one


def test_printable_ascii_reads_back_as_itself_or_its_look_alike(bus, row):
    for code in range(33, 127):
        char = chr(code)
        assert read(bus, row, char).rstrip() == LOOK_ALIKES.get(char, char), char


def test_the_model_reads_with_its_own_glyphs_not_the_drivers(bus, row, monkeypatch):
    assert read(bus, row, "ANNA") == "ANNA    "
    font = bytearray(segments.SEG14)  # each character's word, low byte first
    a, r = 2 * (ord("A") - 32), 2 * (ord("R") - 32)
    font[a:a + 2] = font[r:r + 2]  # a wrong glyph for A in the driver's font
    monkeypatch.setattr(segments, "SEG14", font)
    assert read(bus, row, "ANNA") == "RNNR    "
    font[a + 1] |= 0x01  # a shape no letter has (segment H more)
    assert read(bus, row, "A")[0] == UNKNOWN


def test_seven_segment_model_has_its_own_glyphs_too(bus, monkeypatch):
    display = Seg7x4(bus, 0x70)
    display.init()
    display.text("PL 1")
    display.show()
    assert bus.text(0x70) == "PL 1"
    monkeypatch.setattr(segments, "SEG7", segments.SEG7.replace(b"\x73", b"\x77", 1))  # P as A
    display.text("PL 2")
    display.show()
    assert bus.text(0x70) == "AL 2"
