"""Board files: which pins each board uses, and ``detect()`` to pick the one we run on.

Every board module offers the same names: ``NAME``; the pin numbers as constants; and
factories ``i2c()`` (the display bus at 400 kHz), ``keypad_pins()`` -> (rows, cols),
``settle()`` (the keypad's row settling pause), ``buzzer_pwm()`` and ``status_led()``; the
watchdog's ``watchdog(ms)`` (for the loop to feed), ``watchdog_off()`` (the REPL is handed
over) and ``after_reset()`` (run by /boot.py at every boot and soft reset); the USB serial's
``usb()``, ``wait(ms)``, ``tick_done(ms, us)``, ``host_ms()`` and ``serial_interrupt(on)``.
Only these modules import ``machine``; ``detect()`` imports just the one for this board.
"""

import sys


def detect(platform=None):
    """Return the board module for ``platform`` (default ``sys.platform``).

    ``rp2`` is a Raspberry Pi Pico or Pico W, ``esp32`` an ESP32 dev board; anything else
    (the MicroPython unix port, CPython) is the virtual board.
    """
    if platform is None:
        platform = sys.platform
    if platform == "rp2":
        from hardware.boards import pico

        return pico
    if platform == "esp32":
        from hardware.boards import esp32

        return esp32
    from hardware.boards import virtual

    return virtual


def machine_name() -> str:
    """The firmware's own description of the hardware (``os.uname().machine``), or ''."""
    try:
        import os

        return os.uname().machine
    except (ImportError, AttributeError):
        return ""
