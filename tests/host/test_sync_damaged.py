"""A damaged result on a board never holds the others (issue 32, item 1), end to end: a
virtual board whose flash has a done file with bytes flipped, or a match whose records before
the snapshot are flipped, synced over its pty into a real store. Every other result is stored
and freed; the damaged one's bytes are stored once and freed; `pilkku results` names it with
what to do; the board's displays said it holds one, and what it found."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from sync_setup import (
    board_results,
    make_board,
    make_store,
    play_the_scheduled_match,
    sync,
)

from host.board import firmware_image, toolchain
from host.board.virtual_board import build_rom
from host.tournament import night
from host.tournament.store import Store


def on_flash(board, code: str) -> str:
    """Run MicroPython code on the board's flash image while the board is off (`flash` is
    its mount point), as a bench programmer would; what it printed."""
    script = board.folder / "edit.py"
    script.write_text("import virtual_flash\nvirtual_flash.mount(%r, %d, '/flash')\n%s\n"
                      % (str(board.image.resolve()), board.blocks, code))
    done = subprocess.run([toolchain.micropython_binary(), str(script)], capture_output=True,
                          text=True, env=dict(os.environ, MICROPYPATH=str(build_rom(
                              board.folder))), timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


FLIP = """
path = '/flash/journal/done/%d.log'
with open(path, 'rb') as f:
    data = bytearray(f.read())
event = 7 + (data[1] | data[2] << 8)  # the first event's record, after the S record's
data[event + 4] ^= 0x10
with open(path, 'wb') as f:
    f.write(data)
