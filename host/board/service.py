"""`pilkku board start DIR` / `pilkku board stop DIR`: a virtual board that others (mpremote,
`pilkku flash`, `pilkku sync`, pyserial) reach over its USB serial pty, as a real board.

The board keeps its own clock here. If its process dies (a power cut: kill -9), the board is
powered up again on the same flash and the same pty, as a board whose power comes back.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from host.board import firmware_image
from host.board.registry import announce
from host.board.sim import frame_text
from host.board.virtual_board import CPYTHON_NOTICE, VirtualBoard

PID = "host.pid"
PORT = "port"


def start(folder: Path, update: bool = False, show: bool = False) -> int:
    board = VirtualBoard(folder)
    if board.cpython:
        print(CPYTHON_NOTICE, flush=True)
    fresh = not board.image.exists()
    if fresh or update:
        files = board.install_firmware()
        print("installed firmware %s (%d files) on %s"
              % (firmware_image.version(files), len(files), board.image), flush=True)
    board.start()
    (folder / PID).write_text(str(os.getpid()))
    (folder / PORT).write_text(board.pty_path)
    announced = announce(board.pty_path)  # so that `pilkku sync` finds it
    print("virtual board %s running\nUSB serial: %s   (try: mpremote connect %s fs ls)\n"
          "stop it with Ctrl-C or: pilkku board stop %s"
          % (folder, board.pty_path, board.pty_path, folder), flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    shown = ""
    try:
        while True:
            time.sleep(0.1)
            if not board.alive():
                print("the board lost power; powering it up again", flush=True)
                board.start()
            if show and frame_text(board) != shown:
                shown = frame_text(board)
                print(shown, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
        for name in (PID, PORT):
            (folder / name).unlink(missing_ok=True)
        announced.unlink(missing_ok=True)
    print("virtual board %s stopped" % folder)
    return 0


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def stop(folder: Path, timeout: float = 10.0) -> int:
    try:
        pid = int((folder / PID).read_text())
    except (OSError, ValueError):
        print("pilkku board stop: no virtual board is running in %s" % folder)
        return 1
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while (folder / PID).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return 0
