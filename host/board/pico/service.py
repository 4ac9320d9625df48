"""`pilkku board start DIR --pico [--uf2 FILE]`: an emulated Raspberry Pi Pico behind the same
board service as the virtual board: its USB CDC on a pty announced in the registry (so
`pilkku flash`, `pilkku sync`, the hall and mpremote find it unchanged), the folder's lock
held while it runs, and power back on the same flash and pty when the emulator dies.

A folder without a flash image is a blank chip: it is given the UF2 (--uf2, else
$PILKKU_PICO_UF2), as a Pico in BOOTSEL mode takes a dragged file; then `pilkku flash` puts
the firmware on it as on a real Pico. --update drags the UF2 again (the flash's littlefs and
ROM partition stay where the UF2 does not reach).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from host.board import powered
from host.board.pico.board import PicoBoard
from host.board.pico.chip import ENV_UF2, PicoError
from host.board.registry import FolderLock
from host.i18n import _


def uf2_path(given: str | None) -> Path:
    where = given or os.environ.get(ENV_UF2, "")
    if not where:
        raise PicoError(_("which Pico firmware? give --uf2 FILE (the RPI_PICO .uf2 from "
                          "micropython.org) or set %(variable)s") % {"variable": ENV_UF2})
    path = Path(where)
    if not path.is_file():
        raise PicoError(_("%(path)s: no such UF2 file") % {"path": path})
    return path


def run(folder: Path, lock: FolderLock, uf2: str | None, update: bool, show: bool) -> int:
    board = PicoBoard(folder)
    board.keep_open = (lock.fd,)
    signal.signal(signal.SIGTERM, powered.interrupt)
    try:
        if update or not board.image.exists():
            image = uf2_path(uf2)
            board.flash_uf2(image, erase=not board.image.exists())
            print(_("flashed %(uf2)s onto the emulated Pico's flash %(image)s") % {
                "uf2": image.name, "image": board.image}, flush=True)
        powered.keep_powered(board, lock, folder, show, _(
            "emulated Pico %(folder)s running\nUSB serial: %(pty)s   (try: mpremote connect "
            "%(pty)s fs ls)\nstop it with Ctrl-C or: pilkku board stop %(folder)s"),
            _("the Pico lost power; powering it up again"))
    except KeyboardInterrupt:
        pass
    except (PicoError, ValueError, OSError) as error:
        print("pilkku board start: %s" % error, file=sys.stderr)
        return 2
    finally:
        board.close()
    print(_("emulated Pico %(folder)s stopped") % {"folder": folder})
    return 0
