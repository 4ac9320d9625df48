"""The sync protocol's frames and MACs: golden frames built by hand from docs/sync-protocol.md
(with zlib's CRC and Python's hmac, not ours), damage detection, the reader among noise, and the
same bytes under MicroPython."""

from __future__ import annotations

import hashlib
import hmac
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host.sync.pieces import loads_result
from rules_core import sync_protocol as sp
from rules_core import sync_reader

KEY = bytes(range(32))
SESSION = "0123456789abcdef" + "fedcba9876543210"  # the board's nonce, then the laptop's


def hand_digits(value: int, width: int) -> str:
    """docs/sync-protocol.md: a digit is the byte 0x30 + its value (0-63), most significant
    first, in a fixed width."""
    out = ""
    for _ in range(width):
        out = chr(0x30 + value % 64) + out
        value //= 64
    assert value == 0
    return out


def by_hand(seq: int, kind: str, body_text: str, tag: str = "0" * 11) -> bytes:
    """A frame as docs/sync-protocol.md spells it: "~", SSS, K, the body, the tag, the CRC-32 of
    everything between "~" and the CRC in 6 digits, a newline."""
    inner = (hand_digits(seq, 3) + kind + body_text + tag).encode()
    return b"~" + inner + hand_digits(zlib.crc32(inner), 6).encode() + b"\n"


def tag_by_hand(session: str, seq: int, kind: str, body_text: str) -> str:
    """The first 8 bytes of HMAC-SHA256(key, session "|" SSS K BODY), big-endian, 11 digits."""
    message = (session + "|" + hand_digits(seq, 3) + kind + body_text).encode()
    return hand_digits(int.from_bytes(hmac.new(KEY, message, hashlib.sha256).digest()[:8],
                                      "big"), 11)


GOLDEN = [
    # (seq, kind, payload, the JSON as the document writes it)
    (0x0001, "H", {"version": 4, "nonce": "fedcba9876543210"},
     '{"nonce":"fedcba9876543210","version":4}'),
    (0x00A2, "P", {"seq": 7, "size": 40, "at": [0, 5, 1024, 2], "link": True},
     '{"at":[0,5,1024,2],"link":true,"seq":7,"size":40}'),
    (0xBEEF, "S", {"matches": [{"match_id": "R1-01", "settings": {"players": ["Äijä", "B~b"]}}]},
     '{"matches":[{"match_id":"R1-01","settings":{"players":["Äijä","B\\u007eb"]}}]}'),
    (0xFFFF, "r", {"ok": False, "error": "say hello first"},
     '{"error":"say hello first","ok":false}'),
]


def test_digits_by_the_document():
    assert hand_digits(0xA2, 3) == "02R"  # the document's example
    assert sp.digits(0xA2, 3) == b"02R"
    for value in (0, 1, 63, 64, 0xFFFF, 2**32 - 1, 2**64 - 1):
        width = 11 if value >= 2**36 else 6
        assert sp.digits(value, width).decode() == hand_digits(value, width)
        assert sp.number(sp.digits(value, width)) == value
    for bad in (b"/", b"p", b"~", b"0 ", b"-1"):
        with pytest.raises(sp.FrameError):
            sp.number(bad)


@pytest.mark.parametrize("seq, kind, payload, text", GOLDEN)
def test_golden_frames_by_the_document(seq, kind, payload, text):
    unsigned = by_hand(seq, kind, text)
    assert sp.encode(seq, kind, payload) == unsigned
    tag = tag_by_hand(SESSION, seq, kind, text)
    signed = by_hand(seq, kind, text, tag)
    body = sp.body(seq, kind, payload)
    assert body == (hand_digits(seq, 3) + kind + text).encode()
    assert sp.tag(sp.Key(KEY), SESSION, body) == tag.encode()
    assert sp.frame(body, tag.encode()) == signed
    assert sp.decode(signed[:-1]) == (seq, kind, payload, tag.encode(), body)


