"""`pilkku flash` converting a Pico in the stock layout (littlefs over all 352 blocks, as an
older pilkku left it) that holds an unsynced result and a match in progress: afterwards the
board is in the ring's layout (docs/journal.md, "Where the ring lives"), both are there
exactly as they were, the laptop's copy of them is gone, and a second `pilkku flash`
changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from firmware.journal import Journal
from host.board import flash, flash_files
from host.board.mpremote_link import Link
from host.board.pico import ready
from host.board.pico.board import PicoBoard

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOOK = """import os
from firmware import journal_place
from firmware.journal import Journal
j = Journal('journal')
m = j.resume()
print(journal_place.layout(), os.statvfs('/')[2])
print(j.finished(), [len(j.document(s)['events']) for s in j.finished()], len(m.log))
"""


def journal_files(root: Path) -> dict[str, bytes]:
    """A journal as the firmware writes it (on CPython, no ring): the 9-ball demo finished,
    unsynced, and the 8-ball demo's first 12 events in progress."""
    nine = json.loads((EXAMPLES / "demo-9ball.json").read_text())
    eight = json.loads((EXAMPLES / "demo-8ball.json").read_text())
    journal = Journal(str(root), ring=None)
    match = journal.start(nine["settings"], {"table": 1})
    for event in nine["events"]:
        match.apply(event)
    journal.finish({"winner": 0})
    match = journal.start(eight["settings"], {"table": 1})
    for event in eight["events"][:12]:
        match.apply(event)
    journal.close()
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_board_in_the_old_layout_keeps_its_result_and_match(tmp_path):
    files = journal_files(tmp_path / "journal")
    board = PicoBoard(tmp_path / "pico")
    board.flash_uf2(ready.uf2(False))
    board.start()
    try:
        board.wait_ms(ready.USB_UP_MS)
        with Link.open(board.pty_path) as link:
            link.raw_repl(soft_reset=True)
            assert link.run("import os\nprint(os.statvfs('/')[2])").strip() == "352"
            link.run(flash_files.HASH + flash_files.WRITE)
            for name, data in files.items():
                flash_files.write_file(link, "journal/" + name, data, False)
        said: list[str] = []
        carried = tmp_path / "carried"
        flash.flash(board.pty_path, say=said.append, start=False, carried=carried)
        text = "\n".join(said)
        assert "converting the flash to the journal's ring layout: %d files" % len(files) \
            in text, text
        assert "files of the board's written back from the laptop" in text, text
        assert not any(carried.rglob("*")), "the laptop's copy is deleted once written back"
        with Link.open(board.pty_path) as link:
            link.raw_repl(soft_reset=True)
            place, kept = link.run(LOOK).strip().split("\r\n")[:2]
        assert place.split() == ["ring1", "318"]
        assert kept == "[1] [40] 12", kept  # the result, every event; the match in progress
        again: list[str] = []
        done = flash.flash(board.pty_path, say=again.append, start=False, carried=carried)
        assert done.copied == 0 and done.layout == "ring1"
        assert not any("converting" in line for line in again)
    finally:
        board.close()
    assert board.misaligned == []
