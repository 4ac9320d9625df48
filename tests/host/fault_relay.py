"""A cable that misbehaves, for sync tests: a pty for the laptop, forwarding both ways to a
board's pty, and dropping, corrupting, duplicating or delaying each chunk of bytes with a given
probability. A corrupted byte becomes another printable one (a real USB link never delivers a
Ctrl-C that was not sent, and a stray one would stop the board's program)."""

from __future__ import annotations

import os
import random
import threading
import time

from host.board.pty_relay import PtyRelay
from rules_core import sync_protocol as sp


class FaultRelay(PtyRelay):
    """`rate`: the chance a chunk is dropped, corrupted, duplicated or delayed. `byte_rate`:
    the chance each byte is damaged, in one of `kinds`: "flip" replaces it by any other byte
    (0x03, "~" and newlines too: a poor serial line's noise, which the board must survive),
    "drop" loses it, "insert" puts any byte after it."""

    def __init__(self, board_port: str, rate: float, seed: int = 0,
                 byte_rate: float = 0.0, kinds: tuple[str, ...] = ("flip",)) -> None:
        self.rate = rate
        self.byte_rate = byte_rate
        self.kinds = kinds
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.faults = {"drop": 0, "corrupt": 0, "duplicate": 0, "delay": 0, "byte": 0}
        super().__init__(board_port)

    def _noise(self, chunk: bytearray) -> bytearray:
        out = bytearray()
        with self.lock:
            for byte in chunk:
                if self.rng.random() >= self.byte_rate:
                    out.append(byte)
                    continue
                self.faults["byte"] += 1
                kind = self.kinds[0] if len(self.kinds) == 1 else self.rng.choice(self.kinds)
                if kind == "flip":
                    out.append((byte + self.rng.randrange(1, 256)) & 0xFF)
                elif kind == "insert":
                    out += bytes((byte, self.rng.randrange(256)))
        return out

    def _fault(self) -> str | None:
        with self.lock:
            if self.rng.random() >= self.rate:
                return None
            kind = self.rng.choice(("drop", "corrupt", "duplicate", "delay"))
            self.faults[kind] += 1
            return kind

    def carry(self, data: bytes, target: int) -> None:
        fault = self._fault()
        if fault == "drop":
            return
        chunk = bytearray(data)
        if fault == "corrupt":
            with self.lock:
                chunk[self.rng.randrange(len(chunk))] = self.rng.randrange(0x21, 0x7E)
        if self.byte_rate:
            chunk = self._noise(chunk)
        if fault == "delay":
            time.sleep(self.rng.uniform(0.01, 0.15))
        os.write(target, chunk)
        if fault == "duplicate":
            os.write(target, chunk)


class AckAndNakLost(PtyRelay):
    """A cable that damages the first pull carrying an acknowledgement ("ack") on its way to
    the board, and then the board's NAK for it on its way back, which it also holds back a
    little (so it comes while the laptop waits for that pull's answer, not for the pull
    before): the laptop hears only damage, never the board's answer. Everything else passes."""

    def __init__(self, board_port: str, hold: float = 0.3) -> None:
        self.hold = hold
        self.state = "ack"  # then "nak", then "done"
        super().__init__(board_port)

    def carry(self, data: bytes, target: int) -> None:
        chunk = bytearray(data)
        if self.state == "ack" and target == self.board:
            at = chunk.find(b'"ack":')
            if at >= 0:
                chunk[at + 1] = ord("b")  # the CRC no longer holds: the board NAKs it
                self.state = "nak"
        elif self.state == "nak" and target == self.master:
            at = chunk.find(sp.NAK_FRAME[:-1])
            if at >= 0:
                chunk[at + 2] = ord("9")
                self.state = "done"
                time.sleep(self.hold)
        os.write(target, chunk)
