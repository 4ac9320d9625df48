"""Runs in the MicroPython unix port for test_journal_ring_unix.py: the journal ring's power
cuts on the NOR flash model (ring_play.sweep), one line per cut, then whether an append
allocated anything on the heap.

    micropython run_ring_driver.py RECORDS [EVERY_BYTE_OPS...]
"""

import sys

import micropython
from nor_flash import NorFlash
from ring_play import COUNT, payload, script, sweep

from firmware.journal_ring import Ring


class QuietFlash(NorFlash):
    """The model's cells, written by loops that allocate nothing (the model's bookkeeping
    does), so that a heap-locked append measures the ring alone."""

    def writeblocks(self, block, buf, off=None):
        start = block * 4096 + off
        cells = self.cells
        for j in range(len(buf)):
            cells[start + j] &= buf[j]

    def ioctl(self, op, arg):
        if op != 6:
            return NorFlash.ioctl(self, op, arg)
        cells = self.cells
        for j in range(arg * 4096, arg * 4096 + 4096):
            cells[j] = 0xFF
        return 0


def heap_locked_appends():
    """Appends (a page's worth, page-spanning, into a new sector) with the heap locked: a
    MemoryError means the record's path allocated."""
    flash = QuietFlash(8)
    ring = Ring(flash, 0, COUNT)
    ring.tidy()
    ring.tidy()
    records = [payload(n, 40 + n * 23 % 600) for n in range(1, 40)]
    done = 0
    for data in records:
        micropython.heap_lock()
        try:
            ring.append(0x45, data)
            done += 1
        except MemoryError:
            pass
        finally:
            micropython.heap_unlock()
        ring.tidy()
    return done, len(records)


def restarted():
    """A ring with records restarted, then restarted again empty (as a match starts after a
    filing): the numbers the ring then holds and the next one it gives."""
    ring = Ring(QuietFlash(8), 0, COUNT)
    for n in range(1, 4):
        ring.append(0x45, payload(n, 300))
    ring.restart()
    ring.restart()
    held = [number for _pos, number, _kind, _length in ring.records()]
    return "%r %d" % (held, ring.append(0x45, payload(4, 30)))


def main(argv):
    records = int(argv[0])
    only = set(int(a) for a in argv[1:]) or None
    for line in sweep(script(records), only=only, every_byte=only is not None):
        sys.stdout.write(line + "\n")
    done, tried = heap_locked_appends()
    sys.stdout.write("HEAP %d %d\n" % (done, tried))
    sys.stdout.write("RESTART %s\n" % restarted())
