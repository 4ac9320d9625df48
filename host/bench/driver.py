"""The engine side of `pilkku bench`: runs in the MicroPython unix port (compiled with
mpy-cross, beside the firmware's packages), never imported by the host. Each mode prints one
result line of words, which host/bench/command.py reads. (The firmware's own run is
host/bench/firmware.py, kept apart so its heap holds nothing of this.)

    replay LOG ROUNDS         REPLAY events us us ...: LOG's events applied to a new Match,
                              ROUNDS times (parsed beforehand: the engine's speed alone)
    undo IMAGE LOG ROUNDS     UNDO us us ...: undo at the end of LOG's match, its events in
                              the firmware's journal on a LittleFS image, ROUNDS times
    resume play IMAGE LOG     PLAYED events: LOG's events into the journal on a fresh
                              LittleFS image, then the process ends as a power cut does
                              (every record flushed, nothing closed)
    resume more IMAGE LOG N   PLAYED events: the board boots, resumes, plays LOG's events
                              up to the Nth, and the process ends as a power cut does
    resume time IMAGE COUNT   RESUME us events snapshot heap: the board's boot after that
                              cut, timed: the journal opened (scan, repair) and the match
                              resumed; heap: bytes the journal and the match hold then

A LOG is written by host/bench/command.py as lines: the settings, then one event a line.
"""

import gc
import json
import sys
import time


def _ticks_us():
    return time.ticks_us()  # type: ignore[attr-defined]  # MicroPython's clock


def _ticks_diff(a, b):
    return time.ticks_diff(a, b)  # type: ignore[attr-defined]


def say(*words):
    sys.stdout.write(" ".join([str(w) for w in words]) + "\n")


def read_log(path):
    """The settings and a generator of the events, read a line at a time."""
    f = open(path)
    settings = json.loads(f.readline())

    def events():
        for line in f:
            yield json.loads(line)
        f.close()

    return settings, events()


def replay(argv):
    from rules_core.match import Match

    settings, events = read_log(argv[0])
    events = list(events)
    rounds = int(argv[1])
    times = []
    for round_ in range(rounds + 1):  # round 0 warms up: modules imported, heap settled
        gc.collect()  # each round starts from the same heap
        start = _ticks_us()
        match = Match(settings)
        for event in events:
            match.apply(event)
        if round_:
            times.append(_ticks_diff(_ticks_us(), start))
    say("REPLAY", len(events), *times)


def mount(image, blocks=512):
    """A fresh LittleFS2 image at /flash, as the board's flash (hardware/boards/virtual_flash)."""
    from hardware.boards.virtual_flash import mount as mount_image

    return mount_image(image, blocks, "/flash")


def undo(argv):
    from firmware.journal import Journal

    mount(argv[0])
    settings, events = read_log(argv[1])
    rounds = int(argv[2])
    journal = Journal("/flash/journal")
    match = journal.start(settings, {})
    for event in events:
        match.apply(event)
    times = []
    for _ in range(rounds):
        gc.collect()
        start = _ticks_us()
        match.undo()
        times.append(_ticks_diff(_ticks_us(), start))
        match.redo()  # back to the full match for the next round
    say("UNDO", *times)


def resume(argv):
    from firmware.journal import Journal

    mount(argv[1])
    if argv[0] in ("play", "more"):
        settings, events = read_log(argv[2])
        if argv[0] == "play":
            match = Journal("/flash/journal").start(settings, {})
        else:
            match = Journal("/flash/journal").resume()
        until = int(argv[3]) if len(argv) > 3 else -1
        count = 0
        for event in events:
            if count == until:
                break
            if count >= len(match.log):
                match.apply(event)
            count += 1
        say("PLAYED", len(match.log))
        return
    gc.collect()
    before = gc.mem_alloc()  # type: ignore[attr-defined]  # MicroPython's gc
    start = _ticks_us()
    journal = Journal("/flash/journal")
    match = journal.resume()
    took = _ticks_diff(_ticks_us(), start)
    if match is None or len(match.log) != int(argv[2]):
        raise RuntimeError("the journal did not resume the match it holds")
    gc.collect()
    held = gc.mem_alloc() - before  # type: ignore[attr-defined]
    say("RESUME", took, len(match.log), int(journal.log.resume_point is not None), held)


def main(argv):
    if argv[0] == "resume":
        resume(argv[1:])
    elif argv[0] == "replay":
        replay(argv[1:])
    elif argv[0] == "undo":
        undo(argv[1:])
    else:
        raise ValueError("unknown mode %s" % argv[0])
