"""Power cuts on the emulated Pico inside the journal's flash operations, chosen by operation
(host/board/pico/board.py cut_in_flash), not by time: the erases and programs of a match's
start (its S record in the ring; in the quiet second after it, seq on littlefs and a ring
sector erased ahead: firmware/between_keys.py FLASH_IDLE_MS), of a shot's record in the
ring (before its first byte and 100 bytes in), and of the key that leaves a won match (its F
record in the ring, then the match filed to littlefs between keys): in CI the first and the
last operation of each, every one with PILKKU_PICO_ALL_CUTS=1. After each the board
powers up on the same flash and shows exactly what it showed before the key or after it,
and play goes on from there as on the desk board (docs/journal.md, "The key's record outside
littlefs")."""

from __future__ import annotations

import os

from twin import DOWN_MS, frames_of, press, view

from host.board.pico import ready
from host.board.pico.chip import PicoError

MENU = "1"  # race to 1
ACTIONS = "#119A#"  # start; the lag to PL 1, who breaks; the 9 in, confirmed: won; filed
KEY_MS = 2000  # a key and the quiet ticks after it (their erases, the filing)


def same(now: tuple, frame: tuple) -> bool:
    """The frame, the menu's race allowed back at its default (the menu's choices are not
    kept across a power cut)."""
    if now == frame:
        return True
    return frame[3].endswith(" GO") and now[:2] + now[3:] == frame[:2] + frame[3:] \
        and now[2] == "  r5"


def key_and_quiet(pico, key: str) -> None:
    pico.key(key, True)
    for at in range(0, KEY_MS, 10):
        if at == DOWN_MS:
            pico.key(key, False)
        pico.step(10)


def operations(image, folder) -> list[int]:
    """Flash operations of each action and the quiet ticks after it, on a board of its own."""
    pico = ready.board_from(image, folder)
    pico.start(stepped=True)
    ready.boot(pico)
    try:
        for key in MENU:
            press(pico, key)
        counts = []
        for key in ACTIONS:
            before = pico.flash_ops
            key_and_quiet(pico, key)
            counts.append(pico.flash_ops - before)
        return counts
    finally:
        pico.close()


def chosen(count: int) -> list[int]:
    """The operations of an action to cut in: all of them with PILKKU_PICO_ALL_CUTS=1 (about
    ten minutes on the emulated chip), else its first and last (what CI's time allows: the
    action's first write and the one that commits it; half a minute a cut)."""
    if os.environ.get("PILKKU_PICO_ALL_CUTS") == "1":
        return list(range(1, count + 1))
    return sorted({1, count})


def cut_at(image, folder, frames, index: int, operation: int, bytes_: int) -> bool:
    """Play to ACTIONS[index], cut the power in its `operation`-th flash operation, power up:
    the frame before or after the key, and the next key plays on. True if it had landed."""
    pico = ready.board_from(image, folder)
    pico.start(stepped=True)
    ready.boot(pico)
    try:
        for key in MENU + ACTIONS[:index]:
            press(pico, key)
        where = "action %d (%s), flash operation %d, %d bytes in" % (
            index, ACTIONS[index], operation, bytes_)
        assert same(view(pico), frames[index]), where
        pico.cut_in_flash(operation, 0, bytes_)
        try:
            key_and_quiet(pico, ACTIONS[index])
        except PicoError:
            pass  # the power went
        assert pico.wait_dead(), "the cut did not come: " + where
        pico.kill()
        pico.start(stepped=True)
        ready.boot(pico)
        pico.step(200)  # the rest of the first frame: one display shows first
        now = view(pico)
        landed = same(now, frames[index + 1])
        assert landed or same(now, frames[index]), (where, now)
        following = index + 1 if landed else index
        if following == 0:
            for key in MENU:  # the menu's race, back at its default after the power cut
                press(pico, key)
        if following < len(ACTIONS):
            press(pico, ACTIONS[following])
            assert same(view(pico), frames[following + 1]), ("after the cut", where)
        return landed
    finally:
        pico.close()
        assert pico.misaligned == [], pico.misaligned


def test_cuts_at_every_flash_operation_of_a_start_a_shot_and_a_filing(tmp_path, flashed):
    image = flashed(True).image
    frames = frames_of(MENU, ACTIONS)
    counts = operations(image, tmp_path / "count")
    start, shot, leave = counts[0], counts[1], counts[5]
    assert start >= 6 and shot >= 1 and leave >= 3, counts  # the S, seq, ring erases ahead
    cuts = [(0, op, 0) for op in chosen(start)]
    cuts += [(1, 1, 0), (1, 1, 100)]  # a shot's record: before its first byte, torn
    cuts += [(5, op, 0) for op in chosen(leave)]
    outcomes = {}
    for number, (index, op, bytes_) in enumerate(cuts):
        outcomes[(index, op, bytes_)] = cut_at(image, tmp_path / ("c%d" % number), frames,
                                               index, op, bytes_)
    # the cuts fell both before and after the key was on flash
    assert not outcomes[(1, 1, 0)] and any(outcomes.values()), outcomes
