"""Runs in the MicroPython unix port for test_flash_reset.py: a file on the virtual flash
chip's littlefs left open with bytes written and not flushed (as the journal leaves its pad
between keys), the board then reset; prints what the next boot reads from the file.

    micropython run_flash_reset_driver.py IMAGE
"""

import gc
import sys

from hardware.boards import virtual_flash


def main(argv):
    dev = virtual_flash.mount(argv[0], 64, "/flash", True)
    log = open("/flash/log", "wb")
    log.write(b"kept")
    log.flush()
    log.write(b"lost" * 50)  # in the file's buffer, in RAM: the reset clears it
    dev = virtual_flash.power_cycle(dev, argv[0], 64, "/flash")
    log = None
    gc.collect()  # the old file's finaliser runs now, with the GC locked
    again = open("/flash/log", "ab")
    again.write(b"+after")
    again.close()
    gc.collect()
    with open("/flash/log", "rb") as f:
        sys.stdout.write(f.read().decode())
    sys.stdout.write(" %d\n" % len(__import__("os").listdir("/flash")))