def hand_escape(data: bytes) -> bytes:
    """docs/sync-protocol.md: "`", "~", DEL and control bytes go as "`" and the byte XOR
    0x40; every other byte as it is."""
    out = bytearray()
    for byte in data:
        if byte in (0x60, 0x7E, 0x7F) or byte < 0x20:
            out += bytes([0x60, byte ^ 0x40])
        else:
            out.append(byte)
    return bytes(out)


def test_a_golden_piece_by_the_document():
    data = '{"players":["B~b","Äijä`"],"events":[{"t":"lag","winner":0}]}'.encode()
    escaped = hand_escape(data[:40])
    assert escaped.count(b"`>") == escaped.count(b"` ") == 1 and b"~" not in escaped
    body_text = "000".encode() + escaped
    seq = 0xA2
    message = (SESSION + "|" + hand_digits(seq, 3) + "d").encode() + body_text
    tag = hand_digits(int.from_bytes(hmac.new(KEY, message, hashlib.sha256).digest()[:8],
                                     "big"), 11).encode()
    inner = ("02Rd").encode() + body_text + tag
    golden = b"~" + inner + hand_digits(zlib.crc32(inner), 6).encode() + b"\n"
    stuffed, took = sp.stuff(data, 0, 40)
    assert (stuffed, took) == (escaped, 40)
    body = sp.piece_body(seq, 0, stuffed)
    assert sp.frame(body, sp.tag(sp.Key(KEY), SESSION, body)) == golden
    assert sp.decode(golden[:-1])[:3] == (seq, "d", {"offset": 0, "data": data[:40]})
    later = sp.piece_body(seq, 40, sp.stuff(data, 40, 1000)[0])
    assert sp.decode(sp.frame(later)[:-1])[2] == {"offset": 40, "data": data[40:]}
    assert later[:7] == b"02Rd00X"  # offset 40 is the digits 0, 0, "X" (0x30 + 40)


def test_a_golden_part_of_a_reply_by_the_document():
    """docs/sync-protocol.md: a reply asked for in parts goes as "q" frames, each: OO (its
    offset in the reply's text), LL (the text's length), then the text's bytes, escaped as
    in a piece; put together they are the reply's JSON as a whole reply frame would carry."""
    text = '{"chain":[0,""],"ok":true,"x":"B~b"}'
    wired = text.replace("~", "\\u007e").encode()
    seq = 0xA2
    parts = []
    for offset in range(0, len(wired), 16):
        body_text = (hand_digits(offset, 2) + hand_digits(len(wired), 2)).encode() \
            + hand_escape(wired[offset:offset + 16])
        message = (SESSION + "|" + hand_digits(seq, 3) + "q").encode() + body_text
        tag = hand_digits(int.from_bytes(hmac.new(KEY, message, hashlib.sha256).digest()[:8],
                                         "big"), 11).encode()
        inner = b"02Rq" + body_text + tag
        parts.append(b"~" + inner + hand_digits(zlib.crc32(inner), 6).encode() + b"\n")
    assert len(wired) == 41 and parts[1][:9] == b"~02Rq0@0Y"  # offset 16: "0@", 41: "0Y"
    assert sp.reply_text({"chain": [0, ""], "ok": True, "x": "B~b"}) == wired
    key = sp.Key(KEY)
    made = [sp.frame(body, sp.tag(key, SESSION, body)) for body in (
        sp.part_body(seq, offset, len(wired), sp.stuff(wired, offset, 16)[0])
        for offset in range(0, len(wired), 16))]
    assert made == parts
    got = [sp.decode(part[:-1])[2] for part in parts]
    assert b"".join(g["data"] for g in got) == wired and {g["total"] for g in got} == {
        len(wired)}
    assert sp.loads_reply(wired) == {"chain": [0, ""], "ok": True, "x": "B~b"}
    past = sp.part_body(seq, 40, 41, b"xx")
    with pytest.raises(sp.FrameError):
        sp.decode(sp.frame(past)[:-1])  # a part past its reply's end


