"""`pilkku sim` in a terminal: it draws the displays from the board's RAM and takes keys."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

from hardware.boards.virtual import ForwardingI2C, model_bus
from hardware.panel import Panel
from host.board import face


def expected_face(score_1: str, score_2: str, clock: str, message: str,
                  shooter: int | None = None) -> str:
    """The face the simulator must draw for these texts (and the shooter's mark on player
    `shooter`'s score display, 0 or 1), made by the same driver and drawing code on a model
    of its own."""
    bus = model_bus()
    panel = Panel(ForwardingI2C(bus))
    panel.init()
    panel.score_1.text(score_1, True)
    panel.score_2.text(score_2, True)
    panel.clock.text(clock, True)
    panel.message.text(message)
    panel.mark(shooter)
    panel.show()
    return face.draw(bus)


def read_for(fd: int, seconds: float) -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out


def test_the_face_follows_the_keyboard(tmp_path):
    master, slave = os.openpty()
    sim = subprocess.Popen([sys.executable, "-m", "host.cli", "sim", "--dir", str(tmp_path)],
                           stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    try:
        first = read_for(master, 8.0).decode(errors="replace")
        assert "PLAYER 1" in first and "USB serial: /dev/pts/" in first
        for key in (b"3", b"\r", b"1", b"1"):  # race to 3, start, lag and break to PL 1
            os.write(master, key)
            time.sleep(0.3)
        screen = read_for(master, 2.0).decode(errors="replace")
        frames = screen.split("\x1b[H\x1b[J")
        assert len(frames) > 2  # redrawn as the keys came
        picture = frames[-1].replace("\r\n", "\n").split("\n\nkeys:")[0]
        assert picture == expected_face("0", "0", "r1", "PL 1 BRK", 0)
        os.write(master, b"q")
        assert sim.wait(timeout=20) == 0
    finally:
        if sim.poll() is None:
            sim.kill()
        os.close(master)
