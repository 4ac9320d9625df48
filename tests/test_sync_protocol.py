"""The sync protocol's frames and MACs: golden frames built by hand from docs/sync-protocol.md
(with zlib's CRC and Python's hmac, not ours), damage detection, the reader among noise, and the
same bytes under MicroPython."""

from __future__ import annotations

import hashlib
import hmac
import random
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import sync_protocol as sp

KEY = bytes(range(32))
SESSION = "0123456789abcdef" + "fedcba9876543210"  # the board's nonce, then the laptop's


def by_hand(seq_hex: str, kind: str, json_text: str, tag: str = "0" * 16) -> bytes:
    """A frame as docs/sync-protocol.md spells it: "~", SSSS, K, JSON, the tag, "*", the CRC-32
    of everything between "~" and "*" in 8 lower-case hex digits, a newline."""
    inner = (seq_hex + kind + json_text + tag).encode()
    return b"~" + inner + b"*" + ("%08x" % zlib.crc32(inner)).encode() + b"\n"


def tag_by_hand(session: str, seq_hex: str, kind: str, json_text: str) -> str:
    """The first 8 bytes of HMAC-SHA256(key, session "|" SSSS K JSON), in hex."""
    message = (session + "|" + seq_hex + kind + json_text).encode()
    return hmac.new(KEY, message, hashlib.sha256).hexdigest()[:16]


GOLDEN = [
    # (seq, kind, payload, the JSON as the document writes it)
    (0x0001, "H", {"version": 2, "nonce": "fedcba9876543210"},
     '{"nonce":"fedcba9876543210","version":2}'),
    (0x00A2, "P", {"seq": 7, "offset": 1024, "size": 512},
     '{"offset":1024,"seq":7,"size":512}'),
    (0xBEEF, "S", {"matches": [{"match_id": "R1-01", "settings": {"players": ["Äijä", "B~b"]}}]},
     '{"matches":[{"match_id":"R1-01","settings":{"players":["Äijä","B\\u007eb"]}}]}'),
    (0xFFFF, "r", {"ok": False, "error": "say hello first"},
     '{"error":"say hello first","ok":false}'),
]


@pytest.mark.parametrize("seq, kind, payload, text", GOLDEN)
def test_golden_frames_by_the_document(seq, kind, payload, text):
    seq_hex = "%04x" % seq
    unsigned = by_hand(seq_hex, kind, text)
    assert sp.encode(seq, kind, payload) == unsigned
    tag = tag_by_hand(SESSION, seq_hex, kind, text)
    signed = by_hand(seq_hex, kind, text, tag)
    body = sp.body(seq, kind, payload)
    assert body == (seq_hex + kind + text).encode()
    assert sp.tag(sp.Key(KEY), SESSION, body) == tag.encode()
    assert sp.frame(body, tag.encode()) == signed
    assert sp.decode(signed[:-1]) == (seq, kind, payload, tag.encode(), body)


def test_a_result_mac_by_the_document():
    text = '{"events":[],"format":"pilkku.match/1"}'
    prev = "ab" * 32
    message = ("pilkku.result/2|pk-1|5|%s|" % prev + text).encode()
    assert sp.result_mac(sp.Key(KEY), "pk-1", 5, prev, text) == hmac.new(
        KEY, message, hashlib.sha256).hexdigest()


@pytest.mark.parametrize("payload", [{}, {"ok": True}, {"text": "ä~*\n\x03\x7f", "n": -5,
                                                        "list": [1, None, "x"]}])
def test_frames_round_trip_and_hold_no_control_byte(payload):
    frame = sp.encode(0x2A, sp.SCHEDULE, payload, b"0123456789abcdef")
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1 and frame.count(b"~") == 1
    assert all(b >= 32 and b != 127 for b in frame[:-1])  # never a Ctrl-C or a REPL byte
    assert sp.decode(frame[:-1])[:4] == (0x2A, "S", payload, b"0123456789abcdef")


def test_every_single_byte_damage_is_caught():
    frame = sp.encode(7, sp.ACK, {"seq": 3}, b"0123456789abcdef")[:-1]
    rng = random.Random(1)
    for position in range(len(frame)):
        damaged = bytearray(frame)
        damaged[position] ^= 1 << rng.randrange(7)
        with pytest.raises(sp.FrameError):
            sp.decode(bytes(damaged))


