"""The one adapter around mpremote's Python API: a board's raw REPL over a serial port.

    with Link.open("/dev/ttyACM0") as link:   # or a virtual board's pty
        link.raw_repl(soft_reset=True)
        print(link.run("import sys\\nprint(sys.platform)"))

mpremote's SerialTransport does the raw REPL (and raw-paste where the board offers it); this
module only opens it, turns its errors into `LinkError`s that say what to do, and adds the
one step mpremote keeps in its REPL: leaving the raw REPL to soft-reset into main.py.

A board run by this process keeps its own clock (host/board/port_clock.py: an emulated
Pico's is the chip's, a virtual board's the time its process was let run) and is waited for
in it: every read mpremote makes waits for its bytes up to MPREMOTE_WAIT_S of the board's
clock, mpremote's own longest wait, so its timeouts (counted in the laptop's seconds) run out
only after the board has been silent that long in its own time.

ROMFS, from mpremote's own romfs code: `romfs_image` builds an image with mpremote's
`VfsRomWriter` (the encoder `mpremote romfs build` uses), `Link.rom_partition` asks the
board for its ROM partition as `mpremote romfs query` does.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import struct
from collections.abc import Callable

import serial
from mpremote import commands as mpremote_commands
from mpremote.romfs import VfsRomWriter
from mpremote.transport import TransportError, TransportExecError
from mpremote.transport_serial import SerialTransport

from host.board import port_clock
from host.i18n import _

# Seconds one read may block. mpremote's own timeouts (10 s without a byte) only run when a
# read returns; on a pty a read without a timeout would wait forever for a dead board.
READ_TIMEOUT = 1.0
# mpremote's longest wait for a byte (read_until, follow: 10 s), in a board's own clock.
MPREMOTE_WAIT_S = 10.0
POLL_S = 0.05  # the laptop's seconds between looks at that clock while bytes are awaited


class _OnBoardTime:
    """The port as mpremote reads it, for a board with its own clock: a read waits for its
    bytes until the board's clock has moved `timeout` on (so a read that comes back short
    means the board was silent that long in its own time); the rest is the port's."""

    def __init__(self, port: serial.Serial, clock: Callable[[], float],
                 timeout: float = MPREMOTE_WAIT_S) -> None:
        self._port = port
        self._clock = clock
        self.wait = timeout
        port.timeout = POLL_S

    def read(self, size: int = 1) -> bytes:
        got = b""
        until = self._clock() + self.wait
        while len(got) < size:
            more = self._port.read(size - len(got))
            got += more
            if not more and self._clock() >= until:
                break
        return got

    def __getattr__(self, name: str):
        return getattr(self._port, name)


class LinkError(RuntimeError):
    """The board could not be reached or stopped answering; the text says what to do."""


class BoardRaised(LinkError):
    """Code sent to the board raised; `last` is the traceback's last line."""

    def __init__(self, traceback: str) -> None:
        lines = traceback.strip().splitlines()
        self.last = lines[-1] if lines else "error"
        super().__init__(_("the board raised %(error)s") % {"error": self.last})


