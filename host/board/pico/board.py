"""The emulated Raspberry Pi Pico, host side: a stock Pico firmware UF2 on rp2040js (a node
process running bridge.mjs beside this file), its flash an image file in the board's folder,
its USB CDC on a pty that mpremote, `pilkku flash` and `pilkku sync` open as a real port.

    board = PicoBoard(Path("pico1"))
    board.flash_uf2(Path(os.environ["PILKKU_PICO_ROMFS_UF2"]))  # a blank chip, dragged a UF2
    board.start()                 # power up (free-running: the board keeps its own time)
    board.pty_path                # give this to mpremote / `pilkku flash` / `pilkku sync`
    board.start(stepped=True)     # or: the clock moves only when step()/run() move it
    board.tap("A"); board.run(500); board.texts()    # keys in, displays out (as VirtualBoard)
    board.kill(); board.start()   # a power cut, and the power back on the same flash and pty
    board.cut_after(n)            # a power cut after n more instructions (then alive() False)
    board.cut_in_flash(k, pages)  # ... during the k-th flash erase/program from now
    board.wait_ms(ms)             # free-running: wait until the board's clock has moved ms
    board.seconds                 # a clock for a laptop's waits on the board (the chip's time)

The folder holds `pico-flash.img` (2 MB, written through at each erase and program, so a
SIGKILL of the emulator is a power cut) and `pico.log` (what the emulator said). The I2C
devices are the HT16K33 model of hardware/ht16k33_model.py at hardware/boards/virtual.py's
layout (others NACK), so `texts()` reads the glass as on the virtual board. `tone` is the
buzzer's (Hz, duty_u16) on GP15; `resets` counts the watchdog's resets; `flash_ops` the
erases and programs since power-up; `misaligned` each (offset, count) programmed that was
not whole aligned 256-byte pages (done as the boot ROM does: bridge.mjs); `cut_missed` why
a cut asked for could not land. Time is the board's clock in ms (`now`), on across cuts.

Every wait on the board is a wait on its own clock, never a guess in the laptop's seconds:
the emulator runs 3-4 times slower than a Pico on an idle laptop and many times slower on a
busy one. A wait ends when what it waits for comes, when the chip's clock has moved its
limit, when the chip loses power, or when the emulator has reported no time at all for
STALL_S of the laptop's seconds (hung); its PicoError says which. `seconds` is that clock
for the tools that talk to the board (the sync's Link, mpremote_link): the chip's time while
it runs freely, the laptop's while it is off, so a wait on a dead board ends too.
"""

from __future__ import annotations

import json
import os
import signal
import struct
import subprocess
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from hardware.boards.virtual import LAYOUT, model_bus
from hardware.keys import KEYPAD_4X4
from host.board import face, port_clock
from host.board.pico.chip import (
    ENV_BOOTROM,
    FLASH_SIZE,
    ClockRanOut,
    PicoError,
    missed_cut,
    ready_to_start,
    uf2_blocks,
)
from host.i18n import _

