"""Segment font and RAM layout of the HT16K33 LED backpacks pilkku uses.

The driver's font (code points -> segments); the register-level model reads displays back
with its own tables (``hardware/ht16k33_model.py``). Glyphs cover printable ASCII (32..126),
indexed by the code point less 32.

Names are Finnish and Swedish: the Latin-1 letters (U+00C0..U+00FF) and the Finnish
alphabet's Š Ž draw as the capital ASCII letter a person reads them by (``LATIN1``), since
neither display has room for a diacritic: Ä Å À Á Â Ã Æ -> A, Ö Ø Ò Ó Ô Õ -> O, Ü Ù Ú Û -> U,
É È Ê Ë -> E, Í Ì Î Ï -> I, Ç -> C, Ñ -> N, Ð -> D, Ý Ÿ -> Y, Þ -> P, ß -> S, Š -> S, Ž -> Z,
and the same for the small letters; × and ÷ draw as x and /. Small letters draw as capitals
because the board shows names in capitals and MicroPython's ``str.upper`` leaves non-ASCII
letters as they are: "Äijälä".upper() is "äIJäLä" there, and must still read AIJALA.

7-segment digit bits: a=0x01 (top), b=0x02 (top right), c=0x04 (bottom right), d=0x08
(bottom), e=0x10 (bottom left), f=0x20 (top left), g=0x40 (middle), dp=0x80.

14-segment bits: A=0 (top), B=1 (upper right), C=2 (lower right), D=3 (bottom), E=4 (lower
left), F=5 (upper left), G1=6 (middle left), G2=7 (middle right), H=8 (upper-left diagonal),
J=9 (upper centre), K=10 (upper-right diagonal), L=11 (lower-left diagonal), M=12 (lower
centre), N=13 (lower-right diagonal), DP=14.
"""

from hardware.compat import const

# RAM layout of the 4-digit 7-segment backpacks (0.56" and 1.2"): COM0, COM1, COM3, COM4 carry
# the digits and COM2 the colon(s), so digits live at RAM bytes 0, 2, 6 and 8.
SEG7_DIGITS = (0, 2, 6, 8)
SEG7_MARKS = const(4)  # RAM byte holding the colon and the 1.2" display's extra dots
SEG7_DP = const(0x80)
SEG7_COLON = const(0x02)  # centre colon (both sizes)
SEG7_LEFT_UPPER = const(0x04)  # 1.2" only: upper dot of the left colon
SEG7_LEFT_LOWER = const(0x08)  # 1.2" only: lower dot of the left colon
SEG7_DOT = const(0x10)  # 1.2" only: the dot between digits 3 and 4
SEG7_LEFT_COLON = const(0x0C)  # 1.2" only: both dots of the left colon (upper | lower)

_WHOLE = const(0x3FFFFFFF)  # layout's stop: none

# 14-segment alphanumeric backpack: character i is the 16-bit word at RAM bytes 2i (low)
# and 2i + 1 (high).
SEG14_DP = const(0x4000)

# Letters 7 segments cannot draw (K M W X Z) show as a dash, so a missing glyph is visible.
SEG7 = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00"  # space ! " # $ % & '
    b"\x00\x00\x00\x00\x00\x40\x00\x00"  # ( ) * + , - . /
    b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07"  # 0 1 2 3 4 5 6 7
    b"\x7f\x6f\x00\x00\x00\x00\x00\x00"  # 8 9 : ; < = > ?
    b"\x00\x77\x7c\x39\x5e\x79\x71\x3d"  # @ A B C D E F G
    b"\x76\x30\x1e\x40\x38\x40\x54\x5c"  # H I J K L M N O
    b"\x73\x67\x50\x6d\x78\x3e\x1c\x40"  # P Q R S T U V W
    b"\x40\x6e\x40\x00\x00\x00\x00\x08"  # X Y Z [ \ ] ^ _
    b"\x00\x77\x7c\x58\x5e\x79\x71\x3d"  # ` a b c d e f g
    b"\x74\x30\x1e\x40\x38\x40\x54\x5c"  # h i j k l m n o
    b"\x73\x67\x50\x6d\x78\x3e\x1c\x40"  # p q r s t u v w
    b"\x40\x6e\x40\x00\x00\x00\x00"  # x y z { | } ~
)

