"""A reset of the virtual board on its flash chip (virtual_flash.power_cycle, what the ROM
does when its watchdog fires): what the program before the reset had written and not
flushed stays out of the flash, as on a chip whose RAM the reset cleared, and collecting
that program's open file later neither writes it nor breaks littlefs (its finaliser runs
with the GC locked; an exception there once left a freed file on littlefs' list of open
files, and the board crashed on its next boot)."""

from __future__ import annotations

from pathlib import Path

import pytest
from driver_build import driver_build
from unix_port import run_micropython

BOARD_FILES = ["hardware/__init__.py", "hardware/boards/__init__.py",
               "hardware/boards/virtual_flash.py"]


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return driver_build(tmp_path_factory.mktemp("reset-mpy"), BOARD_FILES,
                        ("flash_reset_driver",))


def test_unflushed_bytes_of_the_program_before_a_reset_never_reach_the_flash(build, tmp_path):
    out = run_micropython(build, "flash_reset_driver", [str(tmp_path / "flash.img"), "reset"])
    assert out.split() == ["kept+after", "1"]


def test_the_chip_reads_programs_and_erases_with_the_heap_locked(build, tmp_path):
    """The rp2 port's flash driver is C and allocates nothing; littlefs also writes from a
    file's finaliser, with the GC locked, so the virtual chip must not allocate either."""
    out = run_micropython(build, "flash_reset_driver", [str(tmp_path / "flash.img"), "locked"])
    assert out.split() == ["read=1", "program=1", "erase=1", "whole=1"]
