"""The power-safe journal on CPython: records, torn tails, undo, resume, finished matches,
acknowledgement, the limit and compaction (firmware/journal*.py, docs/journal.md)."""

from __future__ import annotations

import binascii
import json
import os
import random
import shutil
import struct
from pathlib import Path

import pytest
from journal_play import played_at_random

from firmware import journal as jr
from firmware import journal_log, journal_records, room
from firmware.journal import Journal, JournalError, JournalFull
from hardware.boards.virtual_flash import FlashImage
from rules_core import canon, matchlog
from rules_core.crc import soft_crc32
from rules_core.match import Match
from rules_core.refusal import Refused

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = json.loads((EXAMPLES / "demo-9ball.json").read_text())
DEMO8 = json.loads((EXAMPLES / "demo-8ball.json").read_text())
SETTINGS = DEMO["settings"]
EVENTS = DEMO["events"]
# Under mutation testing (tests/mutants.py) the seeded tests run fewer seeds: each surviving
# mutant runs the whole selection.
SEEDS = 3 if os.environ.get("PILKKU_MUTANTS") else 12


def state_of(match: Match) -> str:
    return canon.dumps(match.state.to_dict())


def replay(events, settings=SETTINGS) -> Match:
    match = Match(settings)
    for event in events:
        match.apply(event)
    return match


def open_journal(root: Path, **options) -> Journal:
    return Journal(str(root), **options)


def current(root: Path) -> Path:
    return root / "current.log"


def kinds(path: Path) -> str:
    return "".join(kind for kind, _ in records(path))


def records(path: Path) -> list[tuple[str, bytes]]:
    """The records of a journal file, parsed independently of the module under test."""
    data = path.read_bytes()
    out = []
    offset = 0
    while offset < len(data):
        kind = data[offset]
        (length,) = struct.unpack_from("<H", data, offset + 1)
        payload = data[offset + 3:offset + 3 + length]
        (crc,) = struct.unpack_from("<I", data, offset + 3 + length)
        assert crc == binascii.crc32(data[offset:offset + 3 + length])
        out.append((chr(kind), payload))
        offset += 7 + length
    assert offset == len(data)
    return out


# -- records ------------------------------------------------------------------------------


class Sink:
    """A file-like buffer for _Records: write, seek, readinto."""

    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.pos = 0

    def write(self, buf):
        buf = bytes(buf)
        self.data[self.pos:self.pos + len(buf)] = buf
        self.pos += len(buf)
        return len(buf)

    def seek(self, pos, whence=0):
        self.pos = pos if whence == 0 else len(self.data) + pos
        return self.pos

    def tell(self):
        return self.pos

    def readinto(self, buf):
        chunk = self.data[self.pos:self.pos + len(buf)]
        buf[:len(chunk)] = chunk
        self.pos += len(chunk)
        return len(chunk)


class Flushed:
    """A file that records its flush calls, and what was synced after them."""

    def __init__(self, calls):
        self.calls = calls

    def flush(self):
        self.calls.append("flush")

    def fileno(self):
        return 7


def test_flush_to_flash_flushes_then_fsyncs_or_syncs(monkeypatch):
    """CPython: flush, then fsync of the file. MicroPython (no fsync): flush, then os.sync.
    A port with neither: the flush alone (littlefs commits the file on it)."""
    calls: list = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(("fsync", fd)))
    monkeypatch.setattr(os, "sync", lambda: calls.append("sync"), raising=False)
    journal_records.flush_to_flash(Flushed(calls))
    assert calls == ["flush", ("fsync", 7)]
    calls.clear()
    monkeypatch.delattr(os, "fsync")
    journal_records.flush_to_flash(Flushed(calls))
    assert calls == ["flush", "sync"]
    calls.clear()
    monkeypatch.delattr(os, "sync")
    journal_records.flush_to_flash(Flushed(calls))
    assert calls == ["flush"]


PAYLOADS = [b"", b"{}", canon.dumps(EVENTS[2]).encode(), "Ä 9-ball ✓".encode(), b"x" * 300,
            b"y" * 5000]


