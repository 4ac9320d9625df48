"""The journal's ring (firmware/journal_ring.py) on the MicroPython unix port, as the board
runs it (compiled with mpy-cross): the power cuts of test_journal_ring.py at every erase and
program of a script, and at every byte of two programs, give the very same results as under
CPython (ring_driver.py prints a line per cut); and an append, into a new sector too,
allocates nothing on the heap (run with the heap locked)."""

from __future__ import annotations

from pathlib import Path

import pytest
from driver_build import driver_build
from nor_flash import NorFlash
from ring_play import play, script, sweep
from unix_port import run_micropython

BOARD_FILES = ["firmware/__init__.py", "firmware/journal_ring.py", "hardware/__init__.py",
               "hardware/compat.py"]
RECORDS = 40


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return driver_build(tmp_path_factory.mktemp("ring-mpy"), BOARD_FILES,
                        ("nor_flash", "ring_play", "ring_driver"))


def test_cuts_at_every_operation_as_under_cpython(build):
    out = run_micropython(build, "ring_driver", [str(RECORDS)], heap="4m").splitlines()
    lines = sweep(script(RECORDS))
    assert len(lines) > 300
    assert out[:-2] == lines


def test_cuts_at_every_byte_of_two_programs_as_under_cpython(build):
    flash = NorFlash(8)
    play(flash, script(RECORDS))
    # a record's program within a page, and one across pages
    ops = list(enumerate(zip(flash.shapes, flash.written, strict=True), 1))
    chosen = [next(at for at, (shape, (off, _)) in ops if off and min(shape, 2) == two)
              for two in (1, 2)]
    out = run_micropython(build, "ring_driver", [str(RECORDS)] + [str(at) for at in chosen],
                          heap="4m").splitlines()
    lines = sweep(script(RECORDS), only=set(chosen), every_byte=True)
    assert len(lines) >= 3 * 256
    assert out[:-2] == lines


def test_an_append_allocates_nothing(build):
    out = run_micropython(build, "ring_driver", ["1", "1"], heap="4m").splitlines()
    done, tried = out[-2].split()[1:]
    assert done == tried  # every heap-locked append went through


def test_a_restart_on_the_port_empties_the_ring_and_numbers_go_on(build):
    out = run_micropython(build, "ring_driver", ["1", "1"], heap="4m").splitlines()
    assert out[-1] == "RESTART [] 4"
