"""The sync protocol between the tournament laptop and a board, over the board's USB serial.
One definition, imported by the board (firmware/sync_endpoint.py) and the host
(host/sync/session.py); docs/sync-protocol.md describes it for people, byte by byte.

A frame is one line, printable ASCII (and UTF-8 inside strings), so it shares the serial with
the REPL and never holds a control byte:

    ~ SSSS K JSON TTTTTTTTTTTTTTTT * CCCCCCCC \\n
    SSSS      the request's sequence number in its session, 4 hex digits (a reply repeats it)
    K         kind, one letter (requests upper case, the reply "r")
    JSON      the payload, canonical JSON (rules_core/canon.py) with "~" and DEL escaped
    T...T     the tag: the first 8 bytes of HMAC-SHA256(pairing key, session "|" SSSS K JSON)
              in hex; zeros where nothing can be signed yet (a hello, an unpaired board)
    CCCCCCCC  CRC-32 of everything between "~" and "*", 8 hex digits

Anything else on the line (REPL noise, a torn or corrupted frame) is dropped and counted; the
host sends its request again. The session is the board's nonce and the laptop's, both fresh
at each hello, so a recorded frame is worth nothing in another session, and the sequence
number inside the tag orders the frames within one. Results carry a MAC of their own
(`result_mac`) chained board by board, kept by the laptop with the result.
"""

import hashlib

from rules_core import bounded, canon
from rules_core.crc import crc32

VERSION = 2
MAX_LINE = 2048  # longest frame line accepted (bytes): bounds the board's buffer
MAX_DEPTH = 10  # payload nesting: a schedule's Kaisa point table is the deepest
PIECE_MIN = 32  # characters of a result per pulled piece: the laptop asks between these,
PIECE_MAX = 1024  # smaller on a line that damages frames, larger on a clean one
MAX_RESULT = 1 << 18  # characters of one result document (a long match is ~40 KB)
MAX_RESULTS = 64  # sequence numbers in one results reply (a board keeps 16)
SEQ_WINDOW = 16  # a request may skip this many numbers (ones lost on the line)
SESSION_MS = 60000  # a session left quiet this long is over
TAG_HEX = 16
NO_TAG = b"0" * TAG_HEX
BOARD_ID_MAX = 32

HELLO = "H"
CLOCK = "C"
TABLE = "T"
SCHEDULE = "S"
LIVE = "L"
RESULTS = "R"
PULL = "P"
ACK = "A"
REPLY = "r"
KINDS = (HELLO, CLOCK, TABLE, SCHEDULE, LIVE, RESULTS, PULL, ACK, REPLY)


class FrameError(ValueError):
    pass


def _wire(text):
    # "~" starts a frame and DEL is a control byte: inside JSON strings (the only place they
    # can be) they travel as escapes, which every JSON parser reads back.
    if "~" in text:
        text = text.replace("~", "\\u007e")
    if "\x7f" in text:
        text = text.replace("\x7f", "\\u007f")
    return text.encode()


def body(seq, kind, payload):
    """The signed part of a frame: SSSS K JSON (bytes)."""
    return ("%04x%s" % (seq & 0xFFFF, kind)).encode() + _wire(canon.dumps(payload))


def frame(text, tag=NO_TAG):
    """The whole frame line for a body and its tag."""
    signed = text + tag
    return b"~" + signed + ("*%08x\n" % crc32(signed)).encode()


def encode(seq, kind, payload, tag=NO_TAG):
    return frame(body(seq, kind, payload), tag)


def decode(line):
    """(seq, kind, payload, tag, body) from one frame line (without the newline); FrameError
    if it is not a whole, intact, well-formed frame."""
    line = bytes(line)
    if len(line) < 1 + 5 + 2 + TAG_HEX + 9 or line[0] != 0x7E or line[-9] != 0x2A:
        raise FrameError("not a frame")
    signed = line[1:-9]
    if _hex_value(line[-8:]) != crc32(signed):
        raise FrameError("CRC mismatch")
    seq = _hex_value(signed[:4])
    kind = chr(signed[4])
    text = signed[:-TAG_HEX]
    tag = signed[-TAG_HEX:]
    if kind not in KINDS:
        raise FrameError("unknown kind")
    try:
        payload = bounded.loads(text[5:], MAX_LINE, MAX_DEPTH)
    except bounded.Malformed as why:
        raise FrameError("bad payload: %s" % why)
    if not isinstance(payload, dict):
        raise FrameError("the payload must be an object")
    return seq, kind, payload, tag, text


