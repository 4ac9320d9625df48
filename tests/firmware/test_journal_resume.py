"""Resume of a long match (docs/journal.md, "Snapshots" and "Boot: what it reads"): at 3000
events a boot reads the S record, the snapshot and the records after it, never the ones
before; holds one piece of the offset index; and resumes to exactly what a full replay
gives. Undo past the snapshot reads the older offsets back on demand; a damaged record
there, or a snapshot that does not fit, sends the journal back to the full scan.

The long journal is played once per module (the journal's fsync is skipped while it is
written: it orders nothing on CPython's files) and copied for each test."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from journal_play import playing
from journal_probe import Reads

from firmware import journal_log, journal_records, snapshot
from firmware.journal import Journal
from firmware.journal_records import JournalError
from host.bench import logs as bench_logs
from rules_core.match import Match

LONG = bench_logs.straight_log(3050)
EVENTS = LONG["events"]
SNAPSHOT_AT = 2976  # the last multiple of 32 at or below 3000


def replayed(count: int) -> dict:
    match = Match(LONG["settings"])
    for event in EVENTS[:count]:
        match.apply(event)
    return match.state.to_dict()


FULL = {}  # count -> the state a full replay in RAM gives, computed once


def full(count: int) -> dict:
    if count not in FULL:
        FULL[count] = replayed(count)
    return FULL[count]


def play(root: Path, count: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "fsync", lambda _fd: None)
        journal = Journal(str(root))
        playing(journal, EVENTS[:count], LONG["settings"])
        journal.close()  # as a power cut leaves it: every record flushed, nothing closed


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A journal of `count` events, played once per module."""
    made: dict[int, Path] = {}

    def journal(count: int) -> Path:
        if count not in made:
            made[count] = tmp_path_factory.mktemp("played") / "j"
            play(made[count], count)
        return made[count]

    return journal


@pytest.fixture
def long_journal(played, tmp_path) -> Path:
    root = tmp_path / "j"
    shutil.copytree(played(3000), root)
    return root


@pytest.fixture
def short_journal(played, tmp_path) -> Path:
    """300 events: the snapshot at 288 is past the index's first four pieces, as at 3000
    past its first 46 (the paths are the same; the tests run faster)."""
    root = tmp_path / "j"
    shutil.copytree(played(300), root)
    return root


def snapshot_doc(root: Path) -> dict:
    io = journal_records.Records()
    with open(root / snapshot.FILE, "rb") as f:
        assert io.read(f, 0, 10**6) > 0
    return io.value()


@pytest.mark.parametrize("how", ["used", "torn", "other_version", "no_snapshot"])
def test_resume_at_3000_events_equals_a_full_replay(long_journal, how):
    version = "dev"
    path = long_journal / snapshot.FILE
    if how == "torn":  # a power cut cannot leave this (tmp and rename), damage can
        path.write_bytes(path.read_bytes()[:-9])
    elif how == "other_version":
        version = "9.9.9"
    elif how == "no_snapshot":
        path.unlink()
    journal = Journal(str(long_journal), version=version)
    match = journal.resume()
    used = journal.log.resume_point
    assert (used is not None and used[0] == SNAPSHOT_AT) == (how == "used")
    assert len(match.log) == 3000
    assert match.state.to_dict() == full(3000)
    assert list(match.log)[-40:] == EVENTS[2960:3000]
    match.apply(EVENTS[3000])  # and play goes on from it
    assert match.state.to_dict() == replayed(3001)


def test_boot_at_3000_events_reads_and_holds_what_it_does_at_312(long_journal, tmp_path,
                                                                monkeypatch):
    """Both are 24 events past a snapshot: a boot reads the same number of records, none of
    them before the snapshot's last event but the S record, and holds one piece of the
    offset index, however long the match."""
    short = tmp_path / "short"
    play(short, 312)
    seen = {}
    for root, count in ((short, 312), (long_journal, 3000)):
        last = snapshot_doc(root)["last"]
        reads = Reads(monkeypatch, only="current.log")
        journal = Journal(str(root))
        match = journal.resume()
        monkeypatch.undo()
        assert len(match.log) == count
        assert [offset for offset in reads.offsets if 0 < offset < last] == []
        assert len(journal.log._pieces) == 1  # noqa: SLF001  # what boot holds in RAM
        seen[count] = len(reads.offsets)
        journal.close()
    # S, the snapshot's last event, 24 events scanned, the same 24 replayed
    assert seen[3000] == seen[312] == 2 + 2 * 24