@settings(deadline=None)  # a loaded machine must not fail a test on time
@given(st.binary(max_size=300), st.integers(0, 299), st.integers(1, 1000))
def test_escapes_round_trip_and_hold_no_line_byte(data, start, most):
    stuffed, took = sp.stuff(data, start, most)
    assert took == max(0, min(len(data), start + most) - start)
    assert sp.unstuff(stuffed) == data[start:start + took]
    assert not any(b < 0x20 or b in (0x7E, 0x7F) for b in stuffed)
    assert len(stuffed) <= 2 * took


@settings(deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=4), st.sampled_from([sp.NO_TAG, b"k" * 11]))
def test_a_frame_written_in_parts_is_the_frame_of_their_join(parts, tag):
    written: list[bytes] = []
    sp.write_frame(written.append, tuple(parts), tag)
    assert b"".join(written) == sp.frame(b"".join(parts), tag)
    assert sp.tag(sp.Key(KEY), SESSION, *parts) == sp.tag(sp.Key(KEY), SESSION, b"".join(parts))


@pytest.mark.parametrize("bad", [b"`", b"ab`", b"`a", b"`0", b"``", b"`\x7f"])
def test_bad_escapes_are_refused(bad):
    with pytest.raises(sp.FrameError):
        sp.unstuff(bad)


def test_the_nak_and_the_escapes_of_each_byte():
    assert sp.NAK_FRAME == by_hand(0, "n", "{}")
    assert sp.decode(sp.NAK_FRAME[:-1])[:3] == (0, "n", {})
    assert sp.stuff(b"`~\x7f\n\x00 a", 0, 9)[0] == b"` `>`?`J`@ a"


def test_protocol_2_frames_are_told_apart():
    """The one frame of the old layout each side still makes and reads: a hello and its
    refusal (docs/sync-protocol.md, "Protocol 2")."""
    inner = b'0007H{"nonce":"0123456789abcdef","version":2}' + b"0" * 16
    old_hello = b"~" + inner + b"*" + b"%08x" % zlib.crc32(inner) + b"\n"
    assert sp.old_frame(7, "H", {"version": 2, "nonce": "0123456789abcdef"}) == old_hello
    reader = sync_reader.Reader()
    assert reader.feed(old_hello) == [(7, "2H", {"version": 2, "nonce": "0123456789abcdef"},
                                       b"", b"")]
    assert reader.damaged == 0
    refusal = sp.old_frame(7, "r", {"ok": False, "error": "x"})
    assert reader.feed(refusal) == [(7, "2r", {"ok": False, "error": "x"}, b"", b"")]
    for broken in (old_hello[:-3] + b"0\n", old_hello.replace(b"H{", b"L{"),
                   old_hello.replace(b"*", b"+")):
        assert reader.feed(broken) == []
    assert reader.damaged == 3


def test_a_result_mac_by_the_document():
    text = '{"events":[],"format":"pilkku.match/1"}'
    prev = "ab" * 32
    message = ("pilkku.result/2|pk-1|5|%s|" % prev + text).encode()
    assert sp.result_mac(sp.Key(KEY), "pk-1", 5, prev, text) == hmac.new(
        KEY, message, hashlib.sha256).hexdigest()
    assert sp.result_mac(sp.Key(KEY), "pk-1", 5, prev, text.encode()) == hmac.new(
        KEY, message, hashlib.sha256).hexdigest()


@pytest.mark.parametrize("payload", [{}, {"ok": True}, {"text": "ä~*\n\x03\x7f", "n": -5,
                                                        "list": [1, None, "x"]}])
def test_frames_round_trip_and_hold_no_control_byte(payload):
    frame = sp.encode(0x2A, sp.SCHEDULE, payload, b"0123456789a")
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1 and frame.count(b"~") == 1
    assert all(b >= 32 and b != 127 for b in frame[:-1])  # never a Ctrl-C or a REPL byte
    assert sp.decode(frame[:-1])[:4] == (0x2A, "S", payload, b"0123456789a")


