"""A board is never bricked by its own journal (issue 22, items 1 and 3), on CPython's files:
records whose CRCs pass but that do not read back as what they must be are set aside with a
copy kept (damaged.log), the board boots and says so; a boot finds the journal's folders made
or not; a board file found only as its .tmp (an older firmware cut between its delete and its
rename) is recovered from it."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from journal_play import playing

from firmware import journal as jr
from firmware.config import Config
from firmware.journal import Journal
from firmware.journal_records import KIND_EVENT, KIND_FINISH, Records
from firmware.result_chain import Chain

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO = json.loads((EXAMPLES / "demo-9ball.json").read_text())


def started(root: Path, events: int) -> bytes:
    journal = Journal(str(root))
    playing(journal, DEMO["events"][:events], DEMO["settings"], {"match_id": "m1"})
    journal.close()
    return (root / "current.log").read_bytes()


def appended(root: Path, kind: int, payload: bytes) -> bytes:
    with open(root / "current.log", "ab") as f:
        Records().write(f, kind, payload)
    return (root / "current.log").read_bytes()


def test_an_f_record_that_is_not_json_is_set_aside(tmp_path):
    root = tmp_path / "journal"
    started(root, 5)
    damaged = appended(root, KIND_FINISH, b"{not json")
    journal = Journal(str(root))  # raised JournalError at every boot before the fix
    assert journal.problem and "DAMAGED" in journal.problem
    assert (root / "damaged.log").read_bytes() == damaged
    # The match goes on from the events before the damage: it was never finished.
    match = journal.resume()
    assert match is not None and len(match.log) == 5
    again = Journal(str(root))  # the next boot is clean
    assert again.problem is None and len(again.resume().log) == 5


def test_a_match_that_does_not_read_back_is_set_aside(tmp_path):
    root = tmp_path / "journal"
    started(root, 3)
    damaged = appended(root, KIND_EVENT, b"[1, 2")  # its CRC passes, its JSON does not
    journal = Journal(str(root))
    assert journal.resume() is None  # raised JournalError before the fix
    assert journal.problem and "DAMAGED" in journal.problem
    assert (root / "damaged.log").read_bytes() == damaged
    assert not (root / "current.log").exists()
    # Its number is not given again.
    seq = journal.start(DEMO["settings"]) and journal.log.seq
    assert seq == 2


def test_boot_finds_the_folders_made_but_not_listed(tmp_path, monkeypatch):
    """A listing that fails or misses the folder (as after the cut that once raised EEXIST
    at the mkdir of done/): the boot goes on."""
    root = tmp_path / "journal"
    started(root, 2)
    real = os.listdir
    calls = []

    def listing(path):
        calls.append(path)
        if len(calls) == 1:
            raise OSError(errno.EIO, "the root's listing failed once")
        names = real(path)
        return [n for n in names if n != "done"] if len(calls) == 2 else names

    monkeypatch.setattr(jr.os, "listdir", listing)
    journal = Journal(str(root))  # OSError EEXIST before the fix
    monkeypatch.undo()
    assert len(journal.resume().log) == 2


def test_a_board_file_left_only_as_its_tmp_is_recovered(tmp_path):
    folder = str(tmp_path) + "/"
    config = Config(folder)
    chain = Chain(folder)
    chain.links, chain.n, chain.mac = {"7": [3, "aa", "bb"]}, 3, "bb"
    chain._save()  # noqa: SLF001
    os.rename(folder + "chain.json", folder + "chain.json.tmp")  # the old write's cut
    os.rename(folder + "config.json", folder + "config.json.tmp")
    for name in ("chain.json.2", "config.json.2"):  # (the older firmware kept one copy)
        os.remove(folder + name)
    again = Chain(folder)
    assert again.head() == [3, "bb"] and again.links == {"7": [3, "aa", "bb"]}
    assert (tmp_path / "chain.json").exists() and not (tmp_path / "chain.json.tmp").exists()
    assert Config(folder).board == config.board
    # A torn .tmp is not taken.
    (tmp_path / "schedule.json.tmp").write_text('[{"match_id": "m')
    assert Config(folder).schedule() == []


def test_the_board_boots_and_says_what_was_set_aside(tmp_path):
    """The displays, read back from the HT16K33 model: the message row scrolls the problem
    once, then the menu is there."""
    from desk_board import DeskBoard
    from displays import seen

    started(tmp_path / "journal", 4)
    appended(tmp_path / "journal", KIND_EVENT, b"[1, 2")
    desk = DeskBoard(tmp_path)
    desk.boot(10)  # raised JournalError before the fix: the board never booted
    rows = []
    for _ in range(400):
        desk.run(50)
        rows.append(seen(desk)[3])
    tape = "".join(row[-1:] for row in rows)
    assert "DAMAGED" in " ".join(rows) or "DAMAGED" in tape
    assert desk.app.match is None and (tmp_path / "journal" / "damaged.log").exists()
