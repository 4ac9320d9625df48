"""A real board's USB serial for the firmware: non-blocking reads of the REPL's stdin (the
sync protocol shares it with the REPL), and the idle wait between ticks. Ctrl-C needs nothing
here: the board's USB driver raises KeyboardInterrupt by itself."""

import select
import sys


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


def tick_done(ms: int) -> None:
    pass


def host_ms():
    return None  # a real board keeps its own time
