"""The displays' RAM, byte for byte, as the driver's text layout made it before it was made
fast (issue 31: a text's cells laid out in one pass, the RAM written in one go): the former
layout, kept here as the reference, against the driver over texts of every kind (points,
colons, Finnish and Swedish letters, other scripts, control characters), flush left and
right, on each display kind, and through a scroller's every window."""

from __future__ import annotations

import random

import pytest

from hardware.ht16k33 import Chain, Scroller, Seg7x4, Seg14x4
from hardware.segments import SEG7_COLON, SEG7_DIGITS, SEG7_MARKS, glyph7, glyph14


class _Cells:
    """The former driver's cell view of a display: put/get per cell, the colon apart."""

    def __init__(self, cells: int, dp: int, has_colon: bool, glyph) -> None:
        self.cells, self.dp, self.has_colon, self.glyph = cells, dp, has_colon, glyph
        self.masks = [0] * cells
        self.colon = False

    def put(self, index: int, mask: int) -> None:
        self.masks[index] = mask

    def get(self, index: int) -> int:
        return self.masks[index]

    def set_colon(self, on: bool) -> None:
        if self.has_colon:
            self.colon = on


def _layout(disp, text: str, start: int, write: bool) -> int:
    """The former hardware/ht16k33.py _layout, as it was."""
    cells = disp.cells
    dp = disp.dp
    colon = disp.has_colon
    glyph = disp.glyph
    pos = start
    last = -1
    data = text.encode()
    end = len(data)
    i = 0
    while i < end:
        code = data[i]
        i += 1
        if code >= 0xC0:
            more = 1 if code < 0xE0 else 2 if code < 0xF0 else 3
            code &= 0x7F >> (more + 1)
            while more and i < end:
                code = (code << 6) | (data[i] & 0x3F)
                i += 1
                more -= 1
        if code == 0x2E:
            if last >= 0:
                if write and last < cells:
                    disp.put(last, disp.get(last) | dp)
                last = -1
                continue
            if write and pos < cells:
                disp.put(pos, dp)
            pos += 1
        elif colon and code == 0x3A:
            if write:
                disp.set_colon(True)
        else:
            if write and pos < cells:
                disp.put(pos, glyph(code))
            last = pos
            pos += 1
    return pos


def reference(cells: int, dp: int, has_colon: bool, glyph, text: str, right: bool) -> _Cells:
    """The former render."""
    disp = _Cells(cells, dp, has_colon, glyph)
    start = 0
    if right:
        used = _layout(disp, text, 0, False)
        if used < cells:
            start = cells - used
    _layout(disp, text, start, True)
    return disp


def seg7_ram(masks: list[int], colon: bool, marks: int) -> bytes:
    ram = bytearray(16)
    for i, mask in enumerate(masks):
        ram[SEG7_DIGITS[i]] = mask & 0xFF
    ram[SEG7_MARKS] = (marks & ~SEG7_COLON & 0xFF) | (SEG7_COLON if colon else 0)
    return bytes(ram)


def seg14_ram(masks: list[int]) -> bytes:
    ram = bytearray(16)
    for i, mask in enumerate(masks):
        ram[2 * i] = mask & 0xFF
        ram[2 * i + 1] = (mask >> 8) & 0xFF
    return bytes(ram)


PIECES = ["A", "b", "7", "0", ".", ".", ":", " ", "-", "#", "?", "~", "\x7f", "\x01", "Ä",
          "ö", "Å", "é", "ß", "×", "÷", "Š", "ž", "Ÿ", "€", "日", "😀", "\u0100", "..", ":."]


def texts(seed: int, count: int) -> list[str]:
    draw = random.Random(seed)
    fixed = ["", ".", "..", ":", "12", "1:23", "-999", "9999", "8.8.8.8.", ".5", "1..2",
             "PL 1 RUN", "ÄIJÄLÄ", "äIJäLä", "A:B:C", "12345678901", "RACK 3  9-BALL"]
    return fixed + ["".join(draw.choice(PIECES) for _ in range(draw.randint(0, 14)))
                    for _ in range(count)]


@pytest.mark.parametrize("right", [False, True])
def test_texts_fill_the_ram_as_before(right: bool) -> None:
    seg7 = Seg7x4(None, 0x70)
    seg14 = Seg14x4(None, 0x73)
    chain = Chain([Seg14x4(None, 0x73), Seg14x4(None, 0x74)])
    for text in texts(31, 400):
        for marks in (0, 0x0C | SEG7_COLON):
            seg7.buf[1 + SEG7_MARKS] = marks
            seg7.text(text, right)
            want = reference(4, 0x80, True, glyph7, text, right)
            assert bytes(seg7.buf[1:]) == seg7_ram(want.masks, want.colon, marks), text
        seg14.text(text, right)
        want = reference(4, 0x4000, False, glyph14, text, right)
        assert bytes(seg14.buf[1:]) == seg14_ram(want.masks), text
        chain.text(text, right)
        want = reference(8, 0x4000, False, glyph14, text, right)
        got = bytes(chain.displays[0].buf[1:]) + bytes(chain.displays[1].buf[1:])
        assert got == seg14_ram(want.masks[:4]) + seg14_ram(want.masks[4:]), text


def test_numbers_fill_the_ram_as_before() -> None:
    seg7 = Seg7x4(None, 0x71)
    for value in list(range(-999, 10000, 7)) + [-1, 0, 9999]:
        for colon in (False, True):
            seg7.number(value, colon)
            want = reference(4, 0x80, True, glyph7, "%d" % value, True)
            assert bytes(seg7.buf[1:]) == seg7_ram(want.masks, colon, 0), value


def tape(text: str, gap: int, loop: bool) -> list[int]:
    """The former scroller's tape: the text's cells, then the gap where it loops."""
    used = _layout(_Cells(0, 0x4000, False, glyph14), text, 0, False)
    cells = _Cells(used + (gap if loop else 0), 0x4000, False, glyph14)
    _layout(cells, text, 0, True)
    return cells.masks


@pytest.mark.parametrize("loop", [False, True])
def test_a_scroller_shows_each_window_as_before(loop: bool) -> None:
    chain = Chain([Seg14x4(None, 0x73), Seg14x4(None, 0x74)])
    scroller = Scroller(chain, step_ms=10, hold_ms=10, gap=3)
    for text in texts(32, 150) + ["9-BALL RACE TO 2  PRESS # TO START", "SHORT"]:
        scroller.start(text, 0, loop)
        masks = tape(text, 3, loop)
        short = len(masks) - (3 if loop else 0) <= 8
        if short:
            want = reference(8, 0x4000, False, glyph14, text, False).masks
        offset = 0
        for now in range(10, 10 * (len(masks) + 3), 10):
            if not short:
                want = [masks[(offset + i) % len(masks)] for i in range(8)]
            got = bytes(chain.displays[0].buf[1:]) + bytes(chain.displays[1].buf[1:])
            assert got == seg14_ram(want[:4]) + seg14_ram(want[4:]), (text, offset)
            if scroller.tick(now):
                offset = (offset + 1) % len(masks)
