"""A cable that misbehaves, for sync tests: a pty for the laptop, forwarding both ways to a
board's pty, and dropping, corrupting, duplicating or delaying each chunk of bytes with a given
probability. A corrupted byte becomes another printable one (a real USB link never delivers a
Ctrl-C that was not sent, and a stray one would stop the board's program)."""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty


class FaultRelay:
    def __init__(self, board_port: str, rate: float, seed: int = 0) -> None:
        self.rate = rate
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self.board = os.open(board_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.board)
        self.faults = {"drop": 0, "corrupt": 0, "duplicate": 0, "delay": 0}
        self.running = True
        self.threads = [threading.Thread(target=self._forward, args=pair, daemon=True)
                        for pair in ((self.master, self.board), (self.board, self.master))]
        for thread in self.threads:
            thread.start()

    def _fault(self) -> str | None:
        with self.lock:
            if self.rng.random() >= self.rate:
                return None
            kind = self.rng.choice(("drop", "corrupt", "duplicate", "delay"))
            self.faults[kind] += 1
            return kind

    def _forward(self, source: int, target: int) -> None:
        while self.running:
            if not select.select([source], [], [], 0.05)[0]:
                continue
            try:
                data = bytearray(os.read(source, 64))
            except OSError:
                return
            fault = self._fault()
            if fault == "drop":
                continue
            if fault == "corrupt":
                with self.lock:
                    data[self.rng.randrange(len(data))] = self.rng.randrange(0x21, 0x7E)
            if fault == "delay":
                time.sleep(self.rng.uniform(0.01, 0.15))
            try:
                os.write(target, data)
                if fault == "duplicate":
                    os.write(target, data)
            except OSError:
                return

    def close(self) -> None:
        self.running = False
        for thread in self.threads:
            thread.join(1)
        for fd in (self.master, self._slave, self.board):
            os.close(fd)
