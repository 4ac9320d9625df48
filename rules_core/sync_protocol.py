"""The sync protocol between the tournament laptop and a board, over the board's USB serial.
One definition, imported by the board (firmware/sync_endpoint.py) and the host
(host/sync/session.py); docs/sync-protocol.md describes it for people.

A frame is one line of printable ASCII, so it shares the serial with the REPL and never holds
a Ctrl-C (mpremote can still interrupt the board):

    ~ SS K PAYLOAD * CCCCCCCC \\n
    SS        sequence number, 2 hex digits (the host's request; the reply repeats it)
    K         kind, one letter (requests upper case, the reply "r")
    PAYLOAD   base64 of the payload's canonical JSON
    CCCCCCCC  CRC-32 of "SS K PAYLOAD", 8 hex digits

Anything else on the line (REPL noise, a torn or corrupted frame) is dropped; the host
retransmits after a timeout. The board answers a repeated sequence number with its cached
reply, so a request is never applied twice. Writes (schedule, table, clock, acknowledging a
result) carry an HMAC-SHA256 with the tournament's pairing key over the board's session nonce,
the kind, the sequence number and the payload; results carry the board's HMAC over the
document's canonical text, so the host can tell a board's result from one typed in by hand.
"""

import hashlib
import json
from binascii import a2b_base64, b2a_base64

from rules_core import canon
from rules_core.crc import crc32

VERSION = 1
MAX_LINE = 2048  # longest frame line accepted (bytes): bounds the board's buffer
CHUNK = 768  # bytes of document text per pulled piece: a frame stays well under MAX_LINE

HELLO = "H"
CLOCK = "C"
TABLE = "T"
SCHEDULE = "S"
LIVE = "L"
RESULTS = "R"
PULL = "P"
ACK = "A"
REPLY = "r"
WRITES = (CLOCK, TABLE, SCHEDULE, ACK)  # the kinds that need the pairing key


class FrameError(ValueError):
    pass


def encode(seq, kind, payload):
    """The frame line for one message, as bytes."""
    body = b2a_base64(canon.dumps(payload).encode()).strip()
    text = ("%02x%s" % (seq & 0xFF, kind)).encode() + body
    return b"~" + text + ("*%08x\n" % crc32(text)).encode()


def decode(line):
    """(seq, kind, payload) from one frame line (without the newline); FrameError if it is
    not a whole, intact frame."""
    if len(line) < 13 or line[0:1] != b"~":
        raise FrameError("not a frame")
    star = line.rfind(b"*")
    if star < 4 or len(line) - star != 9:
        raise FrameError("no CRC")
    text = line[1:star]
    try:
        if int(line[star + 1:].decode(), 16) != crc32(text):
            raise FrameError("CRC mismatch")
        seq = int(text[:2].decode(), 16)
        kind = chr(text[2])
        payload = json.loads(a2b_base64(text[3:]).decode())
    except (ValueError, UnicodeError, IndexError):
        raise FrameError("damaged frame")
    return seq, kind, payload


class Reader:
    """Collects frame lines out of a byte stream (bytes may come in any pieces) and drops
    everything that is not one."""

    def __init__(self):
        self._line = bytearray()
        self._in_frame = False

    def feed(self, data):
        """Frames completed by `data`: a list of (seq, kind, payload)."""
        frames = []
        for byte in data:
            if byte == 0x7E:  # "~" starts a frame, wherever it is
                self._line = bytearray(b"~")
                self._in_frame = True
            elif not self._in_frame:
                continue
            elif byte == 0x0A:
                try:
                    frames.append(decode(bytes(self._line)))
                except FrameError:
                    pass
                self._in_frame = False
                self._line = bytearray()
            elif len(self._line) >= MAX_LINE:
                self._in_frame = False
                self._line = bytearray()
            else:
                self._line.append(byte)
        return frames


# --- HMAC-SHA256 (MicroPython has hashlib.sha256, not hmac) ------------------------------

_BLOCK = 64


class Mac:
    """HMAC-SHA256, fed in pieces (RFC 2104)."""

    def __init__(self, key):
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        key = key + b"\x00" * (_BLOCK - len(key))
        self._outer_key = bytes([b ^ 0x5C for b in key])
        self._inner = hashlib.sha256(bytes([b ^ 0x36 for b in key]))

    def update(self, data):
        self._inner.update(data)
        return self

    def hexdigest(self):
        outer = hashlib.sha256(self._outer_key)
        outer.update(self._inner.digest())
        return _hex(outer.digest())


def _hex(data):
    return "".join(["%02x" % b for b in data])


def mac(key, data):
    return Mac(key).update(data).hexdigest()


def write_mac(key, nonce, seq, kind, payload):
    """The MAC a write request carries in payload["mac"] (computed without that field)."""
    fields = {}
    for name in payload:
        if name != "mac":
            fields[name] = payload[name]
    message = "%s|%02x|%s|%s" % (nonce, seq & 0xFF, kind, canon.dumps(fields))
    return mac(key, message.encode())


def same(a, b):
    """Compare two MACs in time that does not depend on where they differ."""
    if not isinstance(a, str) or not isinstance(b, str) or len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= ord(a[i]) ^ ord(b[i])
    return diff == 0
