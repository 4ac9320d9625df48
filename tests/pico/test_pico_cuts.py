"""Power cuts on the emulated Pico at random instructions: while a key is being taken in
play, and while the key that wins a match is filed. After each the board powers up on the
same flash and must show exactly what it showed before the key or what it shows after it
(nothing in between, nothing lost that the displays had shown), and play goes on from there
against the desk board's frames."""

from __future__ import annotations

import random

from displays import cuts_in_flight
from twin import DOWN_MS, frames_of, press, view

from host.board.pico import ready
from host.board.pico.chip import PicoError

# Instructions of the emulated chip from a press to its record on flash and a little after:
# the press is taken within a millisecond (the loop's wait ends at the latched edge) and its
# record is one ring program some 8-10 ms later (about 1.1 million instructions), so cuts
# drawn in this range fall both before and after it. (The flash work between keys waits for
# a quiet second: tests/pico/test_pico_ring_cuts.py cuts inside it, by operation.)
KEY_COST = 3_000_000
# The winning key's record is one ring program (docs/journal.md), on flash some 15 ms (about
# 1.1 million instructions) after the press: cuts drawn around it fall before and after.
WIN_COST = 2_000_000


def cut_during(pico, key: str, instructions: int) -> None:
    """Press `key` and pull the power `instructions` instructions later; power up again."""
    pico.key(key, True)
    pico.cut_after(instructions)
    try:
        for at in range(0, 3000, 10):
            if at == DOWN_MS:
                pico.key(key, False)
            pico.step(10)
    except PicoError:
        pass  # the power went
    assert pico.wait_dead(), "the cut asked for did not come"
    pico.kill()
    pico.start(stepped=True)
    ready.boot(pico)
    pico.step(200)  # the rest of the first frame: one display shows first


def test_fourteen_cuts_during_play_each_resumed_exactly(pico):
    rng = random.Random(20261203)
    actions = "".join(rng.choice("##A") for _ in range(60))
    frames = frames_of("20#11", actions)  # race to 20, PL 1 wins the lag and breaks
    for key in "20#11":
        press(pico, key)
    assert view(pico) == frames[0]
    done, landed = cuts_in_flight(
        frames, actions, 14, lambda: rng.randint(0, 2), lambda key: press(pico, key),
        lambda key: cut_during(pico, key, rng.randint(300_000, KEY_COST)), lambda: view(pico))
    assert 0 < landed < 14  # the cuts fell both before and after the journal had the key
    press(pico, actions[done])
    assert view(pico) == frames[done + 1]  # and the match goes on


def test_six_cuts_while_the_winning_key_is_filed(pico):
    rng = random.Random(3122026)
    before, won, menu = frames_of("1#119", "A#")  # race to 1: the 9 in, then A confirms
    outcomes = []
    for _cut in range(6):
        for key in "1#119":
            press(pico, key)
        cut_during(pico, "A", rng.randint(100_000, WIN_COST))
        now = view(pico)
        # before the 9 was keyed in (a key entry is not in the journal), or the match won
        assert now[:3] == before[:3] and now[3] in ("PL 1 BRK", won[3]) or now == won, now
        if now != won:
            for key in "9A":
                press(pico, key)
            assert view(pico) == won
        outcomes.append(now == won)
        press(pico, "#")
        # The result filed, the menu back: set to race to 1 still, or, powered up since, at
        # its default race to 5 (the menu's choices are not kept across a power cut).
        shown = view(pico)
        assert shown[:2] + shown[3:] == menu[:2] + menu[3:] and shown[2] in (menu[2], "  r5")
    assert any(outcomes) and not all(outcomes)