def _hex_value(digits):
    """The value of lower-case hex digits (bytes); FrameError for anything else (int() would
    also take a sign, spaces, "0x" or "_")."""
    value = 0
    for byte in digits:
        if 0x30 <= byte <= 0x39:
            value = value * 16 + byte - 0x30
        elif 0x61 <= byte <= 0x66:
            value = value * 16 + byte - 0x57
        else:
            raise FrameError("damaged frame")
    return value


class Reader:
    """Collects frame lines out of a byte stream (bytes may come in any pieces) and drops
    everything that is not one. `damaged` counts lines that began as frames and were not."""

    def __init__(self):
        self._line = bytearray()
        self._in_frame = False
        self.damaged = 0

    def feed(self, data):
        """Frames completed by `data`: a list of (seq, kind, payload, tag, body)."""
        frames = []
        for byte in data:
            if byte == 0x7E:  # "~" starts a frame, wherever it is
                if self._in_frame:
                    self.damaged += 1
                self._line = bytearray(b"~")
                self._in_frame = True
            elif not self._in_frame:
                continue
            elif byte == 0x0A:
                try:
                    frames.append(decode(self._line))
                except Exception:  # FrameError, or anything a parser may raise: dropped
                    self.damaged += 1
                self._in_frame = False
                self._line = bytearray()
            elif len(self._line) >= MAX_LINE or byte < 0x20 or byte == 0x7F:
                self._in_frame = False  # too long, or a control byte: not a frame of ours
                self._line = bytearray()
                self.damaged += 1
            else:
                self._line.append(byte)
        return frames


# --- keys, tags and MACs (MicroPython has hashlib.sha256, not hmac) ------------------------

_BLOCK = 64


class Key:
    """A pairing key with its HMAC pads made once (RFC 2104): each tag then costs two
    SHA-256 runs and no list building on the board."""

    def __init__(self, key):
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        key = key + b"\x00" * (_BLOCK - len(key))
        self.outer = bytes([b ^ 0x5C for b in key])
        self.inner = bytes([b ^ 0x36 for b in key])

    def digest(self, *parts):
        inner = hashlib.sha256(self.inner)
        for part in parts:
            inner.update(part)
        outer = hashlib.sha256(self.outer)
        outer.update(inner.digest())
        return outer.digest()


def _hex(data):
    return "".join(["%02x" % b for b in data])


def mac(key, data):
    """HMAC-SHA256 of `data` in hex (key as bytes)."""
    return _hex(Key(key).digest(data))


def tag(key, session, text):
    """The tag of a frame body in a session (bytes of 16 hex digits); `key` is a Key."""
    return _hex(key.digest(session.encode(), b"|", text)[:TAG_HEX // 2]).encode()


def result_mac(key, board, n, prev, text):
    """A result's MAC: over the board's id, its link number in the board's chain, the MAC of
    the link before (or "") and the document text, which holds the match code, the times,
    the settings and the events (everything the laptop stores of it). `key` is a Key."""
    head = "pilkku.result/2|%s|%d|%s|" % (board, n, prev)
    return _hex(key.digest(head.encode(), text.encode()))


def same(a, b):
    """Compare two MACs or tags (str or bytes) in time that does not depend on where they
    differ."""
    if isinstance(a, str):
        a = a.encode()
    if isinstance(b, str):
        b = b.encode()
    if not isinstance(a, bytes) or not isinstance(b, bytes) or len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0


# --- payload fields ------------------------------------------------------------------------

def whole(payload, name, low, high):
    """payload[name], an int (not a bool) from low to high, or FrameError."""
    value = payload.get(name)
    if not bounded.whole(value, low, high):
        raise FrameError("'%s' must be a whole number from %d to %d" % (name, low, high))
    return value


def text_field(payload, name, longest):
    value = payload.get(name)
    if not isinstance(value, str) or len(value) > longest:
        raise FrameError("'%s' must be a text of at most %d characters" % (name, longest))
    return value


def nonce_ok(value):
    """A session nonce: 16 lower-case hex digits."""
    if not isinstance(value, str) or len(value) != 16:
        return False
    try:
        _hex_value(value.encode())
    except FrameError:
        return False
    return True


def board_id_ok(value):
    """A board id: 1 to 32 of a-z, 0-9 and "-", not starting with "-" (it names files)."""
    if not isinstance(value, str) or not 0 < len(value) <= BOARD_ID_MAX or value[0] == "-":
        return False
    for byte in value.encode():
        if not (0x61 <= byte <= 0x7A or 0x30 <= byte <= 0x39 or byte == 0x2D):
            return False
    return True


def loads_result(text):
    """A pulled result document, bounded like every other input."""
    return bounded.loads(text, MAX_RESULT * 4, 12)
