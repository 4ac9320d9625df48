"""A real board's USB serial for the firmware: non-blocking reads of the REPL's stdin (the
sync protocol shares it with the REPL), and the idle wait between ticks. While the scoreboard
runs, Ctrl-C is a byte (`serial_interrupt(False)`): a read ends right after one, so what
follows it stays for the REPL, and the firmware decides (docs/sync-protocol.md)."""

import select
import sys

import micropython


class StdioSerial:
    def __init__(self) -> None:
        self._poller = select.poll()
        self._poller.register(sys.stdin, select.POLLIN)
        self._byte = bytearray(1)

    def read(self) -> bytes:
        data = b""
        while self._poller.poll(0) and len(data) < 256:
            if not sys.stdin.buffer.readinto(self._byte):
                break
            data += bytes(self._byte)
            if self._byte[0] == 3:
                break
        return data

    def write(self, data) -> None:
        sys.stdout.buffer.write(data)

    def wait(self, timeout_ms: int) -> None:
        self._poller.poll(timeout_ms)


_serial = None


def usb() -> StdioSerial:
    global _serial
    if _serial is None:
        _serial = StdioSerial()
    return _serial


def wait(timeout_ms: int) -> int:
    """Idle until serial input or `timeout_ms`; a real board keeps its own time (-1)."""
    usb().wait(timeout_ms)
    return -1


def serial_interrupt(on: bool) -> None:
    """Whether a Ctrl-C on the USB serial raises KeyboardInterrupt (the REPL's way)."""
    micropython.kbd_intr(3 if on else -1)


def tick_done(ms: int, spent_us: int) -> None:
    pass  # a real board's ticks are its own: nobody waits for them


def host_ms():
    return None  # a real board keeps its own time
