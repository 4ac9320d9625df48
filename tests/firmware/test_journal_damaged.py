"""A damaged finished match never holds a board's results (issue 32, item 1), on CPython's
files: a done file that fails its check is set aside whole (renamed into damaged/, never
rewritten), leaves the list of results and joins the list of damaged ones, is kept until the
laptop acknowledges it, and counts towards the results a board may hold. Damage in current.log
before the snapshot (which boot does not read) is found between keys, named at once, and the
finished match is set aside the same way rather than cut back or left unfiled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from journal_play import playing

from firmware import journal_records
from firmware.journal import CHECK_STEP, Journal
from firmware.journal_records import OVERHEAD, JournalError, JournalFull, Records, ResultDamaged

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = json.loads((EXAMPLES / "demo-9ball.json").read_text())
SETTINGS, EVENTS = DEMO["settings"], DEMO["events"]


def results(root: Path, count: int, events: int = 6) -> Journal:
    journal = Journal(str(root))
    for number in range(count):
        match = journal.start(SETTINGS, {"match_id": "R1-%02d" % (number + 1)})
        for event in EVENTS[:events]:
            match.apply(event)
        journal.finish({"score": [1, 0], "winner": 0})
    return journal


def offsets(path: Path) -> list[int]:
    io = Records()
    data = path.read_bytes()
    out, offset = [], 0
    with open(path, "rb") as f:
        while offset < len(data):
            n = io.read(f, offset, len(data))
            if n < 0:
                break
            out.append(offset)
            offset += n + OVERHEAD
    return out


def flip(path: Path, at: int) -> bytes:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x10
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_damaged_done_file_is_set_aside_whole_and_the_others_stay(tmp_path):
    root = tmp_path / "j"
    journal = results(root, 3)
    damaged = flip(root / "done" / "2.log", offsets(root / "done" / "2.log")[3] + 4)
    written: list[str] = []
    with pytest.raises(ResultDamaged) as error:
        journal.dump_document(2, written.append)
    assert error.value.text == "finished match 2 is damaged: set aside for the laptop"
    assert error.value.seq == 2 and written == []
    assert journal.finished() == [1, 3] and journal.damaged() == [2]
    assert not (root / "done" / "2.log").exists()
    assert (root / "damaged" / "2.log").read_bytes() == damaged  # renamed, not rewritten
    assert journal.damaged_bytes(2, 1 << 18) == damaged
    for seq in (1, 3):  # every other result reads as before
        assert journal.document(seq)["meta"]["match_id"] == "R1-%02d" % seq
    again = Journal(str(root))  # the next boot knows it
    assert again.finished() == [1, 3] and again.damaged() == [2]
    with pytest.raises(JournalError) as error:
        again.document(2)
    assert error.value.text == "no finished match 2"
    assert again.acknowledge(2) is False  # a result's acknowledgement does not free it
    assert again.acknowledge_damaged(2) is True
    assert again.damaged() == [] and not (root / "damaged" / "2.log").exists()
    assert again.acknowledge_damaged(2) is False
    assert Journal(str(root)).damaged() == []


@pytest.mark.parametrize("read", ["meta", "document", "dump_unchecked"])
def test_every_reader_of_a_done_file_sets_a_damaged_one_aside(tmp_path, read):
    root = tmp_path / "j"
    journal = results(root, 1)
    flip(root / "done" / "1.log", 1)  # the S record's length: its CRC fails
    with pytest.raises(ResultDamaged):
        if read == "meta":
            journal.meta(1)
        elif read == "document":
            journal.document(1)
        else:
            journal.dump_document(1, lambda _text: None, False)
    assert journal.finished() == [] and journal.damaged() == [1]


@pytest.mark.parametrize("payload", [b"[1, 2]", b'{"meta": 3}', b"{not json"])
def test_a_record_whose_crc_passes_but_is_no_match_is_damage_too(tmp_path, payload):
    root = tmp_path / "j"
    results(root, 1)
    path = root / "done" / "1.log"
    rest = path.read_bytes()[offsets(path)[1]:]
    with open(path, "wb") as f:
        Records().write(f, journal_records.KIND_SETTINGS, payload)
        f.write(rest)
    journal = Journal(str(root))
    with pytest.raises(ResultDamaged):
        journal.meta(1)
    assert journal.damaged() == [1]


def test_a_damaged_result_keeps_its_number_and_its_place_until_the_laptop_has_it(tmp_path):
    """Set aside, a result still counts towards the most a board holds (flash stays bounded
    as before): with 2 waiting and 2 damaged of 4, the board refuses a fifth match."""
    root = tmp_path / "j"
    journal = Journal(str(root), max_finished=4)
    for _ in range(4):
        journal.start(SETTINGS).apply(EVENTS[0])
        journal.finish({})
    for seq in (1, 4):
        flip(root / "done" / ("%d.log" % seq), 2)
        with pytest.raises(ResultDamaged):
            journal.meta(seq)
    with pytest.raises(JournalFull) as error:
        journal.start(SETTINGS)
    assert error.value.text == "4 results not yet synced: sync before starting a match"
    (root / "seq").unlink()  # its number is not given again, even without the seq file
    journal = Journal(str(root), max_finished=4)
    assert journal.acknowledge_damaged(1)
    assert journal.start(SETTINGS).log.seq == 5


def test_a_damaged_result_too_long_to_send_is_refused_by_size(tmp_path):
    root = tmp_path / "j"
    journal = results(root, 1)
    flip(root / "done" / "1.log", 2)
    with pytest.raises(ResultDamaged):
        journal.meta(1)
    size = (root / "damaged" / "1.log").stat().st_size
    with pytest.raises(JournalError) as error:
        journal.damaged_bytes(1, size - 1)
    assert error.value.text == "damaged result 1 is too long to send (%d bytes)" % size
    assert len(journal.damaged_bytes(1, size)) == size
    with pytest.raises(JournalError) as error:
        journal.damaged_bytes(7, size)
    assert error.value.text == "no damaged result 7"


def snapshot_journal(root: Path, events: int = 40) -> Journal:
    journal = Journal(str(root), snapshot_every=32)
    playing(journal, EVENTS[:events], SETTINGS, {"match_id": "R1-01"})
    journal.close()
    return journal


def test_damage_before_the_snapshot_is_found_between_keys_and_named_once(tmp_path):
    """Boot reads nothing before the snapshot's last event (the resume stays flat), so the
    first quiet tick after each key reads a few of those records before arming the log; the
    first damaged one is named at once, and play goes on from the snapshot."""
    root = tmp_path / "j"
    snapshot_journal(root, 33)
    flip(root / "current.log", offsets(root / "current.log")[20] + 4)
    journal = Journal(str(root), snapshot_every=32)
    assert journal.problem is None  # boot did not see it
    match = journal.resume()
    assert len(match.log) == 33 and journal.log.resume_point[0] == 32
    found = []
    for event in EVENTS[33:39]:  # a key, then its quiet tick
        match.apply(event)
        found.append(journal.prepare())
        found.append(journal.prepare())  # the next quiet ticks: armed, nothing read
    named = [text for text in found if text]
    assert named == ["JOURNAL DAMAGED: MATCH GOES ON, KEPT FOR THE LAPTOP"]
    assert CHECK_STEP == 16 and found.index(named[0]) == 2 * (20 // 16)  # bounded a key
    assert journal.problem == named[0]
    seq = journal.finish({"score": [3, 1], "winner": 0})
    # Filed as a damaged result, whole: its F record, with the score, is in it.
    assert journal.finished() == [] and journal.damaged() == [seq]
    data = (root / "damaged" / ("%d.log" % seq)).read_bytes()
    assert b'"score":[3,1]' in data and not (root / "current.log").exists()
    assert Journal(str(root)).damaged() == [seq]


def test_the_check_between_keys_reads_nothing_once_done_nor_armed_nor_without_a_snapshot(
        tmp_path, monkeypatch):
    root = tmp_path / "j"
    snapshot_journal(root)
    journal = Journal(str(root), snapshot_every=32)
    journal.resume()
    reads = []
    real = Records.read
    monkeypatch.setattr(Records, "read", lambda self, *a: reads.append(a[1]) or real(self, *a))
    found = []
    for _ in range(3):  # 31 events before the snapshot's last: 2 quiet ticks after keys
        journal.log._armed = False  # noqa: SLF001 (as after a key)
        found.append(journal.prepare())
        assert journal.prepare() is None  # armed: nothing read
    assert found == [None] * 3 and len(reads) == 31
    assert journal.problem is None and not journal.log.prefix_damaged
    journal.log._armed = False  # noqa: SLF001
    journal.prepare()
    assert len(reads) == 31  # checked once
    journal.close()
    short = Journal(str(tmp_path / "k"), snapshot_every=32)
    playing(short, EVENTS[:5], SETTINGS)
    reads.clear()
    short.prepare()
    assert reads == []  # no snapshot: the boot read every record


def test_a_finished_match_with_a_damaged_prefix_is_set_aside_at_boot(tmp_path):
    """The F is on flash, the filing away was cut short, and a record before the snapshot is
    damaged: the boot files the whole match as a damaged result (before, it cut the match
    back to the damage and the finished result was lost to a replay of its start)."""
    root = tmp_path / "j"
    journal = Journal(str(root), snapshot_every=32)
    playing(journal, EVENTS[:40], SETTINGS, {"match_id": "R1-01"})
    journal.log.finish({"score": [3, 1], "winner": 0})  # F written; the power goes
    journal.close()
    flip(root / "current.log", offsets(root / "current.log")[12] + 4)
    whole = (root / "current.log").read_bytes()
    journal = Journal(str(root), snapshot_every=32)
    assert not journal.active and journal.finished() == [] and journal.damaged() == [1]
    assert (root / "damaged" / "1.log").read_bytes() == whole


def test_a_match_whose_records_cannot_be_read_back_at_filing_is_set_aside(tmp_path):
    """Filing away after an undo copies the effective records; one that no longer reads back
    (damaged after boot) no longer fails the finish: the log is set aside whole."""
    root = tmp_path / "j"
    journal = Journal(str(root))
    match = playing(journal, EVENTS[:6], SETTINGS)
    match.undo()
    flip(root / "current.log", offsets(root / "current.log")[3] + 4)
    seq = journal.finish({"ended": 1})
    assert journal.finished() == [] and journal.damaged() == [seq]
    assert not journal.active and not list((root / "done").iterdir())
    assert journal.start(SETTINGS).log.seq == seq + 1


def test_the_board_names_damage_before_the_snapshot_at_once_and_plays_on(tmp_path):
    """On the board: its quiet ticks after keys (firmware/between_keys.py) find the damage,
    and the message row says so at once; the match is still there to play."""
    from desk_board import DeskBoard
    from displays import seen

    root = tmp_path / "journal"
    snapshot_journal(root, 34)
    flip(root / "current.log", offsets(root / "current.log")[10] + 4)
    desk = DeskBoard(tmp_path).boot()
    app = desk.app
    assert app.match is not None and len(app.match.log) == 34
    rows = []
    for event in EVENTS[34:38]:
        app.between.busy()  # a key was drawn; its first quiet tick comes next
        app.between.quiet(app)
        for _ in range(40):
            desk.run(50)
            rows.append(seen(desk)[3])
        app.match.apply(event)  # the next key
    tape = "".join(row[-1:] for row in rows)
    assert "DAMAGED" in " ".join(rows) or "DAMAGED" in tape
    assert app.store.problem == "JOURNAL DAMAGED: MATCH GOES ON, KEPT FOR THE LAPTOP"
    assert len(app.match.log) == 38 and not app.match.state.finished


def test_a_damaged_that_is_not_a_folder_does_not_stop_the_boot(tmp_path):
    root = tmp_path / "j"
    results(root, 1)
    (root / "damaged").write_bytes(b"not a folder")
    journal = Journal(str(root))  # NotADirectoryError at every boot without the guard
    assert journal.finished() == [1] and journal.damaged() == []
