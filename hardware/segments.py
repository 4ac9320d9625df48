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

from array import array

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

# 14-segment alphanumeric backpack: character i is the 16-bit word at RAM bytes 2i (low)
# and 2i + 1 (high).
SEG14_DP = const(0x4000)

# Letters 7 segments cannot draw (K M W X Z) show as a dash, so a missing glyph is visible.
SEG7 = bytes(
    (
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  # space ! " # $ % & '
        0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00,  # ( ) * + , - . /
        0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07,  # 0 1 2 3 4 5 6 7
        0x7F, 0x6F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  # 8 9 : ; < = > ?
        0x00, 0x77, 0x7C, 0x39, 0x5E, 0x79, 0x71, 0x3D,  # @ A B C D E F G
        0x76, 0x30, 0x1E, 0x40, 0x38, 0x40, 0x54, 0x5C,  # H I J K L M N O
        0x73, 0x67, 0x50, 0x6D, 0x78, 0x3E, 0x1C, 0x40,  # P Q R S T U V W
        0x40, 0x6E, 0x40, 0x00, 0x00, 0x00, 0x00, 0x08,  # X Y Z [ \ ] ^ _
        0x00, 0x77, 0x7C, 0x58, 0x5E, 0x79, 0x71, 0x3D,  # ` a b c d e f g
        0x74, 0x30, 0x1E, 0x40, 0x38, 0x40, 0x54, 0x5C,  # h i j k l m n o
        0x73, 0x67, 0x50, 0x6D, 0x78, 0x3E, 0x1C, 0x40,  # p q r s t u v w
        0x40, 0x6E, 0x40, 0x00, 0x00, 0x00, 0x00,  # x y z { | } ~
    )
)

# fmt: off
SEG14 = array(
    "H",
    (
        0x0000,  # space  -
        0x4006,  # !  B C DP
        0x0220,  # "  F J
        0x12CE,  # #  B C D G1 G2 J M
        0x12ED,  # $  A C D F G1 G2 J M
        0x0C24,  # %  C F K L
        0x235D,  # &  A C D E G1 H J N
        0x0400,  # '  K
        0x2400,  # (  K N
        0x0900,  # )  H L
        0x3FC0,  # *  G1 G2 H J K L M N
        0x12C0,  # +  G1 G2 J M
        0x0800,  # ,  L
        0x00C0,  # -  G1 G2
        0x0000,  # .  - (a dot lights the DP of the character before it)
        0x0C00,  # /  K L
        0x0C3F,  # 0  A B C D E F K L
        0x0006,  # 1  B C
        0x00DB,  # 2  A B D E G1 G2
        0x008F,  # 3  A B C D G2
        0x00E6,  # 4  B C F G1 G2
        0x2069,  # 5  A D F G1 N
        0x00FD,  # 6  A C D E F G1 G2
        0x0007,  # 7  A B C
        0x00FF,  # 8  A B C D E F G1 G2
        0x00EF,  # 9  A B C D F G1 G2
        0x1200,  # :  J M
        0x0A00,  # ;  J L
        0x2440,  # <  G1 K N
        0x00C8,  # =  D G1 G2
        0x0980,  # >  G2 H L
        0x60A3,  # ?  A B F G2 N DP
        0x02BB,  # @  A B D E F G2 J
        0x00F7,  # A  A B C E F G1 G2
        0x128F,  # B  A B C D G2 J M
        0x0039,  # C  A D E F
        0x120F,  # D  A B C D J M
        0x00F9,  # E  A D E F G1 G2
        0x0071,  # F  A E F G1
        0x00BD,  # G  A C D E F G2
        0x00F6,  # H  B C E F G1 G2
        0x1209,  # I  A D J M (serifs: a bare J M would look like | and :)
        0x001E,  # J  B C D E
        0x2470,  # K  E F G1 K N
        0x0038,  # L  D E F
        0x0536,  # M  B C E F H K
        0x2136,  # N  B C E F H N
        0x003F,  # O  A B C D E F
        0x00F3,  # P  A B E F G1 G2
        0x203F,  # Q  A B C D E F N
        0x20F3,  # R  A B E F G1 G2 N
        0x00ED,  # S  A C D F G1 G2
        0x1201,  # T  A J M
        0x003E,  # U  B C D E F
        0x0C30,  # V  E F K L
        0x2836,  # W  B C E F L N
        0x2D00,  # X  H K L N
        0x1500,  # Y  H K M
        0x0C09,  # Z  A D K L
        0x0039,  # [  A D E F
        0x2100,  # backslash  H N
        0x000F,  # ]  A B C D
        0x0C03,  # ^  A B K L
        0x0008,  # _  D
        0x0100,  # `  H
        0x1058,  # a  D E G1 M
        0x2078,  # b  D E F G1 N
        0x00D8,  # c  D E G1 G2
        0x088E,  # d  B C D G2 L
        0x0858,  # e  D E G1 L
        0x0071,  # f  A E F G1
        0x048E,  # g  B C D G2 K
        0x1070,  # h  E F G1 M
        0x1000,  # i  M
        0x000E,  # j  B C D
        0x3600,  # k  J K M N
        0x0030,  # l  E F
        0x10D4,  # m  C E G1 G2 M
        0x1050,  # n  E G1 M
        0x00DC,  # o  C D E G1 G2
        0x0170,  # p  E F G1 H
        0x0486,  # q  B C G2 K
        0x0050,  # r  E G1
        0x2088,  # s  D G2 N
        0x0078,  # t  D E F G1
        0x001C,  # u  C D E
        0x2004,  # v  C N
        0x2814,  # w  C E L N
        0x28C0,  # x  G1 G2 L N
        0x200C,  # y  C D N
        0x0848,  # z  D G1 L
        0x0949,  # {  A D G1 H L
        0x1200,  # |  J M
        0x2489,  # }  A D G2 K N
        0x0520,  # ~  F H K
    ),
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
        return SEG14[code]
    return 0


# No table of one-character strings is made here: MicroPython interns each (iterating a str,
# chr()) in its names' pool for good, and the pool grows by doubling, the next ~9 KB in one
# piece on a Pico (docs/performance.md, "The names' pool on the chip"). The display driver
# walks a text's UTF-8 bytes and makes none; the keypad's names are made at import.
