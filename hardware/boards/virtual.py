"""The virtual board: the same interface as a real board file, with no ``machine`` at all.

Under the virtual board's ROM (``virtual_rom``, when ``pilkku board start`` runs the firmware
in the MicroPython unix port) the I2C bus, the keypad, the buzzer and the clock are the wires
to the host, and the USB serial is the pseudo-terminal. Anywhere else (CPython, tests) they
are local: the I2C bus forwards to a sink or to a model of pilkku's display set (``model``),
the keypad is a ``KeyMatrix`` a test holds keys on, the piezo a ``FakePWM``.
"""

from hardware.fakes import FakePin, FakePWM, KeyMatrix
from hardware.keys import KEYPAD_4X4
from hardware.panel import LAYOUT

try:
    import virtual_rom  # type: ignore[import-not-found]
except ImportError:
    virtual_rom = None

NAME = "virtual"

I2C_FREQ = 400000

matrix = KeyMatrix()
pwm = FakePWM()
led = FakePin(0)
model = None  # the model Bus that i2c() made when it was given no sink


def _wires():
    return virtual_rom.wires if virtual_rom is not None else None


class ForwardingI2C:
    """A ``machine.I2C`` stand-in that hands every ``writeto`` on to ``sink``."""

    def __init__(self, sink) -> None:
        self.sink = sink
        self.transactions = 0

    def writeto(self, addr: int, buf, stop: bool = True) -> int:
        data = bytes(buf)  # drivers reuse their buffers; the sink may keep what it gets
        self.transactions += 1
        sink = self.sink
        if callable(sink):
            sink(addr, data)
        else:
            sink.writeto(addr, data)
        return len(data)


def model_bus():
    """A register-level model holding pilkku's display set. (Imported here: on the virtual
    board the displays are on the host, and the model's code would only take heap.)"""
    from hardware.ht16k33_model import Bus

    bus = Bus()
    for address, kind in LAYOUT:
        bus.add(address, kind)
    return bus


def i2c(sink=None) -> ForwardingI2C:
    global model
    wires = _wires()
    if sink is None and wires is not None:
        sink = wires.i2c_write
    if sink is None:
        if model is None:
            model = model_bus()
        sink = model
    return ForwardingI2C(sink)


def _key_from_host(index: int, level: int) -> None:
    matrix.set(KEYPAD_4X4[index], bool(level))


def keypad_pins() -> tuple:
    wires = _wires()
    if wires is not None:
        wires.on_key = _key_from_host
    return matrix.rows, matrix.cols


def settle() -> None:
    pass  # fake columns follow their rows at once


class _WiredPWM:
    """The piezo on the wires: each change of the tone goes to the host (nothing is kept,
    so a long match does not fill the heap)."""

    def __init__(self) -> None:
        self._freq = 2000
        self._duty = 0

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value
        wires = _wires()
        if wires is not None:
            wires.pwm(self._freq, value)
        return None

    def deinit(self) -> None:
        self.duty_u16(0)


def buzzer_pwm():
    if _wires() is not None:
        return _WiredPWM()
    return pwm


def status_led() -> FakePin:
    return led


def host_ms():
    """The time the host set on the wires (tests step the clock exactly), or None: then
    the firmware reads its own clock."""
    wires = _wires()
    return wires.host_ms if wires is not None else None


class _NoSerial:
    def read(self) -> bytes:
        return b""

    def write(self, data) -> None:
        pass

    def wait(self, timeout_ms: int) -> None:
        pass


class DeskWatchdog:
    """A watchdog where there is no ROM to reset anything (CPython tests, a desk): it counts
    its feeds, so a test can see the loop feeds it."""

    def __init__(self) -> None:
        self.timeout = 0
        self.feeds = 0

    def start(self, timeout_ms: int) -> None:
        self.timeout = timeout_ms

    def feed(self) -> None:
        self.feeds += 1

    def stop(self) -> None:
        self.timeout = 0


desk_watchdog = DeskWatchdog()


def _dog():
    dog = getattr(virtual_rom, "watchdog", None) if virtual_rom is not None else None
    return dog if dog is not None else desk_watchdog


def watchdog(timeout_ms: int):
    """Start the ROM's watchdog timer (virtual_wdt): fed within `timeout_ms` or the board
    resets."""
    dog = _dog()
    dog.start(timeout_ms)
    return dog


def watchdog_off() -> None:
    _dog().stop()


def after_reset() -> None:
    pass  # boot.py: the ROM's watchdog is off after a reset until the firmware starts it


def serial_interrupt(on: bool) -> None:
    """Whether a Ctrl-C on the USB serial interrupts the program (the ROM's kbd_intr)."""
    if virtual_rom is not None:
        virtual_rom.usb.interrupt = on


def usb():
    """The USB serial the host syncs over (reads never block)."""
    if virtual_rom is not None:
        return virtual_rom.usb
    return _NoSerial()


def wait(timeout_ms: int) -> int:
    """Idle until something arrives (host wires, serial) or `timeout_ms` passes. Returns the
    time the host asks a tick for, or -1 when the board keeps its own time."""
    wires = _wires()
    if wires is None:
        if virtual_rom is not None:
            virtual_rom.usb.wait(timeout_ms)
        return -1
    if not wires.ticks_due:
        wires.receive(0 if virtual_rom.usb.pending else timeout_ms)
    if wires.ticks_due:
        wires.host_ms = wires.ticks_due.pop(0)
        return wires.host_ms
    return -1


def tick_done(ms: int, spent_us: int) -> None:
    """The tick the host asked for at `ms` (-1: the board's own) is done; it took the
    firmware `spent_us` (the host sees its round trip, and this beside it)."""
    wires = _wires()
    if wires is not None:
        wires.tick_done(ms, spent_us)
