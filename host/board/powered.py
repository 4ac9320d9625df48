"""A board `pilkku board start` keeps powered (a virtual board, an emulated Pico) until Ctrl-C
or SIGTERM: started, its port written in its folder and announced (so that `pilkku sync`,
`pilkku flash`, the hall and mpremote find it), powered up again on the same flash and pty
when its process dies (a power cut: kill -9), its face printed as it changes (--show); its
port's file and announcement taken away when it stops."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from host.board.registry import FolderLock, announce

PORT = "port"  # the folder's file naming the running board's pty


def interrupt(signum, frame) -> None:
    """SIGTERM (`pilkku board stop`) ends it as Ctrl-C does."""
    raise KeyboardInterrupt


def keep_powered(board: Any, lock: FolderLock, folder: Path, show: bool, what: str,
                 lost: str) -> None:
    """Run `board` until KeyboardInterrupt. `what`: what is said once it runs (with
    %(folder)s and %(pty)s), `lost`: what is said when its power went, both in the CLI's
    language."""
    from host.board.sim import frame_text

    announced = None
    try:
        board.start()
        lock.note(board.pty_path, board.process.pid if board.process else 0)
        (folder / PORT).write_text(board.pty_path)
        announced = announce(board.pty_path)
        print(what % {"folder": folder, "pty": board.pty_path}, flush=True)
        shown = ""
        while True:
            time.sleep(0.1)
            if not board.alive():
                print(lost, flush=True)
                board.kill()
                board.start()
                lock.note(board.pty_path, board.process.pid if board.process else 0)
            if show and frame_text(board) != shown:
                shown = frame_text(board)
                print(shown, flush=True)
    finally:
        board.close()
        (folder / PORT).unlink(missing_ok=True)
        if announced is not None:
            announced.unlink(missing_ok=True)
