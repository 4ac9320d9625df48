"""The journal on the littlefs of the virtual flash chip (the unix port): once its file is
past littlefs' inline size, each record's write copies the file's last block into an erased
one, a 4 KB erase in the key's path (45 ms on a Pico). Prepared between keys (a pad record
written then), the erase is done before the key, and the event's record erases nothing
but, now and then, littlefs' own compaction of the folder's metadata."""

from __future__ import annotations

from pathlib import Path

import pytest
from driver_build import driver_build
from unix_port import run_micropython

BOARD_FILES = ["firmware/__init__.py", "firmware/journal.py", "firmware/journal_log.py",
               "firmware/journal_records.py", "firmware/journal_rewrite.py",
               "firmware/snapshot.py", "hardware/__init__.py", "hardware/compat.py",
               "hardware/boards/__init__.py", "hardware/boards/virtual_flash.py"]
EVENTS = 96
INLINE = 16  # events while the file is small enough for littlefs to keep it inline


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return driver_build(tmp_path_factory.mktemp("erase-mpy"), BOARD_FILES, ("erase_driver",))


def erases(build: Path, image: Path, prepare: bool) -> list[int]:
    out = run_micropython(build, "erase_driver", [str(image), str(EVENTS), "1" if prepare else "0"],
                          heap="128k")
    return [int(n) for n in out.split()]


def test_unprepared_every_event_past_the_inline_size_erases(build, tmp_path):
    counts = erases(build, tmp_path / "flash.img", prepare=False)
    assert len(counts) == EVENTS
    assert all(n >= 1 for n in counts[INLINE:])


def test_prepared_between_keys_an_event_seldom_erases(build, tmp_path):
    counts = erases(build, tmp_path / "flash.img", prepare=True)
    past = counts[INLINE:]
    # littlefs compacts the folder's metadata block about every 16 commits of 256 bytes, and
    # every 32nd event writes the journal's snapshot file: 8 of the 80 here
    assert sum(1 for n in past if n) <= len(past) // 5