print(bytes(data).hex())
"""


def message_tape(board, ms: int = 12000) -> str:
    """What the message row showed over `ms`, spaces left out: a text that scrolls read from
    its last column (sampled twice a scroll step, repeats taken once), and every row whole."""
    rows = []
    for _ in range(ms // 100):
        board.run(100)
        rows.append(board.texts()["message"].replace(" ", ""))
    tape = "".join(row[-1:] for row in rows)
    once = "".join(c for i, c in enumerate(tape) if i == 0 or tape[i - 1] != c)
    return " ".join(rows) + " " + once


def pilkku(db: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "host.cli", *args, "--db", db],
                          capture_output=True, text=True, timeout=120)


def test_a_damaged_done_file_is_stored_apart_and_every_other_result_flows(tmp_path, firmware):
    db, tournament, key = make_store(tmp_path / "cup.db")
    with Store.open(db) as store:  # three matches queued at table 1
        for match in store.matches.all(tournament["id"])[:3]:
            night.assign(store, tournament["id"], match["code"], 1)
    board = make_board(tmp_path / "table1", firmware, key)
    try:
        sync(board.pty_path, db, key)  # the clock, and table 1's matches
        board.run(100)
        codes = []
        for _ in range(3):
            codes.append(board.texts()["message"].split()[0])
            play_the_scheduled_match(board)
            board.run(100)
        assert board_results(board.pty_path, key) == [1, 2, 3]
        board.kill()
        damaged = bytes.fromhex(on_flash(board, FLIP % 2).strip())
        board.start()
        board.run(200)
        # Found at boot (the menu reads each result's match), set aside, and said.
        assert "DAMAGEDRESULTHELD:SYNC" in message_tape(board)
        summary = sync(board.pty_path, db, key)  # it failed here, at every sync, for ever
        assert (summary["stored"], summary["damaged"], summary["kept"]) == (2, 1, 0)
        assert board_results(board.pty_path, key) == []  # every one freed on the board
        with Store.open(db) as store:
            tid = tournament["id"]
            stored = {r["match"] for r in store.results.all(tid)}
            assert stored == {codes[0], codes[2]}
            (row,) = store.damaged.all(tid)
            assert (row["board"], row["seq"], row["open"]) == ("pk-test", 2, True)
            data = bytes(store.db.conn.execute("SELECT data FROM damaged_results").fetchone()[0])
            assert data == damaged  # its bytes, as they were on the board
            assert row["readable"]["first"] is True and row["match_code"] == codes[1]
        board.run(200)
        assert "DAMAGED" not in message_tape(board, 6000)  # the laptop has it
        again = sync(board.pty_path, db, key)
        assert (again["stored"], again["damaged"]) == (0, 0)
        done = pilkku(db, "results")
        assert done.returncode == 1
        said = done.stdout + done.stderr
        assert "board pk-test's result #2 came damaged" in said
        assert "it is match %s" % codes[1] in said and "pilkku correct %s" % codes[1] in said
        # The director enters it as the command said: the line goes, the result counts.
        line = [x for x in said.splitlines() if "came damaged" in x][0]
        score = line.split("--score ")[1].split()[0]
        entered = pilkku(db, "correct", codes[1], "--score", score, "--reason",
                         "board's result came damaged; score from its last record")
        assert entered.returncode == 0, entered.stderr
        done = pilkku(db, "results")
        assert done.returncode == 0 and "came damaged" not in done.stdout + done.stderr
    finally:
        board.close()


def test_damage_before_the_snapshot_is_shown_and_the_match_arrives_damaged(tmp_path, firmware):
    """A match on the board's flash with a record before its snapshot flipped: boot resumes
    from the snapshot without reading it (it went unseen, and surfaced later as a damaged
    done file that held the board's results); the first quiet tick finds it and the message
    row says so; the referee finishes the match, which is filed whole as damaged, and
    reaches the laptop with its last record's score readable."""
    import json

    from firmware.journal import Journal
    from firmware.journal_records import OVERHEAD, Records

    db, tournament, key = make_store(tmp_path / "cup.db")
    with Store.open(db) as store:
        code = store.matches.all(tournament["id"])[0]["code"]
    demo = json.loads((Path(__file__).resolve().parents[2] / "examples" /
                       "demo-9ball.json").read_text())
    root = tmp_path / "journal"
    journal = Journal(str(root), version=firmware_image.version(firmware))
    match = journal.start(demo["settings"], {"match_id": code, "board": "pk-test", "table": 1})
    for event in demo["events"][:-1]:  # the last one, the 9 on the last rack, to be played
        match.apply(event)
    journal.close()
    log = bytearray((root / "current.log").read_bytes())
    second = 0
    for _ in range(2):  # the S record, the first event: the second event's record
        second += Records().read(io.BytesIO(bytes(log)), second, len(log)) + OVERHEAD
    log[second + 4] ^= 0x10
    files = dict(firmware)
    files["journal/current.log"] = bytes(log)
    for name in ("snapshot", "seq"):
        files["journal/" + name] = (root / name).read_bytes()
    board = make_board(tmp_path / "table1", files, key)
    try:
        tape = message_tape(board, 8000)
        assert "JOURNAL " in tape and "DAMAGED:MATCHGOESON" in tape
        board.tap("#")  # the 9 on the last rack: the match is won
        board.tap("#")  # leave the result: filed away, whole, as damaged
        board.run(200)
        assert "DAMAGEDRESULTHELD:SYNC" in message_tape(board)
        summary = sync(board.pty_path, db, key)
        assert (summary["stored"], summary["damaged"], summary["kept"]) == (0, 1, 0)
        assert board_results(board.pty_path, key) == []
        with Store.open(db) as store:
            (row,) = store.damaged.all(tournament["id"])
            seen = row["readable"]
            assert row["match_code"] == code and seen["last"] is True
            assert seen["players"] == ["Anna", "Ben"] and seen["score"][0] == 3
            assert seen["winner"] == 0
        said = pilkku(db, "results")
        assert "it is match %s (Anna vs Ben)" % code in said.stdout + said.stderr
        assert "its last record is whole: Anna 3" in said.stdout + said.stderr
    finally:
        board.close()

