"""The sync protocol between the tournament laptop and a board, over the board's USB serial.
One definition, imported by the board (firmware/sync_endpoint.py) and the host
(host/sync/session.py); docs/sync-protocol.md describes it for people, byte by byte.

A frame is one line that never holds a control byte, so it shares the serial with the REPL:

    ~ SSS K BODY TTTTTTTTTTT CCCCCC \\n
    SSS     the request's sequence number in its session (a reply repeats it), 3 digits
    K       kind, one letter (requests upper case; replies "r", result pieces "d", "n" a NAK,
            "q" a part of a reply asked for in parts)
    BODY    a JSON kind: the payload as canonical JSON (rules_core/canon.py), "~" and DEL
            escaped; a piece ("d"): its offset in the result, 3 digits, then the result's
            bytes themselves, only "`", "~", DEL and control bytes escaped (two bytes each)
    T...T   the tag: the first 8 bytes of HMAC-SHA256(pairing key, session "|" SSS K BODY),
            11 digits; zeros where nothing can be signed yet (a hello, an unpaired board)
    CCCCCC  CRC-32 of everything between "~" and it, 6 digits

A digit is one byte, 0x30 + its value 0-63, most significant first (no table on the board).
Anything else on the line is dropped and counted; the board answers a damaged frame with a
NAK. Tags are over the session (both nonces, fresh at each hello) and the sequence number;
results carry a MAC of their own (`result_mac`), chained board by board.
"""

import hashlib

from rules_core import bounded, canon
from rules_core.crc import crc32

VERSION = 4  # 4: damaged results (set aside on the board, pulled as bytes)
MAX_LINE = 2048  # longest frame line accepted (bytes): bounds the board's buffer
MAX_DEPTH = 10  # payload nesting: a schedule's Kaisa point table is the deepest
PIECE_MIN = 16  # bytes of a result per piece frame: the laptop asks between these, smaller
PIECE_MAX = 1000  # on a line that damages frames, larger on a clean one (escaped, < a line)
BURST_MAX = 4096  # bytes of a result one pull asks for (count x size)
COUNT_MAX = 64  # piece frames one pull asks for
RUNS_MAX = 8  # stretches of a result one pull asks for
MAX_RESULT = 1 << 18  # bytes of one result document (a long match is ~40 KB)
MAX_RESULTS = 64  # sequence numbers in one results reply (a board keeps 16)
SEQ_WINDOW = 256  # a request may skip this many numbers (ones lost on a poor line)
SESSION_MS = 60000  # a session left quiet this long is over
SEQ_DIGITS = 3
TAG_DIGITS = 11  # 66 bits: the tag's 64
CRC_DIGITS = 6  # 36 bits: the CRC's 32
OVERHEAD = 1 + SEQ_DIGITS + 1 + SEQ_DIGITS + TAG_DIGITS + CRC_DIGITS + 1  # of a piece frame
NO_TAG = b"0" * TAG_DIGITS
BOARD_ID_MAX = 32

HELLO = "H"
CLOCK = "C"
TABLE = "T"
SCHEDULE = "S"
LIVE = "L"
RESULTS = "R"
PULL = "P"
ACK = "A"
CHAIN = "K"  # the board's chain lost: the laptop gives it the head it holds (protocol 4)
REPLY = "r"
PIECE = "d"
PART = "q"  # a part of a reply asked for in parts ("part": its size): a poor line's way
NAK = "n"
KINDS = (HELLO, CLOCK, TABLE, SCHEDULE, LIVE, RESULTS, PULL, ACK, CHAIN, REPLY, PIECE, PART,
         NAK)
PART_DIGITS = 2  # a part's offset in its reply's text, and the text's length: < 4096
OLD_HELLO = "2H"  # a hello of protocol 2 (its frame layout): refused in that layout
OLD_REPLY = "2r"  # a reply of protocol 2: the board must be flashed


class FrameError(ValueError):
    pass


# --- digits and escapes ----------------------------------------------------------------------

def digits(value, width):
    """`value` (0 <= value < 64**width) as `width` digits (bytes)."""
    out = bytearray(width)
    for i in range(width - 1, -1, -1):
        out[i] = 0x30 + (value & 63)
        value >>= 6
    return bytes(out)


def number(data):
    """The value of digits (bytes); FrameError for a byte that is not one."""
    value = 0
    for byte in data:
        if not 0x30 <= byte <= 0x6F:
            raise FrameError("damaged frame")
        value = (value << 6) | (byte - 0x30)
    return value


_ESC = 0x60  # "`" starts an escape in a piece: it and the byte XOR 0x40


def _escaped(byte):
    return byte < 0x20 or byte == _ESC or byte == 0x7E or byte == 0x7F