def test_undo_across_the_snapshot_after_a_resume_at_3000(long_journal):
    journal = Journal(str(long_journal))
    match = journal.resume()
    assert journal.log.resume_point[0] == SNAPSHOT_AT
    for _ in range(30):  # past the snapshot (2976): the older events are read back
        match.undo()
    assert match.state.to_dict() == replayed(2970)
    assert list(match.log) == EVENTS[:2970]
    for _ in range(5):
        match.redo()
    assert match.state.to_dict() == replayed(2975)
    for event in EVENTS[2975:3010]:
        match.apply(event)
    journal.close()
    # The snapshot at 2976 was undone past, then written again; 3008's since.
    journal = Journal(str(long_journal))
    assert journal.log.resume_point[0] == 3008
    match = journal.resume()
    assert match.state.to_dict() == replayed(3010)
    assert list(match.log)[2900:] == EVENTS[2900:3010]
    for _ in range(3):  # and past that snapshot, from this boot
        match.undo()
    assert match.state.to_dict() == replayed(3007)


def test_boot_after_undos_past_the_snapshot_does_not_use_it(short_journal):
    journal = Journal(str(short_journal))
    match = journal.resume()
    for _ in range(13):  # 300 -> 287, just below the snapshot at 288
        match.undo()
    journal.close()
    journal = Journal(str(short_journal))
    assert journal.log.resume_point is None
    assert journal.resume().state.to_dict() == replayed(287)


def damage_event(root: Path, index: int) -> None:
    """Flip a byte inside the payload of event `index` of current.log."""
    io = journal_records.Records()
    data = bytearray((root / "current.log").read_bytes())
    with open(root / "current.log", "rb") as f:
        offset = 0
        offset += io.read(f, 0, len(data)) + journal_records.OVERHEAD  # the S record
        for _ in range(index):
            offset += io.read(f, offset, len(data)) + journal_records.OVERHEAD
    data[offset + 5] ^= 0x01
    (root / "current.log").write_bytes(bytes(data))


def test_a_damaged_record_before_the_snapshot(short_journal):
    """Boot does not read it (the snapshot is whole and names a whole record), so play
    goes on; the undo that needs it is refused before anything is written; filing the match
    away cannot read it either, so the match is filed whole as a damaged result for the
    laptop (it raised, and the boot after cut the match back to the damage)."""
    root = short_journal
    damage_event(root, 10)
    journal = Journal(str(root))
    match = journal.resume()
    assert journal.log.resume_point[0] == 288
    assert match.state.to_dict() == replayed(300)
    for _ in range(300 - 288):
        match.undo()  # down to the snapshot: its state, no older event needed
    before = (root / "current.log").read_bytes()
    with pytest.raises(JournalError, match="cannot be read back"):
        match.undo()
    assert (root / "current.log").read_bytes() == before  # no U written
    assert len(match.log) == 288 and match.state.to_dict() == replayed(288)
    seq = journal.finish({"winner": 0})
    assert journal.finished() == [] and journal.damaged() == [seq]
    journal.close()
    journal = Journal(str(root))
    assert journal.damaged() == [seq] and journal.resume() is None


def test_undo_past_a_damaged_prefix_found_at_boot(short_journal):
    """U records past the snapshot on flash and the prefix damaged: the boot cannot index
    it and scans from the start instead (it must not fail to open, nor fail to resume)."""
    journal = Journal(str(short_journal))
    match = journal.resume()
    for _ in range(13):
        match.undo()
    journal.close()
    damage_event(short_journal, 100)
    journal = Journal(str(short_journal))
    assert journal.log.resume_point is None and (short_journal / "damaged.log").exists()
    assert journal.resume().state.to_dict() == replayed(100)


def test_a_finished_match_is_filed_away_with_every_event_after_a_resume(short_journal):
    """Filing away after undos needs every event's offset: read back past the snapshot."""
    journal = Journal(str(short_journal))
    match = journal.resume()
    match.undo()
    seq = journal.finish({"winner": 1})
    assert journal.document(seq)["events"] == EVENTS[:299]


@pytest.mark.parametrize("count", [300, 3000], ids=["at_300", "at_3000"])
def test_the_index_read_back_equals_a_full_scan(played, count):
    """Offsets read back on demand after a resume equal those a full scan finds."""
    root = played(count)
    resumed = Journal(str(root))
    assert resumed.log.resume_point is not None
    scanned = Journal(str(root), version="other")
    assert scanned.log.resume_point is None
    offsets = [resumed.log._offset(i) for i in range(count)]  # noqa: SLF001
    assert offsets == [scanned.log._offset(i) for i in range(count)]  # noqa: SLF001
    pieces = count // journal_log.PIECE + 1  # noqa: SLF001
    assert len(resumed.log._pieces) == len(scanned.log._pieces) == pieces  # noqa: SLF001
    resumed.close()
    scanned.close()
