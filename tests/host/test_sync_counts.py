"""What `pilkku sync` reports is what the store received, also when a board's sync fails
after storing some of its results (issue 32, item 3: "synced 0 board(s) in 133.3 s: 0 result(s)
stored" after storing two). The exit code still says it failed."""

from __future__ import annotations

import os
import re
from pathlib import Path

from sync_setup import board_results, make_board, make_store, play_a_race_to_one

from host import cli
from host.board import firmware_image
from host.board.pty_relay import PtyRelay

# A schedule request on its way to the board: "~", its sequence number (3 digits 0x30-0x6F),
# kind "S", then its payload (its keys in the wire's order: "lang" may come first).
_SCHEDULE = re.compile(rb'~[\x30-\x6f]{3}S\{"(lang|matches)"')


class CutAtTheSchedule(PtyRelay):
    """A cable that carries the sync until the laptop sends the table's schedule, then carries
    nothing more to the board (pulled halfway): the results are pulled, stored and freed by
    then, and the sync fails after."""

    def __init__(self, board_port: str) -> None:
        self.cut = False
        super().__init__(board_port)

    def carry(self, data: bytes, target: int) -> None:
        if target == self.board and _SCHEDULE.search(data):
            self.cut = True
        if not (self.cut and target == self.board):
            os.write(target, data)


def test_a_sync_that_fails_after_storing_counts_what_it_stored(tmp_path, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "table1", firmware_image.image(), key)
    try:
        play_a_race_to_one(board)
        play_a_race_to_one(board)
        assert len(board_results(board.pty_path, key)) == 2
        relay = CutAtTheSchedule(board.pty_path)
        try:
            code = cli.main(["sync", "--port", relay.port, "--db", db])
        finally:
            relay.close()
        left = board_results(board.pty_path, key)
    finally:
        board.close()
    said = capsys.readouterr()
    out = said.out + said.err
    assert relay.cut, out  # the sync got as far as the schedule
    # Both results reached the store (two free games, kept beside it) and were freed.
    assert len(list((Path(db).parent / "free-games").glob("*.json"))) == 2 and left == []
    summary = next(line for line in out.splitlines() if line.startswith("synced "))
    assert "2 result(s) stored, 0 already stored, 0 kept on the boards" in summary, out
    assert "1 failed: run pilkku sync again" in summary
    assert code == 1
    assert "Traceback" not in out