_SPECIAL = bytes(range(0x20)) + b"`~\x7f"  # the bytes a piece escapes (_escaped)


def stuff(data, start, most):
    """(escaped bytes, how many of data's bytes they hold): data[start:start + most] with "`",
    "~", DEL and control bytes each written as "`" and the byte XOR 0x40 (so a piece of at most
    PIECE_MAX bytes always fits a line). The bytes to escape are found by `find` and the runs
    between them copied whole, into a bytearray made at its length: a Python loop over each
    byte took ~130 us a byte on a Pico, a pull's main cost."""
    end = max(start, min(len(data), start + most))
    marks = _marks(data, start, end)
    out = bytearray(end - start + len(marks))
    into, source = memoryview(out), memoryview(data)
    at, last = 0, start
    for mark in marks:
        at += mark - last
        into[at - mark + last:at] = source[last:mark]
        out[at] = _ESC
        out[at + 1] = data[mark] ^ 0x40
        at, last = at + 2, mark + 1
    into[at:] = source[last:end]
    return out, end - start


def _marks(data, start, end):
    """Where in data[start:end] the bytes to escape are, in order (rare in a document)."""
    marks = []
    for i in range(len(_SPECIAL)):
        byte = _SPECIAL[i:i + 1]
        at = data.find(byte, start, end)
        while at >= 0:
            marks.append(at)
            at = data.find(byte, at + 1, end)
    marks.sort()
    return marks


def unstuff(data):
    """The bytes a piece holds; FrameError for an escape of a byte that needs none."""
    out = bytearray()
    escape = False
    for byte in data:
        if escape:
            byte ^= 0x40
            if not _escaped(byte):
                raise FrameError("a bad escape in a piece")
            out.append(byte)
            escape = False
        elif byte == _ESC:
            escape = True
        else:
            out.append(byte)
    if escape:
        raise FrameError("a piece ends in an escape")
    return bytes(out)


# --- frames ------------------------------------------------------------------------------------

def _wire(text):
    # "~" starts a frame and DEL is a control byte: inside JSON strings (the only place they
    # can be) they travel as escapes, which every JSON parser reads back.
    if "~" in text:
        text = text.replace("~", "\\u007e")
    if "\x7f" in text:
        text = text.replace("\x7f", "\\u007f")
    return text.encode()


def body(seq, kind, payload):
    """The signed part of a JSON frame: SSS K JSON (bytes)."""
    return digits(seq & 0xFFFF, SEQ_DIGITS) + kind.encode() + _wire(canon.dumps(payload))


def piece_body(seq, offset, stuffed):
    """The signed part of a piece frame: SSS d OOO and the escaped bytes."""
    return piece_head(seq, offset) + stuffed


def piece_head(seq, offset):
    return digits(seq & 0xFFFF, SEQ_DIGITS) + b"d" + digits(offset, SEQ_DIGITS)


def reply_text(payload):  # a reply's payload as a JSON frame carries it: its parts' text
    return _wire(canon.dumps(payload))


def part_body(seq, offset, total, stuffed):
    """The signed part of a reply's part frame: SSS q OO LL and the escaped bytes of the
    reply's text from OO (LL: the text's whole length)."""
    return digits(seq & 0xFFFF, SEQ_DIGITS) + b"q" + digits(offset, PART_DIGITS) \
        + digits(total, PART_DIGITS) + stuffed


def loads_reply(text):
    """A reply's payload from its text (its parts put together), or FrameError."""
    try:
        payload = bounded.loads(text, MAX_LINE, MAX_DEPTH)
    except bounded.Malformed as why:
        raise FrameError("bad payload: %s" % why)
    if not isinstance(payload, dict):
        raise FrameError("the payload must be an object")
    return payload


def frame(text, tag=NO_TAG):
    """The whole frame line for a body and its tag."""
    signed = text + tag
    return b"~" + signed + digits(crc32(signed), CRC_DIGITS) + b"\n"


def write_frame(write, parts, tag=NO_TAG):
    """Write the frame line of a body given in parts (frame(b"".join(parts), tag), the same
    bytes) to `write` a part at a time, never joining them: a piece's body is up to 2 KB."""
    write(b"~")
    crc = 0
    for part in parts + (tag,):
        write(part)
        crc = crc32(part, crc)
    write(digits(crc, CRC_DIGITS) + b"\n")


def encode(seq, kind, payload, tag=NO_TAG):
    return frame(body(seq, kind, payload), tag)


NAK_FRAME = encode(0, NAK, {})  # "a damaged frame came: send it again"


