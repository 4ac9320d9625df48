"""The emulated Pico's waits, on its clock (host/board/pico/board.py), without the emulator:
the board's clock reports are fed in as the bridge sends them, and a plain process stands in
for the emulator's (alive while it runs)."""

from __future__ import annotations

import struct
import subprocess
import sys
import threading
import time

import pytest

from host.board.pico import board as pico_board
from host.board.pico.board import PicoBoard
from host.board.pico.chip import ClockRanOut, PicoError


def report(board: PicoBoard, ms: int) -> None:
    """The bridge's "N": the chip's clock now (and its instructions)."""
    board._handle(b"N", struct.pack(">III", ms, 0, 0))


@pytest.fixture
def board(tmp_path):
    pico = PicoBoard(tmp_path / "pico")
    pico.process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    yield pico
    pico.process.kill()
    pico.process.wait()


def test_a_wait_runs_out_on_the_chips_clock_not_the_laptops(board):
    feeder = threading.Timer(0.3, report, (board, 40))  # the chip's clock, slowly
    feeder.start()
    with pytest.raises(ClockRanOut, match="the first frame 30 ms of the emulated Pico's"):
        board.wait_for(lambda: False, 30, "the first frame")
    feeder.join()


def test_a_chip_waiting_for_its_next_step_is_not_taken_for_hung(board, monkeypatch):
    monkeypatch.setattr(pico_board, "STALL_S", 0.2)
    board._reported_at = time.monotonic() - 10  # its last report, long before this wait
    threading.Timer(0.1, report, (board, 10)).start()
    board.wait_for(lambda: board._clock >= 10, None, "the chip's clock at 10 ms")
    with pytest.raises(PicoError, match="the emulator reported no time"):  # then it hangs
        board.wait_for(lambda: board._clock >= 20, None, "the chip's clock at 20 ms")


def test_its_seconds_are_the_chips_while_it_runs_and_the_laptops_once_it_is_off(board):
    start = board.seconds()
    time.sleep(0.2)
    assert board.seconds() == start  # the chip's clock has not moved
    report(board, 1500)
    assert board.seconds() == start + 1.5
    board.process.kill()
    board.process.wait()
    off = board.seconds()
    time.sleep(0.2)
    assert board.seconds() - off >= 0.2  # off: a wait on it ends in the laptop's time