def test_records_round_trip():
    io = journal_records.Records()
    sink = Sink()
    kinds = [journal_records.KIND_SETTINGS, journal_records.KIND_EVENT,
             journal_records.KIND_UNDO, journal_records.KIND_FINISH]
    offsets = []
    for index, payload in enumerate(PAYLOADS):
        offsets.append(sink.pos)
        size = io.write(sink, kinds[index % 4], payload)
        assert size == len(payload) + 7
    assert len(sink.data) == sum(len(p) + 7 for p in PAYLOADS)
    for index, payload in enumerate(PAYLOADS):
        assert io.read(sink, offsets[index], len(sink.data)) == len(payload)
        assert io.kind == kinds[index % 4]
        assert bytes(io.payload()) == payload
    # The layout is the documented one: kind, length LE, payload, CRC-32 LE of all before.
    data = bytes(sink.data)
    n = len(PAYLOADS[2])
    start = offsets[2]
    assert data[start] == journal_records.KIND_UNDO
    assert data[start + 1:start + 3] == n.to_bytes(2, "little")
    assert data[start + 3 + n:start + 7 + n] == \
        binascii.crc32(data[start:start + 3 + n]).to_bytes(4, "little")


def test_record_longer_than_the_length_field_is_refused():
    with pytest.raises(JournalError):
        journal_records.Records().write(Sink(), journal_records.KIND_EVENT, b"z" * 65536)


@pytest.mark.parametrize("flip", [0x01, 0x80, 0xFF])
def test_crc_catches_every_flipped_byte(flip):
    io = journal_records.Records()
    sink = Sink()
    io.write(sink, journal_records.KIND_EVENT, canon.dumps(EVENTS[3]).encode())
    good = bytes(sink.data)
    for position in range(len(good)):
        damaged = bytearray(good)
        damaged[position] ^= flip
        # Never a record: a kind flip fails the CRC, a length flip runs past the end or
        # moves the CRC, any other flip fails the CRC.
        assert io.read(Sink(damaged), 0, len(damaged)) < 0, position


def test_software_crc_is_zlibs():
    for payload in PAYLOADS + [bytes(range(256))]:
        assert soft_crc32(payload) == binascii.crc32(payload)
        assert soft_crc32(payload, 12345) == binascii.crc32(payload, 12345)


# -- the match in progress ----------------------------------------------------------------


def test_append_writes_one_flushed_e_record_per_event(tmp_path):
    journal = open_journal(tmp_path / "j")
    match = journal.start(SETTINGS, {"table": 1})
    for count, event in enumerate(EVENTS[:5], 1):
        match.apply(event)
        # On flash (not in a buffer) when apply returns: read the file from outside.
        kinds = [kind for kind, _ in records(current(tmp_path / "j"))]
        assert kinds == ["S"] + ["E"] * count
    found = records(current(tmp_path / "j"))
    start = json.loads(found[0][1])
    assert start == {"meta": {"table": 1}, "seq": 1, "settings": match.settings}
    assert [json.loads(p) for _, p in found[1:]] == EVENTS[:5]
    assert [p for _, p in found[1:]] == [canon.dumps(e).encode() for e in EVENTS[:5]]


def test_refused_event_writes_nothing(tmp_path):
    journal = open_journal(tmp_path / "j")
    match = journal.start(SETTINGS)
    match.apply(EVENTS[0])
    before = current(tmp_path / "j").read_bytes()
    with pytest.raises(Refused):
        match.apply({"t": "lag", "winner": 1})  # the lag is decided already
    assert current(tmp_path / "j").read_bytes() == before


def test_undo_writes_a_u_record_and_resume_drops_the_event(tmp_path):
    journal = open_journal(tmp_path / "j")
    match = journal.start(SETTINGS)
    for event in EVENTS[:6]:
        match.apply(event)
    match.undo()
    match.undo()
    match.redo()
    kinds = "".join(kind for kind, _ in records(current(tmp_path / "j")))
    assert kinds == "S" + "E" * 6 + "UU" + "E"
    assert list(match.log) == EVENTS[:5]
    journal.close()
    resumed = open_journal(tmp_path / "j").resume()
    assert list(resumed.log) == EVENTS[:5]
    assert state_of(resumed) == state_of(replay(EVENTS[:5])) == state_of(match)


def test_log_indexes_like_a_list(tmp_path):
    log = open_journal(tmp_path / "j").start(SETTINGS).log
    events = EVENTS + EVENTS  # 80: more than one piece of the offset index
    for event in events:
        log.append(event)
    assert len(log) == 80
    assert log[0] == events[0] and log[-1] == events[-1] and log[64] == events[64]
    with pytest.raises(IndexError):
        log[80]
    assert list(log) == events
    assert log.pop() == events[-1]
    assert len(log) == 79 and log[-1] == events[-2]


