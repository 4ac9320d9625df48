"""One board per table, one table per board, through `pilkku sync` on virtual boards: a board whose
table another board holds is refused (no table, an empty schedule, its results still pulled),
so is a table the tournament does not have; boards on different firmware are flagged."""

from __future__ import annotations

import json

import pytest

from host import cli
from host.board import firmware_image
from host.board.virtual_board import VirtualBoard
from host.sync.session import Link
from host.tournament.store import Store
from rules_core import sync_protocol as sp


def make_board(folder, firmware, name: str, key: bytes, table, version=None) -> VirtualBoard:
    board = VirtualBoard(folder)
    files = dict(firmware)
    files["config.json"] = json.dumps({"board": name, "table": table, "key": key.hex()}).encode()
    if version is not None:
        files[firmware_image.VERSION_FILE] = ("VERSION = %r\n" % version).encode()
    board.install(files)
    board.start()
    board.run(100)
    return board


def hello(board: VirtualBoard, key: bytes) -> dict:
    link = Link(board.pty_path, key)
    try:
        return link.hello()
    finally:
        link.close()


def schedule_on(board: VirtualBoard, key: bytes) -> str:
    board.run(100)
    return board.texts()["message"]


@pytest.fixture
def night(tmp_path, capsys):
    db = str(tmp_path / "club.db")

    def pilkku(*args: str) -> tuple[int, str]:
        code = cli.main(list(args) + ["--db", db])
        captured = capsys.readouterr()
        return code, captured.out + captured.err

    assert pilkku("tournament", "new", "Night", "--game", "9ball", "--race", "1")[0] == 0
    players = tmp_path / "p.csv"
    players.write_text("name\nAnna\nBen\nCid\nDan\n")
    assert pilkku("players", "import", str(players))[0] == 0
    assert pilkku("matches", "generate", "--round-robin")[0] == 0
    assert pilkku("tables", "2")[0] == 0
    with Store.open(db) as store:
        key = store.tournaments.key(store.tournaments.get()["id"])
    return pilkku, key, db


def test_two_boards_claiming_one_table_one_is_refused(tmp_path, firmware, night):
    pilkku, key, db = night
    boards = [make_board(tmp_path / n, firmware, n, key, 1) for n in ("pk-a", "pk-b")]
    try:
        code, out = pilkku("sync", "--port", boards[0].pty_path, "--port", boards[1].pty_path)
        assert code == 1 and "1 refused a table" in out
        refused = "pk-b" if "board pk-b refused: table 1 is held by board pk-a" in out else "pk-a"
        assert "board %s refused: table 1 is held by board %s" % (
            refused, {"pk-a": "pk-b", "pk-b": "pk-a"}[refused]) in out
        other = boards[("pk-a", "pk-b").index(refused)]  # the refused board
        holder = boards[("pk-b", "pk-a").index(refused)]
        assert schedule_on(holder, key).startswith("R1-01")
        assert not schedule_on(other, key).startswith("R1-")  # nothing to play twice
        with Store.open(db) as store:
            assert [(b["board_id"], b["table"]) for b in store.boards.all(1)] == [
                (holder_name(out, refused), 1)]
        # Giving the refused board the free table works; a table not in the tournament does not.
        code, out = pilkku("sync", "--port", other.pty_path, "--table", "7")
        assert code == 1 and "the tournament has no table 7 (tables: 1, 2)" in out
        assert hello(other, key)["table"] == 1  # unchanged on the board
        code, out = pilkku("sync", "--port", other.pty_path, "--table", "2")
        assert code == 0 and "is now table 2" in out
        assert schedule_on(other, key).startswith("R1-02")
        # A board replaced: its table released, another takes it.
        code, out = pilkku("tables", "--release", "2")
        assert code == 0 and "released from board %s" % refused in out
    finally:
        for board in boards:
            board.close()


def holder_name(out: str, refused: str) -> str:
    return {"pk-a": "pk-b", "pk-b": "pk-a"}[refused]


def test_boards_on_different_firmware_are_flagged(tmp_path, firmware, night):
    pilkku, key, _db = night
    one = make_board(tmp_path / "one", firmware, "pk-one", key, 1)
    two = make_board(tmp_path / "two", firmware, "pk-two", key, 2, version="0ld0ld0ld0ld")
    try:
        code, out = pilkku("sync", "--port", one.pty_path)
        assert code == 0 and "different firmware" not in out
        code, out = pilkku("sync", "--port", two.pty_path)  # the other is remembered
        assert code == 0
        assert "note: the boards run different firmware" in out
        assert "0ld0ld0ld0ld on pk-two" in out and "on pk-one" in out
        link = Link(two.pty_path, key)
        try:
            assert link.hello()["firmware"] == "0ld0ld0ld0ld"
            assert link.call(sp.RESULTS)["results"] == []
        finally:
            link.close()
    finally:
        one.close()
        two.close()
