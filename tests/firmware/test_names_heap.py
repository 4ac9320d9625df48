"""Finnish names on a board whose heap is at its edge, in the real MicroPython unix port.

A Kaisa board once stopped answering ticks after a sync sent it names such as Öhman and
Åberg. The cause found: the display driver walked texts one character at a time, and
MicroPython interns every one-character string in its qstr pool for good; the first Ä shown
could need the pool's next block (doubling: about 15 KB, in one piece) in the middle of play,
and on a fragmented heap that raised MemoryError out of the main loop, with hundreds of KB
free. ASCII names never do it: their characters were interned at import. The driver now walks
a text's UTF-8 bytes (hardware/ht16k33.py, ``_layout``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from unix_port import run_micropython

from host.board import toolchain

DRIVER = Path(__file__).with_name("names_heap_driver.py")


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    """The board's packages and the driver compiled to .mpy, as on the board's flash."""
    target = tmp_path_factory.mktemp("names-heap")
    toolchain.compile_packages(target, ("rules_core", "hardware", "firmware"))
    toolchain.compile_file(DRIVER, target / "names_heap_driver.mpy",
                           "tests/firmware/names_heap_driver.py")
    return target


def pools(out: str) -> list[tuple[int, int]]:
    """(n_pool, n_qstr) of every qstr_info() the driver printed."""
    return [(int(a), int(b)) for a, b in re.findall(r"n_pool=(\d+), n_qstr=(\d+)", out)]


def test_showing_and_scrolling_names_interns_nothing(build):
    out = run_micropython(build, "names_heap_driver", ["intern"], heap="256k")
    before, after = pools(out)
    assert after == before, out  # not one qstr more for Ä Ö Å ä ö å Ł ć 漢 Ž Š
    assert re.findall(r"shown (.*)", out) == ["AIJALA  ", "OHMAN A ", "   A    "]
    assert re.findall(r"score (.*)", out) == ["  :Ao"]  # Ä, the colon, Ö (a 7-segment o)


def test_a_board_at_the_heap_edge_shows_a_synced_finnish_schedule_and_plays_on(build):
    """The board in its menu with its qstr pool full and its heap in small holes (as a long
    night leaves it) gets a schedule of Finnish names: it must show them and tick on. The
    same schedule in ASCII is the control: the holes are big enough for everything else."""
    outcomes = {}
    for names in ("ascii", "fi"):
        probe = run_micropython(build, "names_heap_driver", ["edge", "-1", names], heap="1m")
        start = pools(probe.split("\ni ", 1)[0])[-1][0]
        fill = next(int(i) for i, n in re.findall(r"^i (\d+)\nqstr pool: n_pool=(\d+)", probe,
                                                  re.M) if int(n) > start)
        out = run_micropython(build, "names_heap_driver", ["edge", str(fill), names],
                              heap="1m")
        full, last = pools(out)
        assert full[0] == start, out  # the pool full: one qstr more takes its next block
        outcomes[names] = (re.findall(r"^(OK|MemoryError)", out, re.M), last[0] - start)
    assert outcomes["ascii"] == (["OK"], 0)
    assert outcomes["fi"] == (["OK"], 0)  # was MemoryError: the pool grew in the tick
