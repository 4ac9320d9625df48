"""The virtual board's USB serial, as the ROM (virtual_rom.py) offers it to the REPL and the
firmware: stdin/stdout on the pseudo-terminal, read without blocking, with a push-back buffer
so bytes that arrive behind a Ctrl-C are kept for the REPL, as a board's USB driver keeps them.
`interrupt` is the board's kbd_intr: on, a Ctrl-C raises KeyboardInterrupt; off, it is a byte
and a read ends with it. A top-level ROM module, like virtual_flash."""

import os
import select
import sys


class Usb:
    """The USB serial: non-blocking reads with a push-back buffer, so bytes that arrive
    behind a Ctrl-C are kept for the REPL, as a board's USB driver keeps them."""

    def __init__(self):
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.pending = b""
        self.one = bytearray(1)
        self.interrupt = True  # Ctrl-C raises KeyboardInterrupt (a Pico's kbd_intr(3))

    def _fill(self, timeout_ms):
        if hasattr(os, "read"):  # CPython: what is there, without its own buffering
            if self.poller.poll(timeout_ms):
                self.pending += os.read(0, 256)
            return
        # A byte at a time: a stream read of more waits until all of it has come.
        got = bytearray()
        while len(got) < 256 and self.poller.poll(timeout_ms if not got else 0):
            if not self.stdin.readinto(self.one):
                break
            got.append(self.one[0])
        if got:
            self.pending += bytes(got)

    def read(self):
        """Bytes available now (b"" if none). A Ctrl-C raises KeyboardInterrupt, as the
        board's USB driver does, keeping what came after it."""
        if not self.pending:
            self._fill(0)
        data = self.pending
        at = data.find(b"\x03")
        if at >= 0 and self.interrupt:
            self.pending = data[at + 1:]
            raise KeyboardInterrupt
        if at >= 0:  # Ctrl-C is a byte now (kbd_intr(-1)): the read ends with it
            self.pending = data[at + 1:]
            return data[:at + 1]
        self.pending = b""
        return data

    def read_byte(self):
        """Blocking read of one byte (for the REPL)."""
        while not self.pending:
            self._fill(200)  # back to the VM now and then: the watchdog may interrupt
        byte = self.pending[0]
        self.pending = self.pending[1:]
        return byte

    def write(self, data):
        self.stdout.write(data)
        self.stdout.flush()

    def wait(self, timeout_ms):
        """Sleep until bytes arrive on the serial or `timeout_ms` passes."""
        if not self.pending:
            self.poller.poll(timeout_ms)
