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
from host.sync import pieces, session
from rules_core import sync_protocol as sp
from rules_core import sync_reader


def _frame(inner: str) -> bytes:
    """A frame with a valid CRC around anything: only the CRC is right."""
    raw = inner.encode("utf-8", "surrogatepass")
    return b"~" + raw + sp.digits(zlib.crc32(raw), sp.CRC_DIGITS) + b"\n"


def adversarial() -> list[bytes]:
    tag = "0" * 11
    frames = [
        _frame("001H" + "[" * 700 + "]" * 700 + tag),  # issue 13's MemoryError
        _frame("001H" + "{\"a\":" * 300 + "1" + "}" * 300 + tag),
        _frame('001H{"version":3,"nonce":"%s"}' % ("0" * 16) + tag),  # a hello, then:
        _frame('002A{"seq":1}' + tag),  # an unsigned acknowledge
        _frame('002A{"seq":1.0}' + "f" * 11),
        _frame('003P{"seq":%d,"at":[0,1],"size":64}' % 10**30 + tag),
        _frame('003P{"seq":1,"at":[0,1,2],"size":64,"ack":-1}' + tag),
        _frame('004T{"table":true}' + tag),
        _frame('005S{"matches":"abc"}' + tag),
        _frame('006C{"time":1e400}' + tag),
        _frame('007r{"ok":true}' + tag),  # a reply sent to the board
        _frame('007d000abc' + tag),  # a piece sent to the board
        _frame('007n{}' + tag),  # a NAK sent to the board
        _frame('008Z{}' + tag),
        _frame('009H{"version":3,"nonce":"../../../../x"}' + tag),
        _frame('00:H{"version":true,"nonce":"0123456789abcdef"}' + tag),
        _frame('00;H["not","an","object"]' + tag),
        _frame('00<H{"version":3,"nonce":"\\ud800"}' + tag),
        sp.old_frame(12, "H", {"version": 2, "nonce": "0" * 16}),  # a laptop of protocol 2
        sp.old_frame(13, "r", {"ok": True}),
        b"~" + b"0" * 5000 + b"\n",  # longer than a line
        b"~001H{\"version\":3}" + b"\xff\xfe" * 10 + b"00000000000000000\n",
        b"\x03",  # a lone Ctrl-C: line noise
        b"~001H\x03{}" + tag.encode() + b"000000\n",
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
    reader = sync_reader.Reader()
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
        reader = sync_reader.Reader()
        while not self.done:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for seq, kind, payload, _tag, _body in reader.feed(data):
                self.requests += 1
                reply = self.answer(kind, payload)
                pieces: list = []
                if isinstance(reply, tuple):  # a pull's reply and its pieces
                    reply, pieces = reply
                if kind == sp.HELLO and isinstance(reply, dict) and isinstance(
                        reply.get("nonce"), str):
                    self.session = reply["nonce"] + payload.get("nonce", "")
                if isinstance(reply, bytes):
                    os.write(self.master, reply)
                    continue
                if isinstance(reply, str):  # JSON text as it is, signed
                    body = sp.digits(seq, 3) + sp.REPLY.encode() + reply.encode()
                else:
                    body = sp.body(seq, sp.REPLY, reply)
                out = [body] + [sp.piece_body(seq, at, sp.stuff(data, 0, len(data))[0])
                                for at, data in pieces]
                os.write(self.master, b"".join(sp.frame(b, sp.tag(self.key, self.session, b))
                                               for b in out))

    def close(self) -> None:
        self.done = True
        for fd in (self.master, self.slave):
            os.close(fd)


def _hello(**change) -> dict:
    reply = {"ok": True, "protocol": sp.VERSION, "board": "pk-rogue", "firmware": "x",
             "table": 1, "nonce": "0123456789abcdef", "paired": True, "chain": [0, ""],
             "mended": [], "lost": []}
    reply.update(change)
    return {k: v for k, v in reply.items() if v is not None}


def _pulled(text: bytes = b"0123456789", **change):
    """A pull's answer: its reply (changed as given) and the pieces asked for of `text`."""
    def made(payload: dict) -> tuple[dict, list]:
        size, at = payload["size"], payload["at"]
        pieces = [(o, text[o:o + size]) for i in range(0, len(at), 2)
                  for o in range(at[i], min(len(text), at[i] + at[i + 1] * size), size)]
        reply = {"ok": True, "seq": payload["seq"], "total": len(text), "frames": len(pieces),
                 "link": None}
        reply.update(change.get("reply", {}))
        return reply, change.get("pieces", pieces)
    return made


def _answers(**per_kind):
    def answer(kind: str, payload: dict):
        made = per_kind.get(kind)
        if made is not None:
            return made(payload) if callable(made) else made
        if kind == sp.HELLO:
            return _hello()
        if kind == sp.RESULTS:
            return {"ok": True, "results": [1], "damaged": []}
        if kind == sp.PULL:
            return _pulled()(payload)
        return {"ok": True}
    return answer


ROGUES = {
    "a hello without nonce": (_answers(H=_hello(nonce=None)), "malformed reply to hello"),
    "a board id that is a path": (_answers(H=_hello(board="../../../../tmp/x")),
                                  "malformed reply to hello"),
    "a nested reply": (_answers(H=_frame("000r" + "[" * 700 + "]" * 700 + "0" * 11)),
                       "came back damaged"),
    "a float for a table": (_answers(H='{"board":"pk-1","chain":[0,""],"firmware":"x",'
                                       '"nonce":"0123456789abcdef","ok":true,"paired":true,'
                                       '"protocol":3,"table":1.0}'), "came back damaged"),
    "kept files that are no list": (_answers(H=_hello(lost="chain")),
                                    "malformed reply to hello"),
    "a kept file of another name": (_answers(H=_hello(mended=["../x"])),
                                    "malformed reply to hello"),
    "a chain head that is lost and not": (_answers(H=_hello(lost=["chain"])),
                                          "malformed reply to hello"),
    "another chain head than the one given": (_answers(
        H=dict(_hello(lost=["chain"]), chain=None), K={"ok": True, "chain": [7, ""]}),
        "malformed reply to chain head"),
    "a bool for a number": (_answers(C={"ok": True}, T=None, R={"ok": True, "results": [True]}),
                            "malformed reply to results"),
    "results that are text": (_answers(R={"ok": True, "results": "abc"}),
                              "malformed reply to results"),
    "results in their hundreds": (_answers(R={"ok": True, "results": list(range(100))}),
                                  "malformed reply to results"),
    "damaged results that are text": (_answers(R={"ok": True, "results": [],
                                                  "damaged": "abc"}),
                                      "malformed reply to results"),
    "a damaged result's bytes for a result": (_answers(P=_pulled(reply={"damaged": True})),
                                              "malformed reply to pull"),
    "a count of pieces that is text": (_answers(P=_pulled(reply={"frames": "2"})),
                                       "malformed reply to pull"),
    "more pieces than asked": (_answers(P=_pulled(reply={"frames": 65})),
                               "malformed reply to pull"),
    "a total of 10**15": (_answers(P=_pulled(reply={"total": 10**15})), "brought nothing"),
    "a total of 10**12": (_answers(P=_pulled(reply={"total": 10**12})),
                          "malformed reply to pull"),
    "pieces that never come": (_answers(P=_pulled(reply={"total": 200000}, pieces=[])),
                               "brought nothing"),
    "a piece longer than asked": (_answers(P=_pulled(b"x" * 5000, pieces=[(0, b"x" * 1001)])),
                                  "malformed reply to pull"),
    "a reply longer than a line": (_answers(P=_pulled(reply={"x": "x" * 5000})),
                                   "brought nothing"),
    "a piece past the end": (_answers(P=_pulled(pieces=[(7, b"0123")])),
                             "malformed reply to pull"),
    "a reply about another result": (_answers(P=_pulled(reply={"seq": 2})),
                                     "malformed reply to pull"),
    "a total that changes": (_answers(P=lambda p: _pulled(
        b"0" * (len(p["at"]) * 10 + p["at"][-1]))(p)), "malformed reply to pull"),
    "a result that is no log": (_answers(P=_pulled(b"[[[")), "malformed reply to pull"),
    "a result that is no UTF-8": (_answers(P=_pulled(b"\xff\xfe")), "malformed reply to pull"),
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
    assert rogue.requests <= session.MAX_FRUITLESS + pieces.MAX_STALLS + 5  # it gave up
    assert not Path("/tmp/x").exists() or Path("/tmp/x").stat().st_mtime < 0
    assert list(Path(db).parent.glob("free-games/*")) == []
