"""The journal's finished matches and its words (firmware/journal.py): a finished match's
meta, a done file that is damaged in any of the ways a scan must catch, a cut while a match
with undos is being filed away, a match that no longer replays, and the texts the board
shows for each refusal."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from journal_play import playing
from journal_probe import garble_writes

from firmware import journal_records, snapshot
from firmware.journal import Journal
from firmware.journal_records import (
    KIND_EVENT,
    KIND_FINISH,
    KIND_SETTINGS,
    OVERHEAD,
    JournalError,
    Records,
)
from rules_core import canon

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = json.loads((EXAMPLES / "demo-9ball.json").read_text())
SETTINGS, EVENTS = DEMO["settings"], DEMO["events"]


def finished(root: Path, undo: bool = False) -> Journal:
    journal = Journal(str(root))
    match = playing(journal, EVENTS[:6], SETTINGS, {"table": 1, "round": 2})
    if undo:
        match.undo()
    journal.finish({"ended": 1, "round": 3})
    return journal


def records(path: Path) -> list[tuple[int, bytes]]:
    out = []
    io = Records()
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        offset = 0
        while offset < size:
            n = io.read(f, offset, size)
            assert n >= 0
            out.append((io.kind, bytes(io.payload())))
            offset += n + OVERHEAD
    return out


def rewrite(path: Path, kept: list[tuple[int, bytes]], tail: bytes = b"") -> None:
    io = Records()
    with open(path, "wb") as f:
        for kind, payload in kept:
            io.write(f, kind, payload)
        f.write(tail)


def test_meta_is_the_start_meta_under_the_finish_meta(tmp_path):
    journal = finished(tmp_path / "j")
    assert journal.meta(1) == {"table": 1, "round": 3, "ended": 1}
    assert journal.document(1)["meta"] == journal.meta(1)


@pytest.mark.parametrize("how", ["cut_in_a_record", "no_finish", "two_starts", "after_finish",
                                 "event_first", "undo_inside"])
@pytest.mark.parametrize("reader", ["document", "meta", "dump", "dump_unchecked"])
def test_a_damaged_done_file_is_refused_before_anything_is_written(tmp_path, how, reader):
    """... and set aside whole for the laptop (issue 32: refused the same way at every
    read, it held the board's other results for ever)."""
    journal = finished(tmp_path / "j")
    path = tmp_path / "j" / "done" / "1.log"
    kept = records(path)
    start, events, finish = kept[0], kept[1:-1], kept[-1]
    if how == "cut_in_a_record":
        path.write_bytes(path.read_bytes()[:-3])
    elif how == "no_finish":
        rewrite(path, [start] + events)
    elif how == "two_starts":
        rewrite(path, [start, start] + events + [finish])
    elif how == "after_finish":
        rewrite(path, kept, tail=b"\x45")
    elif how == "event_first":
        rewrite(path, events + [finish])
    elif how == "undo_inside":
        rewrite(path, [start] + events + [(journal_records.KIND_UNDO, b"")] + [finish])
    damaged = path.read_bytes()
    written: list[str] = []
    read = {"document": journal.document, "meta": journal.meta,
            "dump": lambda seq: journal.dump_document(seq, written.append),
            "dump_unchecked": lambda seq: journal.dump_document(seq, written.append, False)}
    with pytest.raises(journal_records.ResultDamaged) as error:
        read[reader](1)
    assert error.value.text == "finished match 1 is damaged: set aside for the laptop"
    if reader != "dump_unchecked":  # (read once: text may have gone before the error)
        assert written == []
    assert journal.finished() == [] and journal.damaged() == [1]
    assert (tmp_path / "j" / "damaged" / "1.log").read_bytes() == damaged
    with pytest.raises(JournalError) as error:
        read[reader](1)
    assert error.value.text == "no finished match 1"


def test_the_words_the_board_shows(tmp_path):
    journal = Journal(str(tmp_path / "j"))
    with pytest.raises(JournalError) as error:
        journal.finish({})
    assert error.value.text == "no match in progress"
    with pytest.raises(JournalError) as error:
        journal.document(5)
    assert error.value.text == "no finished match 5"
    assert journal.acknowledge(5) is False


def test_a_second_start_says_to_finish_the_first(tmp_path):
    journal = Journal(str(tmp_path / "j"))
    journal.start(SETTINGS)
    with pytest.raises(JournalError) as error:
        journal.start(SETTINGS)
    assert error.value.text == "a match is in progress: finish it before starting another"


def test_a_match_that_no_longer_replays_says_why(tmp_path):
    """An event the rules refuse now (a firmware update changed them): resume files the
    match away as unreplayable for the host and says so (it raised, at every boot)."""
    root = tmp_path / "j"
    journal = Journal(str(root))
    playing(journal, EVENTS[:3], SETTINGS)
    journal.close()
    kept = records(root / "current.log")
    rewrite(root / "current.log", kept + [(KIND_EVENT, canon.dumps({"t": "lag"}).encode())])
    journal = Journal(str(root))
    assert journal.resume() is None
    assert journal.problem == "MATCH DOES NOT REPLAY: KEPT FOR THE LAPTOP"
    assert journal.finished() == [1] and not journal.active
    assert journal.document(1)["events"][-1] == {"t": "lag"}
    assert journal.meta(1)["unreplayable"] is True


def test_a_cut_before_the_done_file_is_renamed(tmp_path, monkeypatch):
    """With undos the result is written to done/<seq>.tmp first; a cut before its rename
    leaves that tmp, which the next boot removes before filing the match away again."""
    root = tmp_path / "j"
    real_rename = os.rename

    def cut(source, target):
        if str(target).endswith("done/1.log"):
            raise OSError(5)  # the power goes here
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", cut)
    with pytest.raises(OSError):
        finished(root, undo=True)
    monkeypatch.undo()
    assert sorted(p.name for p in (root / "done").iterdir()) == ["1.tmp"]
    journal = Journal(str(root))
    assert not (root / "done" / "1.tmp").exists() and not (root / "current.log").exists()
    assert journal.finished() == [1]
    assert journal.document(1)["events"] == EVENTS[:5]
    assert [kind for kind, _ in records(root / "done" / "1.log")] == (
        [KIND_SETTINGS] + [KIND_EVENT] * 5 + [KIND_FINISH])


def test_a_resume_without_a_snapshot_keeps_the_journals_interval(tmp_path):
    """Replayed from the start (its snapshot ignored), the match still takes a snapshot
    every `snapshot_every` events, not Match's default."""
    root = tmp_path / "j"
    journal = Journal(str(root), snapshot_every=8)
    match = playing(journal, EVENTS[:13], SETTINGS)
    journal.close()
    journal = Journal(str(root), snapshot_every=8, version="other")
    assert journal.log.resume_point is None
    match = journal.resume()
    for event in EVENTS[13:16]:
        match.apply(event)
    doc = snapshot.read(str(root), Records(), journal.log.seq, "other")
    assert doc is not None and doc["count"] == 16


def test_sixteen_results_waiting_by_default_refuse_a_seventeenth_match(tmp_path):
    journal = Journal(str(tmp_path / "j"))
    for _ in range(16):
        journal.start(SETTINGS).apply(EVENTS[0])
        journal.finish({})
    with pytest.raises(journal_records.JournalFull) as error:
        journal.start(SETTINGS)
    assert error.value.text == "16 results not yet synced: sync before starting a match"


def test_meta_that_is_not_an_object_is_refused_with_nothing_written(tmp_path):
    root = tmp_path / "j"
    journal = Journal(str(root))
    with pytest.raises(JournalError) as error:
        journal.start(SETTINGS, ["table", 1])
    assert error.value.text == "meta must be an object"
    assert sorted(p.name for p in root.iterdir()) == ["done"]


def test_the_version_is_the_stamped_firmware_s(tmp_path, monkeypatch):
    """Snapshots are kept per firmware version: by default the one `pilkku flash` stamped
    (pilkku_version.VERSION), "dev" without a stamp."""
    import sys
    import types

    assert Journal(str(tmp_path / "a")).version == "dev"
    monkeypatch.setitem(sys.modules, "pilkku_version", types.SimpleNamespace(VERSION="1.4.2"))
    assert Journal(str(tmp_path / "b")).version == "1.4.2"
    assert Journal(str(tmp_path / "c"), version="x").version == "x"


def test_stray_files_in_done_are_not_results(tmp_path):
    root = tmp_path / "j"
    finished(root)
    (root / "done" / "notes.log").write_text("not a result")
    (root / "done" / "7").write_text("nor this")
    assert Journal(str(root)).finished() == [1]


def test_a_match_resumed_at_boot_and_finished_is_followed_by_the_next_number(tmp_path):
    root = tmp_path / "j"
    journal = Journal(str(root))
    journal.start(SETTINGS).apply(EVENTS[0])
    journal.close()
    (root / "seq").unlink()  # lost: the numbers come from the match on flash
    journal = Journal(str(root))
    assert journal.finish({}) == 1
    journal.start(SETTINGS)
    assert journal.log.seq == 2


def test_a_new_match_that_cannot_be_read_back_is_refused(tmp_path, monkeypatch):
    """A flash that stores the S record wrong (its CRC fails on reading back)."""
    journal = Journal(str(tmp_path / "j"))
    garble_writes(journal, monkeypatch)
    with pytest.raises(JournalError) as error:
        journal.start(SETTINGS)
    assert error.value.text == "the new match cannot be read back from flash"
    assert not journal.active
