"""The virtual board's ROM: what the C firmware and the silicon of a real board provide, for
the firmware running in the MicroPython unix port (`pilkku board start` runs it).

- USB serial: stdin/stdout are a pseudo-terminal. The REPL a Pico offers there is emulated
  here, byte for byte as mpremote expects it: Ctrl-C interrupts the running program, Ctrl-A
  enters the raw REPL, Ctrl-D runs the code sent (or soft-resets when there is none), Ctrl-B
  leaves it; raw-paste mode (flow-controlled windows) is offered, as by a Pico.
- Flash: a LittleFS2 image file mounted at "/" (virtual_flash), so the firmware, the journal
  and `pilkku flash` meet the same filesystem code as on a Pico, and a kill -9 meets it as a
  power cut does.
- ROM partition (a fifth argument, its image file): as a ROMFS build of MicroPython has,
  with `vfs.rom_ioctl` (virtual_vfs), so `mpremote romfs` and `pilkku flash` work on it. At
  every boot a valid ROMFS in it is mounted at /rom, first on sys.path (as the rp2 port's
  _boot.py did in v1.25): the firmware runs its bytecode in place from it. The unix port
  cannot map a file: the mapping is one block of the heap (added to the heap size).
- Wires: a TCP connection to the host standing for the I2C bus, the keypad and the clock
  (see `Wires`). Without one the board runs on its own clock with no displays attached.

Without a MicroPython binary the host runs this ROM under CPython: the flash is then a folder.

Boot: mount the flash, run main.py (unless the soft reset came from the raw REPL, as on a
Pico), then the REPL. host/board/virtual_board.py compiles this file, virtual_flash.py and
virtual_vfs.py as top-level modules into the board's ROM folder and calls
`main([_, IMAGE, BLOCKS, HOST:PORT, ROM_IMAGE])` (ROM_IMAGE "": no ROM partition).
"""

import gc
import os
import select
import socket
import struct
import sys

try:
    import micropython
except ImportError:  # CPython, standing in when no MicroPython binary is at hand
    micropython = None  # type: ignore[assignment]

CTRL_A = 1
CTRL_B = 2
CTRL_C = 3
CTRL_D = 4
CTRL_E = 5
_OUTBOX = 512  # bytes: a tick's frames (4 displays of 20 bytes) and its ack, with room
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"
BANNER = b"MicroPython (pilkku virtual board)\r\nType \"help()\" for more information.\r\n"


class Wires:
    """The host side of the board's wires, over TCP. Messages, all big endian:

    board -> host  b"I" addr len data   an I2C write transaction
                   b"P" freq:u16 duty:u16  the buzzer's PWM changed
                   b"A" ms:u32 us:u32   the tick at time ms is done (host-fed clock only);
                                        the firmware spent us microseconds on it
    host -> board  b"K" key level       a keypad key (index in KEYPAD_4X4) down (1) or up (0)
                   b"T" ms:u32          the clock now reads ms: run a tick, then answer b"A"

    Once the host has sent a time, the board's clock is the host's (tests step it exactly);
    until then it is the board's own. A tick's messages go out together, with its
    acknowledgement, in one send: the host wakes once per tick, not once per display.
    """

    def __init__(self, address):
        host, port = address.rsplit(":", 1)
        self.sock = socket.socket()
        self.sock.connect(socket.getaddrinfo(host, int(port))[0][-1])
        # No Nagle: a tick's I2C writes and its acknowledgement are small sends, and Nagle
        # would hold each behind the host's delayed ACK (40 ms on Linux) - wires have no lag.
        # (IPPROTO_TCP 6, TCP_NODELAY 1: the unix port's socket module names neither.)
        self.sock.setsockopt(getattr(socket, "IPPROTO_TCP", 6), getattr(socket, "TCP_NODELAY", 1),
                             1)
        self.poller = select.poll()
        self.poller.register(self.sock, select.POLLIN)
        self.inbox = b""
        self.outbox = bytearray(_OUTBOX)  # a tick's messages, sent with its acknowledgement
        self.queued = 0
        self.host_ms = None  # the host-fed clock, once the host drives it
        self.ticks_due = []  # times the host asked a tick for
        self.on_key = None

    def send(self, data):
        if hasattr(self.sock, "sendall"):
            self.sock.sendall(data)  # CPython
        else:
            self.sock.write(data)

    def _queue(self, head, data=b""):
        end = self.queued + len(head) + len(data)
        if end > _OUTBOX:
            self.flush()
            if len(head) + len(data) > _OUTBOX:
                self.send(head + data)
                return
            end = len(head) + len(data)
        out = self.outbox
        start = self.queued
        out[start:start + len(head)] = head
        out[start + len(head):end] = data
        self.queued = end

    def flush(self):
        if self.queued:
            self.send(memoryview(self.outbox)[:self.queued])
            self.queued = 0

    def i2c_write(self, addr, data):
        self._queue(bytes((0x49, addr, len(data))), data)

    def pwm(self, freq, duty):
        self._queue(b"P" + struct.pack(">HH", freq & 0xFFFF, duty & 0xFFFF))

    def receive(self, timeout_ms=0):
        self.flush()  # what was written outside a tick (at boot) goes before the board idles
        if self.poller.poll(timeout_ms):
            data = self.sock.recv(256)
            if not data:
                raise OSError("the host closed the wires")
            self.inbox += data
        self._parse()

    def _parse(self):
        while self.inbox:
            kind = self.inbox[0]
            if kind == 0x4B and len(self.inbox) >= 3:  # K
                if self.on_key is not None:
                    self.on_key(self.inbox[1], self.inbox[2])
                self.inbox = self.inbox[3:]
            elif kind == 0x54 and len(self.inbox) >= 5:  # T
                self.ticks_due.append(struct.unpack(">I", self.inbox[1:5])[0])
                self.inbox = self.inbox[5:]
            elif kind in (0x4B, 0x54):
                return  # the rest of the message is still on its way
            else:
                raise OSError("bad message from the host: %r" % self.inbox[:8])

    def tick_done(self, ms, spent_us):
        """The end of a tick: its messages go out, with the acknowledgement the host waits
        for when it asked for the tick (ms >= 0)."""
        if ms >= 0:
            self._queue(b"A" + struct.pack(">II", ms, spent_us & 0xFFFFFFFF))
        self.flush()