def test_ram_per_event_is_an_offset(tmp_path):
    log = open_journal(tmp_path / "j").start(SETTINGS).log
    for _ in range(3):
        for event in EVENTS:
            log.append(event)
    # 120 events: two pieces of 64 offsets, ints only; no event is held.
    assert len(log._pieces) == 2
    assert all(len(piece) == journal_log.PIECE for piece in log._pieces)
    assert all(isinstance(x, int) for piece in log._pieces for x in piece)
    for _ in range(60):
        log.pop()
    assert len(log._pieces) <= 2


@pytest.mark.parametrize("seed", range(SEEDS))
def test_resume_equals_live_state_after_random_apply_undo_redo(tmp_path, seed):
    rng = random.Random(seed)
    demo = DEMO if seed % 3 else DEMO8
    events = demo["events"]
    root = tmp_path / "j"
    compact_min = rng.choice([0, 64, 4096])
    journal, match, applied = played_at_random(
        rng, lambda: open_journal(root, compact_min=compact_min), demo["settings"], events,
        steps=150, apply_below=0.6, undo_below=0.85, undo_most=1, cut_odds=0.15)
    journal.close()
    resumed = open_journal(root).resume()
    assert list(resumed.log) == events[:applied]
    assert state_of(resumed) == state_of(match) == state_of(replay(events[:applied],
                                                                    demo["settings"]))


# -- power cuts: torn tails and damage ----------------------------------------------------


def snapshot(src: Path, dst: Path, cut: int | None = None) -> Path:
    """A copy of a journal directory as flash would hold it, with current.log cut short."""
    shutil.copytree(src, dst)
    if cut is not None:
        path = current(dst)
        path.write_bytes(path.read_bytes()[:cut])
    return dst


@pytest.mark.parametrize("last", ["event", "undo"])
def test_torn_last_record_is_dropped_at_every_byte(tmp_path, last):
    root = tmp_path / "j"
    journal = open_journal(root)
    match = journal.start(SETTINGS)
    for event in EVENTS[:8]:
        match.apply(event)
    before = current(root).stat().st_size
    if last == "event":
        match.apply(EVENTS[8])
        kept, whole = EVENTS[:8], EVENTS[:9]
    else:
        match.undo()
        kept, whole = EVENTS[:8], EVENTS[:7]
    after = current(root).stat().st_size
    journal.close()
    good_prefix = current(root).read_bytes()[:before]
    for cut in range(before, after + 1):
        copy = snapshot(root, tmp_path / ("cut%d" % cut), cut)
        resumed = open_journal(copy).resume()
        expect = whole if cut == after else kept
        assert list(resumed.log) == expect, cut
        assert state_of(resumed) == state_of(replay(expect))
        if cut < after:
            # The torn record is gone from flash, everything before it is byte for byte there.
            assert current(copy).read_bytes() == good_prefix
            assert not (copy / "damaged.log").exists()
            assert not any(p.name.endswith(".tmp") for p in copy.iterdir())
        # The repaired journal goes on: the next event lands after the good records.
        resumed.apply(EVENTS[len(expect)])
        again = open_journal(copy).resume()
        assert list(again.log) == expect + [EVENTS[len(expect)]]


def test_garbage_after_the_last_record_is_dropped(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root)
    match = journal.start(SETTINGS)
    for event in EVENTS[:4]:
        match.apply(event)
    journal.close()
    good = current(root).read_bytes()
    for tail in (b"\xff" * 4096, b"\x00" * 3, b"E\x05\x00abc"):
        copy = snapshot(root, tmp_path / ("tail%d" % len(tail)))
        current(copy).write_bytes(good + tail)
        assert list(open_journal(copy).resume().log) == EVENTS[:4]
        assert current(copy).read_bytes() == good


def test_damage_inside_the_file_keeps_the_good_prefix_and_a_copy(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root)
    match = journal.start(SETTINGS)
    offsets = []
    for event in EVENTS[:6]:
        offsets.append(current(root).stat().st_size)
        match.apply(event)
    journal.close()
    original = current(root).read_bytes()
    damaged = bytearray(original)
    damaged[offsets[3] + 5] ^= 0x40  # inside the payload of the 4th event
    current(root).write_bytes(bytes(damaged))
    resumed = open_journal(root).resume()
    assert list(resumed.log) == EVENTS[:3]
    assert (root / "damaged.log").read_bytes() == bytes(damaged)


