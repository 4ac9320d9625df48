"""The virtual board's watchdog timer, the silicon of a Pico's WATCHDOG block as the ROM
(virtual_rom.py) offers it: once started, it must be fed within its timeout or it resets the
board, whatever the program is doing; stopping it is the board file's business (a Pico's
board file clears the block's ENABLE bit before the REPL).

The timer is a thread of its own (the unix port's `_thread`, or CPython's), so a program stuck
in a loop cannot stop it. It resets the board the way a power-on does to the firmware: it
interrupts the program (SIGINT to the process, which both interpreters turn into
KeyboardInterrupt in the main thread) with `fired` set, and the ROM boots again from the
flash instead of dropping to the REPL. A top-level ROM module, like virtual_flash.

It counts the board's time, not the host's: a poll while the program's thread is held in the
host's kernel (state "D" in /proc/self/stat: the host's pty or disk, slowed by a busy host, for
seconds at a time) is not counted, as a Pico's watchdog never sees its USB host's load.
"""

import os
import sys
import time

try:
    import _thread
except ImportError:  # a port without threads: the watchdog cannot be modelled
    _thread = None  # type: ignore[assignment]

_POLL_MS = 50


def _pause():
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(_POLL_MS)
    else:
        time.sleep(_POLL_MS / 1000)


def _interrupt():
    if hasattr(os, "kill"):  # CPython
        import signal  # type: ignore[import-not-found]

        os.kill(os.getpid(), signal.SIGINT)
    else:
        # The unix port has no kill: the shell's parent is this process. system() ignores
        # SIGINT in its caller until the shell ends, so the kill comes a moment later.
        os.system("(sleep 0.1; kill -INT $PPID) &")


class Watchdog:
    def __init__(self):
        self.timeout = 0  # ms; 0: stopped
        self.left = 0  # ms until the reset, counted down by the timer as a WDT counts
        self.fired = False
        self._stat = None  # /proc/self/stat, where there is one: the program's thread's state
        self._buf = bytearray(512)

    def power_on(self):
        """Start the timer's thread, from the ROM: a thread keeps the globals and locals of
        the code that started it, and the firmware's would keep its old modules in the heap
        across a reset."""
        try:
            self._stat = open("/proc/self/stat", "rb")
        except OSError:
            self._stat = None
        if _thread is not None:
            _thread.start_new_thread(self._watch, ())

    def start(self, timeout_ms):
        self.left = timeout_ms
        self.timeout = timeout_ms

    def feed(self):
        self.left = self.timeout

    def stop(self):
        self.timeout = 0

    def reset_done(self):
        """The board has come up again: the watchdog is off until the firmware starts it."""
        self.timeout = 0
        self.fired = False

    def held(self):
        """Whether the program's thread is held in the host's kernel now (state "D")."""
        stat = self._stat
        if stat is None:
            return False
        buf = self._buf
        try:
            stat.seek(0)
            got = stat.readinto(buf)
        except OSError:
            return False
        at = buf.rfind(b")", 0, got)  # the state follows the command's name in brackets
        return 0 < at and at + 2 < got and buf[at + 2] == 0x44

    def _watch(self):
        # Nothing is allocated here while the timer runs: this thread shares the heap with a
        # program it must never disturb.
        while True:
            _pause()  # a loaded machine's late wake-ups only make the timer lenient
            self.count()

    def count(self):
        """One poll of the timer: its time off the count, unless the program is held by the
        host; the reset when the count runs out."""
        timeout = self.timeout
        if not timeout or self.fired or self.held():
            return
        self.left -= _POLL_MS
        if self.left < 0:
            self.fired = True
            self.timeout = 0
            sys.stderr.write("virtual board: watchdog reset (not fed for %d ms)\n" % timeout)
            _interrupt()