def test_every_single_byte_damage_is_caught():
    frame = sp.encode(7, sp.ACK, {"seq": 3}, b"0123456789a")[:-1]
    rng = random.Random(1)
    for position in range(len(frame)):
        damaged = bytearray(frame)
        damaged[position] ^= 1 << rng.randrange(7)
        with pytest.raises(sp.FrameError):
            sp.decode(bytes(damaged))


def test_truncated_frames_are_refused():
    frame = sp.encode(1, sp.HELLO, {"version": 3})[:-1]
    for cut in range(len(frame)):
        with pytest.raises(sp.FrameError):
            sp.decode(frame[:cut])


@pytest.mark.parametrize("inner", [
    "001H" + "[" * 700 + "]" * 700,  # the MemoryError of issue 13, with a valid CRC
    '001H{"a":1.5}', '001H{"a":%d}' % 10**30, '001H[1,2]', '001X{}', "+01H{}",
    "0x1H{}", '001H{"a":"\\ud800"', " 01H{}", "o00H{}", "001d", "001d00", "001d000`",
    "001d000`a", "001n[]",
])
def test_well_checksummed_nonsense_is_refused(inner):
    raw = (inner + "0" * 11).encode()
    with pytest.raises(sp.FrameError):
        sp.decode(b"~" + raw + hand_digits(zlib.crc32(raw), 6).encode())


@settings(deadline=None)  # a loaded machine must not fail a test on time
@given(st.lists(st.integers(1, 40), min_size=1, max_size=30), st.binary(max_size=60))
def test_the_reader_finds_frames_in_any_pieces_among_noise(cuts, noise):
    frames = [sp.encode(i, sp.LIVE, {"i": i}) for i in range(5)]
    noise = noise.replace(b"~", b"-")
    stream = noise + b"".join(f + noise for f in frames)
    reader = sync_reader.Reader()
    got = []
    at = 0
    for cut in cuts * 100:
        if at >= len(stream):
            break
        got += reader.feed(stream[at:at + cut])
        at += cut
    got += reader.feed(stream[at:])
    assert [(s, k, p) for s, k, p, _t, _b in got] == [(i, "L", {"i": i}) for i in range(5)]


@settings(deadline=None)  # a loaded machine must not fail a test on time
@given(st.binary(max_size=4000))
def test_the_reader_survives_any_bytes(data):
    reader = sync_reader.Reader()
    reader.feed(data)
    assert reader.feed(sp.encode(3, sp.LIVE, {}))[-1][:3] == (3, "L", {})


def _mac(key, data):
    """HMAC-SHA256 of `data` in hex, as a Key makes it."""
    return sp._hex(sp.Key(key).digest(data))


