"""Runs in the MicroPython unix port for test_flash_reset.py. `reset`: a file on the virtual
flash chip's littlefs left open with bytes written and not flushed (as the journal leaves its
pad between keys), the board reset and the file collected by the GC; prints what a file
opened afterwards reads. `locked`: prints which of the chip's block operations work with the
heap locked, as in a finaliser.

    micropython run_flash_reset_driver.py IMAGE reset|locked
"""

import gc
import os
import sys

import micropython

from hardware.boards import virtual_flash


def main(argv):
    if argv[1] == "locked":
        locked(virtual_flash.FlashImage(argv[0], 8))
        return
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
    sys.stdout.write(" %d\n" % len(os.listdir("/flash")))


def locked(dev):
    page = bytearray(256)
    block = bytearray(dev.block_size)
    for name in ("read", "program", "erase", "whole"):
        micropython.heap_lock()
        try:
            if name == "read":
                dev.readblocks(1, page, 0)
            elif name == "program":
                dev.writeblocks(1, page, 256)
            elif name == "erase":
                dev.ioctl(6, 2)
            else:
                dev.writeblocks(3, block)
            worked = 1
        except MemoryError:
            worked = 0
        micropython.heap_unlock()
        sys.stdout.write("%s=%d " % (name, worked))
    sys.stdout.write("\n")
