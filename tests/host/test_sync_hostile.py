"""Hostile lines and hostile devices. A real virtual board takes random and adversarial bytes
and frames on its serial and still keeps score and syncs afterwards; `pilkku sync` against a
rogue device (one that even holds the key) ends that board's sync with a clear message and
exit 1 for every malformed reply, never loops, never writes outside its folder, never prints
a traceback."""

from __future__ import annotations

import os
import random
import threading
import tty
import zlib
from pathlib import Path

import pytest
from sync_setup import board_results, make_board, make_store, play_a_race_to_one, sync

from host import cli
from host.board import firmware_image
from host.sync import session
from rules_core import sync_protocol as sp


def _frame(inner: str) -> bytes:
    """A frame with a valid CRC around anything: only the CRC is right."""
    raw = inner.encode("utf-8", "surrogatepass")
    return b"~" + raw + b"*" + ("%08x" % zlib.crc32(raw)).encode() + b"\n"


def adversarial() -> list[bytes]:
    tag = "0" * 16
    frames = [
        _frame("0001H" + "[" * 700 + "]" * 700 + tag),  # issue 13's MemoryError
        _frame("0001H" + "{\"a\":" * 300 + "1" + "}" * 300 + tag),
        _frame('0001H{"version":2,"nonce":"%s"}' % ("0" * 16) + tag),  # a hello, then:
        _frame('0002A{"seq":1}' + tag),  # an unsigned acknowledge
        _frame('0002A{"seq":1.0}' + "f" * 16),
        _frame('0003P{"seq":%d,"offset":0,"size":64}' % 10**30 + tag),
        _frame('0004T{"table":true}' + tag),
        _frame('0005S{"matches":"abc"}' + tag),
        _frame('0006C{"time":1e400}' + tag),
        _frame('0007r{"ok":true}' + tag),  # a reply sent to the board
        _frame('0008Z{}' + tag),
        _frame('0009H{"version":2,"nonce":"../../../../x"}' + tag),
        _frame('000aH{"version":true,"nonce":"0123456789abcdef"}' + tag),
        _frame('000bH["not","an","object"]' + tag),
        _frame('000cH{"version":2,"nonce":"\\ud800"}' + tag),
        b"~" + b"0" * 5000 + b"\n",  # longer than a line
        b"~0001H{\"version\":2}" + b"\xff\xfe" * 10 + b"*00000000\n",
        b"\x03",  # a lone Ctrl-C: line noise
        b"~0001H\x03{}" + tag.encode() + b"*00000000\n",
        bytes(range(256)).replace(b"\r", b"").replace(b"\x03", b""),
    ]
    return frames


def noise(rng: random.Random, size: int) -> bytes:
    """Random bytes with lone Ctrl-Cs in them, never two in a row or after a CR (that is a
    deliberate interrupt, docs/sync-protocol.md)."""
    out = bytearray(rng.randrange(256) for _ in range(size))
    for i in range(1, len(out)):
        if out[i] == 3 and out[i - 1] in (3, 13):
            out[i] = 0x20
    return bytes(out)


@pytest.fixture(scope="module")
def firmware() -> dict[str, bytes]:
    return firmware_image.image()


def test_the_board_survives_any_bytes_then_scores_and_syncs(tmp_path, firmware):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    vb = make_board(tmp_path / "fuzzed", firmware, key)
    rng = random.Random(13)
    try:
        fd = os.open(vb.pty_path, os.O_RDWR | os.O_NOCTTY)
        try:
            for round_ in range(30):
                chunk = b"".join(rng.sample(adversarial(), 5)) + noise(rng, 400)
                os.write(fd, chunk)
                vb.run(20)  # the board takes it in its ticks, keeps ticking
                if round_ % 10 == 0:
                    assert vb.texts()["message"].strip()  # the menu is still drawn
        finally:
            os.close(fd)
        play_a_race_to_one(vb)  # the keys still score
        summary = sync(vb.pty_path, db, key)
        assert summary["stored"] == 1
        assert board_results(vb.pty_path, key) == []
        assert "Traceback" not in (vb.folder / "board.log").read_text()
    finally:
        vb.close()


def test_the_hosts_reader_survives_the_same(tmp_path):
    reader = sp.Reader()
    rng = random.Random(17)
    for _ in range(200):
        assert reader.feed(b"".join(rng.sample(adversarial(), 6)) + noise(rng, 300)) is not None
    assert reader.feed(sp.encode(5, sp.REPLY, {"ok": True}))[-1][:3] == (5, "r", {"ok": True})
    assert reader.damaged > 0


# --- a rogue device on the laptop's port -----------------------------------------------

