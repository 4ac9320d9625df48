"""A board on the desk for firmware tests under CPython: the virtual board's parts (the
register-level HT16K33 model, a key matrix, a PWM recorder), fresh for each test, with the
clock in the test's hands."""

from __future__ import annotations

from hardware.boards import virtual
from hardware.fakes import FakePWM, KeyMatrix
from host.board import face


class DeskBoard:
    NAME = "desk"

    def __init__(self) -> None:
        self.model = virtual.model_bus()
        self.matrix = KeyMatrix()
        self.pwm = FakePWM()
        self.app = None
        self.now = 0

    def i2c(self):
        return virtual.ForwardingI2C(self.model)

    def keypad_pins(self):
        return self.matrix.rows, self.matrix.cols

    def settle(self) -> None:
        pass

    def buzzer_pwm(self):
        return self.pwm

    def usb(self):
        return virtual._NoSerial()

    def host_ms(self):
        return self.now

    def wait(self, timeout_ms: int) -> int:
        return -1

    def tick_done(self, ms: int) -> None:
        pass

    # --- what a test does ------------------------------------------------------------

    def run(self, ms: int, tick: int = 10) -> None:
        for _ in range(ms // tick):
            self.now += tick
            self.app.tick(self.now)

    def tap(self, *keys: str) -> None:
        for name in keys:
            self.matrix.press(name)
            self.run(60)
            self.matrix.release(name)
            self.run(60)

    def hold(self, name: str, ms: int = 1000) -> None:
        self.matrix.press(name)
        self.run(ms)
        self.matrix.release(name)
        self.run(60)

    def texts(self) -> dict[str, str]:
        seen = face.texts(self.model)
        seen["message"] = seen["message"].rstrip()
        return seen
