"""ESP32 dev board pin map (ESP32-WROOM-32 DevKitC / DOIT DevKit V1, MicroPython ``esp32``).

I2C on the customary GPIO21 (SDA) / GPIO22 (SCL). The keypad avoids the strapping pins
(0, 2, 5, 12, 15), the flash pins (6..11), GPIO16/17 (PSRAM on WROVER modules) and the
input-only 34..39, which have no pull-ups. Other ESP32 chips (S2, S3, C3) report the same
``sys.platform`` but have other pins: they need their own board file.
"""

import time

from machine import I2C, PWM, Pin

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


def settle() -> None:
    # The ESP32's ~45 kOhm pull-ups need a few microseconds to lift a cable's columns.
    time.sleep_us(10)


def buzzer_pwm() -> PWM:
    pwm = PWM(Pin(BUZZER), freq=2000, duty_u16=0)
    return pwm


def status_led() -> Pin:
    return Pin(LED, Pin.OUT, value=0)


class _NoWatchdog:
    def feed(self) -> None:
        pass


def watchdog(timeout_ms: int) -> _NoWatchdog:
    # The ESP32 port's WDT cannot be stopped before the REPL (`pilkku flash` would be reset
    # in the middle), so this board runs without one (docs/sync-protocol.md).
    return _NoWatchdog()


def watchdog_off() -> None:
    pass