class RogueBoard:
    """A device on a pty that speaks the protocol with the key (the worst case: it passes
    every tag check) and answers each request with what `answer(kind, payload)` returns: a
    payload, or raw bytes to send as they are."""

    def __init__(self, key: bytes, answer) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.key = sp.Key(key)
        self.answer = answer
        self.session = ""
        self.requests = 0
        self.done = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        reader = sp.Reader()
        while not self.done:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for seq, kind, payload, _tag, _body in reader.feed(data):
                self.requests += 1
                reply = self.answer(kind, payload)
                if kind == sp.HELLO and isinstance(reply, dict) and isinstance(
                        reply.get("nonce"), str):
                    self.session = reply["nonce"] + payload.get("nonce", "")
                if isinstance(reply, bytes):
                    os.write(self.master, reply)
                    continue
                if isinstance(reply, str):  # JSON text as it is, signed
                    body = ("%04x%s" % (seq, sp.REPLY) + reply).encode()
                else:
                    body = sp.body(seq, sp.REPLY, reply)
                os.write(self.master, sp.frame(body, sp.tag(self.key, self.session, body)))

    def close(self) -> None:
        self.done = True
        for fd in (self.master, self.slave):
            os.close(fd)


def _hello(**change) -> dict:
    reply = {"ok": True, "protocol": sp.VERSION, "board": "pk-rogue", "firmware": "x",
             "table": 1, "nonce": "0123456789abcdef", "paired": True, "chain": [0, ""]}
    reply.update(change)
    return {k: v for k, v in reply.items() if v is not None}


def _answers(**per_kind):
    def answer(kind: str, payload: dict):
        made = per_kind.get(kind)
        if made is not None:
            return made(payload) if callable(made) else made
        if kind == sp.HELLO:
            return _hello()
        if kind == sp.RESULTS:
            return {"ok": True, "results": [1]}
        if kind == sp.PULL:
            return {"ok": True, "seq": payload["seq"], "offset": payload["offset"],
                    "total": 10, "text": "0123456789"[payload["offset"]:], "link": None}
        return {"ok": True}
    return answer


def _piece(**change):
    def made(payload: dict) -> dict:
        reply = {"ok": True, "seq": payload["seq"], "offset": payload["offset"], "total": 50,
                 "text": "x" * 10, "link": None}
        reply.update(change)
        return reply
    return made


ROGUES = {
    "a hello without nonce": (_answers(H=_hello(nonce=None)), "malformed reply to hello"),
    "a board id that is a path": (_answers(H=_hello(board="../../../../tmp/x")),
                                  "malformed reply to hello"),
    "a nested reply": (_answers(H=_frame("0000r" + "[" * 700 + "]" * 700 + "0" * 16)),
                       "came back damaged"),
    "a float for a table": (_answers(H='{"board":"pk-1","chain":[0,""],"firmware":"x",'
                                       '"nonce":"0123456789abcdef","ok":true,"paired":true,'
                                       '"protocol":2,"table":1.0}'), "came back damaged"),
    "a bool for a number": (_answers(C={"ok": True}, T=None, R={"ok": True, "results": [True]}),
                            "malformed reply to results"),
    "results that are text": (_answers(R={"ok": True, "results": "abc"}),
                              "malformed reply to results"),
    "results in their hundreds": (_answers(R={"ok": True, "results": list(range(100))}),
                                  "malformed reply to results"),
    "a piece that is a number": (_answers(P=_piece(text=5)), "malformed reply to pull"),
    "a total of 10**15": (_answers(P=_piece(total=10**15)), "came back damaged"),  # no frame
    "a total of 10**12": (_answers(P=_piece(total=10**12)), "malformed reply to pull"),
    "pieces that never end": (_answers(P=_piece(total=200000, text="")),
                              "malformed reply to pull"),
    "a piece longer than asked": (_answers(P=_piece(text="x" * 1100)), "malformed reply to pull"),
    "a reply longer than a line": (_answers(P=_piece(text="x" * 5000)), "came back damaged"),
    "a piece from elsewhere": (_answers(P=_piece(offset=7)), "malformed reply to pull"),
    "a result that is no log": (_answers(P=lambda p: {
        "ok": True, "seq": p["seq"], "offset": 0, "total": 3, "text": "[[[", "link": None}),
        "malformed reply to pull"),
    "a refusal without reason": (_answers(C={"ok": False}), "malformed reply to clock"),
    "a reply without ok": (_answers(C={"fine": True}), "malformed reply to clock"),
}


@pytest.mark.parametrize("name", sorted(ROGUES))
def test_pilkku_sync_ends_cleanly_on_a_malformed_reply(tmp_path, capsys, name):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    answer, says = ROGUES[name]
    rogue = RogueBoard(key, answer)
    try:
        code = cli.main(["sync", "--port", rogue.path, "--db", db])
    finally:
        rogue.close()
    out = capsys.readouterr()
    said = out.out + out.err
    assert code == 1, said
    assert says in said and "all done" not in said and "Traceback" not in said
    assert rogue.requests <= session.MAX_SENDINGS + 6 * session.PIECE_TRIES + 5  # it gave up
    assert not Path("/tmp/x").exists() or Path("/tmp/x").stat().st_mtime < 0
    assert list(Path(db).parent.glob("free-games/*")) == []
