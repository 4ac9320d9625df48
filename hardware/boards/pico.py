"""Raspberry Pi Pico / Pico W pin map (RP2040, MicroPython ``rp2`` port).

The displays hang on I2C0 at GP4/GP5 (physical pins 6/7), the keypad uses GP6..GP13 (pins
9..17, skipping the grounds), the piezo GP15 (pin 20). ``Pin("LED")`` is the on-board LED
on both the Pico (GP25) and the Pico W (wired to the wireless chip).
"""

import time

from machine import I2C, PWM, Pin

from hardware.boards.stdio_serial import host_ms, tick_done, usb, wait  # noqa: F401

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


def settle() -> None:
    # The RP2040's ~50 kOhm pull-ups need a few microseconds to lift a cable's columns.
    time.sleep_us(10)


def buzzer_pwm() -> PWM:
    pwm = PWM(Pin(BUZZER))
    pwm.duty_u16(0)
    return pwm


def status_led() -> Pin:
    return Pin(LED, Pin.OUT, value=0)
