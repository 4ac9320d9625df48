"""Raspberry Pi Pico / Pico W pin map (RP2040, MicroPython ``rp2`` port).

The displays hang on I2C0 at GP4/GP5 (physical pins 6/7), the keypad uses GP6..GP13 (pins
9..17, skipping the grounds), the piezo GP15 (pin 20). ``Pin("LED")`` is the on-board LED
on both the Pico (GP25) and the Pico W (wired to the wireless chip).
"""

import time

import machine
from machine import I2C, PWM, WDT, Pin, mem32

from hardware.boards.stdio_serial import (  # noqa: F401
    host_ms,
    serial_interrupt,
    tick_done,
    usb,
    wait,
)

NAME = "pico"

I2C_ID = 0
SDA = 4
SCL = 5
I2C_FREQ = 400000
ROWS = (6, 7, 8, 9)  # keypad rows, driven low one at a time (open drain)
COLS = (10, 11, 12, 13)  # keypad columns, inputs with pull-ups
BUZZER = 15
LED = "LED"


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
    # The RP2040's ~50 kOhm pull-ups need a few microseconds to lift a cable's columns.
    time.sleep_us(10)


def buzzer_pwm() -> PWM:
    pwm = PWM(Pin(BUZZER))
    pwm.duty_u16(0)
    return pwm


def status_led() -> Pin:
    return Pin(LED, Pin.OUT, value=0)


WATCHDOG_MAX_MS = 8388  # the RP2040's watchdog counts at most this long
_WATCHDOG_CTRL_CLR = 0x40058000 + 0x3000  # WATCHDOG CTRL, atomic bit-clear alias
_WATCHDOG_ENABLE = 1 << 30


def watchdog(timeout_ms: int) -> WDT:
    return WDT(timeout=min(timeout_ms, WATCHDOG_MAX_MS))


def watchdog_off() -> None:
    # machine.WDT cannot be stopped; the block's ENABLE bit can (RP2040 datasheet 4.7): the
    # REPL a person or `pilkku flash` asked for is not reset under them.
    mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE


def after_reset() -> None:
    pass  # boot.py: the watchdog is off after any reset until the scoreboard starts it
