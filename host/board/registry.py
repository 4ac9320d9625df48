"""Where the boards are, and one board per folder: the virtual boards this machine runs announce
their serial ports in a folder (`pilkku board start`, `pilkku sim`), and real boards are found
on USB by vendor; `pilkku sync` reads this list. A virtual board's folder is its flash, so only
one board may run on it: the board holds a lock on DIR/board.lock (passed on to the MicroPython
process, so the lock lasts as long as anything runs on that flash). Nothing here opens a port."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import stat
import time
from pathlib import Path

from host.errors import os_reason
from host.i18n import _

# Where `pilkku board start` announces its virtual boards, so `pilkku sync` finds them.
VIRTUAL_BOARDS = Path(os.environ.get("XDG_RUNTIME_DIR", "/tmp")) / "pilkku-boards"
BOARD_VENDORS = (0x2E8A, 0x303A, 0x10C4, 0x1A86)  # Raspberry Pi, Espressif, USB-UART bridges
LOCK = "board.lock"


class BoardBusy(RuntimeError):
    """A board runs on this folder already."""


def announce(port: str) -> Path:
    VIRTUAL_BOARDS.mkdir(parents=True, exist_ok=True)
    entry = VIRTUAL_BOARDS / ("%d.port" % os.getpid())
    entry.write_text(port)
    return entry


def found_ports() -> list[str]:
    """Boards on USB (by vendor) and the virtual boards running on this machine."""
    from serial.tools import list_ports

    ports = [p.device for p in list_ports.comports() if p.vid in BOARD_VENDORS]
    if VIRTUAL_BOARDS.exists():
        for entry in sorted(VIRTUAL_BOARDS.glob("*.port")):
            try:
                os.kill(int(entry.stem), 0)
                ports.append(entry.read_text().strip())
            except (OSError, ValueError):
                entry.unlink(missing_ok=True)  # its board is gone
    return ports


def check_port(port: str) -> None:
    """A port named on the command line must be a serial device (ValueError says why not)."""
    try:
        mode = os.stat(port).st_mode
    except OSError as error:
        raise ValueError(_("%(port)s: %(reason)s: is the board plugged in? (a virtual board's "
                           "port is the one `pilkku board start` printed)") % {
                               "port": port, "reason": os_reason(error)}) from None
    if not stat.S_ISCHR(mode):
        raise ValueError(_("%(port)s is not a serial port (a board's is /dev/ttyACM0, or the "
                           "pty `pilkku board start` printed)") % {"port": port})


class FolderLock:
    """The right to run a board on a folder's flash; `take` refuses while another holds it."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.fd = -1

    def take(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise BoardBusy(_("%(folder)s cannot be a board's folder (%(reason)s): give a "
                              "folder, new or one a board used before") % {
                                  "folder": self.folder, "reason": os_reason(error)}) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise BoardBusy(busy_text(self.folder, running(self.folder) or {})) from None
        self.fd = fd
        self.note("", 0)

    def note(self, pty: str, child: int) -> None:
        """Say who runs the board (this process, its MicroPython process) and on which pty."""
        data = json.dumps({"pid": os.getpid(), "child": child, "pty": pty}).encode()
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, data, 0)

    def release(self) -> None:
        if self.fd >= 0:
            os.ftruncate(self.fd, 0)
            os.close(self.fd)
            self.fd = -1


def busy_text(folder: Path, info: dict) -> str:
    return _("a virtual board runs on %(folder)s already (pid %(pid)s, USB serial %(pty)s): "
             "use that one, or stop it first: pilkku board stop %(folder)s") % {
                 "folder": folder, "pid": info.get("pid", "?"), "pty": info.get("pty") or "?"}


def running(folder: Path) -> dict | None:
    """Who runs a board on this folder ({"pid", "child", "pty"}), or None if nothing does."""
    try:
        fd = os.open(Path(folder) / LOCK, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return None  # nobody holds it
        except OSError:
            pass
        try:
            info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        except ValueError:
            info = {}
        return info if isinstance(info, dict) else {}
    finally:
        os.close(fd)


def stop(folder: Path, timeout: float = 10.0) -> bool:
    """Stop the board running on a folder: its host process gently, then whatever still holds
    the flash (a MicroPython process whose host is gone). False: it would not stop."""
    info = running(folder)
    if info is None:
        return True
    for key, sig in (("pid", signal.SIGTERM), ("child", signal.SIGKILL), ("pid", signal.SIGKILL)):
        pid = info.get(key)
        if isinstance(pid, int) and pid > 0 and pid != os.getpid():
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + timeout / 3
        while running(folder) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        if running(folder) is None:
            return True
        info = running(folder) or info
    return False
