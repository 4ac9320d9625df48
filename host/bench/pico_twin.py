"""A board on the desk under CPython, for the firmware's tests and the emulated Pico's bench
(host/bench/pico_keys.py: what the Pico must show after each tap): the virtual board's parts (the
register-level HT16K33 model, a key matrix, a PWM recorder), fresh for each test, with the
clock in the test's hands, and a flash: a folder holding the real journal and the board's
settings (firmware/journal.py, firmware/config.py), as on the board's LittleFS.

    desk = DeskBoard().boot()       # a new board on a flash of its own
    again = desk.power_cut()        # the power goes and comes back: the same flash, rebuilt
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from pathlib import Path

from firmware.app import App
from firmware.config import Config
from firmware.journal import Journal
from firmware.main import JOURNAL
from hardware.boards import virtual
from hardware.fakes import FakePWM, KeyMatrix
from host.board import face


class DeskBoard:
    NAME = "desk"

    def __init__(self, flash: str | Path | None = None) -> None:
        """`flash` is the folder standing for the board's flash; by default a new one,
        removed when the board is."""
        if flash is None:
            flash = tempfile.mkdtemp(prefix="pilkku-desk-")
            weakref.finalize(self, shutil.rmtree, flash, True)
        self.flash = Path(flash)
        self.model = virtual.model_bus()
        self.matrix = KeyMatrix()
        self.pwm = FakePWM()
        self.app: App | None = None
        self.now = 0
        self._keep_flash: DeskBoard | None = None

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

    def tick_done(self, ms: int, spent_us: int) -> None:
        pass

    # --- what a test does ------------------------------------------------------------

    def boot(self, ms: int = 20) -> DeskBoard:
        """Power on: the firmware with the journal and settings on this board's flash."""
        self.app = App(self, Journal(str(self.flash / JOURNAL)), Config(str(self.flash) + "/"))
        self.run(ms)
        return self

    def power_cut(self, ms: int = 20) -> DeskBoard:
        """The power goes mid-match and comes back: a new board on the same flash, its ticks
        not those of before, everything in RAM gone; what it shows is rebuilt from flash."""
        again = DeskBoard(self.flash)
        # The folder lives as long as any board after the first one (whose finalizer removes
        # it): each keeps the one before. (A link both ways was overwritten by the next cut,
        # leaving the first board to the garbage collector with the folder still in use.)
        again._keep_flash = self
        again.now = self.now + 7919
        return again.boot(ms)

    def run(self, ms: int, tick: int = 10) -> None:
        app = self._app()
        for _ in range(ms // tick):
            self.now += tick
            app.tick(self.now)

    def run_loop(self, ms: int, tick: int = 10) -> None:
        """Let `ms` pass as the board's loop does: each tick, and what the quiet ones do
        between keys (firmware/between_keys.py)."""
        app = self._app()
        for _ in range(ms // tick):
            self.now += tick
            if app.tick(self.now):
                app.between.busy()
            else:
                app.between.quiet(app)

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

    def _app(self) -> App:
        if self.app is None:
            raise RuntimeError("the desk board is not booted")
        return self.app

    def texts(self) -> dict[str, str]:
        """What the displays show; every read also checks that the shooter's mark is on the
        score display of the engine's shooter (nobody's in the menu, the lag, or once the
        match is over), so every desk test that reads the displays checks the mark too."""
        seen = face.texts(self.model)
        seen["message"] = seen["message"].rstrip()
        match = self._app().match
        shooter = None if match is None or match.state.finished else match.state.shooter
        marks = (seen["mark_1"], seen["mark_2"])
        assert marks == (":" if shooter == 0 else "", ":" if shooter == 1 else ""), \
            ("the shooter's mark", marks, "shooter", shooter)
        return seen
