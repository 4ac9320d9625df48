"""The journal on the littlefs of the virtual flash chip (the unix port): once its file is
past littlefs' inline size, each record's write copies the file's last block into an erased
one, a 4 KB erase in the key's path (45 ms on a Pico). Prepared between keys (a pad record
written then), the erase is done before the key, and the event's record erases nothing
but, now and then, littlefs' own compaction of the folder's metadata."""

from __future__ import annotations

from pathlib import Path

import pytest
from driver_build import JOURNAL_FILES, driver_build
from unix_port import run_micropython

EVENTS = 96
INLINE = 16  # events while the file is small enough for littlefs to keep it inline


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return driver_build(tmp_path_factory.mktemp("erase-mpy"), JOURNAL_FILES, ("erase_driver",))


def erases(build: Path, image: Path, prepare: bool, every: int = 32,
           events: int = EVENTS) -> list[int]:
    out = run_micropython(build, "erase_driver",
                          [str(image), str(events), "1" if prepare else "0", str(every)],
                          heap="128k")
    return [int(n) for n in out.split()]


def longest_run(flags: list[bool]) -> int:
    run = best = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


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


@pytest.mark.parametrize("prepare", [False, True], ids=["unarmed", "armed"])
def test_a_new_snapshot_does_not_leave_the_log_compacting_at_every_event(build, tmp_path,
                                                                          prepare):
    """Renamed over the old snapshot, the new one left littlefs compacting the folder's
    metadata at every flush of the log, an erase more per event, until the next snapshot:
    runs of 8 with a snapshot every 8 events."""
    counts = erases(build, tmp_path / "flash.img", prepare, every=8, events=120)
    compacting = [n >= (1 if prepare else 2) for n in counts[INLINE:]]
    assert longest_run(compacting) <= 2