def test_torn_or_damaged_settings_record_means_no_match(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root)
    journal.start(SETTINGS)
    journal.close()
    whole = current(root).read_bytes()
    current(root).write_bytes(whole[:-1])
    journal = open_journal(root)
    assert not journal.active and journal.resume() is None
    assert not current(root).exists()
    assert (root / "damaged.log").read_bytes() == whole[:-1]
    # The sequence number is not given out twice.
    journal.start(SETTINGS)
    assert journal.log.seq == 2


def test_stray_temporary_files_are_removed(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root)
    match = journal.start(SETTINGS)
    match.apply(EVENTS[0])
    journal.close()
    (root / "current.log.tmp").write_bytes(b"half a compaction")
    (root / "seq.tmp").write_bytes(b"9")
    (root / "done" / "1.tmp").write_bytes(b"half a finish")
    journal = open_journal(root)
    assert sorted(p.name for p in root.iterdir()) == ["current.log", "done", "seq"]
    assert list((root / "done").iterdir()) == []
    assert list(journal.resume().log) == EVENTS[:1]


def test_failed_write_stops_the_log_until_restart(tmp_path, monkeypatch):
    root = tmp_path / "j"
    journal = open_journal(root)
    match = journal.start(SETTINGS)
    match.apply(EVENTS[0])

    def no_room(f, kind, payload):
        raise OSError(28, "no space")

    monkeypatch.setattr(journal._io, "write", no_room)
    with pytest.raises(OSError):
        match.apply(EVENTS[1])
    assert list(match.log) == EVENTS[:1] and state_of(match) == state_of(replay(EVENTS[:1]))
    monkeypatch.undo()
    with pytest.raises(JournalError, match="restart"):
        match.apply(EVENTS[1])
    journal.close()
    match = open_journal(root).resume()
    match.apply(EVENTS[1])
    assert list(match.log) == EVENTS[:2]


# -- finished matches ---------------------------------------------------------------------


def play(journal: Journal, demo=DEMO, meta=None) -> Match:
    match = journal.start(demo["settings"], meta or {"table": 1})
    for event in demo["events"]:
        match.apply(event)
    return match


def test_finish_document_replays_to_the_same_result(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root)
    match = play(journal, meta={"table": 1, "match_id": "R1-04"})
    match.undo()
    match.redo()
    assert match.state.finished
    expected = matchlog.dumps(match, {"table": 1, "match_id": "R1-04", "ended": 1234})
    seq = journal.finish({"ended": 1234})
    assert seq == 1 and journal.finished() == [1] and not journal.active
    assert not current(root).exists()
    kinds = "".join(kind for kind, _ in records(root / "done" / "1.log"))
    assert kinds == "S" + "E" * len(EVENTS) + "F"  # only the effective events
    doc = journal.document(seq)
    assert doc == {"format": "pilkku.match/1", "settings": match.settings, "events": EVENTS,
                   "meta": {"table": 1, "match_id": "R1-04", "ended": 1234}}
    replayed = matchlog.load(doc)
    assert state_of(replayed) == state_of(match)
    assert replayed.state.winner == match.state.winner is not None
    parts: list[str] = []
    journal.dump_document(seq, parts.append)
    assert "".join(parts) == canon.dumps(doc) == expected
    once: list[str] = []
    journal.dump_document(seq, once.append, False)  # the file read once, the same text
    assert once == parts
    # Still there after a restart, until acknowledged.
    journal.close()
    journal = open_journal(root)
    assert journal.finished() == [1] and journal.document(1) == doc


def test_acknowledge_frees_the_result(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root)
    play(journal)
    seq = journal.finish()
    assert (root / "done" / "1.log").exists()
    assert journal.acknowledge(seq) is True
    assert journal.finished() == [] and not (root / "done" / "1.log").exists()
    assert journal.acknowledge(seq) is False
    with pytest.raises(JournalError):
        journal.document(seq)
    # Sequence numbers are never given out twice, even after every result is gone.
    journal.close()
    journal = open_journal(root)
    play(journal)
    assert journal.finish() == 2