usb = None
wires = None
watchdog = None  # virtual_wdt.Watchdog: the board file starts it for the firmware


def _print_exception(error):
    if hasattr(sys, "print_exception"):
        sys.print_exception(error)
    else:  # CPython
        import traceback  # type: ignore[import-not-found]

        traceback.print_exception(error, file=sys.stdout)
        sys.stdout.flush()


# --- the REPL, as a Pico's USB serial offers it -------------------------------------------

def _exec(code, scope):
    try:
        exec(code, scope)
        sys.stdout.flush()
    except KeyboardInterrupt:
        if watchdog.fired:
            raise
        usb.write(b"\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n")
        return
    except BaseException as error:  # the REPL reports everything, as the C REPL does
        if watchdog.fired:
            raise
        usb.write(b"\x04")
        _print_exception(error)
        return
    usb.write(b"\x04")


PASTE_WINDOW = 512


def _raw_paste():
    """Receive code in raw-paste mode: acknowledge each window with Ctrl-A, the end (Ctrl-D)
    with Ctrl-D; the output follows as in the raw REPL, without "OK". A Ctrl-C ends it with
    nothing run (None), as MicroPython's stdin reader does: a host cut off mid-paste leaves a
    board the next Ctrl-C brings back (before, it waited for Ctrl-D forever)."""
    usb.write(b"R\x01" + struct.pack("<H", PASTE_WINDOW))
    code = bytearray()
    counted = 0
    while True:
        byte = usb.read_byte()
        if byte == CTRL_D:
            usb.write(b"\x04")
            return bytes(code)
        if byte == CTRL_C:
            usb.write(b"\x04")
            return None
        code.append(byte)
        counted += 1
        if counted == PASTE_WINDOW:
            counted = 0
            usb.write(b"\x01")


def raw_repl(scope):
    """Returns "friendly" on Ctrl-B, "reset" on a soft reset."""
    usb.write(RAW_BANNER)
    code = bytearray()
    while True:
        byte = usb.read_byte()
        if byte == CTRL_D:
            if not code:
                return "reset"
            usb.write(b"OK")
            _exec(bytes(code), scope)
            usb.write(b"\x04>")
            code = bytearray()
        elif byte == CTRL_B:
            usb.write(b"\r\n")
            return "friendly"
        elif byte == CTRL_C:
            code = bytearray()
        elif byte == CTRL_E and not code:
            # Raw-paste request (Ctrl-E 'A' Ctrl-A): code comes in flow-controlled windows.
            usb.read_byte()
            usb.read_byte()
            pasted = _raw_paste()
            if pasted is not None:
                _exec(pasted, scope)
            else:  # interrupted: no output, then the error, as after a program's Ctrl-C
                usb.write(b"\x04KeyboardInterrupt: \r\n")
            usb.write(b"\x04>")
        elif byte == CTRL_A:  # a reset of the raw REPL, as a Pico's: the line starts over
            code = bytearray()
            usb.write(RAW_BANNER)
        else:
            code.append(byte)


