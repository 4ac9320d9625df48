"""A key's tick on the virtual board meets no garbage collection: the firmware collects in the
quiet ticks between keys (firmware/between_keys.py), so the frame that answers a key
is not held up by one (docs/performance.md, key to display). The firmware runs as flashed,
with main.py watching the heap around each tick: a collection shows as free heap that grew.
And the acknowledgement of each tick carries the firmware's own time on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from displays import powered_up, seen

from host.board.virtual_board import VirtualBoard

# main.py as `pilkku flash` installs it, with a watch on the heap around every tick. A tick
# that drew (a key's frame) and found more heap free after it than before it met a collection.
WATCHED_MAIN = b"""import gc
import sys
from firmware import app as _app
from firmware import between_keys as _between_keys

_tick = _app.App.tick
_between = _between_keys.BetweenKeys.quiet


def _watched_tick(self, now):
    before = gc.mem_free()
    drew = _tick(self, now)
    if gc.mem_free() > before + 1024:
        sys.stderr.write("COLLECTED IN A %s TICK\\n" % ("KEY" if drew else "QUIET"))
    return drew


def _watched_between(self, app):
    before = gc.mem_free()
    _between(self, app)
    if gc.mem_free() > before + 1024:
        sys.stderr.write("COLLECTED BETWEEN KEYS\\n")


_app.App.tick = _watched_tick
_between_keys.BetweenKeys.quiet = _watched_between
""" + (Path(__file__).parents[2] / "firmware" / "main.py").read_bytes()

RACKS = 9


@pytest.fixture
def watched(tmp_path, firmware):
    vb = powered_up(tmp_path / "board", {**firmware, "main.py": WATCHED_MAIN})
    yield vb
    vb.close()


def _race(board: VirtualBoard) -> None:
    """A 9-ball race to 9 from the menu and back: every rack a dry break, a miss and the 9."""
    for key in "%d#11" % RACKS:
        board.tap(key)
    for _rack in range(RACKS):
        for key in "AA9A":
            board.tap(key)
    assert seen(board)[3].startswith("PL")  # the winner, whoever broke last
    assert "WON" in seen(board)[3]
    board.tap("#")
    assert seen(board)[3] == "9BALL GO"


def test_no_collection_falls_in_a_key_tick(watched):
    for _ in range(4):  # some 160 keys: the heap fills several times over
        _race(watched)
    log = (watched.folder / "board.log").read_text()
    assert "COLLECTED IN A KEY TICK" not in log
    assert "COLLECTED BETWEEN KEYS" in log  # the garbage was collected, and here


def test_a_tick_reports_the_firmware_time_it_took(board):
    spent = [board.step(10) for _ in range(50)]  # quiet ticks at the menu
    assert all(isinstance(us, int) and us >= 0 for us in spent)
    assert 0 < sorted(spent)[25] < 100_000  # microseconds, measured: not a constant
    assert len(set(spent)) > 1
