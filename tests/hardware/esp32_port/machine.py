"""The ESP32 port's `machine` as far as the board file's watchdog uses it, for the MicroPython
unix port: the chip's task watchdog is hardware/boards/virtual_wdt.Watchdog (counting in a
thread of its own, resetting by interrupting the program), and Timer callbacks are soft
interrupts, scheduled (micropython.schedule) to run between the main program's bytecodes,
as the ESP32 port runs them. What the port does and does not offer, from its sources
(ports/esp32/machine_wdt.c, main.c):
- WDT(timeout=ms) starts the watchdog, or sets its timeout again; there is no way to stop it;
- a soft reset deinits every Timer (machine_timer_deinit_all), and leaves the WDT running.
Pin, I2C and PWM are only names here (the board file imports them)."""

import _thread
import time

import micropython
import virtual_wdt

twdt = virtual_wdt.Watchdog()
twdt.power_on()


class WDT:
    def __init__(self, id=0, timeout=5000):
        twdt.start(timeout)

    def feed(self):
        twdt.feed()


_timers = []


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id):
        self.id = id
        self.armed = 0  # bumped on every init and deinit: an old thread sees it and ends
        _timers.append(self)

    def init(self, mode=PERIODIC, period=1000, callback=None, hard=False):
        self.armed += 1
        _thread.start_new_thread(self._count, (self.armed, mode, period, callback))

    def _count(self, armed, mode, period, callback):
        while armed == self.armed:
            time.sleep_ms(period)
            if armed != self.armed:
                return
            micropython.schedule(callback, self)
            if mode == Timer.ONE_SHOT:
                return

    def deinit(self):
        self.armed += 1


def soft_reset():
    """What a soft reset does to the timers (the WDT goes on counting)."""
    for timer in _timers:
        timer.deinit()


class Pin:
    pass


class I2C:
    pass


class PWM:
    pass
