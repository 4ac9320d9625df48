"""Journal snapshots (firmware/snapshot.py, docs/journal.md "Snapshots"): resume reads the last
snapshot and only the records after it; a damaged, stale, foreign or other-version snapshot
is ignored; undo past a snapshot still works; a power cut at any byte of a snapshot's write
leaves a journal that resumes to the same match."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest
from journal_play import played_at_random, playing
from journal_probe import Reads

from firmware import journal_records, snapshot
from firmware.journal import Journal
from host.bench import logs as bench_logs
from rules_core.match import Match

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = json.loads((EXAMPLES / "demo-9ball.json").read_text())
LONG = bench_logs.long_logs(300)


def state_of(match: Match) -> dict:
    return match.state.to_dict()


def replayed(doc: dict, count: int) -> dict:
    match = Match(doc["settings"])
    for event in doc["events"][:count]:
        match.apply(event)
    return state_of(match)


def played(root: Path, doc: dict, count: int, **options) -> Journal:
    journal = Journal(str(root), **options)
    playing(journal, doc["events"][:count], doc["settings"])
    journal.close()  # as a power cut leaves it: every record flushed, nothing closed
    return journal


@pytest.mark.parametrize("game", sorted(LONG))
def test_resume_reads_only_the_records_after_the_snapshot(tmp_path, game, monkeypatch):
    doc = LONG[game]
    reads = {}
    for count in (100, 300):
        root = tmp_path / ("%s-%d" % (game, count))
        played(root, doc, count)
        assert (root / snapshot.FILE).exists()
        counter = Reads(monkeypatch)
        match = Journal(str(root)).resume()
        reads[count] = counter.count
        monkeypatch.undo()
        assert state_of(match) == replayed(doc, count)
        assert len(match.log) == count
    # S, the snapshot and its event, then at most 31 events each read twice (scan, replay)
    assert reads[100] <= 3 + 2 * 31 and reads[300] <= 3 + 2 * 31


def test_snapshot_is_written_every_n_events_and_names_the_log(tmp_path):
    root = tmp_path / "j"
    journal = Journal(str(root), snapshot_every=8)
    match = playing(journal, DEMO["events"][:7], DEMO["settings"])
    assert not (root / snapshot.FILE).exists()
    match.apply(DEMO["events"][7])
    doc = snapshot.read(str(root), journal_records.Records(), journal.log.seq, journal.version)
    assert doc is not None and doc["count"] == 8 and doc["end"] == journal.log.flash_bytes()
    assert doc["state"] == state_of(match)
    for event in DEMO["events"][8:17]:
        match.apply(event)
    doc = snapshot.read(str(root), journal_records.Records(), journal.log.seq, journal.version)
    assert doc["count"] == 16


def corrupt(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at % len(data)] ^= 0x20
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flipped", "torn", "other_version", "other_match",
                                 "other_offset", "other_record"])
def test_a_snapshot_that_does_not_fit_is_ignored(tmp_path, how, monkeypatch):
    doc = LONG["14.1"]
    root = tmp_path / "j"
    played(root, doc, 200, snapshot_every=16, version="v1")
    path = root / snapshot.FILE
    version = "v1"
    if how == "flipped":
        corrupt(path, len(path.read_bytes()) // 2)
    elif how == "torn":
        path.write_bytes(path.read_bytes()[:-5])
    elif how == "other_version":
        version = "v2"
    elif how == "other_match":  # a snapshot left by the match before
        other = tmp_path / "other"
        played(other, doc, 50, snapshot_every=16, version="v1")
        shutil.copy(other / snapshot.FILE, path)
        current = journal_records.Records()
        with open(root / "current.log", "rb") as f:
            current.read(f, 0, 10**6)
        first = current.value()
        assert snapshot.read(str(other), journal_records.Records(), first["seq"], "v1")
    elif how == "other_record":  # whole and of this match, naming a record that is not there
        io = journal_records.Records()
        with open(path, "rb") as f:
            io.read(f, 0, 10**6)
        doc_on_flash = io.value()
        doc_on_flash["crc"] ^= 1
        with open(path, "wb") as f:
            io.write(f, journal_records.KIND_SNAPSHOT, json.dumps(doc_on_flash).encode())
    elif how == "other_offset":  # the right match, its log rewritten shorter since
        data = (root / "current.log").read_bytes()
        (root / "current.log").write_bytes(data[:len(data) - 60])
    counter = Reads(monkeypatch)
    match = Journal(str(root), version=version).resume()
    monkeypatch.undo()
    expected = len(match.log)
    assert state_of(match) == replayed(doc, expected)
    if how != "other_offset":
        assert expected == 200 and counter.count > 200  # the whole log was replayed


def test_undo_past_the_snapshot_before_and_after_a_power_cut(tmp_path):
    doc = LONG["kaisa"]
    root = tmp_path / "j"
    played(root, doc, 64, snapshot_every=32)
    journal = Journal(str(root), snapshot_every=32)
    match = journal.resume()
    assert journal.log.resume_point is not None  # resumed from the snapshot at 64
    for _ in range(40):  # undo far past it: the older events are read back from flash
        match.undo()
    assert state_of(match) == replayed(doc, 24)
    journal.close()
    # The snapshot at 64 is stale now: the next boot must not use it.
    journal = Journal(str(root), snapshot_every=32)
    assert journal.log.resume_point is None
    match = journal.resume()
    assert state_of(match) == replayed(doc, 24)
    for event in doc["events"][24:70]:
        match.apply(event)
    journal.close()
    match = Journal(str(root), snapshot_every=32).resume()
    assert state_of(match) == replayed(doc, 70) and list(match.log) == doc["events"][:70]


@pytest.mark.parametrize("seed", range(2 if os.environ.get("PILKKU_MUTANTS") else 8))
def test_random_play_undo_and_cuts_resume_exactly(tmp_path, seed):
    rng = random.Random(seed)
    doc = LONG["14.1" if seed % 2 else "kaisa"]
    events = doc["events"]
    root = tmp_path / "j"
    options = {"snapshot_every": rng.choice([2, 4, 8]), "compact_min": rng.choice([0, 256, 4096])}
    journal, match, applied = played_at_random(
        rng, lambda: Journal(str(root), **options), doc["settings"], events,
        steps=300, apply_below=0.7, undo_below=0.9, undo_most=12, cut_odds=0.1)
    journal.close()
    resumed = Journal(str(root), **options).resume()
    assert list(resumed.log) == events[:applied]
    assert state_of(resumed) == state_of(match) == replayed(doc, applied)


def test_compaction_removes_the_snapshot_of_the_old_file(tmp_path):
    doc = LONG["14.1"]
    root = tmp_path / "j"
    journal = Journal(str(root), snapshot_every=8, compact_min=10**9)
    match = playing(journal, doc["events"][:20], doc["settings"])
    for _ in range(6):
        match.undo()
    for event in doc["events"][14:40]:
        match.apply(event)
    assert (root / snapshot.FILE).exists()
    journal.compact_min = 0
    journal.log.compact()
    assert not (root / snapshot.FILE).exists()
    journal.close()
    assert state_of(Journal(str(root), snapshot_every=8).resume()) == replayed(doc, 40)


def test_power_cut_at_every_byte_of_a_snapshot_write(tmp_path):
    """The snapshot is written to snapshot.tmp and renamed: cut anywhere in the tmp file,
    the boot removes it and resumes from the old snapshot, to the same match."""
    doc = LONG["14.1"]
    root = tmp_path / "j"
    played(root, doc, 40, snapshot_every=8)  # snapshot at 40
    old = (root / snapshot.FILE).read_bytes()
    played_more = tmp_path / "more"
    shutil.copytree(root, played_more)
    journal = Journal(str(played_more), snapshot_every=8)
    match = journal.resume()
    for event in doc["events"][40:48]:
        match.apply(event)  # the 48th writes the next snapshot
    journal.close()
    new = (played_more / snapshot.FILE).read_bytes()
    assert new != old
    log = (played_more / "current.log").read_bytes()
    for cut in range(0, len(new) + 1, 7):
        copy = tmp_path / ("cut%d" % cut)
        shutil.copytree(root, copy)
        (copy / "current.log").write_bytes(log)  # the 48 events are on flash
        (copy / (snapshot.FILE + ".tmp")).write_bytes(new[:cut])
        journal = Journal(str(copy), snapshot_every=8)
        assert not (copy / (snapshot.FILE + ".tmp")).exists()
        assert journal.log.resume_point[0] == 40
        assert state_of(journal.resume()) == replayed(doc, 48)
        shutil.rmtree(copy)


def test_finish_and_a_new_match_leave_no_snapshot_behind(tmp_path):
    root = tmp_path / "j"
    journal = Journal(str(root), snapshot_every=4)
    playing(journal, DEMO["events"], DEMO["settings"])
    assert (root / snapshot.FILE).exists()
    seq = journal.finish({"ended": 1})
    assert not (root / snapshot.FILE).exists()
    assert journal.document(seq)["events"] == DEMO["events"]


def test_a_snapshot_that_cannot_be_written_leaves_the_old_one_and_no_tmp(tmp_path, monkeypatch):
    """A full flash while the snapshot is written: the event is on flash all the same, the
    half-written snapshot.tmp is removed, and the old snapshot still resumes the match."""
    root = tmp_path / "j"
    journal = Journal(str(root), snapshot_every=8)
    match = playing(journal, DEMO["events"][:15], DEMO["settings"])
    old = (root / snapshot.FILE).read_bytes()
    real = journal._io.write  # noqa: SLF001

    def full(f, kind, payload):
        if kind == journal_records.KIND_SNAPSHOT:
            f.write(payload[:10])
            raise OSError(28)
        return real(f, kind, payload)

    monkeypatch.setattr(journal._io, "write", full)  # noqa: SLF001
    match.apply(DEMO["events"][15])  # the 16th: a snapshot is due
    monkeypatch.undo()
    assert sorted(p.name for p in root.iterdir()) == ["current.log", "done", "seq",
                                                       snapshot.FILE]
    assert (root / snapshot.FILE).read_bytes() == old
    journal.close()
    journal = Journal(str(root), snapshot_every=8)
    assert journal.log.resume_point[0] == 8
    assert state_of(journal.resume()) == replayed(DEMO, 16)


POINT = {"count": 32, "crc": 7, "end": 900, "last": 850, "live": 900, "seq": 3}


def snapshot_file(root: Path, doc, kind=journal_records.KIND_SNAPSHOT) -> None:
    root.mkdir(parents=True, exist_ok=True)
    with open(root / snapshot.FILE, "wb") as f:
        journal_records.Records().write(f, kind, json.dumps(doc).encode())


def a_doc(**changes):
    doc = dict(POINT, state={"score": [1, 2]}, version="v1")
    doc.update(changes)
    return doc


@pytest.mark.parametrize("doc, kind", [
    (a_doc(), journal_records.KIND_EVENT),  # a whole record, of another kind
    ([1, 2, 3], journal_records.KIND_SNAPSHOT),  # JSON, not an object
    (a_doc(count=True), journal_records.KIND_SNAPSHOT),  # a bool is not a count
    (a_doc(end="900"), journal_records.KIND_SNAPSHOT),
    (a_doc(live=-1), journal_records.KIND_SNAPSHOT),
    (a_doc(count=0), journal_records.KIND_SNAPSHOT),
    (a_doc(state=[1, 2]), journal_records.KIND_SNAPSHOT),
    (a_doc(seq=4), journal_records.KIND_SNAPSHOT),
    (a_doc(version="v2"), journal_records.KIND_SNAPSHOT),
])
def test_a_snapshot_record_that_does_not_fit_reads_as_none(tmp_path, doc, kind):
    snapshot_file(tmp_path, doc, kind)
    assert snapshot.read(str(tmp_path), journal_records.Records(), 3, "v1") is None


def test_the_smallest_numbers_a_snapshot_may_hold(tmp_path):
    """A snapshot after the first event (count 1), and a CRC that happens to be 0."""
    snapshot_file(tmp_path, a_doc(count=1, crc=0))
    doc = snapshot.read(str(tmp_path), journal_records.Records(), 3, "v1")
    assert doc is not None and doc["count"] == 1 and doc["crc"] == 0


def test_a_snapshot_whose_crc_fails_is_not_read_with_a_reader_that_read_one_before(tmp_path):
    """The journal reads with one reused reader: what it read last must not stand in for a
    record whose CRC fails."""
    snapshot_file(tmp_path, a_doc())
    io = journal_records.Records()
    assert snapshot.read(str(tmp_path), io, 3, "v1") is not None
    data = bytearray((tmp_path / snapshot.FILE).read_bytes())
    data[-1] ^= 0x01  # the CRC, the payload whole
    (tmp_path / snapshot.FILE).write_bytes(bytes(data))
    assert snapshot.read(str(tmp_path), io, 3, "v1") is None


def rewritten_snapshot(root: Path, **changes) -> None:
    io = journal_records.Records()
    with open(root / snapshot.FILE, "rb") as f:
        io.read(f, 0, 10**6)
    doc = io.value()
    doc.update(changes)
    with open(root / snapshot.FILE, "wb") as f:
        io.write(f, journal_records.KIND_SNAPSHOT, json.dumps(doc).encode())


def test_a_snapshot_naming_more_live_bytes_than_its_end_is_ignored(tmp_path):
    root = tmp_path / "j"
    played(root, DEMO, 20, snapshot_every=16)
    io = journal_records.Records()
    with open(root / snapshot.FILE, "rb") as f:
        io.read(f, 0, 10**6)
    rewritten_snapshot(root, live=io.value()["end"] + 1)
    journal = Journal(str(root), snapshot_every=16)
    assert journal.log.resume_point is None
    assert state_of(journal.resume()) == replayed(DEMO, 20)


def test_a_snapshot_after_the_first_event_is_used(tmp_path):
    root = tmp_path / "j"
    played(root, DEMO, 1, snapshot_every=1)
    journal = Journal(str(root), snapshot_every=1)
    assert journal.log.resume_point is not None and journal.log.resume_point[0] == 1
    assert state_of(journal.resume()) == replayed(DEMO, 1)


def test_a_snapshot_naming_an_undo_record_is_ignored(tmp_path):
    """Whole, this match's, its offset, end and CRC those of a record on flash, but the
    record is a U, not the event the snapshot stands after."""
    root = tmp_path / "j"
    journal = Journal(str(root), snapshot_every=8)
    match = playing(journal, DEMO["events"][:9], DEMO["settings"])
    match.undo()
    journal.close()
    data = (root / "current.log").read_bytes()
    u_at = len(data) - journal_records.OVERHEAD  # the U: the last record
    io = journal_records.Records()
    with open(root / "current.log", "rb") as f:
        assert io.read(f, u_at, len(data)) == 0 and io.kind == journal_records.KIND_UNDO
        crc = io.crc()
    rewritten_snapshot(root, last=u_at, end=len(data), crc=crc, live=u_at)
    journal = Journal(str(root), snapshot_every=8)
    assert journal.log.resume_point is None
    assert state_of(journal.resume()) == replayed(DEMO, 8)