def test_limit_refuses_a_new_match_and_keeps_every_result(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root, max_finished=3)
    for _ in range(3):
        play(journal)
        journal.finish()
    assert journal.finished() == [1, 2, 3]
    with pytest.raises(JournalFull) as refused:
        journal.start(SETTINGS)
    assert str(refused.value) == "3 results not yet synced: sync before starting a match"
    assert refused.value.count == 3
    assert not journal.active and not current(root).exists()
    assert sorted(p.name for p in (root / "done").iterdir()) == ["1.log", "2.log", "3.log"]
    journal.acknowledge(2)
    journal.start(SETTINGS)
    assert journal.log.seq == 4


def test_start_and_finish_out_of_turn(tmp_path):
    journal = open_journal(tmp_path / "j")
    with pytest.raises(JournalError):
        journal.finish()
    with pytest.raises(Refused):
        journal.start({"game": "snooker", "players": ["A", "B"], "race_to": 1})
    with pytest.raises(JournalError):
        journal.start(SETTINGS, ["not", "an", "object"])
    with pytest.raises(TypeError):
        journal.start(SETTINGS, {"when": 1.5})  # no floats in canonical JSON
    assert not journal.active and not current(tmp_path / "j").exists()
    match = journal.start(SETTINGS)
    with pytest.raises(JournalError):
        journal.finish("done")
    assert journal.active
    with pytest.raises(JournalError, match="in progress"):
        journal.start(SETTINGS)
    size = current(tmp_path / "j").stat().st_size
    with pytest.raises(TypeError):
        journal.finish({"ended": 1.5})  # its F record is not JSON: nothing written
    assert journal.active and current(tmp_path / "j").stat().st_size == size
    journal.finish({"abandoned": True})  # an unfinished match can be filed away too
    with pytest.raises(JournalError):
        match.apply(EVENTS[0])
    assert journal.document(1)["events"] == []


def test_power_cut_during_finish(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root)
    play(journal)
    before = current(root).stat().st_size
    journal.log.finish({"ended": 1})  # F on flash, then the power goes
    journal.close()
    after = current(root).stat().st_size
    for cut in range(before, after + 1):
        copy = snapshot(root, tmp_path / ("cut%d" % cut), cut)
        journal = open_journal(copy)
        if cut < after:  # no F: the match is still in progress
            assert journal.active and list(journal.resume().log) == EVENTS
            assert journal.finished() == []
        else:  # F: opening the journal files the match away
            assert not journal.active and journal.finished() == [1]
            assert journal.document(1)["meta"] == {"table": 1, "ended": 1}
            assert not current(copy).exists()
    # Cut after the done file was renamed into place, before current.log was removed.
    copy = snapshot(root, tmp_path / "renamed")
    reference = open_journal(snapshot(root, tmp_path / "reference"))
    shutil.copy(tmp_path / "reference" / "done" / "1.log", copy / "done" / "1.log")
    journal = open_journal(copy)
    assert journal.finished() == [1] and journal.document(1) == reference.document(1)
    assert not current(copy).exists()


def test_finish_without_undo_renames_the_file_into_done(tmp_path):
    """Nothing undone: the current file already is the result, so filing it away is one
    rename (no second file open, nothing copied). With anything after the F record the
    result is still written fresh, without it."""
    root = tmp_path / "j"
    journal = open_journal(root)
    play(journal)
    journal.log.finish({"ended": 1})
    whole = current(root).read_bytes()
    inode = current(root).stat().st_ino
    journal.close()
    journal = open_journal(root)  # files the finished match away at open
    done = root / "done" / "1.log"
    assert done.read_bytes() == whole and done.stat().st_ino == inode
    assert not current(root).exists()
    # The same finished file with bytes after its F record (not a record: left by a cut).
    again = tmp_path / "again"
    again.mkdir()
    (again / "current.log").write_bytes(whole + b"\xff\x00")
    journal = open_journal(again)
    assert (again / "done" / "1.log").read_bytes() == whole
    assert journal.document(1)["events"] == EVENTS


# -- compaction ---------------------------------------------------------------------------


