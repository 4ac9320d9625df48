"""ESP32 dev board pin map (ESP32-WROOM-32 DevKitC / DOIT DevKit V1, MicroPython ``esp32``).

I2C on the customary GPIO21 (SDA) / GPIO22 (SCL). The keypad avoids the strapping pins
(0, 2, 5, 12, 15), the flash pins (6..11), GPIO16/17 (PSRAM on WROVER modules) and the
input-only 34..39, which have no pull-ups. Other ESP32 chips (S2, S3, C3) report the same
``sys.platform`` but have other pins: they need their own board file.
"""

import time

import machine
from machine import I2C, PWM, WDT, Pin, Timer

from hardware.boards.stdio_serial import (  # noqa: F401
    host_ms,
    serial_interrupt,
    tick_done,
    usb,
    wait,
)

NAME = "esp32"

I2C_ID = 0
SDA = 21
SCL = 22
I2C_FREQ = 400000
ROWS = (32, 33, 25, 26)  # keypad rows, driven low one at a time (open drain)
COLS = (27, 14, 18, 19)  # keypad columns, inputs with pull-ups
BUZZER = 23
LED = 2  # the blue LED of DevKit V1 boards (DevKitC has none: fit one with 1 kOhm)


def i2c() -> I2C:
    return I2C(I2C_ID, scl=Pin(SCL), sda=Pin(SDA), freq=I2C_FREQ)


def keypad_pins() -> tuple:
    rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in ROWS]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in COLS]
    return rows, cols


def key_interrupts() -> tuple:
    """What the keypad's latch needs (hardware/keypad_latch.py): the columns' falling edge
    as a trigger, and the switch that holds interrupts off while it reads its latch."""
    return Pin.IRQ_FALLING, machine.disable_irq, machine.enable_irq


def settle() -> None:
    # The ESP32's ~45 kOhm pull-ups need a few microseconds to lift a cable's columns.
    time.sleep_us(10)


def buzzer_pwm() -> PWM:
    pwm = PWM(Pin(BUZZER), freq=2000, duty_u16=0)
    return pwm


def status_led() -> Pin:
    return Pin(LED, Pin.OUT, value=0)


# The watchdog. machine.WDT on this port cannot be stopped (the RP2040's can, by its ENABLE
# bit: pico.py), so it is never stopped: while the scoreboard runs, only its loop feeds it (a
# wedged loop resets the board); once the loop hands the board over to the REPL, a timer
# feeds it, so mpremote and `pilkku flash` are not reset under the person using them. A soft
# reset (mpremote's first raw REPL, `pilkku flash`) deinits every machine.Timer but not the
# WDT: /boot.py, which the port runs at every boot and soft reset (main.py only outside the
# raw REPL), starts the WDT and its feeder again (after_reset).
WATCHDOG_MS = 8000  # as firmware/app.py's WATCHDOG_MS, which boot.py cannot import cheaply
FEED_MS = 1000  # the REPL's feeder: well inside the timeout, cheap between REPL bytecodes
FEEDER_TIMER = 0  # hardware timer group 0, timer 0: nothing else on the board uses it

_dog = None
_feeder = None


def _feed(_timer: Timer) -> None:
    # A soft timer callback: it runs between the REPL's (or its code's) bytecodes.
    if _dog is not None:
        _dog.feed()


def watchdog(timeout_ms: int) -> WDT:
    """The WDT, for the scoreboard's loop to feed: started if need be, its feeder stopped."""
    global _dog
    if _dog is None:
        _dog = WDT(timeout=timeout_ms)
    if _feeder is not None:
        _feeder.deinit()
    _dog.feed()
    return _dog


def watchdog_off() -> None:
    """The loop hands over to the REPL: the WDT goes on, fed by a timer from now on."""
    global _feeder
    if _dog is None:
        return
    if _feeder is None:
        _feeder = Timer(FEEDER_TIMER)
    _feeder.init(mode=Timer.PERIODIC, period=FEED_MS, callback=_feed)


def after_reset() -> None:
    """From /boot.py: the WDT, fed by its timer until the scoreboard's loop takes it over
    (or for the raw REPL a soft reset leads to, where main.py does not run)."""
    watchdog(WATCHDOG_MS)
    watchdog_off()
