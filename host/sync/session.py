"""`pilkku sync`: the laptop's end of the sync protocol (rules_core/sync_protocol.py) over a
board's USB serial: say hello, set the board's clock, pull every finished result, store it,
and only then acknowledge it (the board frees it), push what the table plays next.

Nothing a board sends is trusted before it is checked: every reply is tagged with the pairing
key over this session (host/sync/replies.py checks its shape and bounds), a result carries
the board's MAC as a link of the board's chain. A request is sent again until its reply comes
(the board answers a repeat from its cache, so nothing is applied twice); a damaged frame
costs one retransmission at once, and the pieces a result is pulled in shrink on a line that
damages frames and grow again on a clean one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from host.sync import replies
from host.sync.replies import NoAnswer, SyncError
from rules_core import bounded
from rules_core import sync_protocol as sp

BAUD = 115200
PIECE_TRIES = 4  # sendings of a pull before a shorter piece is asked for
MAX_SENDINGS = 400  # of one request, however noisy a live line: then the sync gives up
__all__ = ["BAUD", "Link", "Pulled", "SyncError", "pull", "sync_board"]


class Link:
    """Requests and replies with one board, in one session."""

    def __init__(self, port: str, key: bytes | None, timeout: float = 0.25,
                 attempts: int = 40) -> None:
        try:
            self.serial = serial.Serial(port, BAUD, timeout=0.02, exclusive=True)
        except serial.SerialException as error:
            raise SyncError("cannot open %s: %s (is another program using it?)"
                            % (port, error)) from None
        self.port = port
        self.key = key
        self.signer = sp.Key(key) if key else None
        self.timeout = timeout
        self.attempts = attempts
        self.reader = sp.Reader()
        self.seq = int.from_bytes(os.urandom(2), "big") & 0x3FFF  # room for a long session
        self.session: str | None = None
        self.board = "?"
        self.piece = sp.PIECE_MAX  # characters asked for per pulled piece (adapts)
        self.sent_bytes = 0
        self.retransmissions = 0
        self.got = (b"", b"")  # the last reply's tag and signed body
        self.rtt = timeout / 4  # seconds a request and its reply take, learnt as they come

    def close(self) -> None:
        self.serial.close()

    def request(self, kind: str, payload: dict | None = None,
                sendings: int | None = None) -> dict:
        """The board's reply (checked to be tagged with the key in this session). NoAnswer
        after the link's `attempts` sendings met by silence, or after `sendings` sendings
        whatever came back; SyncError after MAX_SENDINGS damaged replies."""
        self.seq = (self.seq + 1) & 0xFFFF
        body = sp.body(self.seq, kind, dict(payload or {}))
        tag = sp.NO_TAG
        if kind != sp.HELLO:
            if self.signer is None or self.session is None:
                raise SyncError("no pairing key for this tournament: run `pilkku pair`")
            tag = sp.tag(self.signer, self.session, body)
        frame = sp.frame(body, tag)
        silent = 0  # sendings met by silence; one met by a damaged frame shows a live board
        for attempt in range(sendings or MAX_SENDINGS):
            if silent >= self.attempts:
                break
            if attempt:
                self.retransmissions += 1
            try:
                self.serial.write(frame)
                self.sent_bytes += len(frame)
                sent_at = time.monotonic()
                damaged = self.reader.damaged
                got = self._wait(self.seq)
                if got is None and self.reader.damaged == damaged:
                    silent += 1
                elif got is not None and attempt == 0:  # Karn: only clean round trips
                    self.rtt = 0.8 * self.rtt + 0.2 * (time.monotonic() - sent_at)
            except (serial.SerialException, OSError) as lost:
                raise SyncError("%s: lost the connection (%s): plug the board back in and "
                                "sync again; nothing unsynced is lost"
                                % (self.port, lost)) from None
            if got is not None:
                payload, self.got = got[0], got[1:]
                if self.session is not None:
                    self.verify()
                return payload
        if silent < self.attempts and sendings is None:
            raise SyncError("%s: %d frames came back damaged for one request: check the cable "
                            "(or the device is not a pilkku board)" % (self.port, MAX_SENDINGS))
        raise NoAnswer("%s: no answer from the board (is the scoreboard running? a board at "
                        "the REPL needs a reset; a board flashed by an older pilkku speaks "
                        "another protocol: run `pilkku flash`; check the cable)" % self.port)

    def verify(self) -> None:
        """The last reply must carry the key's tag in this session."""
        tag, body = self.got
        if self.signer is None or self.session is None \
                or not sp.same(tag, sp.tag(self.signer, self.session, body)):
            raise SyncError("%s: board %s answered without this tournament's key: it is "
                            "paired with another tournament, or it is not the board it says; "
                            "nothing was changed (pair it: pilkku pair --port %s)"
                            % (self.port, self.board, self.port))

    def _wait(self, seq: int) -> tuple[dict, bytes, bytes] | None:
        """The reply to `seq`, or None after the timeout, or at once when a damaged frame
        came (it was most likely the reply: send again rather than wait)."""
        # Four round trips of this line (never more than the link's timeout): a lost frame
        # costs little on a fast line, a slow one is given its time.
        deadline = time.monotonic() + min(self.timeout, max(0.03, 4 * self.rtt))
        damaged = self.reader.damaged
        while time.monotonic() < deadline:
            # What has come, at once: read(4096) would sit out the whole timeout (20 ms) after
            # every reply that is shorter, a tenth of the sync time on a 115200 baud line.
            data = self.serial.read(self.serial.in_waiting or 1)
            for got_seq, kind, payload, tag, body in self.reader.feed(data):
                if got_seq == seq and kind == sp.REPLY:
                    return payload, tag, body
            if self.reader.damaged != damaged:
                return None
        return None

    def call(self, kind: str, payload: dict | None = None,
             sendings: int | None = None) -> dict:
        """A request whose reply must say ok, checked for its kind (replies.py)."""
        reply = self.request(kind, payload, sendings)
        return replies.check(self, kind, reply, payload or {})

    def hello(self) -> dict:
        ours = os.urandom(8).hex()
        self.session = None
        reply = replies.check(self, sp.HELLO, self.request(
            sp.HELLO, {"version": sp.VERSION, "nonce": ours}), {})
        self.board = reply["board"]
        if reply["paired"] and self.signer is not None:
            # The hello's tag can be checked only now that its reply named the board's nonce.
            self.session = reply["nonce"] + ours
            self.verify()
        return reply


