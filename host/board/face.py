"""The simulator's face: the virtual board's displays drawn in the terminal as 7- and
14-segment digits, from the HT16K33 RAM the firmware wrote (decoded by the register-level
model), never from the rules state."""

from __future__ import annotations

from hardware.ht16k33_model import Bus
from hardware.panel import CLOCK, MESSAGE_1, MESSAGE_2, SCORE_1, SCORE_2
from hardware.segments import (
    SEG7_COLON,
    SEG7_DIGITS,
    SEG7_DP,
    SEG7_LEFT_LOWER,
    SEG7_LEFT_UPPER,
    SEG7_MARKS,
    SEG14_DP,
)
from host.i18n import N_, _

# The labels above the displays, in the CLI's language when drawn.
SCORES = ((SCORE_1, N_("PLAYER 1")), (SCORE_2, N_("PLAYER 2")), (CLOCK, N_("CLOCK")))
MESSAGES = (MESSAGE_1, MESSAGE_2)


def texts(bus: Bus) -> dict[str, str]:
    """What a person reads on each display of the set (decoded from its HT16K33 RAM): the
    scores' digits, and apart from them each score display's left colon, the shooter's mark
    (``mark_1``, ``mark_2``: ":" lit, "" dark; "'" or "." would be half of it)."""
    return {"score_1": bus.text(SCORE_1, mark=False), "score_2": bus.text(SCORE_2, mark=False),
            "mark_1": bus.mark(SCORE_1), "mark_2": bus.mark(SCORE_2), "clock": bus.text(CLOCK),
            "message": bus.text(MESSAGE_1) + bus.text(MESSAGE_2)}


def _on(bits: int, mask: int, mark: str) -> str:
    return mark if bits & mask else " " * len(mark)


def seven(byte: int) -> list[str]:
    """One 7-segment digit as three rows of three characters (and its point)."""
    return [
        " " + _on(byte, 0x01, "_") + " ",
        _on(byte, 0x20, "|") + _on(byte, 0x40, "_") + _on(byte, 0x02, "|"),
        _on(byte, 0x10, "|") + _on(byte, 0x08, "_") + _on(byte, 0x04, "|")
        + _on(byte, SEG7_DP, "."),
    ]


def fourteen(word: int) -> list[str]:
    """One 14-segment character as five rows of five characters (and its point)."""
    return [
        " " + _on(word, 0x0001, "___") + " ",
        _on(word, 0x0020, "|") + _on(word, 0x0100, "\\") + _on(word, 0x0200, "|")
        + _on(word, 0x0400, "/") + _on(word, 0x0002, "|"),
        _on(word, 0x0040, "--") + " " + _on(word, 0x0080, "--"),
        _on(word, 0x0010, "|") + _on(word, 0x0800, "/") + _on(word, 0x1000, "|")
        + _on(word, 0x2000, "\\") + _on(word, 0x0004, "|"),
        " " + _on(word, 0x0008, "___") + " " + _on(word, SEG14_DP, "."),
    ]


def _side_by_side(glyphs: list[list[str]], gap: str = " ") -> list[str]:
    width = max(len(row) for glyph in glyphs for row in glyph)
    rows = len(glyphs[0])
    return [gap.join(glyph[r].ljust(width) for glyph in glyphs) for r in range(rows)]


def seven_display(ram: bytes, lit: bool, left: bool = False) -> list[str]:
    """A 1.2" display: two digits, the colon, two digits; with ``left``, its left colon (the
    shooter's mark on a score display) in one column before them."""
    digits = [seven(ram[i] if lit else 0) for i in SEG7_DIGITS]
    marks = ram[SEG7_MARKS] if lit else 0
    colon = marks & SEG7_COLON
    middle = [" ", "." if colon else " ", "." if colon else " "]
    rows = _side_by_side(digits[:2] + [middle] + digits[2:])
    if left:
        dots = (" ", _on(marks, SEG7_LEFT_UPPER, "."), _on(marks, SEG7_LEFT_LOWER, "."))
        rows = [dots[r] + rows[r] for r in range(3)]
    return rows


def fourteen_display(rams: list[bytes], lit: list[bool]) -> list[str]:
    glyphs = []
    for ram, on in zip(rams, lit, strict=True):
        for i in range(4):
            word = ram[2 * i] | (ram[2 * i + 1] << 8)
            glyphs.append(fourteen(word if on else 0))
    return _side_by_side(glyphs)


def draw(bus: Bus) -> str:
    """The whole face: the three 7-segment displays in a row (the scores with their left
    colon), each under its label, the message row below; 78 columns wide."""
    blocks = []
    for addr, label in SCORES:
        device = bus.device(addr)
        rows = seven_display(bytes(device.ram), device.lit, addr != CLOCK)
        shown = _(label)
        width = max([len(row) for row in rows] + [len(shown)])
        blocks.append([shown.center(width)] + [row.ljust(width) for row in rows])
    top = ["  ".join(block[r] for block in blocks).rstrip() for r in range(4)]
    devices = [bus.device(addr) for addr in MESSAGES]
    message = fourteen_display([bytes(d.ram) for d in devices], [d.lit for d in devices])
    return "\n".join(top + [""] + message)