def decode(line):
    """(seq, kind, payload, tag, body) from one frame line (without the newline); FrameError
    if it is not a whole, intact, well-formed frame. A piece's payload is {"offset": o,
    "data": its bytes}."""
    line = bytes(line)
    if len(line) < 1 + SEQ_DIGITS + 1 + TAG_DIGITS + CRC_DIGITS or line[0] != 0x7E:
        raise FrameError("not a frame")
    signed = line[1:-CRC_DIGITS]
    if number(line[-CRC_DIGITS:]) != crc32(signed):
        raise FrameError("CRC mismatch")
    seq = number(signed[:SEQ_DIGITS])
    kind = chr(signed[SEQ_DIGITS])
    text = signed[:-TAG_DIGITS]
    tag = signed[-TAG_DIGITS:]
    if kind not in KINDS:
        raise FrameError("unknown kind")
    if seq > 0xFFFF:
        raise FrameError("sequence number out of range")
    start = SEQ_DIGITS + 1
    if kind == PIECE:
        if len(text) < start + SEQ_DIGITS:
            raise FrameError("a piece without its offset")
        return seq, kind, {"offset": number(text[start:start + SEQ_DIGITS]),
                           "data": unstuff(text[start + SEQ_DIGITS:])}, tag, text
    if kind == PART:
        head = start + 2 * PART_DIGITS
        offset = number(text[start:start + PART_DIGITS])
        total = number(text[start + PART_DIGITS:head])
        data = unstuff(text[head:])
        if len(text) < head or offset + len(data) > total or total > MAX_LINE:
            raise FrameError("a part without its offset, or past its reply's end")
        return seq, kind, {"offset": offset, "total": total, "data": data}, tag, text
    return seq, kind, loads_reply(text[start:]), tag, text


# Protocol 2 framed differently (~ SSSS K JSON 16 hex tag * 8 hex CRC): a board that still
# speaks it, or a laptop that does, must hear "flash the board", not silence.

def old_frame(seq, kind, payload):
    """A protocol 2 frame without a tag: the refusal a board sends to a protocol 2 hello, the
    hello a laptop sends to find a protocol 2 board."""
    signed = ("%04x%s" % (seq & 0xFFFF, kind)).encode() + _wire(canon.dumps(payload)) \
        + b"0" * 16
    return b"~" + signed + ("*%08x\n" % crc32(signed)).encode()


def old_decode(line):
    """(seq, OLD_HELLO or OLD_REPLY, payload) of a protocol 2 hello or reply line, or None."""
    line = bytes(line)
    if len(line) < 32 or line[-9] != 0x2A or line[5] not in (0x48, 0x72):  # H r
        return None
    signed = line[1:-9]
    try:
        if int(line[-8:], 16) != crc32(signed):
            return None
        payload = bounded.loads(signed[5:-16], MAX_LINE, MAX_DEPTH)
        seq = int(signed[:4], 16)
    except (ValueError, bounded.Malformed):
        return None
    if not isinstance(payload, dict):
        return None
    return seq, "2" + chr(line[5]), payload


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


def tag(key, session, *body):
    """The tag of a frame body (whole, or in parts) in a session (11 digits); `key` is a
    Key."""
    return digits(int.from_bytes(key.digest(session.encode(), b"|", *body)[:8], "big"),
                  TAG_DIGITS)


def result_mac(key, board, n, prev, text):
    """A result's MAC: over the board's id, its link number in the board's chain, the MAC of
    the link before (or "") and the document text, which holds the match code, the times,
    the settings and the events (everything the laptop stores of it). `key` is a Key; `text`
    str, its UTF-8 bytes, or a list of those bytes in pieces (a board holds a document so)."""
    head = "pilkku.result/2|%s|%d|%s|" % (board, n, prev)
    if isinstance(text, list):
        return _hex(key.digest(head.encode(), *text))
    return _hex(key.digest(head.encode(), text.encode() if isinstance(text, str) else text))


def same(a, b):
    """Compare two MACs or tags (str or bytes) in time that does not depend on where they
    differ."""
    a = a.encode() if isinstance(a, str) else a
    b = b.encode() if isinstance(b, str) else b
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
    return isinstance(value, str) and len(value) == 16 and all(
        0x30 <= byte <= 0x39 or 0x61 <= byte <= 0x66 for byte in value.encode())


def board_id_ok(value):
    """A board id: 1 to 32 of a-z, 0-9 and "-", not starting with "-" (it names files)."""
    if not isinstance(value, str) or not 0 < len(value) <= BOARD_ID_MAX or value[0] == "-":
        return False
    return all(0x61 <= b <= 0x7A or 0x30 <= b <= 0x39 or b == 0x2D for b in value.encode())