@settings(deadline=None)  # a loaded machine must not fail a test on time
@given(st.binary(max_size=100), st.binary(max_size=300))
def test_mac_is_hmac_sha256(key, data):
    assert _mac(key, data) == hmac.new(key, data, hashlib.sha256).hexdigest()


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
        "from rules_core import sync_reader\n"
        "def main(args):\n"
        "    k = sp.Key(bytes(range(32)))\n"
        "    for p in %r:\n"
        "        b = sp.body(9, 'S', p)\n"
        "        print(sp.frame(b, sp.tag(k, %r, b)).decode().strip())\n"
        "    print(sp._hex(sp.Key(b'key').digest(b'data' * 40)))\n"
        "    print(sp.result_mac(sp.Key(b'k' * 70), 'pk-1', 3, '', 'text'))\n"
        "    r = sync_reader.Reader()\n"
        "    print(r.feed(b'noise~' + sp.encode(1, 'L', {'a': [1]}) + b'>>> ')[0][:3])\n"
        "    print(r.feed(b'~001H' + b'[' * 700 + b'00000000000000000\\n'), r.damaged)\n"
        "    s, t = sp.stuff('Ä~`'.encode() * 3, 1, 7)\n"
        "    print(bytes(s), t, sp.unstuff(s) == ('Ä~`'.encode() * 3)[1:8])\n"
        "    b = sp.piece_body(300, 4000, s)\n"
        "    print(sp.decode(sp.frame(b, sp.tag(k, %r, b))[:-1])[:3])\n"
        "    print(r.feed(sp.old_frame(5, 'H', {'version': 2}))[0][:3])\n"
        % (payloads, SESSION, SESSION))
    lines = run_micropython(mpy_build, "sync_probe", []).splitlines()
    key = sp.Key(KEY)
    expected = [sp.frame(sp.body(9, "S", p), sp.tag(key, SESSION, sp.body(9, "S", p)))
                .decode().strip() for p in payloads]
    expected += [_mac(b"key", b"data" * 40),
                 sp.result_mac(sp.Key(b"k" * 70), "pk-1", 3, "", "text"),
                 "(1, 'L', {'a': [1]})", "[] 2",  # the first '~' of noise~ began one
                 "b'\\x84`>` \\xc3\\x84`>` ' 7 True",
                 "(300, 'd', {'offset': 4000, 'data': b'\\x84~`\\xc3\\x84~`'})",
                 "(5, '2H', {'version': 2})"]
    assert lines == expected


def test_the_escape_refusals_say_what_is_wrong():
    with pytest.raises(sp.FrameError, match="^a bad escape in a piece$"):
        sp.unstuff(b"ab`a")
    with pytest.raises(sp.FrameError, match="^a piece ends in an escape$"):
        sp.unstuff(b"ab`")
    assert sp.unstuff(b"a` b`>c") == b"a`b~c"  # an escape, then plain bytes again


def test_a_protocol_2_frame_numbered_in_hex():
    reader = sync_reader.Reader()
    assert reader.feed(sp.old_frame(0x2A, "r", {"ok": True}))[0][:3] == (0x2A, "2r",
                                                                         {"ok": True})


