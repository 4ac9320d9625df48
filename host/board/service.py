"""`pilkku board start DIR` / `pilkku board stop DIR`: a virtual board that others (mpremote,
`pilkku flash`, `pilkku sync`, pyserial) reach over its USB serial pty, as a real board.

The board keeps its own clock here. If its process dies (a power cut: kill -9), the board is
powered up again on the same flash and the same pty, as a board whose power comes back.
One board per folder: a second start on a folder whose board runs is refused, naming it
(host/board/registry.py holds the lock), and `stop` finds the running one by that lock.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from host.board import firmware_image, powered, registry
from host.board.registry import BoardBusy, FolderLock
from host.board.virtual_board import CPYTHON_NOTICE, BoardError, VirtualBoard
from host.i18n import _

PID = "host.pid"  # (older releases wrote these; removed on sight)


def start(folder: Path, update: bool = False, show: bool = False, pico: bool = False,
          uf2: str | None = None) -> int:
    lock = FolderLock(folder)
    try:
        lock.take()
    except BoardBusy as busy:
        print("pilkku board start: %s" % busy, file=sys.stderr)
        return 2
    try:
        if pico:  # an emulated Raspberry Pi Pico (docs/pico.md)
            from host.board.pico import service as pico_service

            return pico_service.run(folder, lock, uf2, update, show)
        return _run(folder, lock, update, show)
    finally:
        lock.release()


def _run(folder: Path, lock: FolderLock, update: bool, show: bool) -> int:
    board = VirtualBoard(folder)
    board.keep_open = (lock.fd,)
    if board.cpython:
        print(_(CPYTHON_NOTICE), flush=True)
    signal.signal(signal.SIGTERM, powered.interrupt)
    try:
        if update or not board.image.exists():
            files = board.install_firmware()
            print(_("installed firmware %(version)s (%(count)d files) on %(image)s") % {
                "version": firmware_image.version(files), "count": len(files),
                "image": board.image}, flush=True)
        powered.keep_powered(board, lock, folder, show, _(
            "virtual board %(folder)s running\nUSB serial: %(pty)s   (try: mpremote connect "
            "%(pty)s fs ls)\nstop it with Ctrl-C or: pilkku board stop %(folder)s"),
            _("the board lost power; powering it up again"))
    except KeyboardInterrupt:
        pass
    except BoardError as error:
        print("pilkku board start: %s" % error, file=sys.stderr)
        return 2
    finally:
        board.close()
        (folder / PID).unlink(missing_ok=True)
    print(_("virtual board %(folder)s stopped") % {"folder": folder})
    return 0


def stop(folder: Path, timeout: float = 10.0) -> int:
    from host.board.pico.board import IMAGE

    pico = (Path(folder) / IMAGE).exists()
    if registry.running(folder) is None:
        print("pilkku board stop: " + (_("no emulated Pico is running on %(folder)s") if pico
                                       else _("no virtual board is running on %(folder)s"))
              % {"folder": folder}, file=sys.stderr)
        return 2
    if not registry.stop(folder, timeout):
        print("pilkku board stop: " + _("the board on %(folder)s did not stop: see %(who)s")
              % {"folder": folder, "who": registry.running(folder)}, file=sys.stderr)
        return 2
    print((_("emulated Pico %(folder)s stopped") if pico
           else _("virtual board %(folder)s stopped")) % {"folder": folder})
    return 0
