"""Without a MicroPython binary the virtual board runs the same firmware under CPython: the
same keys give the same displays, the journal survives a power cut, mpremote still talks to
it over the pty."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from host.board.virtual_board import VirtualBoard


def test_the_firmware_runs_under_cpython_when_micropython_is_missing(tmp_path):
    board = VirtualBoard(tmp_path / "b", cpython=True)
    board.install_firmware()
    assert (board.image / "firmware" / "app.py").exists()  # sources, not .mpy
    board.start()
    try:
        board.run(200)
        for key in "3#11":
            board.tap(key)
        board.tap("2")
        board.tap("A")
        assert board.texts()["message"].rstrip() == "PL 1"
        board.kill()
        board.start()
        board.run(100)
        assert board.texts()["message"].rstrip() == "PL 1"  # resumed from the journal
        mpremote = Path(sys.executable).parent / "mpremote"
        done = subprocess.run([str(mpremote), "connect", board.pty_path, "exec",
                               "import os; print(sorted(os.listdir('journal')))"],
                              capture_output=True, text=True, timeout=60)
        assert "current.log" in done.stdout, done.stderr
    finally:
        board.close()