def test_truncated_frames_are_refused():
    frame = sp.encode(1, sp.HELLO, {"version": 2})[:-1]
    for cut in range(len(frame)):
        with pytest.raises(sp.FrameError):
            sp.decode(frame[:cut])


@pytest.mark.parametrize("inner", [
    "0001H" + "[" * 700 + "]" * 700,  # the MemoryError of issue 13, with a valid CRC
    '0001H{"a":1.5}', '0001H{"a":%d}' % 10**30, '0001H[1,2]', '0001X{}', "+001H{}",
    "0x01H{}", '0001H{"a":"\\ud800"', " 001H{}",
])
def test_well_checksummed_nonsense_is_refused(inner):
    raw = (inner + "0" * 16).encode()
    with pytest.raises(sp.FrameError):
        sp.decode(b"~" + raw + b"*" + ("%08x" % zlib.crc32(raw)).encode())


@given(st.lists(st.integers(1, 40), min_size=1, max_size=30), st.binary(max_size=60))
def test_the_reader_finds_frames_in_any_pieces_among_noise(cuts, noise):
    frames = [sp.encode(i, sp.LIVE, {"i": i}) for i in range(5)]
    noise = noise.replace(b"~", b"-")
    stream = noise + b"".join(f + noise for f in frames)
    reader = sp.Reader()
    got = []
    at = 0
    for cut in cuts * 100:
        if at >= len(stream):
            break
        got += reader.feed(stream[at:at + cut])
        at += cut
    got += reader.feed(stream[at:])
    assert [(s, k, p) for s, k, p, _t, _b in got] == [(i, "L", {"i": i}) for i in range(5)]


@given(st.binary(max_size=4000))
def test_the_reader_survives_any_bytes(data):
    reader = sp.Reader()
    reader.feed(data)
    assert reader.feed(sp.encode(3, sp.LIVE, {}))[-1][:3] == (3, "L", {})


@given(st.binary(max_size=100), st.binary(max_size=300))
def test_mac_is_hmac_sha256(key, data):
    assert sp.mac(key, data) == hmac.new(key, data, hashlib.sha256).hexdigest()


def test_board_ids_are_a_fixed_alphabet():
    for good in ("pk-0a1b2c3d", "pk-test", "b1"):
        assert sp.board_id_ok(good)
    for bad in ("../../../../tmp/x", "", "-x", "PK-1", "pk 1", "pk/1", "ä", "x" * 33, 5, None):
        assert not sp.board_id_ok(bad)


def test_micropython_makes_the_same_frames_and_macs(mpy_build):
    from unix_port import run_micropython

    payloads = [g[2] for g in GOLDEN]
    (mpy_build / "sync_probe.py").write_text(
        "from rules_core import sync_protocol as sp\n"
        "def main(args):\n"
        "    k = sp.Key(bytes(range(32)))\n"
        "    for p in %r:\n"
        "        b = sp.body(9, 'S', p)\n"
        "        print(sp.frame(b, sp.tag(k, %r, b)).decode().strip())\n"
        "    print(sp.mac(b'key', b'data' * 40))\n"
        "    print(sp.result_mac(sp.Key(b'k' * 70), 'pk-1', 3, '', 'text'))\n"
        "    r = sp.Reader()\n"
        "    print(r.feed(b'noise~' + sp.encode(1, 'L', {'a': [1]}) + b'>>> ')[0][:3])\n"
        "    print(r.feed(b'~0001H' + b'[' * 700 + b'*00000000\\n'), r.damaged)\n"
        % (payloads, SESSION))
    lines = run_micropython(mpy_build, "sync_probe", []).splitlines()
    key = sp.Key(KEY)
    expected = [sp.frame(sp.body(9, "S", p), sp.tag(key, SESSION, sp.body(9, "S", p)))
                .decode().strip() for p in payloads]
    expected += [sp.mac(b"key", b"data" * 40),
                 sp.result_mac(sp.Key(b"k" * 70), "pk-1", 3, "", "text"),
                 "(1, 'L', {'a': [1]})", "[] 2"]  # the first '~' of noise~ began one
    assert lines == expected
