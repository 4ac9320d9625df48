"""A real tournament for the hall's tests: players with Finnish names, a draw, virtual boards
(the real firmware in MicroPython) paired, synced and played through their keypads, so the
store holds what a club night leaves in it."""

from __future__ import annotations

import re
from pathlib import Path

from host import cli
from host.board.virtual_board import VirtualBoard
from tests.displays import powered_up

PLAYERS = "name,club\nÄijälä Öhman,BK\nÅsa Ek,BK\nBen,PK\nCaisa,PK\n"


def pilkku(*args: str) -> None:
    code = cli.main(list(args))
    assert code == 0, args


def new_tournament(folder: Path, name: str, draw: str, tables: int, race: int = 2) -> str:
    """A 9-ball tournament of PLAYERS, drawn: `draw` is --round-robin, --bracket, or a format
    an engine draws as results come (double, groups, hakukaavio)."""
    db = str(folder / "hall.db")
    players = folder / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    planned = [] if draw.startswith("--") else ["--format", draw]
    pilkku("tournament", "new", name, "--game", "9ball", "--race", str(race), "--db", db,
           *planned)
    pilkku("players", "import", str(players), "--db", db)
    pilkku("matches", "generate", "--db", db, *([draw] if not planned else []))
    pilkku("tables", str(tables), "--db", db)
    return db


def boards(folder: Path, firmware: dict, db: str, count: int) -> list[VirtualBoard]:
    made = []
    for table in range(1, count + 1):
        board = powered_up(folder / ("table%d" % table), firmware)
        made.append(board)
        pilkku("pair", "--port", board.pty_path, "--db", db)
        pilkku("sync", "--port", board.pty_path, "--table", str(table), "--db", db)
    return made


def start_match(board: VirtualBoard) -> bool:
    """Start the scheduled match; player 1 wins the lag and breaks."""
    board.run(100)
    if not re.match(r"[A-Z]+-?[0-9]", board.texts()["message"]):  # no match code: none queued
        return False
    for key in "#11":
        board.tap(key)
    return True


# Racks as keys: the 9 on the break; a dry break, a foul, then the 9 (the breaker wins);
# a dry break and the opponent's 9 (the opponent wins).
RACKS = (("9A",), ("A", "BA", "9A"), ("A", "9A"))


def play_match(board: VirtualBoard, number: int) -> bool:
    """Play the scheduled match to its end, racks taken in turn from RACKS (varied by the
    match's number), and leave the result for the next sync."""
    if not start_match(board):
        return False
    for rack in range(12):
        for keys in RACKS[(number + rack) % len(RACKS)]:
            for key in keys:
                board.tap(key)
        if board.texts()["message"].rstrip().endswith("WON"):
            break
    board.tap("#")  # leave the result
    return True


def play_all(db: str, tables: list[VirtualBoard]) -> None:
    for number in range(16):
        played = [play_match(board, number + i) for i, board in enumerate(tables)]
        if not any(played):
            return
        args = ["sync", "--db", db]
        for board in tables:
            args += ["--port", board.pty_path]
        pilkku(*args)