# fmt: off
# Each character's 16-bit word, low byte first. A bytes literal, not a tuple: a board running
# the code from ROM keeps a constant tuple of ints in its heap (~400 bytes each table), bytes
# it reads from the flash in place.
SEG14 = (
    b"\x00\x00"  # space  -
    b"\x06\x40"  # !  B C DP
    b"\x20\x02"  # "  F J
    b"\xce\x12"  # #  B C D G1 G2 J M
    b"\xed\x12"  # $  A C D F G1 G2 J M
    b"\x24\x0c"  # %  C F K L
    b"\x5d\x23"  # &  A C D E G1 H J N
    b"\x00\x04"  # '  K
    b"\x00\x24"  # (  K N
    b"\x00\x09"  # )  H L
    b"\xc0\x3f"  # *  G1 G2 H J K L M N
    b"\xc0\x12"  # +  G1 G2 J M
    b"\x00\x08"  # ,  L
    b"\xc0\x00"  # -  G1 G2
    b"\x00\x00"  # .  - (a dot lights the DP of the character before it)
    b"\x00\x0c"  # /  K L
    b"\x3f\x0c"  # 0  A B C D E F K L
    b"\x06\x00"  # 1  B C
    b"\xdb\x00"  # 2  A B D E G1 G2
    b"\x8f\x00"  # 3  A B C D G2
    b"\xe6\x00"  # 4  B C F G1 G2
    b"\x69\x20"  # 5  A D F G1 N
    b"\xfd\x00"  # 6  A C D E F G1 G2
    b"\x07\x00"  # 7  A B C
    b"\xff\x00"  # 8  A B C D E F G1 G2
    b"\xef\x00"  # 9  A B C D F G1 G2
    b"\x00\x12"  # :  J M
    b"\x00\x0a"  # ;  J L
    b"\x40\x24"  # <  G1 K N
    b"\xc8\x00"  # =  D G1 G2
    b"\x80\x09"  # >  G2 H L
    b"\xa3\x60"  # ?  A B F G2 N DP
    b"\xbb\x02"  # @  A B D E F G2 J
    b"\xf7\x00"  # A  A B C E F G1 G2
    b"\x8f\x12"  # B  A B C D G2 J M
    b"\x39\x00"  # C  A D E F
    b"\x0f\x12"  # D  A B C D J M
    b"\xf9\x00"  # E  A D E F G1 G2
    b"\x71\x00"  # F  A E F G1
    b"\xbd\x00"  # G  A C D E F G2
    b"\xf6\x00"  # H  B C E F G1 G2
    b"\x09\x12"  # I  A D J M (serifs: a bare J M would look like | and :)
    b"\x1e\x00"  # J  B C D E
    b"\x70\x24"  # K  E F G1 K N
    b"\x38\x00"  # L  D E F
    b"\x36\x05"  # M  B C E F H K
    b"\x36\x21"  # N  B C E F H N
    b"\x3f\x00"  # O  A B C D E F
    b"\xf3\x00"  # P  A B E F G1 G2
    b"\x3f\x20"  # Q  A B C D E F N
    b"\xf3\x20"  # R  A B E F G1 G2 N
    b"\xed\x00"  # S  A C D F G1 G2
    b"\x01\x12"  # T  A J M
    b"\x3e\x00"  # U  B C D E F
    b"\x30\x0c"  # V  E F K L
    b"\x36\x28"  # W  B C E F L N
    b"\x00\x2d"  # X  H K L N
    b"\x00\x15"  # Y  H K M
    b"\x09\x0c"  # Z  A D K L
    b"\x39\x00"  # [  A D E F
    b"\x00\x21"  # backslash  H N
    b"\x0f\x00"  # ]  A B C D
    b"\x03\x0c"  # ^  A B K L
    b"\x08\x00"  # _  D
    b"\x00\x01"  # `  H
    b"\x58\x10"  # a  D E G1 M
    b"\x78\x20"  # b  D E F G1 N
    b"\xd8\x00"  # c  D E G1 G2
    b"\x8e\x08"  # d  B C D G2 L
    b"\x58\x08"  # e  D E G1 L
    b"\x71\x00"  # f  A E F G1
    b"\x8e\x04"  # g  B C D G2 K
    b"\x70\x10"  # h  E F G1 M
    b"\x00\x10"  # i  M
    b"\x0e\x00"  # j  B C D
    b"\x00\x36"  # k  J K M N
    b"\x30\x00"  # l  E F
    b"\xd4\x10"  # m  C E G1 G2 M
    b"\x50\x10"  # n  E G1 M
    b"\xdc\x00"  # o  C D E G1 G2
    b"\x70\x01"  # p  E F G1 H
    b"\x86\x04"  # q  B C G2 K
    b"\x50\x00"  # r  E G1
    b"\x88\x20"  # s  D G2 N
    b"\x78\x00"  # t  D E F G1
    b"\x1c\x00"  # u  C D E
    b"\x04\x20"  # v  C N
    b"\x14\x28"  # w  C E L N
    b"\xc0\x28"  # x  G1 G2 L N
    b"\x0c\x20"  # y  C D N
    b"\x48\x08"  # z  D G1 L
    b"\x49\x09"  # {  A D G1 H L
    b"\x00\x12"  # |  J M
    b"\x89\x24"  # }  A D G2 K N
    b"\x20\x05"  # ~  F H K
)
# fmt: on


