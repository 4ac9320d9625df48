"""The sync protocol's frames and MACs: round trips, damage detection, HMAC against the
standard library, the same bytes under MicroPython."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_core import sync_protocol as sp

PAYLOADS = [{}, {"ok": True}, {"text": "ä~*\n\x03", "n": -5, "list": [1, None, "x"]}]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_frames_round_trip_and_stay_printable(payload):
    frame = sp.encode(0x2A, sp.SCHEDULE, payload)
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1
    assert all(32 <= b < 127 for b in frame[:-1])  # never a Ctrl-C or a REPL control byte
    assert sp.decode(frame[:-1]) == (0x2A, "S", payload)


def test_every_single_byte_damage_is_caught():
    frame = sp.encode(7, sp.ACK, {"seq": 3, "mac": "ab" * 32})[:-1]
    rng = random.Random(1)
    for position in range(len(frame)):
        damaged = bytearray(frame)
        damaged[position] ^= 1 << rng.randrange(7)
        with pytest.raises(sp.FrameError):
            sp.decode(bytes(damaged))


def test_truncated_frames_are_refused():
    frame = sp.encode(1, sp.HELLO, {"version": 1})[:-1]
    for cut in range(len(frame)):
        with pytest.raises(sp.FrameError):
            sp.decode(frame[:cut])


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
    assert [(s, k, p) for s, k, p in got] == [(i, "L", {"i": i}) for i in range(5)]


@given(st.binary(max_size=100), st.binary(max_size=300))
def test_mac_is_hmac_sha256(key, data):
    assert sp.mac(key, data) == hmac.new(key, data, hashlib.sha256).hexdigest()


def test_write_mac_covers_nonce_sequence_kind_and_payload():
    key = b"k" * 32
    base = sp.write_mac(key, "n1", 5, sp.ACK, {"seq": 3})
    assert base == sp.write_mac(key, "n1", 5, sp.ACK, {"seq": 3, "mac": "ignored"})
    for other in (sp.write_mac(key, "n2", 5, sp.ACK, {"seq": 3}),
                  sp.write_mac(key, "n1", 6, sp.ACK, {"seq": 3}),
                  sp.write_mac(key, "n1", 5, sp.SCHEDULE, {"seq": 3}),
                  sp.write_mac(key, "n1", 5, sp.ACK, {"seq": 4}),
                  sp.write_mac(b"x" * 32, "n1", 5, sp.ACK, {"seq": 3})):
        assert not sp.same(base, other)
    assert sp.same(base, base)


def test_micropython_makes_the_same_frames_and_macs(mpy_build):
    from unix_port import run_micropython

    (mpy_build / "sync_probe.py").write_text(
        "from rules_core import sync_protocol as sp\n"
        "def main(args):\n"
        "    for p in %r:\n"
        "        print(sp.encode(9, 'S', p).decode().strip())\n"
        "    print(sp.mac(b'key', b'data' * 40))\n"
        "    print(sp.write_mac(b'k' * 70, 'nonce', 300, 'A', {'seq': 3}))\n"
        "    r = sp.Reader()\n"
        "    print(r.feed(b'noise~' + sp.encode(1, 'L', {'a': [1]}) + b'>>> '))\n" % PAYLOADS)
    lines = run_micropython(mpy_build, "sync_probe", []).splitlines()
    expected = [sp.encode(9, "S", p).decode().strip() for p in PAYLOADS]
    expected += [sp.mac(b"key", b"data" * 40),
                 sp.write_mac(b"k" * 70, "nonce", 300, "A", {"seq": 3}),
                 "[(1, 'L', {'a': [1]})]"]
    assert lines == expected