class Link:
    def __init__(self, port: str, transport: SerialTransport) -> None:
        self.port = port
        self.transport = transport
        # Which wait ran out, when one does: mpremote's, in the laptop's or the board's time.
        self.waited = (_("mpremote's wait of %(seconds)d s of the board's own clock")
                       % {"seconds": MPREMOTE_WAIT_S}
                       if isinstance(transport.serial, _OnBoardTime) else
                       _("mpremote's wait of %(seconds)d s") % {"seconds": MPREMOTE_WAIT_S})

    @classmethod
    def open(cls, port: str) -> Link:
        try:
            transport = SerialTransport(port, timeout=READ_TIMEOUT)
        except TransportError:
            raise LinkError(_why_not_open(port)) from None
        if port_clock.is_emulated(port):
            transport.serial = _OnBoardTime(transport.serial, port_clock.clock_for(port))
        return cls(port, transport)

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def raw_repl(self, soft_reset: bool) -> None:
        """Interrupt whatever runs and enter the raw REPL (after a soft reset if asked:
        a clean heap, no modules loaded; main.py does not run, as on a Pico)."""
        said = io.StringIO()
        try:
            for attempt in (1, 2):
                if soft_reset:
                    # Leave a raw REPL first (ours, or one a killed session left): the virtual
                    # board's raw REPL keeps a stray "\r" across Ctrl-A, so its Ctrl-D would
                    # run that instead of resetting. A Pico takes either way.
                    self.transport.exit_raw_repl()
                try:
                    with contextlib.redirect_stdout(said):  # mpremote prints what it got
                        self.transport.enter_raw_repl(soft_reset=soft_reset)
                    break
                except TransportError:
                    # Not a byte back: the keys may have been lost on the way (a port just
                    # opened, a board just up): asked once more, as a person would.
                    if attempt == 2 or _heard(said):
                        raise
        except TransportError:
            got = _heard(said)
            raise LinkError(
                _("%(port)s does not answer as a MicroPython REPL (it sent %(sent)s in "
                  "%(wait)s). Is it the board's port, with MicroPython on it? Unplug and replug "
                  "the board (or restart the virtual board) and try again.") % {
                      "port": self.port,
                      "sent": got[-80:] if got else _("nothing"),
                      "wait": self.waited}) from None
        except (OSError, serial.SerialException) as lost:
            raise LinkError(_lost(self.port, lost)) from None

    def run(self, code: str) -> str:
        """Execute code in the raw REPL; return what it printed."""
        try:
            return self.transport.exec(code).decode("utf-8", "replace")
        except TransportExecError as raised:
            raise BoardRaised(raised.error_output) from None
        except (TransportError, struct.error) as silent:  # struct: raw-paste's header cut short
            raise LinkError(_("%(port)s stopped answering (%(error)s: %(wait)s ran out): was "
                              "the cable pulled or the board reset? Plug it back in and run "
                              "the command again.") % {
                                  "port": self.port, "error": silent,
                                  "wait": self.waited}) from None
        except (OSError, serial.SerialException) as lost:
            raise LinkError(_lost(self.port, lost)) from None

    def rom_partition(self) -> tuple[int, int, bool] | str:
        """(size, erase block size, is a block device) of the board's ROM partition 0, found
        as `mpremote romfs query` finds it (its own function), or why there is none. The
        partition is either mapped memory (a memoryview: the virtual board's model) or a
        block device object with ioctl/readblocks/writeblocks and the buffer protocol over
        XIP memory (the rp2 port's)."""
        said = io.StringIO()
        try:
            self.run("import vfs")
            if not self.transport.eval("hasattr(vfs,'rom_ioctl')"):
                return _("its MicroPython has no ROMFS support (no vfs.rom_ioctl)")
            if self.transport.eval("vfs.rom_ioctl(1)") in (0, False):
                return _("its MicroPython has no ROM partition (vfs.rom_ioctl(1) is 0)")
            with contextlib.redirect_stdout(said):  # mpremote prints the partition's size
                has_object, size, block = mpremote_commands._do_romfs_query_partition(
                    self.transport, 0)
        except mpremote_commands.CommandError:
            return _("its MicroPython has no ROM partition 0 (vfs.rom_ioctl(2, 0) < 0)")
        except TransportExecError as raised:
            raise BoardRaised(raised.error_output) from None
        except TransportError as silent:
            raise LinkError(_("%(port)s stopped answering (%(error)s: %(wait)s ran out): plug "
                              "it back in and run the command again") % {
                                  "port": self.port, "error": silent,
                                  "wait": self.waited}) from None
        except (OSError, serial.SerialException) as lost:
            raise LinkError(_lost(self.port, lost)) from None
        if size <= 0 or block <= 0:
            return _("its ROM partition is empty (size %(size)d)") % {"size": size}
        return size, block, bool(has_object)

    def start_firmware(self) -> None:
        """Leave the raw REPL and soft-reset from the friendly REPL: the board runs main.py."""
        try:
            self.transport.exit_raw_repl()
            self.transport.write_ctrl_d(lambda _data: None)
        except (OSError, serial.SerialException) as lost:
            raise LinkError(_lost(self.port, lost)) from None

    def close(self) -> None:
        """Leave the board at its friendly REPL (as mpremote does) and close the port."""
        with contextlib.suppress(OSError, serial.SerialException):
            if self.transport.in_raw_repl:
                self.transport.exit_raw_repl()
            self.transport.close()


def romfs_image(files: dict[str, bytes]) -> bytes:
    """A ROMFS image of `files` (path -> contents, folders by "/"), made by mpremote's own
    writer, folders and files in sorted order so the same files make the same bytes."""
    tree: dict = {}
    for path, data in files.items():
        parts = path.split("/")
        folder = tree
        for part in parts[:-1]:
            folder = folder.setdefault(part, {})
        folder[parts[-1]] = data
    writer = VfsRomWriter()

    def add(folder: dict) -> None:
        for name in sorted(folder):
            if isinstance(folder[name], dict):
                writer.opendir(name)
                add(folder[name])
                writer.closedir()
            else:
                writer.mkfile(name, folder[name])

    add(tree)
    return writer.finalise()


def _lost(port: str, error: Exception) -> str:
    return _("lost the connection to %(port)s (%(error)s): plug the board back in and run the "
             "command again") % {"port": port, "error": error}


def _heard(said: io.StringIO) -> str:
    """What mpremote printed it got from the board ("" for nothing, which it prints b'')."""
    got = said.getvalue().strip()
    return "" if got == "b''" else got


def _why_not_open(port: str) -> str:
    """mpremote only says "failed to access"; open the port once more to learn why."""
    if not os.path.exists(port) and not port.startswith(("rfc2217:", "socket:", "loop:")):
        return _("no port %(port)s: is the board plugged in? `mpremote devs` lists the ports; "
                 "`pilkku board start` prints a virtual board's") % {"port": port}
    try:
        serial.Serial(port, exclusive=True).close()
    except serial.SerialException as error:
        text = str(error)
        code = getattr(error, "errno", None)
        if code == errno.EACCES:
            return _("no permission to open %(port)s: add yourself to the `dialout` group and "
                     "log in again") % {"port": port}
        if "lock" in text or code == errno.EBUSY:
            return _("%(port)s is busy: close the program using it (mpremote repl, a serial "
                     "monitor, Thonny, `pilkku sync`) and try again") % {"port": port}
        return _("cannot open %(port)s: %(error)s") % {"port": port, "error": text}
    return _("cannot open %(port)s (it opened on a second try: run the command again)") % {
        "port": port}