HERE = Path(__file__).resolve().parent
BRIDGE = HERE / "bridge.mjs"
IMAGE = "pico-flash.img"
# A referee's press, not the virtual board's 60/60 ms tap: the chip's loop is busy for tens of
# milliseconds after a key (its flash work), on the real board as here.
PRESS_MS = 120
RELEASE_MS = 180
# Seconds of the laptop's without a word of the time from a running emulator: then it has
# hung (a loaded laptop starves it for a second or two at most; waits on it are on its clock).
STALL_S = 60.0
class PicoBoard:
    def __init__(self, folder: Path, bootrom: Path | None = None) -> None:
        self.folder = Path(folder)
        self.image = self.folder / IMAGE
        bootrom_path = bootrom or os.environ.get(ENV_BOOTROM, "")
        self.bootrom = Path(bootrom_path) if bootrom_path else None
        self.process: subprocess.Popen | None = None
        self.pty_path = ""
        self.bus = model_bus()
        self.tone = (0, 0)
        self.now = 0  # the board's clock (ms), on across power cuts
        self.instructions = 0  # since the last power-up
        self.resets = 0
        self.flash_ops = 0
        self.misaligned: list[tuple[int, int]] = []
        self.cut_missed = ""
        self.stepped = False
        self.keep_open: tuple[int, ...] = ()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._acked = -1
        self._clock = 0  # the latest time the bridge reported
        self._reported_at = time.monotonic()  # when (the laptop's clock) it last moved
        self._seconds_lock = threading.Lock()
        self._seconds = (time.monotonic(), 0, 0.0)  # (laptop, chip ms, seconds) last read
        self._master = self._slave = -1
        self._to_node = threading.Lock()
        self._usb: threading.Thread | None = None  # the pty's reader of this power-up
        self._log: BinaryIO | None = None

    # --- the chip, off -------------------------------------------------------------

    def erase_chip(self) -> None:
        """A blank 2 MB flash (all 0xFF), as a new chip."""
        self._off("erasing")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.image.write_bytes(b"\xff" * FLASH_SIZE)

    def flash_uf2(self, uf2: Path, erase: bool = True) -> None:
        """Write a UF2 into the flash, as the boot ROM's USB drive does with a dragged file."""
        self._off("flashing a UF2")
        blocks = uf2_blocks(Path(uf2).read_bytes())
        if erase or not self.image.exists():
            self.erase_chip()
        flash = bytearray(self.image.read_bytes())
        for offset, data in blocks:
            flash[offset:offset + len(data)] = data
        self.image.write_bytes(bytes(flash))

    def _off(self, doing: str) -> None:
        if self.alive():
            raise PicoError("%s needs the board off" % doing)

    # --- power -----------------------------------------------------------------------

    def start(self, stepped: bool = False) -> None:
        """Power up on the folder's flash (the same pty as before, if there was one)."""
        node, bootrom = ready_to_start(self.bootrom, self.image, self.folder)
        if self._master < 0:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)
            tty.setraw(self._master)
            self.pty_path = os.ttyname(self._slave)
            port_clock.register(self.pty_path, self.seconds)  # waits on it: in its clock
        self.stepped = stepped
        addresses = [address for address, _kind in LAYOUT]
        config = {"bootrom": str(bootrom.resolve()), "flash": str(self.image.resolve()),
                  "i2c": addresses, "epoch_ms": self.now, "stepped": stepped, "reason": 0}
        self.bus = model_bus()
        self.tone = (0, 0)
        self.instructions = 0
        self.flash_ops = 0
        self._acked = self.now if stepped else -1  # stepped: it waits at `now` for a step
        self._clock = self.now
        self._reported_at = time.monotonic()
        self._log = open(self.folder / "pico.log", "ab")
        self.process = subprocess.Popen(
            [node, str(BRIDGE), json.dumps(config)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self._log, cwd=str(HERE), pass_fds=self.keep_open)
        threading.Thread(target=self._read_node, args=(self.process,), daemon=True).start()
        self._usb = threading.Thread(target=self._read_usb, args=(self.process,), daemon=True,
                                     name="reader of " + self.pty_path)
        self._usb.start()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """Pull the power: SIGKILL, nothing flushed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self._ended()

    def stop(self) -> None:
        self.kill()  # a Pico has no orderly shutdown either

    def close(self) -> None:
        self.stop()
        if self._usb is not None:
            self._usb.join()  # first: polling a reused fd's number, it took a new pty's input
        if self.pty_path:
            port_clock.forget(self.pty_path, self.seconds)
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    def _ended(self) -> None:
        if self.process is not None:
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                try:
                    if pipe is not None:
                        pipe.close()
                except OSError:
                    pass
        with self._changed:
            self.now = max(self.now, self._clock)
            self._changed.notify_all()
        if self._log is not None:
            self._log.close()
            self._log = None

    def cut_after(self, instructions: int) -> None:
        """A power cut after this many more instructions."""
        self._send(b"C", struct.pack(">I", instructions))

    def cut_in_flash(self, operation: int = 1, pages: int = 0, bytes_: int = 0) -> None:
        """A power cut during the `operation`-th erase or program from now (1: the next),
        after `pages` of its pages (256 B) or sectors (4 KB) and `bytes_` bytes of the next
        one were done. If it has no such page or sector, the chip runs on, `cut_missed`
        says why and `wait_dead` raises PicoError with it."""
        if operation < 1 or pages < 0 or not 0 <= bytes_ < 4096:
            raise ValueError("no such cut: %d, %d, %d" % (operation, pages, bytes_))
        self.cut_missed = ""
        self._send(b"X", struct.pack(">III", operation, pages, bytes_))

    def wait_dead(self, limit_ms: int = 60_000) -> bool:
        """Wait for a power cut asked for to happen (True); False if the chip's clock moves
        `limit_ms` on first (0: is it off now?), or it is stepped and has stopped where it was
        asked to (it will not run on by itself). PicoError if the emulator stops reporting
        its time, or the cut could not land (`cut_missed`)."""
        process = self.process
        if process is None:
            return True
        try:
            self.wait_for(lambda: process.poll() is not None or self.paused()
                          or bool(self.cut_missed), limit_ms, "the power cut asked for")
        except PicoError as why:  # the clock ran out, or the power went between two looks
            if process.poll() is None and not isinstance(why, ClockRanOut):
                raise
        if process.poll() is None:
            if self.cut_missed:
                raise PicoError(self.cut_missed)
            return False
        self._ended()
        return True

    def paused(self) -> bool:
        """Stepped, and the chip has reached the time it was last asked to run to."""
        return self.stepped and self._acked >= self.now

    # --- wires -------------------------------------------------------------------------

    def _send(self, kind: bytes, payload: bytes = b"") -> None:
        process = self.process
        if process is None or process.stdin is None or process.poll() is not None:
            raise PicoError(_("the emulated Pico is not running (see %(log)s)")
                            % {"log": self.folder / "pico.log"})
        with self._to_node:
            try:
                process.stdin.write(kind + struct.pack(">I", len(payload)) + payload)
                process.stdin.flush()
            except (OSError, ValueError):
                raise PicoError(_("the emulated Pico lost power")) from None

    def _read_usb(self, process: subprocess.Popen) -> None:
        import select

        master = self._master
        while process.poll() is None:
            try:
                if not select.select([master], [], [], 0.1)[0]:
                    continue
                data = os.read(master, 4096)
            except OSError:
                return
            try:
                self._send(b"U", data)
            except PicoError:
                return

    def _read_node(self, process: subprocess.Popen) -> None:
        stream = process.stdout
        assert stream is not None
        while True:
            try:
                head = stream.read(5)
                if len(head) < 5:
                    break
                body = stream.read(struct.unpack(">I", head[1:])[0])
            except (OSError, ValueError):  # the pipe closed under us: the chip was cut
                break
            self._handle(head[:1], body)
        with self._changed:
            self._changed.notify_all()

    def _handle(self, kind: bytes, body: bytes) -> None:
        if kind == b"U":
            try:
                os.write(self._master, body)
            except OSError:
                pass
        elif kind == b"I":
            with self._lock:
                try:
                    self.bus.writeto(body[0], body[1:])
                except OSError:
                    pass
        elif kind == b"P":
            self.tone = struct.unpack(">IH", body)
        elif kind in (b"A", b"N"):
            ms, high, low = struct.unpack(">III", body)
            with self._changed:
                if ms != self._clock:
                    self._reported_at = time.monotonic()
                self._clock = ms
                self.instructions = (high << 32) | low
                if kind == b"A":
                    self._acked = ms
                self._changed.notify_all()
        elif kind == b"W":
            self.resets += 1
            with self._lock:
                self.bus = model_bus()  # the displays stay lit, but the chip forgets
        elif kind in (b"E", b"G"):
            self.flash_ops += 1
        elif kind == b"Q":
            offset, count = struct.unpack(">II", body)
            self.misaligned.append((offset, count))
        elif kind == b"M":
            self.cut_missed = missed_cut(body)  # wait_for looks again within 0.2 s
        elif kind == b"L" and self._log is not None:
            try:
                self._log.write(body + b"\n")
                self._log.flush()
            except (OSError, ValueError):
                pass

    # --- time, keys, displays (as VirtualBoard) --------------------------------------

    def step(self, ms: int = 10) -> int:
        """Stepped: run the board's clock `ms` on and wait until it has. Returns 0 (the
        firmware's own share of the tick is not told apart here)."""
        target = self.now + ms
        self._send(b"T", struct.pack(">I", target))
        self.wait_for(lambda: self._acked >= target, None, "the chip's clock at %d ms" % target)
        self.now = target
        return 0

    def run(self, ms: int, tick: int = 0) -> None:
        """Let `ms` of the board's time pass (in one step: the board keeps its own ticks)."""
        if self.stepped:
            self.step(ms)
        else:
            self.wait_ms(ms)

    def wait_ms(self, ms: int) -> None:
        """Free-running: wait until the board's clock has moved `ms` on."""
        target = self._clock + ms
        self.wait_for(lambda: self._clock >= target, None, "the chip's clock at %d ms" % target)
        with self._changed:
            self.now = max(self.now, self._clock)

    def wait_for(self, done: Callable[[], bool], limit_ms: int | None, what: str) -> None:
        """Wait on the chip until `done()` (called without the board's lock). PicoError, naming
        `what` and the wait that ran out, when the chip's clock has moved `limit_ms` on (None:
        no limit) first, when the chip has lost power, or when the emulator has reported no
        time for STALL_S seconds of the laptop's (since the wait began: a stepped chip waiting
        for its next step reports nothing)."""
        began, since = self._clock, time.monotonic()
        while not done():
            with self._changed:
                if limit_ms is not None and self._clock - began >= limit_ms:
                    raise ClockRanOut("waited for %s %d ms of the emulated Pico's clock in vain "
                                    "(see %s)" % (what, limit_ms, self.folder / "pico.log"))
                if not self.alive():
                    raise PicoError("waited for %s: the emulated Pico lost power (see %s)"
                                    % (what, self.folder / "pico.log"))
                if time.monotonic() - max(self._reported_at, since) > STALL_S:
                    raise PicoError("waited for %s: the emulator reported no time for %g s "
                                    "(hung? see %s)" % (what, STALL_S, self.folder / "pico.log"))
                self._changed.wait(0.2)

    def seconds(self) -> float:
        """A clock in seconds for a laptop's waits on this board: the chip's own time while
        it runs freely, so a wait lasts as long for the chip however slowly the laptop lets
        the emulator run; the laptop's time while the chip is off or stepped (its time is
        then in a test's hands), or when the emulator has not reported its time for STALL_S
        (hung), so that a wait on a dead board ends. Never goes back."""
        with self._seconds_lock:
            wall, ms = time.monotonic(), self._clock
            last_wall, last_ms, value = self._seconds
            if self.alive() and not self.stepped and wall - self._reported_at <= STALL_S:
                value += max(0, ms - last_ms) / 1000
            else:
                value += wall - last_wall
            self._seconds = (wall, ms, value)
            return value

    def key(self, name: str, down: bool) -> None:
        self._send(b"K", bytes((KEYPAD_4X4.index(name), 1 if down else 0)))

    def tap(self, name: str, hold: int = PRESS_MS, after: int = RELEASE_MS) -> None:
        self.key(name, True)
        self.run(hold)
        self.key(name, False)
        self.run(after)

    def hold(self, name: str, ms: int = 1000) -> None:
        self.key(name, True)
        self.run(ms)
        self.key(name, False)
        self.run(RELEASE_MS)

    def texts(self) -> dict[str, str]:
        with self._lock:
            return face.texts(self.bus)
