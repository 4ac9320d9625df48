"""Runs in the MicroPython unix port for test_journal_erases.py: a 9-ball match of plain
misses journaled on the virtual flash chip's littlefs, printing how many block erases each
event's record took, with the journal prepared before each event (as the board's loop does
between keys) or not.

    micropython run_erase_driver.py IMAGE EVENTS PREPARE(0|1) SNAPSHOT_EVERY
"""

import sys

from firmware.journal import Journal
from hardware.boards import virtual_flash

SETTINGS = {"game": "9ball", "players": ["A", "B"], "race_to": 5, "breaker": 0}
MISS = {"t": "shot", "first": 1, "pocketed": []}


def main(argv):
    dev = virtual_flash.mount(argv[0], 64, "/flash")
    journal = Journal("/flash/journal", snapshot_every=int(argv[3]))
    match = journal.start(SETTINGS, {})
    prepare = argv[2] == "1"
    for _ in range(int(argv[1])):
        if prepare:
            journal.prepare()
        before = dev.erases
        match.apply(MISS)
        sys.stdout.write("%d " % (dev.erases - before))
    journal.close()
    sys.stdout.write("\n")
