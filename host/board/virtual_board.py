"""The virtual board, host side: the real firmware in the real MicroPython unix port, with its
USB serial on a pseudo-terminal and its wires (I2C, keypad, clock) on a TCP connection to us.

    board = VirtualBoard(Path("board1")); board.start()
    board.pty_path            # give this to mpremote, pyserial, `pilkku sync`, `pilkku flash`
    board.tap("A"); board.step(50); board.texts()   # keys in, displays out

The folder stands for the board: `flash.img` is its LittleFS2 flash, `romfs.img` its ROM
partition (where `pilkku flash` puts the firmware as a ROMFS image), `rom/` the ROM
(hardware/boards/virtual_rom.py and virtual_flash.py compiled with mpy-cross), `board.log`
what the unix port printed on stderr, `flash.img.before-reset` the flash as the program before
a watchdog reset goes on seeing it (virtual_flash.power_cycle). `kill()` pulls the power
(SIGKILL).

Where no `micropython` binary is available the board runs under CPython instead (with a
notice): its flash is then the folder `flash/`, holding the firmware's sources.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

from hardware.boards.virtual import model_bus
from hardware.keys import KEYPAD_4X4
from host.board import face, port_clock, toolchain
from host.board.process_clock import ProcessClock
from host.i18n import N_, _

BLOCKS = 512  # 2 MB of 4096-byte blocks, as a Pico's flash filesystem
HEAP = "256k"
ROM_KB = 128  # the ROM partition (virtual_vfs.ROM_BLOCKS): mapped into the heap, on top of HEAP
# And for the ROM's own code (virtual_rom, virtual_vfs, ...: C on a board) with a margin: at
# HEAP alone a Kaisa game with the clock met MemoryErrors from heap fragmentation, passing or
# failing with a few hundred bytes of ROM code more or less (tests/e2e/test_kaisa_board.py).
ROM_CODE_KB = 128


class BoardError(RuntimeError):
    pass


# Said when it is shown (sim.py, service.py): _(CPYTHON_NOTICE).
CPYTHON_NOTICE = N_("pilkku: no MicroPython binary found (install the dev tools: make venv); "
                    "the virtual board runs the firmware under CPython instead")


def has_micropython() -> bool:
    try:
        toolchain.micropython_binary()
        return True
    except toolchain.ToolchainError:
        return False


def build_rom(folder: Path, cpython: bool = False) -> Path:
    """The ROM's two modules, as top-level modules in folder/rom: compiled for the unix port,
    or as sources for CPython."""
    rom = folder / "rom"
    rom.mkdir(parents=True, exist_ok=True)
    for name in ("virtual_rom", "virtual_flash", "virtual_vfs", "virtual_wdt", "virtual_usb"):
        source = toolchain.ROOT / "hardware" / "boards" / (name + ".py")
        if cpython:
            shutil.copyfile(source, rom / (name + ".py"))
        else:
            toolchain.compile_file(source, rom / (name + ".mpy"), "rom/%s.py" % name)
    return rom


class VirtualBoard:
    def __init__(self, folder: Path, blocks: int = BLOCKS, heap: str = HEAP,
                 cpython: bool | None = None, rom: bool = True) -> None:
        self.folder = Path(folder)
        self.blocks = blocks
        self.heap = heap
        self.cpython = (not has_micropython()) if cpython is None else cpython
        self.image = self.folder / ("flash" if self.cpython else "flash.img")
        self.rom_image = self.folder / "romfs.img" if rom and not self.cpython else None
        self.process: subprocess.Popen | None = None
        self.pty_path = ""
        self.clock: ProcessClock | None = None
        self.bus = model_bus()
        self.tone = (0, 0)
        self.now = 0
        self._lock = threading.Lock()
        self._acks: dict[int, int] = {}  # tick (ms) -> the firmware's time on it (us)
        self._acked = threading.Condition(self._lock)
        # Who reads the wires: a thread of ours while the board keeps its own time; step()
        # itself once the host steps the clock (then every message comes in answer to a
        # tick, and the caller, waiting for it anyway, wakes once instead of twice).
        self._reading = threading.Lock()
        self._stepping = False
        self._inbox = b""
        self._frames = 0
        self._master = self._slave = -1
        self._conn: socket.socket | None = None
        # Files the MicroPython process keeps open: the folder's lock (host/board/registry.py),
        # so that it stays held while anything runs on this flash.
        self.keep_open: tuple[int, ...] = ()

    # --- factory programming (the board is off) ---------------------------------------

    def install(self, files: dict[str, bytes]) -> None:
        """Write files straight into the flash image, as a programmer does at the factory.
        (`pilkku flash` installs over the USB serial instead, as on a real board.)"""
        if self.alive():
            raise BoardError(_("install needs the board off; use `pilkku flash` on a live board"))
        if self.cpython:
            for path, data in files.items():
                target = self.image / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            return
        rom = build_rom(self.folder)
        staging = self.folder / "factory"
        manifest = []
        for index, (path, data) in enumerate(sorted(files.items())):
            source = staging / ("%d.bin" % index)
            source.parent.mkdir(parents=True, exist_ok=True)
            source.write_bytes(data)
            manifest.append((str(source), path))
        script = staging / "install.py"
        script.write_text(
            "import os\nimport virtual_flash\n"
            "virtual_flash.mount(%r, %d, '/flash')\n"
            "def parents(path):\n"
            "    so_far = '/flash'\n"
            "    for part in path.split('/')[:-1]:\n"
            "        so_far += '/' + part\n"
            "        try:\n"
            "            os.mkdir(so_far)\n"
            "        except OSError:\n"
            "            pass\n"
            "for source, path in %r:\n"
            "    parents(path)\n"
            "    with open(source, 'rb') as f:\n"
            "        data = f.read()\n"
            "    with open('/flash/' + path, 'wb') as f:\n"
            "        f.write(data)\n"
            "print('installed', %d)\n"
            % (str(self.image.resolve()), self.blocks, manifest, len(manifest)))
        done = subprocess.run([toolchain.micropython_binary(), str(script)],
                              capture_output=True, text=True,
                              env=dict(os.environ, MICROPYPATH=str(rom)))
        shutil.rmtree(staging, ignore_errors=True)  # the programmer's copy, not the board's
        if done.returncode != 0 or "installed" not in done.stdout:
            raise BoardError(_("installing the firmware failed: %(error)s") % {
                "error": done.stderr.strip()})

    def install_firmware(self) -> dict[str, bytes]:
        """The current firmware, as this board runs it (.mpy files; sources under CPython)."""
        from host.board import firmware_image

        files = firmware_image.sources() if self.cpython else firmware_image.image()
        self.install(files)
        return files

    # --- power --------------------------------------------------------------------

    def start(self, timeout: float = 20.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        rom = build_rom(self.folder, self.cpython)
        if self._master < 0:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # a USB CDC port: bytes as they are, no line discipline
            self.pty_path = os.ttyname(self._slave)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(timeout)
        address = "127.0.0.1:%d" % listener.getsockname()[1]
        boot = rom / "boot.py"
        rom_image = str(self.rom_image.resolve()) if self.rom_image is not None else ""
        boot.write_text("import virtual_rom\nvirtual_rom.main(['', %r, %d, %r, %r])\n"
                        % (str(self.image.resolve()), self.blocks, address, rom_image))
        if self.cpython:
            self.image.mkdir(parents=True, exist_ok=True)
            command = [sys.executable, "-u", str(boot)]
            env = dict(os.environ, PYTHONPATH=str(rom))
        else:
            heap = self.heap
            if heap.endswith("k"):  # the firmware's heap, plus what stands for C and flash
                extra = ROM_CODE_KB + (ROM_KB if self.rom_image is not None else 0)
                heap = "%dk" % (int(heap[:-1]) + extra)
            command = [toolchain.micropython_binary(), "-X", "heapsize=" + heap, str(boot)]
            env = dict(os.environ, MICROPYPATH=str(rom))
        log = open(self.folder / "board.log", "ab")
        self.process = subprocess.Popen(command, stdin=self._master, stdout=self._master,
                                        stderr=log, close_fds=True, env=env,
                                        pass_fds=self.keep_open)
        log.close()
        # The laptop's waits on it count its own time: not the time a busy laptop keeps it
        # from running (host/board/process_clock.py).
        if self.clock is None:
            self.clock = ProcessClock(self.process.pid)
            port_clock.register(self.pty_path, self.clock)
        else:
            self.clock.follow(self.process.pid)
        try:
            self._conn, _address = listener.accept()
        except TimeoutError:
            self.kill()
            raise BoardError(_("the virtual board did not come up: see %(log)s")
                             % {"log": self.folder / "board.log"}) from None
        finally:
            listener.close()
        self._conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.bus = model_bus()
        self._acks = {}
        self._inbox = b""
        self._stepping = False
        threading.Thread(target=self._read_wires, args=(self._conn,), daemon=True).start()

    def kill(self) -> None:
        """Pull the power: no chance to flush or close anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self._close_wires()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_wires()

    def close(self) -> None:
        """Stop the board and close the USB port for good."""
        self.stop()
        if self.clock is not None:
            port_clock.forget(self.pty_path, self.clock)
            self.clock = None
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    def _close_wires(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
            self._conn = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # --- wires ----------------------------------------------------------------------

    def _read_wires(self, conn: socket.socket) -> None:
        """The reader while the board keeps its own time; it leaves once step() reads."""
        while not self._stepping:
            try:
                ready, _w, _x = select.select([conn], [], [], 0.05)
            except (OSError, ValueError):
                return
            if not ready:
                continue
            with self._reading:
                if self._stepping:
                    return  # step() reads from now on; what came stays in the socket for it
                if not self._receive(conn):
                    return

    def _receive(self, conn: socket.socket) -> bool:
        try:
            data = conn.recv(65536)
        except OSError:
            return False
        if not data:
            return False
        self._inbox = self._parse(self._inbox + data)
        return True

    def _parse(self, buffer: bytes) -> bytes:
        while buffer:
            kind = buffer[0]
            if kind == 0x49:  # I addr len data
                if len(buffer) < 3 or len(buffer) < 3 + buffer[2]:
                    return buffer
                addr, size = buffer[1], buffer[2]
                with self._lock:
                    self.bus.writeto(addr, buffer[3:3 + size])
                buffer = buffer[3 + size:]
            elif kind == 0x50:  # P freq duty
                if len(buffer) < 5:
                    return buffer
                self.tone = struct.unpack(">HH", buffer[1:5])
                buffer = buffer[5:]
            elif kind == 0x41:  # A ms us
                if len(buffer) < 9:
                    return buffer
                ms, spent = struct.unpack(">II", buffer[1:9])
                with self._acked:
                    self._acks[ms] = spent
                    self._acked.notify_all()
                buffer = buffer[9:]
            else:
                raise BoardError(_("bad message on the wires: %(bytes)r") % {"bytes": buffer[:8]})
        return buffer

    def _send(self, data: bytes) -> None:
        if self._conn is None:
            raise BoardError(_("the virtual board is not running"))
        try:
            self._conn.sendall(data)
        except OSError as lost:  # the board's process went away mid-send
            raise BoardError(_("the virtual board's wires broke (%(error)s): see %(log)s")
                             % {"error": lost, "log": self.folder / "board.log"}) from None

    def key(self, name: str, down: bool) -> None:
        self._send(b"K" + bytes((KEYPAD_4X4.index(name), 1 if down else 0)))

    def step(self, ms: int = 10, timeout: float = 10.0) -> int:
        """Advance the board's clock by `ms` and wait until it has run that tick (BoardError
        after `timeout` seconds of the time its process was let run); the microseconds the
        firmware spent on it (its own clock: the wires' round trip not in)."""
        self.now += ms
        target = self.now
        if not self._stepping:
            with self._reading:
                self._stepping = True  # the reader thread leaves: only this reads from now
        self._send(b"T" + struct.pack(">I", target))
        conn = self._conn
        clock = self.clock or time.monotonic
        deadline = clock() + timeout
        while target not in self._acks:
            left = deadline - clock()
            if left <= 0 or not self.alive() or conn is None:
                why = _("in %(seconds)g s of its own time") % {"seconds": timeout} \
                    if left <= 0 else _("it is off")
                raise BoardError(_("the virtual board did not answer tick %(tick)d (%(why)s): "
                                   "see %(log)s") % {"tick": target, "why": why,
                                                     "log": self.folder / "board.log"})
            try:
                ready, _w, _x = select.select([conn], [], [], min(left, 0.2))
            except (OSError, ValueError):  # the wires were closed (the board stopped)
                conn = None
                continue
            if ready and not self._receive(conn):
                conn = None  # the board hung up its wires: it is off
        with self._acked:
            spent = self._acks[target]
            self._acks = {ms: us for ms, us in self._acks.items() if ms > target}
        return spent

    def run(self, ms: int, tick: int = 10) -> None:
        """Let `ms` pass in ticks of `tick` ms."""
        for _tick in range(max(1, ms // tick)):
            self.step(tick)

    def tap(self, name: str, hold: int = 60, after: int = 60) -> None:
        """Press and release a key as a referee does (held past the debounce)."""
        self.key(name, True)
        self.run(hold)
        self.key(name, False)
        self.run(after)

    def hold(self, name: str, ms: int = 1000) -> None:
        """A long press."""
        self.key(name, True)
        self.run(ms)
        self.key(name, False)
        self.run(60)

    # --- displays -------------------------------------------------------------------

    def texts(self) -> dict[str, str]:
        """What a person sees on each display (decoded from the HT16K33 RAM)."""
        with self._lock:
            return face.texts(self.bus)
