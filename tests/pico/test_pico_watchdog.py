"""The RP2040's watchdog on the emulated Pico: a main.py with a planted bug (the D key spins
for ever, tests/wedged.py) put on the board's filesystem over its REPL; the loop stuck past
the watchdog's 8 s resets the chip, and the board comes back into the scoreboard with the
match in play resumed from the journal, and keeps score."""

from __future__ import annotations

import base64
import time

from twin import press

from host.board.mpremote_link import Link as ReplLink
from host.board.pico import ready
from tests.wedged import WEDGED_MAIN

PUT = "import binascii\nwith open('/main.py', 'wb') as f:\n f.write(binascii.a2b_base64(%r))\n"


def test_a_wedged_loop_is_reset_by_the_watchdog_and_the_match_comes_back(tmp_path, flashed):
    pico = ready.board_from(flashed(True).image, tmp_path / "pico")
    pico.start()
    try:
        ready.up(pico)
        with ReplLink.open(pico.pty_path) as link:
            link.raw_repl(soft_reset=True)
            link.run(PUT % base64.b64encode(WEDGED_MAIN).decode())
            link.start_firmware()
        pico.wait_ms(1000)
        for key in "1#113A":  # a 9-ball race to 1: PL 1 breaks, the 3 falls, confirmed
            press(pico, key)
        before = pico.texts()
        assert before["score_1"].strip() == "0" and pico.resets == 0
        pico.key("D", True)  # the bug: the tick that takes the key never ends
        deadline = time.monotonic() + 300
        while pico.resets == 0:
            assert time.monotonic() < deadline and pico.alive(), "no watchdog reset"
            time.sleep(0.1)
        pico.key("D", False)
        ready.up(pico)  # the chip forgot its displays: lit again means the firmware is back
        pico.wait_ms(300)
        after = pico.texts()
        assert (after["score_1"], after["score_2"], after["clock"]) == (
            before["score_1"], before["score_2"], before["clock"])  # the match, from the journal
        for key in "9A":
            press(pico, key)
        assert pico.texts()["score_1"].strip() == "1"  # it keeps score: the 9 ends the race
        assert pico.resets == 1
    finally:
        pico.close()