def test_keys_of_every_length_are_hmac():
    for size in (0, 1, 63, 64, 65, 200):
        key = bytes(range(size % 256)) * (size // 256 + 1)
        key = key[:size]
        assert _mac(key, b"data") == hmac.new(key, b"data", hashlib.sha256).hexdigest()


def test_same_compares_macs_and_tags_exactly():
    assert sp.same("ab", "ab") and sp.same("ab", b"ab") and sp.same(b"ab", "ab")
    assert not sp.same(b"xa", b"ya")  # a difference before the last byte counts
    assert not sp.same(b"ab", b"ac")
    assert not sp.same(b"ab", b"abc") and not sp.same(b"abc", b"ab")
    assert not sp.same(b"", b"a") and sp.same(b"", b"")
    assert not sp.same(b"ab", None) and not sp.same(None, b"ab") and not sp.same(5, 5)


def test_nonces_and_board_ids_have_their_alphabets():
    assert sp.nonce_ok("0123456789abcdef")
    for bad in ("0123456789abcde:", "0123456789abcdeg", "0123456789ABCDEF", "/" * 16):
        assert not sp.nonce_ok(bad)
    for good in ("a", "z", "9", "0", "a-b", "x" * 32):
        assert sp.board_id_ok(good)
    for bad in ("a{", "a:", "a/", "a`", "x" * 33):
        assert not sp.board_id_ok(bad)


def test_a_result_document_is_bounded():
    nested = "[" * 11 + "]" * 11
    assert loads_result('{"a":%s}' % nested) == {"a": [[[[[[[[[[[]]]]]]]]]]]}
    with pytest.raises(sp.bounded.Malformed):
        loads_result('{"a":[%s]}' % nested)  # 13 deep
    big = '{"a":"%s"}' % ("x" * (sp.MAX_RESULT - 8))
    assert len(big) == sp.MAX_RESULT and loads_result(big)["a"]
    with pytest.raises(sp.bounded.Malformed):
        loads_result(big[:-2] + 'x"}')
    with pytest.raises(sp.bounded.Malformed):
        loads_result('{"a":1.5}')


def hand_frame(inner: bytes) -> bytes:
    """Anything between "~" and the CRC, with the right CRC: only the CRC is right."""
    return b"~" + inner + hand_digits(zlib.crc32(inner), 6).encode()


@pytest.mark.parametrize("line, why", [
    (b"~001L{}0000", "not a frame"),
    (hand_frame(b"001L" + b"0" * 9), "not a frame"),  # 20 bytes, CRC right: too short
    (b"x" + hand_frame(b"001L{}" + b"0" * 11)[1:], "not a frame"),
    (hand_frame(b"001L" + b"0" * 11), "bad payload: not JSON"),  # the shortest line: 22
    (hand_frame(b"001L{}" + b"0" * 11)[:-1] + b"1", "CRC mismatch"),
    (hand_frame(b"001L{}" + b"0" * 11)[:-1] + b"p", "damaged frame"),
    (hand_frame(b"001X{}" + b"0" * 11), "unknown kind"),
    (hand_frame(b"@00L{}" + b"0" * 11), "sequence number out of range"),  # 65536
    (hand_frame(b"001d00" + b"0" * 11), "a piece without its offset"),
    (hand_frame(b"001L[]" + b"0" * 11), "the payload must be an object"),
    (hand_frame(b"001L{\"a\":1.5}" + b"0" * 11), "bad payload: only whole numbers are allowed"),
])
def test_each_refusal_says_why(line, why):
    with pytest.raises(sp.FrameError) as refused:
        sp.decode(line)
    assert str(refused.value) == why


def test_the_last_sequence_number_and_an_empty_piece():
    assert sp.decode(hand_frame(b"?oo" + b"L{}" + b"0" * 11))[0] == 0xFFFF
    assert sp.decode(hand_frame(b"001d000" + b"0" * 11))[2] == {"offset": 0, "data": b""}


def test_del_is_escaped_as_the_document_writes_it():
    assert sp.body(1, "S", {"a": "\x7f~"}) == b'001S{"a":"\\u007f\\u007e"}'


def test_the_reader_counts_each_damaged_line_once():
    reader = sync_reader.Reader()
    good = sp.encode(1, sp.LIVE, {})
    assert reader.feed(b"~abc" + good) == [(1, "L", {}, sp.NO_TAG, good[1:-18])]
    assert reader.damaged == 1  # a frame begun again inside one
    reader.feed(b"~ab\x01cd\n")
    assert reader.damaged == 2  # a control byte: dropped there, the rest is not a frame
    reader.feed(b"~ab\x7fcd\n~x\n")
    assert reader.damaged == 4
    reader.feed(b"~abc" + good)
    assert reader.damaged == 5


@pytest.mark.parametrize("inner", [b'001L{"a":\t1}', b'001L{"a":"\x7f"}', b'001L{"a":"\x01"}'])
def test_a_frame_holding_a_control_byte_is_dropped_whatever_its_crc(inner):
    reader = sync_reader.Reader()
    assert reader.feed(hand_frame(inner + b"0" * 11) + b"\n") == []
    assert reader.damaged == 1


def test_a_line_may_be_as_long_as_max_line_and_no_longer():
    reader = sync_reader.Reader()
    pad = sp.MAX_LINE - len(sp.encode(1, sp.LIVE, {"a": ""})) + 1  # the newline is no part
    exact = sp.encode(1, sp.LIVE, {"a": "x" * pad})
    assert len(exact) - 1 == sp.MAX_LINE
    assert reader.feed(exact)[0][2] == {"a": "x" * pad}
    longer = sp.encode(1, sp.LIVE, {"a": "x" * (pad + 1)})
    assert reader.feed(longer) == [] and reader.damaged == 1
