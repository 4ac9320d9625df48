"""A cable between the laptop and a board's serial port, made of a pty: the laptop opens
`relay.port`, the relay forwards bytes both ways to the board's port, and a subclass decides
what the cable does to each chunk on the way (a baud rate's pacing for benchmarks, faults for
tests)."""

from __future__ import annotations

import fcntl
import os
import select
import threading
import tty

CHUNK = 64  # bytes taken off the line at once


class PtyRelay:
    def __init__(self, board_port: str) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self.board = os.open(board_port, os.O_RDWR | os.O_NOCTTY)
        # The board's port is the relay's alone, as pyserial's exclusive open takes it.
        fcntl.flock(self.board, fcntl.LOCK_EX | fcntl.LOCK_NB)
        tty.setraw(self.board)
        self.running = True
        self.threads = [threading.Thread(target=self._forward, args=pair, daemon=True)
                        for pair in ((self.master, self.board), (self.board, self.master))]
        for thread in self.threads:
            thread.start()

    def carry(self, data: bytes, target: int) -> None:
        """Deliver one chunk to `target` (the other end); subclasses change how."""
        os.write(target, data)

    def _forward(self, source: int, target: int) -> None:
        while self.running:
            if not select.select([source], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(source, CHUNK)
                self.carry(data, target)
            except OSError:
                return  # an end was closed: the cable is pulled

    def close(self) -> None:
        self.running = False
        for thread in self.threads:  # gone before the fds are: a thread polling a closed
            thread.join()  # fd's number would take the bytes of the next file given it
        for fd in (self.master, self._slave, self.board):
            os.close(fd)
