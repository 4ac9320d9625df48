"""A board that sends not a byte back to the raw REPL's keys is asked once more
(host/board/mpremote_link.py `Link.raw_repl`): keys sent to a port just opened, or to a board
just up, can be lost on the way, and a person would press them again. CI once met a stock
emulated Pico that said nothing to its first Ctrl-A (stop 39)."""

from __future__ import annotations

import os
import select
import threading
import tty
from collections.abc import Iterator

import pytest

from host.board import port_clock
from host.board.mpremote_link import Link

BANNER = b"raw REPL; CTRL-B to exit\r\n>"


class DeafOnce:
    """A board's end of a pty that lets the first Ctrl-A go unheard and answers the next."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.asked = 0
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            data = os.read(self.master, 256)
            if b"\x01" in data:
                self.asked += 1
                if self.asked >= 2:
                    os.write(self.master, BANNER)

    def close(self) -> None:
        self.running = False
        self.thread.join()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def board() -> Iterator[DeafOnce]:
    deaf = DeafOnce()
    ticks = [0.0]

    def fast() -> float:  # the board's clock: a second a look, so its waits end at once
        ticks[0] += 1.0
        return ticks[0]

    port_clock.register(deaf.port, fast)
    yield deaf
    port_clock.forget(deaf.port, fast)
    deaf.close()


def test_a_board_silent_to_the_first_ctrl_a_is_asked_again(board):
    link = Link.open(board.port)
    try:
        link.raw_repl(soft_reset=False)
        assert link.transport.in_raw_repl
        assert board.asked == 2
    finally:
        link.close()
