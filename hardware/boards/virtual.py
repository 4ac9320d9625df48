"""The virtual board: the same interface as a real board file, with no ``machine`` at all.

Its I2C bus forwards each write transaction, copied, to a sink: a callable
``sink(addr, data)`` (the virtual board's channel to the host) or anything with
``writeto(addr, buf)`` such as ``hardware.ht16k33_model.Bus``. Without a sink it makes a
model of pilkku's display set, kept in ``model``. The keypad is a ``KeyMatrix`` whose keys
the host (or a test) holds and lets go of; the piezo is a ``FakePWM`` that records tones.
"""

from hardware.fakes import FakePin, FakePWM, KeyMatrix
from hardware.ht16k33_model import Bus
from hardware.panel import LAYOUT

NAME = "virtual"

I2C_FREQ = 400000

matrix = KeyMatrix()
pwm = FakePWM()
led = FakePin(0)
model = None  # the model Bus that i2c() made when it was given no sink


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


def model_bus() -> Bus:
    """A register-level model holding pilkku's display set."""
    bus = Bus()
    for address, kind in LAYOUT:
        bus.add(address, kind)
    return bus


def i2c(sink=None) -> ForwardingI2C:
    global model
    if sink is None:
        if model is None:
            model = model_bus()
        sink = model
    return ForwardingI2C(sink)


def keypad_pins() -> tuple:
    return matrix.rows, matrix.cols


def settle() -> None:
    pass  # fake columns follow their rows at once


def buzzer_pwm() -> FakePWM:
    return pwm


def status_led() -> FakePin:
    return led