@dataclass
class Pulled:
    seq: int
    text: str
    board_mac: str
    verified: bool  # the board's MAC over its chain link matches the tournament's key
    document: dict = field(repr=False, default_factory=dict)
    n: int | None = None  # the link's number in the board's chain
    prev: str = ""  # the MAC of the link before


def pull(link: Link, seq: int) -> Pulled:
    """One finished result, in pieces, as the exact text the board signed."""
    parts: list[str] = []
    offset = 0
    total: int | None = None
    chained = None
    clean = 0
    for _ in range(sp.MAX_RESULT // sp.PIECE_MIN * 2):  # each piece moves on, or it is refused
        before = link.retransmissions
        try:
            # A piece too long for the line would never arrive whole: after a few tries ask
            # for a shorter one (a pull changes nothing on the board; the next number is fine).
            reply = link.call(sp.PULL, {"seq": seq, "offset": offset, "size": link.piece},
                              PIECE_TRIES if link.piece > sp.PIECE_MIN else None)
        except NoAnswer:
            if link.piece <= sp.PIECE_MIN:
                raise
            clean = _adapt(link, PIECE_TRIES, clean)
            continue
        clean = _adapt(link, 1 + link.retransmissions - before, clean)
        if total is None:
            total, chained = reply["total"], reply["link"]
        elif reply["total"] != total or reply.get("link", chained) != chained:
            raise replies.malformed(link, sp.PULL, "the result changed between its pieces")
        parts.append(reply["text"])
        offset += len(reply["text"])
        if offset >= total:
            break
        if not reply["text"]:
            raise replies.malformed(link, sp.PULL, "an empty piece before the end")
    text = "".join(parts)
    if len(text) != total:
        raise replies.malformed(link, sp.PULL, "the pieces do not add up to the result")
    try:
        document = sp.loads_result(text)
    except bounded.Malformed as why:
        raise replies.malformed(link, sp.PULL, "the result is not a match log (%s)" % why) \
            from None
    if not isinstance(document, dict) or not isinstance(document.get("meta", {}), dict):
        raise replies.malformed(link, sp.PULL, "the result is not a match log")
    if chained is None:
        return Pulled(seq, text, "", False, document)
    n, prev, mac = chained
    verified = link.signer is not None and sp.same(
        mac, sp.result_mac(link.signer, link.board, n, prev, text))
    return Pulled(seq, text, mac, verified, document, n, prev)


def _adapt(link: Link, sendings: int, clean: int) -> int:
    """Halve the piece after one that needed three sendings or more (most frames of its size
    are damaged), double it after two that went through at once."""
    if sendings > 2:
        link.piece = max(sp.PIECE_MIN, link.piece // 2)
        return 0
    if sendings > 1:
        return 0
    clean += 1
    if clean >= 2 and link.piece < sp.PIECE_MAX:
        link.piece = min(sp.PIECE_MAX, link.piece * 2)
        return 0
    return clean


# What a sync talks to on the laptop's side (host/sync/commands.py provides it):
#   store_result(board, pulled) -> str   "stored" / "duplicate" / "kept: <reason>"; only on
#                                         "stored" or "duplicate" is the result acknowledged
#   schedule_for(table) -> list[dict]    the matches the table plays next
StoreResult = Callable[[str, Pulled], str]
ScheduleFor = Callable[[int], list]


# claim(board, table, hello) -> None, or why the board may not be that table (another board
# holds it, the tournament has no such table); a refused board gets no table and an empty
# schedule, and its results are still pulled.
Claim = Callable[[str, "int | None", dict], "str | None"]


def sync_board(link: Link, store_result: StoreResult, schedule_for: ScheduleFor,
               say: Callable[[str], None] = print, table: int | None = None,
               wall_time: Callable[[], float] = time.time, claim: Claim | None = None) -> dict:
    """One board's whole sync; returns a summary of what changed."""
    hello = link.hello()
    board = hello["board"]
    say("%s: board %s, firmware %s, table %s" % (link.port, board, hello["firmware"],
                                                 hello["table"]))
    if not hello["paired"]:
        raise SyncError("%s: board %s is not paired with this tournament: run "
                        "`pilkku pair --port %s`" % (link.port, board, link.port))
    link.call(sp.CLOCK, {"time": int(wall_time())})
    wanted = table if table is not None else hello["table"]
    refused = claim(board, wanted, hello) if claim is not None else None
    if refused:
        say("%s: board %s refused: %s" % (link.port, board, refused))
    elif table is not None and table != hello["table"]:
        link.call(sp.TABLE, {"table": table})
        say("%s: board %s is now table %d" % (link.port, board, table))
    summary = {"board": board, "table": None if refused else wanted, "refused": refused,
               "chain": hello["chain"], "stored": 0, "duplicates": 0, "kept": 0,
               "scheduled": 0, "retransmissions": 0}
    results = link.call(sp.RESULTS)["results"]
    for number, seq in enumerate(results, 1):
        pulled = pull(link, seq)
        outcome = store_result(board, pulled)
        say("%s: result %d/%d (board #%d): %s" % (link.port, number, len(results), seq,
                                                   outcome))
        if outcome in ("stored", "duplicate"):
            link.call(sp.ACK, {"seq": seq})
            summary["stored" if outcome == "stored" else "duplicates"] += 1
        else:
            summary["kept"] += 1
    if refused:
        link.call(sp.SCHEDULE, {"matches": []})  # no tournament match on a board without a table
    elif summary["table"] is not None:
        matches = schedule_for(summary["table"])
        link.call(sp.SCHEDULE, {"matches": matches})
        summary["scheduled"] = len(matches)
        say("%s: table %s gets %d match(es): %s" % (
            link.port, summary["table"], len(matches),
            ", ".join(m["match_id"] for m in matches) or "none"))
    summary["retransmissions"] = link.retransmissions
    return summary
