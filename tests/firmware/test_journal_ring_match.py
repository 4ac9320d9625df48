"""The journal with its ring (firmware/journal_ring_file.py, docs/journal.md "The key's record
outside littlefs") on the NOR flash model (tests/firmware/nor_flash.py), littlefs' part on
the test's folder: a key's record is one ring program (no erase, nothing written to
littlefs), records reach current.log between keys, a finished match is filed in the next
quiet tick; and a power cut at every erase and program of the ring during play (apply,
undo, quiet ticks that erase ahead and file to littlefs, a snapshot, a finish, the next
start), at a page's start, bytes into it, with random bits, or weak, is followed by a boot
that finds every acknowledged event and result exactly (at most the key in flight more),
and again after the weak bits fade."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from nor_flash import NorFlash

from firmware import journal_ring_file
from firmware.journal import Journal
from firmware.journal_ring import Ring

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = json.loads((EXAMPLES / "demo-9ball.json").read_text())
DEMO8 = json.loads((EXAMPLES / "demo-8ball.json").read_text())
COUNT = 6  # the ring's sectors: small, so that it wraps


def steps() -> list[tuple]:
    """A 9-ball match with undos (each undo's event applied again), a quiet tick after each
    key, finished and filed; then an 8-ball match begun."""
    out: list[tuple] = [("start", DEMO["settings"]), ("quiet",)]
    for i, event in enumerate(DEMO["events"]):
        out += [("apply", event), ("quiet",)]
        if i % 4 == 2:
            out += [("undo",), ("apply", event), ("quiet",)]
    out += [("finish",), ("quiet",), ("start", DEMO8["settings"]), ("quiet",)]
    for event in DEMO8["events"][:12]:
        out += [("apply", event), ("quiet",)]
    return out


def boot(root: Path, flash: NorFlash) -> Journal:
    return Journal(str(root), ring=Ring(flash, 0, COUNT), snapshot_every=16)


def observed(journal: Journal):
    """(the finished matches' events, the match in progress's events or None)."""
    done = tuple(tuple(json.dumps(e, sort_keys=True) for e in journal.document(seq)["events"])
                 for seq in journal.finished())
    match = journal.resume()
    now = None if match is None else tuple(json.dumps(e, sort_keys=True) for e in match.log)
    return done, now


def play(root: Path, flash: NorFlash, script: list[tuple]):
    """Play until the end or the power cut; (model before the step in flight, after it)."""
    journal = boot(root, flash)
    done: list[tuple] = []
    now: list | None = None
    match = None
    for step in script:
        before = (tuple(done), None if now is None else tuple(now))
        kind = step[0]
        try:
            if kind == "start":
                match = journal.start(step[1], {"table": 1})
                now = []
            elif kind == "apply":
                match.apply(step[1])
                now.append(json.dumps(step[1], sort_keys=True))
            elif kind == "undo":
                match.undo()
                now.pop()
            elif kind == "finish":
                journal.finish({"winner": 1})
                done.append(tuple(now))
                now = None
            else:
                journal.prepare()
        except Exception:  # noqa: BLE001  # the cut, or the journal refusing after it
            after = _after(before, step)
            return before, after
        if flash.dead:  # a cut in a step that said nothing (a quiet tick's work)
            model = (tuple(done), None if now is None else tuple(now))
            return model, model
    model = (tuple(done), None if now is None else tuple(now))
    return model, model


def _after(before, step):
    done, now = before
    kind = step[0]
    if kind == "start":
        return done, ()
    if kind == "apply":
        return done, now + (json.dumps(step[1], sort_keys=True),)
    if kind == "undo":
        return done, now[:-1]
    if kind == "finish":
        return done + (now,), None
    return before


@pytest.fixture(autouse=True)
def _file_often(monkeypatch):
    monkeypatch.setattr(journal_ring_file, "FILE_AT", 16)  # littlefs filing several times


def test_a_key_is_one_ring_program_and_nothing_on_littlefs(tmp_path):
    flash = NorFlash(8)
    journal = boot(tmp_path / "j", flash)
    journal.prepare()  # the menu's quiet tick: a sector erased ahead for the start
    match = journal.start(DEMO["settings"], {})
    for event in DEMO["events"][:12]:
        journal.prepare()  # the quiet tick: a sector erased ahead, or the records filed
        files, ops = _littlefs(tmp_path / "j"), flash.ops
        match.apply(event)
        assert _littlefs(tmp_path / "j") == files  # nothing written to littlefs in the key
        assert flash.ops == ops + 1 and flash.shapes[-1] in (1, 2)  # one program, no erase
    assert journal.ring.late == 0
    again = boot(tmp_path / "j", flash).resume()
    assert list(again.log) == DEMO["events"][:12]
    assert again.state.to_dict() == match.state.to_dict()


def test_records_reach_littlefs_between_keys_and_a_finish_is_filed_in_a_quiet_tick(tmp_path):
    flash = NorFlash(8)
    root = tmp_path / "j"
    journal = boot(root, flash)
    match = journal.start(DEMO["settings"], {"table": 1})
    for event in DEMO["events"]:
        match.apply(event)
        journal.prepare()
    assert journal.log._f.waiting() < 16  # noqa: SLF001  # filed FILE_AT at a time
    assert (root / "current.log").stat().st_size > 32 * 20
    seq = journal.finish({"winner": 1})
    assert not list((root / "done").iterdir())
    assert journal.finished() == [seq]  # listed before it is filed
    assert journal.meta(seq)["winner"] == 1 and journal.meta(seq)["table"] == 1
    assert not journal.active
    journal.prepare()  # the quiet ticks file it, a step each
    while journal.more:
        journal.prepare()
    assert not (root / "current.log").exists()
    assert (root / "done" / ("%d.log" % seq)).exists()
    assert journal.document(seq)["events"] == DEMO["events"]
    # The ring holds nothing of it once filed: a boot reads done/ only.
    assert boot(root, flash).finished() == [seq] and boot(root, flash).resume() is None


def test_the_whole_script_plays_and_resumes(tmp_path):
    flash = NorFlash(8)
    before, after = play(tmp_path / "j", flash, steps())
    assert before == after
    assert observed(boot(tmp_path / "j", flash)) == before
    assert len(before[0]) == 1 and len(before[1]) == 12


@pytest.mark.parametrize("how", [("prefix", 0, 0), ("prefix", 0, 100), ("bits", 0, 0),
                                 ("weak", 0, 0)])
def test_a_cut_at_every_ring_operation_loses_nothing_acknowledged(tmp_path, how):
    script = steps()
    whole = NorFlash(8)
    play(tmp_path / "whole", whole, script)
    total = whole.ops
    assert total > 80
    kind, page, byte = how
    landed = 0
    for at in range(1, total + 1):
        root = tmp_path / ("r%d" % at)
        flash = NorFlash(8, seed=at)
        flash.cut(at, page=page, byte=byte, how=kind)
        before, after = play(root, flash, script)
        if flash.missed or not flash.dead:
            continue  # (a one-page program cut 100 bytes in lands; an erase has no page 1)
        landed += 1
        flash.power_on()
        found = observed(boot(root, flash))
        assert found in (before, after), "cut at operation %d (%s)" % (at, how)
        flash.decay()
        assert observed(boot(root, flash)) == found, "after decay, cut at %d" % at
        shutil.rmtree(root)
    assert landed > total * 9 // 10


def _littlefs(root: Path) -> dict:
    """littlefs' part of the journal as it stands: every file's bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_a_start_is_one_ring_program_and_nothing_on_littlefs(tmp_path):
    """Issue 31: the key that starts a match programs its S record into the ring (a sector
    erased ahead while the menu waited) and writes nothing to littlefs: the boot then finds
    the match in the ring alone and resumes it exactly."""
    flash = NorFlash(8)
    root = tmp_path / "j"
    journal = boot(root, flash)
    for _ in range(3):
        journal.prepare()  # the menu's quiet ticks: sectors erased ahead
    files, ops = _littlefs(root), flash.ops
    match = journal.start(DEMO["settings"], {"table": 1})
    assert _littlefs(root) == files
    assert flash.ops == ops + 1 and flash.shapes[-1] in (1, 2)  # one program, no erase
    for event in DEMO["events"][:5]:
        match.apply(event)
    assert _littlefs(root) == files
    again = boot(root, flash)
    resumed = again.resume()
    assert resumed is not None and list(resumed.log) == DEMO["events"][:5]
    assert again.log.seq == 1 and again.log.meta == {"table": 1}
    assert resumed.state.to_dict() == match.state.to_dict()


def one_shot_finished(root, flash):
    """A journal booted on `flash` whose match began in the ring, took one shot and is
    finished (not yet filed); and its number."""
    journal = boot(root, flash)
    match = journal.start(DEMO["settings"], {"table": 1})
    match.apply(DEMO["events"][0])
    return journal, journal.finish({"winner": 1})


def test_a_match_only_in_the_ring_keeps_its_number(tmp_path):
    """A match started and finished in the ring: filed, acknowledged (its done file gone),
    and the next match, after a boot, still gets the next number (never one given)."""
    flash = NorFlash(8)
    root = tmp_path / "j"
    journal, seq = one_shot_finished(root, flash)
    for _ in range(6):
        journal.prepare()  # its filing, a step at a time
    assert journal.finished() == [seq] and (root / "done" / ("%d.log" % seq)).exists()
    assert journal.acknowledge(seq)
    journal = boot(root, flash)
    assert journal.resume() is None and journal.finished() == []
    journal.start(DEMO["settings"], {"table": 1})
    assert journal.log.seq == seq + 1
    assert boot(root, flash).log.seq == seq + 1


def test_a_filed_match_left_in_the_ring_is_not_resumed(tmp_path):
    """A cut after a ring-only match was renamed into done/ and before the ring let it go:
    the boot files nothing twice and resumes nothing."""
    flash = NorFlash(8)
    root = tmp_path / "j"
    journal, seq = one_shot_finished(root, flash)
    cells = bytes(flash.cells)  # the ring as it was before the filing
    for _ in range(6):
        journal.prepare()
    flash.cells[:] = cells  # (the ring's release undone: as if cut just before it)
    again = boot(root, flash)
    assert again.resume() is None and again.finished() == [seq]
    assert again.document(seq)["events"] == DEMO["events"][:1]


def _counting(monkeypatch) -> list:
    """Count littlefs' writes per quiet tick: each flush of a file, rename and remove."""
    import os

    from firmware import journal as journal_module
    from firmware import journal_records

    calls: list = []
    for module, name in ((os, "rename"), (os, "remove")):
        real = getattr(module, name)

        def wrapped(*args, _real=real, _name=name):
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(module, name, wrapped)
    real_flush = journal_records.flush_to_flash

    def flush(f):
        if not getattr(f, "durable", False):
            calls.append("flush")
        return real_flush(f)

    for module in (journal_module, journal_ring_file, journal_records):
        monkeypatch.setattr(module, "flush_to_flash", flush, raising=False)
    return calls


def test_a_quiet_tick_is_one_bounded_littlefs_step_and_none_while_keys_come(tmp_path,
                                                                           monkeypatch):
    """Issue 31: between keys the filing goes a step at a time, each at most one littlefs
    write of at most FILE_STEP records (a key latched meanwhile waits for one step, not
    for the whole filing); and while keys are coming (not idle) no flash work at all."""
    flash = NorFlash(8)
    root = tmp_path / "j"
    journal = boot(root, flash)
    for _ in range(3):
        journal.prepare()
    match = journal.start(DEMO["settings"], {"table": 1})
    calls = _counting(monkeypatch)
    for event in DEMO["events"]:
        match.apply(event)
        ops = flash.ops
        journal.prepare(idle=False)  # keys coming: no erase, no filing, no snapshot
        assert flash.ops == ops and calls == []
    assert journal.log._f.waiting() == len(DEMO["events"]) + 1  # noqa: SLF001
    steps = 0
    while journal.more or journal.log._f.waiting() >= 16:  # noqa: SLF001
        size = sum(len(b) for b in _littlefs(root).values())
        journal.prepare()
        steps += 1
        assert calls.count("flush") <= 1 and calls.count("rename") <= 1, calls
        assert sum(len(b) for b in _littlefs(root).values()) - size <= \
            journal_ring_file.FILE_STEP * 120
        calls.clear()
        assert steps < 20
    assert steps >= 2
    assert [e for e in boot(root, flash).resume().log] == DEMO["events"]


def test_the_start_made_ahead_is_the_same_start(tmp_path, monkeypatch):
    """Issue 31: while the menu waits the journal makes the start of the selected match ahead
    (its settings checked, their JSON, the Match): the start key then only writes the meta's
    JSON and programs the S record; the record is byte for byte the one made without it,
    and a start of other settings is not given the one made ahead."""
    from firmware import journal as journal_module
    from rules_core import games

    games.get("9ball")
    settings = {"game": "9ball", "players": ["Ä PL", "B\"2"], "race_to": 4}
    meta = {"table": 1, "started": 1700000000, "match_id": "R1-3"}
    plain = boot(tmp_path / "plain", NorFlash(8))
    plain.start(dict(settings), dict(meta))
    flash = NorFlash(8)
    journal = boot(tmp_path / "ahead", flash)
    journal.ahead(dict(settings))
    made: list = []
    real = journal_module.check_settings
    monkeypatch.setattr(journal_module, "check_settings",
                        lambda s: made.append(s) or real(s))
    match = journal.start(dict(settings), dict(meta))
    assert made == []  # checked ahead, not in the key
    assert journal.log.settings == plain.log.settings
    ring_plain, ring_ahead = plain.ring, journal.ring
    first = next(ring_plain.records())
    assert bytes(ring_plain.read(first[0], first[3])) == \
        bytes(ring_ahead.read(next(ring_ahead.records())[0], first[3]))
    match.apply(DEMO["events"][0])
    again = boot(tmp_path / "ahead", flash).resume()
    assert list(again.log) == DEMO["events"][:1]
    journal.finish({})
    journal.ahead(dict(settings))
    other = dict(settings, race_to=5)
    journal.start(other, {})
    assert journal.log.settings["race_to"] == 5 and made  # checked in the key, not reused


def test_the_start_payload_is_canonical_json():
    from firmware.journal import _s_payload
    from rules_core import canon

    for meta, settings in (({}, {"a": 1}), ({"t": "ä\"\\\n", "n": None, "b": [1, True]},
                                            {"game": "9ball", "players": ["x", "y"]})):
        assert _s_payload(meta, 12, canon.dumps(settings)) == canon.dumps(
            {"meta": meta, "seq": 12, "settings": settings}).encode()


def test_a_game_not_yet_played_is_loaded_ahead_only_idle_and_with_room(tmp_path, monkeypatch):
    """The first start of a game after a boot would load its rules (and the ring's file
    module) in the key: the menu loads them ahead, but only once the keys have stopped
    (`idle`) and only with AHEAD_ROOM of heap free (a board short of heap loads them in the
    start key as before, and spends nothing on a game scrolled past)."""
    from firmware import journal as journal_module
    from rules_core import games

    monkeypatch.setattr(games, "_loaded", {})
    journal = boot(tmp_path / "j", NorFlash(8))
    settings = {"game": "8ball", "players": ["PL 1", "PL 2"], "race_to": 5}
    journal.ahead(settings, idle=False)
    assert not games.loaded("8ball") and journal._ahead is None  # noqa: SLF001
    monkeypatch.setattr(journal_module, "_mem_free", lambda: journal_module.AHEAD_ROOM - 1)
    journal.ahead(settings, idle=True)
    assert not games.loaded("8ball") and journal._ahead is None  # noqa: SLF001
    monkeypatch.setattr(journal_module, "_mem_free", lambda: journal_module.AHEAD_ROOM)
    journal.ahead(settings, idle=True)
    assert games.loaded("8ball") and journal._ahead is not None  # noqa: SLF001


def test_a_cut_at_every_littlefs_write_of_a_match_in_the_ring(tmp_path, monkeypatch):
    """littlefs' side of the ring's journal cut at each of its writes (before each rename and
    remove, after each commit: littlefs' own are atomic): the match begun in the ring, its
    seq, its first filing (current.log made whole and renamed), later filings, its filing
    away (done/, then current.log removed, then the ring let go) and the next start. After
    each cut a boot finds every acknowledged event and result exactly (the step in flight at
    most), and no number is given twice."""
    import os

    from nor_flash import PowerCut

    from firmware import journal as journal_module
    from firmware import journal_done, journal_records

    state = {"n": 0, "at": 0, "flash": None}

    def hit():
        state["n"] += 1
        if state["n"] == state["at"]:
            state["flash"].dead = True
            raise PowerCut()

    for name in ("rename", "remove"):
        real = getattr(os, name)

        def cut_first(*args, _real=real):
            if state["flash"] is not None and state["flash"].dead:
                raise PowerCut()
            hit()
            return _real(*args)

        monkeypatch.setattr(os, name, cut_first)
    real_flush = journal_records.flush_to_flash

    def flush(f):
        if state["flash"] is not None and state["flash"].dead:
            raise PowerCut()
        real_flush(f)
        if not getattr(f, "durable", False):
            hit()

    for module in (journal_module, journal_ring_file, journal_records, journal_done):
        monkeypatch.setattr(module, "flush_to_flash", flush, raising=False)
    script = steps()
    state["flash"] = NorFlash(8)
    play(tmp_path / "whole", state["flash"], script)
    total = state["n"]
    assert total > 10
    for at in range(1, total + 1):
        root = tmp_path / ("l%d" % at)
        flash = NorFlash(8)
        state.update(n=0, at=at, flash=flash)
        before, after = play(root, flash, script)
        assert flash.dead, at
        flash.power_on()
        state["at"] = 0
        journal = boot(root, flash)
        found = observed(journal)
        assert found in (before, after), "littlefs cut %d" % at
        numbers = journal.finished() + ([journal.log.seq] if journal.active else [])
        assert len(set(numbers)) == len(numbers), at
        shutil.rmtree(root)


def test_no_heap_for_a_quiet_step_leaves_it_for_later(tmp_path, monkeypatch):
    """A quiet tick's step that finds no heap for its file (littlefs' 1 KB cache, on a full
    and fragmented heap: HP saw the board's loop end there at 68 KB) writes nothing and is
    taken again later; the journal goes on, and the menu's start made ahead likewise."""
    import builtins

    flash = NorFlash(8)
    root = tmp_path / "j"
    journal = boot(root, flash)
    match = journal.start(DEMO["settings"], {"table": 1})
    match.apply(DEMO["events"][0])
    real_open = builtins.open

    def no_heap(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(builtins, "open", no_heap)
    assert journal.prepare() is None  # seq's file: no heap, nothing written
    assert not journal.more and not (root / "seq").exists()
    monkeypatch.setattr(builtins, "open", real_open)
    match.apply(DEMO["events"][1])  # the journal goes on
    journal.prepare()
    assert (root / "seq").read_text() == "1"
    seq = journal.finish({})
    monkeypatch.setattr(builtins, "open", no_heap)
    for _ in range(4):
        journal.prepare()  # its filing: no heap, left for later
    monkeypatch.setattr(builtins, "open", real_open)
    while True:
        journal.prepare()
        if not journal.more:
            break
    assert journal.finished() == [seq] and (root / "done" / ("%d.log" % seq)).exists()
    from firmware import journal as journal_module

    def no_heap_match(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(journal_module, "Match", no_heap_match)
    journal.ahead(dict(DEMO["settings"]), True)  # no heap for it: the start key makes it
    assert journal._ahead is None  # noqa: SLF001
