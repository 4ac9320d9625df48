"""`pilkku sync`: the laptop's end of the sync protocol (rules_core/sync_protocol.py) over a
board's USB serial: say hello, set the board's clock, pull every finished result, store it,
and only then acknowledge it (the board frees it), push what the table plays next.

A request is sent again until its reply comes (the board answers a repeat from its cache, so
nothing is applied twice); a damaged or lost frame only costs a retransmission.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from rules_core import sync_protocol as sp

BAUD = 115200


class SyncError(RuntimeError):
    pass


class Link:
    """Requests and replies with one board."""

    def __init__(self, port: str, key: bytes | None, timeout: float = 0.25,
                 attempts: int = 40) -> None:
        try:
            self.serial = serial.Serial(port, BAUD, timeout=0.02, exclusive=True)
        except serial.SerialException as error:
            raise SyncError("cannot open %s: %s (is another program using it?)"
                            % (port, error)) from None
        self.port = port
        self.key = key
        self.timeout = timeout
        self.attempts = attempts
        self.reader = sp.Reader()
        self.seq = random.randrange(256)
        self.nonce: str | None = None
        self.sent_bytes = 0
        self.retransmissions = 0

    def close(self) -> None:
        self.serial.close()

    def request(self, kind: str, payload: dict | None = None) -> dict:
        self.seq = (self.seq + 1) & 0xFF
        body = dict(payload or {})
        if kind in sp.WRITES:
            if self.key is None or self.nonce is None:
                raise SyncError("no pairing key for this tournament: run `pilkku pair`")
            body["mac"] = sp.write_mac(self.key, self.nonce, self.seq, kind, body)
        frame = sp.encode(self.seq, kind, body)
        for attempt in range(self.attempts):
            if attempt:
                self.retransmissions += 1
            try:
                self.serial.write(frame)
                self.sent_bytes += len(frame)
                reply = self._wait(self.seq)
            except (serial.SerialException, OSError) as lost:
                raise SyncError("%s: lost the connection (%s): plug the board back in and "
                                "sync again; nothing unsynced is lost"
                                % (self.port, lost)) from None
            if reply is not None:
                return reply
        raise SyncError("%s: no answer from the board (is the scoreboard running? a board at "
                        "the REPL needs a reset; check the cable)" % self.port)

    def _wait(self, seq: int) -> dict | None:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            # What has come, at once: read(4096) would sit out the whole timeout (20 ms) after
            # every reply that is shorter, a tenth of the sync time on a 115200 baud line.
            data = self.serial.read(self.serial.in_waiting or 1)
            for got_seq, kind, payload in self.reader.feed(data):
                if got_seq == seq and kind == sp.REPLY and isinstance(payload, dict):
                    return payload
        return None

    def call(self, kind: str, payload: dict | None = None) -> dict:
        """A request whose reply must say ok."""
        reply = self.request(kind, payload)
        if not reply.get("ok"):
            raise SyncError("%s: the board refused: %s" % (self.port, reply.get("error")))
        return reply

    def hello(self) -> dict:
        reply = self.request(sp.HELLO, {"version": sp.VERSION})
        if not reply.get("ok"):
            raise SyncError("%s: %s" % (self.port, reply.get("error")))
        self.nonce = reply["nonce"]
        return reply


@dataclass
class Pulled:
    seq: int
    text: str
    board_mac: str
    verified: bool  # the board's MAC matches the tournament's key
    document: dict = field(repr=False, default_factory=dict)


def pull(link: Link, seq: int) -> Pulled:
    """One finished result, in pieces, as the exact text the board signed."""
    parts: list[str] = []
    offset = 0
    while True:
        reply = link.call(sp.PULL, {"seq": seq, "offset": offset})
        parts.append(reply["text"])
        offset += len(reply["text"])
        if offset >= reply["total"] or not reply["text"]:
            break
    text = "".join(parts)
    mac = reply["mac"]
    verified = link.key is not None and sp.same(mac, sp.mac(link.key, text.encode()))
    return Pulled(seq, text, mac, verified, json.loads(text))


# What a sync talks to on the laptop's side (host/tournament/store.py provides it):
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
    if not hello.get("paired"):
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
               "stored": 0, "duplicates": 0, "kept": 0, "scheduled": 0}
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
    return summary
