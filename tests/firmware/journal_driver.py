"""Runs in the MicroPython unix port for test_journal_powercut.py: mounts a LittleFS2 image
through the virtual flash chip, resumes whatever the journal holds, reports it, then plays a
scripted match and prints "ACK <n>" once action n is on flash, until it is killed.

    micropython run_journal_driver.py IMAGE SCRIPT START COUNT [CUT]

SCRIPT has one JSON action per line: ["start", settings, meta], ["apply", event], ["undo"],
["finish", meta], ["ack"] (acknowledge the oldest finished match: one result, as the host's
sync acknowledges one `seq` at a time, so that each action is one step on flash that lands
whole or not at all). Action n is line n modulo the number of lines; START is the first
action to play, COUNT how many to play at most.

CUT (optional) cuts the power after that many flash writes (block programs and erases,
counted from the mount, boot repairs included): from then on nothing more reaches the image,
and every write fails. Between actions the journal is prepared, as the board's loop does
between keys (a pad record written, not flushed). The driver prints no more ACKs, swallows
what the dead flash makes the journal raise, and ends with "CUT". "FLASH <n>" lines give
the writes so far: after READY (what the boot's repairs wrote) and before END.
"""

import json
import sys

from firmware.journal import Journal
from hardware.boards import virtual_flash
from rules_core import canon

BLOCKS = 256  # 1 MB of 4 KB blocks
MAX_FINISHED = 2
COMPACT_MIN = 256  # compact often, so power cuts meet compaction too


class DyingFlash(virtual_flash.FlashImage):
    """The virtual flash chip with a power cut after `left` more programs and erases."""

    def __init__(self, path, blocks, left):
        super().__init__(path, blocks)
        self.left = left
        self.dead = False

    def _spend(self):
        if self.left <= 0:
            self.dead = True
        if self.dead:
            raise OSError(5)  # EIO: and nothing is written
        self.left -= 1

    def writeblocks(self, block, buf, offset=None):
        self._spend()
        super().writeblocks(block, buf, offset)

    def _erase(self, block):
        self._spend()
        super()._erase(block)


def mount(image, cut):
    if cut < 0:
        return virtual_flash.mount(image, BLOCKS, "/flash")
    import vfs

    dev = DyingFlash(image, BLOCKS, cut)
    vfs.mount(vfs.VfsLfs2(dev, progsize=virtual_flash.PROGSIZE), "/flash")
    return dev


def say(text):
    sys.stdout.write(text)
    sys.stdout.write("\n")


def report(journal, match):
    """RESUMED null, or RESUMED <seq> [events] and STATE {...}; then DOC <seq> {...} per
    finished match, oldest first; READY."""
    write = sys.stdout.write
    if match is None:
        say("RESUMED null")
    else:
        write("RESUMED %d [" % journal.log.seq)
        for index in range(len(match.log)):
            if index:
                write(",")
            canon.dump(match.log[index], write)
        say("]")
        write("STATE ")
        canon.dump(match.state.to_dict(), write)
        say("")
    for seq in journal.finished():
        write("DOC %d " % seq)
        journal.dump_document(seq, write)
        say("")
    problem = getattr(journal, "problem", None)
    if problem:
        say("PROBLEM " + problem)  # what the displays say at boot
    say("READY")


def actions(path, start):
    """Action numbers and actions from `start` on, round the script forever."""
    with open(path) as f:
        count = 0
        for _ in f:
            count += 1
    number = start
    while True:
        with open(path) as f:
            line_no = 0
            for line in f:
                if line_no == number % count:
                    yield number, json.loads(line)
                    number += 1
                line_no += 1


def play(journal, match, script, start, count, dev):
    for number, action in actions(script, start):
        kind = action[0]
        if kind == "start":
            match = journal.start(action[1], action[2])
        elif kind == "apply":
            match.apply(action[1])
        elif kind == "undo":
            match.undo()
        elif kind == "finish":
            journal.finish(action[1])
            match = None
        elif kind == "ack":
            waiting = journal.finished()
            if not waiting or not journal.acknowledge(waiting[0]):
                raise RuntimeError("action %d: nothing to acknowledge" % number)
        if getattr(dev, "dead", False):
            return  # the power went during the action: it is not confirmed
        say("ACK %d" % number)
        count -= 1
        if count <= 0:
            return
        journal.prepare()  # as the board does between keys: cuts meet its pad writes too


def main(argv):
    image, script, start, count = argv[0], argv[1], int(argv[2]), int(argv[3])
    cut = int(argv[4]) if len(argv) > 4 else -1
    dev = mount(image, cut)
    try:
        journal = Journal("/flash/journal", max_finished=MAX_FINISHED, compact_min=COMPACT_MIN)
        match = journal.resume()
        if not getattr(dev, "dead", False):  # else the boot was cut: its report means nothing
            report(journal, match)
            say("FLASH %d" % (dev.programs + dev.erases))
            if count > 0:
                play(journal, match, script, start, count, dev)
    except Exception:
        if not getattr(dev, "dead", False):
            raise
    if getattr(dev, "dead", False):
        say("CUT")
        return
    if count > 0:
        say("FLASH %d" % (dev.programs + dev.erases))
        say("END")