def test_compaction_keeps_the_effective_log_and_bounds_the_file(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root, compact_min=512)
    match = journal.start(SETTINGS)
    for event in EVENTS[:20]:
        match.apply(event)
    sizes = []
    for _ in range(40):  # the referee dithers over the last few shots
        for _ in range(3):
            match.undo()
        for _ in range(3):
            match.redo()
        sizes.append(current(root).stat().st_size)
    live = sum(len(canon.dumps(e)) + 7 for e in EVENTS[:20])
    live += len(records(current(root))[0][1]) + 7
    assert max(sizes) <= 2 * live + 512 + 3 * 60
    assert min(sizes) < max(sizes)  # it was compacted, more than once
    assert list(match.log) == EVENTS[:20]
    journal.close()
    resumed = open_journal(root).resume()
    assert list(resumed.log) == EVENTS[:20]
    assert state_of(resumed) == state_of(match)


def test_compaction_at_open(tmp_path):
    root = tmp_path / "j"
    journal = open_journal(root, compact_min=10**9)
    match = journal.start(SETTINGS)
    for event in EVENTS[:10]:
        match.apply(event)
    for _ in range(8):
        match.undo()
    journal.close()
    big = current(root).stat().st_size
    journal = open_journal(root, compact_min=0)
    assert current(root).stat().st_size < big
    assert "".join(k for k, _ in records(current(root))) == "SEE"
    assert list(journal.resume().log) == EVENTS[:2]


def test_compaction_that_cannot_reopen_the_file_asks_for_a_restart(tmp_path, monkeypatch):
    """The compacted file is renamed into place, then reopening it fails (no heap for the
    file object): the log says "restart the board", for reads too, and the restart resumes
    the compacted log."""
    root = tmp_path / "j"
    journal = open_journal(root, compact_min=0)
    match = journal.start(SETTINGS)
    for event in EVENTS[:8]:
        match.apply(event)

    def no_heap(path, mode="r", *args):
        if path.endswith(jr.CURRENT) and mode == "r+b":
            raise MemoryError("memory allocation failed, allocating 1200 bytes")
        return open(path, mode, *args)

    monkeypatch.setattr(room, "open", no_heap, raising=False)  # Journal._log_file
    left = 8
    while True:  # undo until the undone bytes outweigh the live ones: compaction
        left -= 1
        try:
            match.undo()
        except JournalError as error:  # the match's rebuild reads the log it cannot reopen
            assert "restart the board" in error.text
            break
        assert "U" in kinds(current(root))
    monkeypatch.undo()
    assert kinds(current(root)) == "S" + "E" * left and left
    with pytest.raises(JournalError, match="restart the board"):
        match.log[0]
    with pytest.raises(JournalError, match="restart the board"):
        match.log.append(EVENTS[left])
    journal.close()
    assert list(open_journal(root).resume().log) == EVENTS[:left]


def test_flash_bytes_per_event_of_a_real_match(tmp_path):
    """docs/journal.md quotes these figures: record bytes per event of the demo matches."""
    for demo in (DEMO, DEMO8):
        root = tmp_path / demo["settings"]["game"]
        journal = open_journal(root)
        play(journal, demo)
        start = len(records(current(root))[0][1]) + 7
        per_event = (journal.log.flash_bytes() - start) / len(demo["events"])
        text = sum(len(canon.dumps(e)) for e in demo["events"]) / len(demo["events"])
        assert per_event == text + 7
        assert per_event < 96, per_event


# -- the virtual flash chip ---------------------------------------------------------------


def test_flash_image_is_created_erased_and_keeps_writes(tmp_path):
    image = tmp_path / "flash.img"
    dev = FlashImage(str(image), 4)
    assert image.read_bytes() == b"\xff" * 4 * 4096
    assert dev.ioctl(4, 0) == 4 and dev.ioctl(5, 0) == 4096
    dev.writeblocks(1, b"\x12\x34", 100)
    # Straight to the file: another reader sees it before any close.
    assert image.read_bytes()[4096 + 100:4096 + 102] == b"\x12\x34"
    buf = bytearray(4)
    dev.readblocks(1, buf, 99)
    assert bytes(buf) == b"\xff\x12\x34\xff"
    assert dev.ioctl(6, 1) == 0
    assert image.read_bytes() == b"\xff" * 4 * 4096
    dev.writeblocks(2, b"\x00" * 4096)  # the simple protocol: erase, then program
    assert image.read_bytes()[2 * 4096:3 * 4096] == b"\x00" * 4096
    assert (dev.programs, dev.erases) == (2, 2)
    with pytest.raises(OSError):
        dev.readblocks(4, bytearray(16))
    dev.close()
    assert FlashImage(str(image), 4).ioctl(4, 0) == 4
    assert os.path.getsize(image) == 4 * 4096
