"""Runs in the MicroPython unix port for test_journal_powercut.py: mounts a LittleFS2 image
through the virtual flash chip, resumes whatever the journal holds, reports it, then plays a
scripted match and prints "ACK <n>" once action n is on flash, until it is killed.

    micropython run_journal_driver.py IMAGE SCRIPT START COUNT

SCRIPT has one JSON action per line: ["start", settings, meta], ["apply", event], ["undo"],
["finish", meta], ["ack"] (acknowledge every finished match). Action n is line n modulo the
number of lines; START is the first action to play, COUNT how many to play at most.
"""

import json
import sys

from firmware.journal import Journal
from hardware.boards import virtual_flash
from rules_core import canon

BLOCKS = 256  # 1 MB of 4 KB blocks
MAX_FINISHED = 2
COMPACT_MIN = 256  # compact often, so power cuts meet compaction too


def say(text):
    sys.stdout.write(text)
    sys.stdout.write("\n")


def report(journal, match):
    """RESUMED [events] or null, STATE {...}, then DOC {...} per finished match, READY."""
    write = sys.stdout.write
    if match is None:
        say("RESUMED null")
    else:
        write("RESUMED [")
        for index in range(len(match.log)):
            if index:
                write(",")
            canon.dump(match.log[index], write)
        say("]")
        write("STATE ")
        canon.dump(match.state.to_dict(), write)
        say("")
    for seq in journal.finished():
        write("DOC ")
        journal.dump_document(seq, write)
        say("")
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


def main(argv):
    image, script, start, count = argv[0], argv[1], int(argv[2]), int(argv[3])
    virtual_flash.mount(image, BLOCKS, "/flash")
    journal = Journal("/flash/journal", max_finished=MAX_FINISHED, compact_min=COMPACT_MIN)
    match = journal.resume()
    report(journal, match)
    if count <= 0:
        return
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
            for seq in journal.finished():
                journal.acknowledge(seq)
        say("ACK %d" % number)
        count -= 1
        if count <= 0:
            break
    say("END")