# U+00C0..U+00FF as the ASCII letter each is drawn as (see the module's docstring).
LATIN1 = b"AAAAAAACEEEEIIIIDNOOOOOxOUUUUYPSAAAAAAACEEEEIIIIDNOOOOO/OUUUUYPY"


def _ascii(code: int) -> int:
    if 0xC0 <= code <= 0xFF:
        return LATIN1[code - 0xC0]
    if code < 0x160:
        return code
    # Beyond Latin-1 only the Finnish alphabet's own letters, tested one by one: no table
    # (every new name costs the board's heap at import).
    if code == 0x160 or code == 0x17D:  # Š Ž
        return 83 if code == 0x160 else 90
    if code == 0x161 or code == 0x17E:  # š ž
        return 83 if code == 0x161 else 90
    return 89 if code == 0x178 else code  # Ÿ


def glyph7(code: int) -> int:
    """Segments of the character with code point ``code`` on a 7-segment digit (0 for
    anything it cannot show)."""
    code = _ascii(code) - 32
    if 0 <= code < 95:
        return SEG7[code]
    return 0


def glyph14(code: int) -> int:
    """Segments of the character with code point ``code`` on a 14-segment character (0 for
    anything outside printable ASCII and the letters of ``LATIN1``)."""
    code = _ascii(code) - 32
    if 0 <= code < 95:
        return SEG14[2 * code] | SEG14[2 * code + 1] << 8
    return 0


def layout(data, out, size: int, wide: bool, colon: bool, stop: int = _WHOLE) -> int:
    """Lay a text's UTF-8 bytes ``data`` out as cells of segments in ``out`` (a bytearray,
    from 0, ``size`` bytes at most), each cell as it sits in a backpack's RAM: one byte on a
    7-segment display, two (low, high) on a 14-segment one (``wide``). Return the cells the
    text takes (dropped past ``size`` included) times 2, plus 1 if a ``:`` was taken as the
    colon (``colon``: the display has one; else ``:`` is a glyph). The driver's text rules
    (hardware/ht16k33.py's docstring): a ``.`` lights the point of the cell before it. With
    ``stop`` (bytes), the walk ends once a cell begins there: the cells before it are
    whole, and the count says the text goes on past them.

    One pass, printable ASCII read from the font in place: a call per cell to the font and
    another to the display cost ~0.1 ms a cell on the chip (docs/performance.md, issue 31);
    other code points go through ``glyph7`` / ``glyph14``. The text is walked as UTF-8 code
    points, never as one-character strings: MicroPython interns every such string in its
    qstr pool for good, and the first "Ä" of a name could then need the pool's next block
    (kilobytes, contiguous) in the middle of a match: a MemoryError out of the main loop on
    a fragmented heap (tests/firmware/test_names_heap.py).
    """
    table = SEG14 if wide else SEG7
    width = 2 if wide else 1
    end = len(data)
    if end > 2 and data.find(b".") < 0 and (not colon or data.find(b":") < 0) and \
            min(data) >= 0x20 and max(data) < 0x7F:
        # Printable ASCII alone, no point, no colon (the most of the board's texts): a byte
        # a cell, read from the font with half the work of the walk below.
        n = min(end, size // width, stop // width + 1)
        if wide:
            pos = 0
            for i in range(n):
                code = 2 * data[i] - 0x40
                out[pos] = table[code]
                out[pos + 1] = table[code + 1]
                pos += 2
        else:
            for i in range(n):
                out[i] = table[data[i] - 0x20]
        return end * 2
    point = 0x40 if wide else SEG7_DP  # the point's bit in a cell's last byte
    pos = 0  # the next cell's first byte
    last = -1  # the last byte of the cell a following '.' may join; -1 once it has its point
    taken = 0
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
                if last < size:
                    out[last] |= point
                last = -1
                continue
            if pos < size:
                out[pos + width - 1] = point
                if wide:
                    out[pos] = 0
            pos += width
            continue
        if code == 0x3A and colon:  # :
            taken = 1
            continue
        if pos < size:
            if 0x20 <= code < 0x7F:
                code = (code - 0x20) * width
                out[pos] = table[code]
                if wide:
                    out[pos + 1] = table[code + 1]
            else:
                code = glyph14(code) if wide else glyph7(code)
                out[pos] = code & 0xFF
                if wide:
                    out[pos + 1] = code >> 8
        pos += width
        last = pos - 1
        if pos > stop:
            break
    return pos * 2 // width + taken


# No table of one-character strings is made here: MicroPython interns each (iterating a str,
# chr()) in its names' pool for good, and the pool grows by doubling, the next ~9 KB in one
# piece on a Pico (docs/performance.md, "The names' pool on the chip"). The display driver
# walks a text's UTF-8 bytes and makes none; the keypad's names are made at import.