def friendly_repl(scope):
    """A minimal friendly REPL (one line at a time). Returns "raw" or "reset"."""
    usb.write(BANNER + b">>> ")
    line = bytearray()
    while True:
        byte = usb.read_byte()
        if byte == CTRL_A:
            usb.write(b"\r\n")
            return "raw"
        if byte == CTRL_D and not line:
            return "reset"
        if byte == CTRL_C:
            usb.write(b"\r\nKeyboardInterrupt\r\n>>> ")
            line = bytearray()
        elif byte in (10, 13):
            usb.write(b"\r\n")
            if line:
                _friendly_line(bytes(line), scope)
            usb.write(b">>> ")
            line = bytearray()
        elif byte in (8, 127):
            if line:
                line = line[:-1]
                usb.write(b"\x08 \x08")
        elif byte >= 32:
            line.append(byte)
            usb.write(bytes((byte,)))


def _friendly_line(line, scope):
    try:
        try:
            value = eval(line, scope)
            if value is not None:
                print(repr(value))
        except SyntaxError:
            exec(line, scope)
    except BaseException as error:
        if watchdog.fired:
            raise
        _print_exception(error)


# --- boot ------------------------------------------------------------------------------

def _forget_modules(keep):
    for name in list(sys.modules):
        if name not in keep:
            del sys.modules[name]


def run_main():
    """main.py from the flash, as a Pico runs it after boot."""
    try:
        source = open("main.py").read()
    except OSError:
        return
    try:
        exec(source, {"__name__": "__main__"})
    except KeyboardInterrupt:
        if watchdog.fired:
            raise
        usb.write(b"Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n")
    except BaseException as error:
        if watchdog.fired:
            raise
        _print_exception(error)


def _is_folder(path):
    try:
        return os.stat(path)[0] & 0x4000 != 0
    except OSError:
        return False


def main(argv):
    global usb, wires, watchdog
    # The ROM's modules are top-level (not in the firmware's `hardware` package, which will
    # come from the flash); the board file finds this one as `virtual_rom`.
    import virtual_flash  # type: ignore[import-not-found]
    import virtual_wdt  # type: ignore[import-not-found]
    from virtual_usb import Usb  # type: ignore[import-not-found]

    watchdog = virtual_wdt.Watchdog()
    watchdog.power_on()

    image, blocks = argv[1], int(argv[2])
    usb = Usb()
    if len(argv) > 3 and argv[3]:
        wires = Wires(argv[3])
    board_vfs = None  # without a partition, `vfs` is the port's: no rom_ioctl, as on a Pico
    if len(argv) > 4 and argv[4] and sys.implementation.name == "micropython":
        import virtual_vfs  # type: ignore[import-not-found]

        board_vfs = virtual_vfs.install(argv[4])
    if micropython is not None and hasattr(micropython, "kbd_intr"):
        # The pty is raw, so a Ctrl-C byte never becomes SIGINT (Usb turns it into an
        # interrupt); SIGINT comes only from the watchdog, and must raise, not kill.
        micropython.kbd_intr(3)
    folder = _is_folder(image)
    if folder:  # CPython: the flash is a folder of sources
        os.chdir(image)
        sys.path.insert(0, image)
    else:
        flash = virtual_flash.mount(image, blocks, "/", True)  # from here on only its flash
        os.chdir("/")
    keep = set(sys.modules)
    mode = "boot"
    while True:
        _forget_modules(keep)
        if board_vfs is not None and board_vfs.mount_rom():
            sys.path[:] = ["/rom", "/rom/lib", "", "/lib"]
        elif not folder:
            sys.path[:] = ["", "/lib"]
        gc.collect()
        scope = {"__name__": "__main__"}
        try:
            mode = _run_mode(mode, scope)
        except KeyboardInterrupt:
            if not watchdog.fired:
                raise
            watchdog.reset_done()  # the watchdog reset the board: boot as from power-on
            if not folder:  # what the program held in RAM is gone, not flushed later
                flash = virtual_flash.power_cycle(flash, image, blocks, "/")
                os.chdir("/")
            usb.interrupt = True
            mode = "boot"


def _run_mode(mode, scope):
    """Run one mode of the board (boot, raw or friendly REPL); the next mode."""
    if mode == "boot":
        usb.interrupt = True  # as a Pico's soft reset does
        run_main()
        mode = friendly_repl(scope)
    elif mode == "raw":
        mode = raw_repl(scope)
        if mode == "reset":
            usb.write(b"OK\r\nsoft reboot\r\n")
            mode = "raw"
    elif mode == "friendly":
        mode = friendly_repl(scope)
    if mode == "reset":
        usb.write(b"soft reboot\r\n")
        mode = "boot"
    return mode
