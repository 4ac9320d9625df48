"""The journal armed between keys (firmware/journal_log.py `arm`): one pad record, not
flushed, that the next record follows with no seek between them (on littlefs a seek flushes,
and the write after a flush erases a block again); pads mean nothing on resume or in a
result filed with them, and a pad torn by a power cut is a torn tail, not damage. A log armed
between keys writes its snapshots there too, unless a record came since."""

from __future__ import annotations

import json
import os
from pathlib import Path

from test_journal import EVENTS, SETTINGS, kinds, replay, state_of

from firmware import journal_log
from firmware.journal import Journal


def played(root: Path, count: int, **options) -> tuple[Journal, object]:
    """A journal with a match of the first `count` events, prepared before each as the
    board's loop does between keys."""
    journal = Journal(str(root), **options)
    match = journal.start(SETTINGS)
    for event in EVENTS[:count]:
        journal.prepare()
        match.apply(event)
    return journal, match


def test_each_prepare_pads_once_and_the_next_record_follows_the_pad(tmp_path):
    journal = Journal(str(tmp_path / "j"))
    match = journal.start(SETTINGS)
    for event in EVENTS[:3]:
        journal.prepare()
        journal.prepare()  # armed already: nothing more
        match.apply(event)
    journal.prepare()
    match.undo()
    journal.close()
    assert kinds(tmp_path / "j" / "current.log") == "SPEPEPEPU"
    resumed = Journal(str(tmp_path / "j")).resume()
    assert list(resumed.log) == EVENTS[:2]
    assert state_of(resumed) == state_of(replay(EVENTS[:2]))


class Watched:
    """A file whose seeks are counted (littlefs flushes at each)."""

    def __init__(self, f, seeks: list[int]) -> None:
        self._f, self._seeks = f, seeks

    def seek(self, *args):
        self._seeks.append(args[0])
        return self._f.seek(*args)

    def __getattr__(self, name):
        return getattr(self._f, name)


def test_nothing_seeks_between_the_pad_and_the_next_record(tmp_path, monkeypatch):
    seeks: list[int] = []
    monkeypatch.setattr(journal_log, "open", lambda *a: Watched(open(*a), seeks),
                        raising=False)
    journal = Journal(str(tmp_path / "j"))
    match = journal.start(SETTINGS)
    match.apply(EVENTS[0])  # a seek to the end: the file was just opened
    journal.prepare()  # the position is the end already
    seeks.clear()
    match.apply(EVENTS[1])
    match.apply(EVENTS[2])  # unprepared: no seek needed either, the file is at its end
    assert seeks == []


def test_a_result_with_nothing_undone_is_filed_as_it_is_pads_and_all(tmp_path):
    journal, match = played(tmp_path / "j", 5)
    journal.prepare()
    seq = journal.finish({"winner": 0})
    # renamed, not rewritten: no second file (its 1 KB of littlefs cache) from the heap
    assert kinds(tmp_path / "j" / "done" / ("%d.log" % seq)) == "S" + "PE" * 5 + "PF"
    assert not (tmp_path / "j" / "current.log").exists()
    assert journal.document(seq)["events"] == EVENTS[:5]
    assert journal.meta(seq)["winner"] == 0
    written: list[str] = []
    journal.dump_document(seq, written.append)
    assert json.loads("".join(written)) == journal.document(seq)


def test_a_result_with_an_undo_is_filed_compact_without_pads(tmp_path):
    journal, match = played(tmp_path / "j", 5)
    journal.prepare()
    match.undo()
    seq = journal.finish({"winner": 0})
    assert kinds(tmp_path / "j" / "done" / ("%d.log" % seq)) == "S" + "E" * 4 + "F"
    assert journal.document(seq)["events"] == EVENTS[:4]


def test_a_broken_log_is_not_padded(tmp_path):
    journal = Journal(str(tmp_path / "j"))
    journal.start(SETTINGS)
    journal.log._broken = "journal write failed (test): restart the board"  # noqa: SLF001
    size = os.path.getsize(tmp_path / "j" / "current.log")
    journal.prepare()
    journal.close()
    assert os.path.getsize(tmp_path / "j" / "current.log") == size


def test_a_pad_torn_by_a_power_cut_is_a_torn_tail(tmp_path):
    journal = Journal(str(tmp_path / "j"))
    match = journal.start(SETTINGS)
    match.apply(EVENTS[0])
    journal.close()
    path: Path = tmp_path / "j" / "current.log"
    with open(path, "ab") as f:
        f.write(b"P\x00\x00\x12")  # a pad's head and one byte of its CRC
    reopened = Journal(str(tmp_path / "j"))
    assert list(reopened.resume().log) == EVENTS[:1]
    assert reopened.problem is None and not (tmp_path / "j" / "damaged.log").exists()
    assert kinds(path) == "SE"


def test_a_snapshot_and_pads_resume_from_the_snapshot(tmp_path):
    journal, match = played(tmp_path / "j", 10, snapshot_every=4)
    journal.prepare()
    journal.close()
    reopened = Journal(str(tmp_path / "j"), snapshot_every=4)
    assert reopened.log.resume_point is not None and reopened.log.resume_point[0] == 8
    resumed = reopened.resume()
    assert state_of(resumed) == state_of(replay(EVENTS[:10]))
    for _ in range(3):  # below the snapshot: the events before it read back past the pads
        resumed.undo()
    assert list(resumed.log) == EVENTS[:7]
    assert state_of(resumed) == state_of(replay(EVENTS[:7]))


def test_a_prepared_log_writes_its_snapshot_at_the_next_prepare(tmp_path):
    root = tmp_path / "j"
    journal, match = played(root, 4, snapshot_every=4)
    assert not (root / "snapshot").exists()  # not in the key that took it
    journal.prepare()
    assert (root / "snapshot").exists()
    journal.close()
    reopened = Journal(str(root), snapshot_every=4)
    assert reopened.log.resume_point[0] == 4
    assert state_of(reopened.resume()) == state_of(replay(EVENTS[:4]))


def test_a_snapshot_overtaken_by_an_undo_is_not_written(tmp_path):
    root = tmp_path / "j"
    journal, match = played(root, 4, snapshot_every=4)
    match.undo()  # before the quiet tick: the snapshot's state is not the log's any more
    journal.prepare()
    assert not (root / "snapshot").exists()
    journal.close()
    assert state_of(Journal(str(root), snapshot_every=4).resume()) == state_of(
        replay(EVENTS[:3]))


def test_an_unprepared_log_writes_its_snapshot_at_once(tmp_path):
    root = tmp_path / "j"
    match = Journal(str(root), snapshot_every=4).start(SETTINGS)
    for event in EVENTS[:4]:
        match.apply(event)
    assert (root / "snapshot").exists()
