"""The chain head a board says hello with is compared with the links the store keeps of it
(`pilkku sync` on virtual boards, into the real store): a board that was wiped or replaced,
and a store that is missing results the board had acknowledged, are each named in a warning;
a sync where they agree says nothing; nothing in the store is changed by the board's word."""

from __future__ import annotations

import shutil

from sync_setup import make_board, make_store, play_a_race_to_one

from host import cli
from host.tournament.store import Store

DISAGREE = "warning: board pk-test's results and the store disagree"


def sync(capsys, port: str, db: str) -> tuple[int, str]:
    code = cli.main(["sync", "--port", port, "--db", db])
    said = capsys.readouterr()
    return code, said.out + said.err


def links(db: str) -> dict[int, str]:
    with Store.open(db) as store:
        return store.chains.links("pk-test")


def test_a_board_wiped_or_replaced_is_named(tmp_path, firmware, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "first", firmware, key)
    try:
        play_a_race_to_one(board)
        play_a_race_to_one(board)
        code, said = sync(capsys, board.pty_path, db)
        assert code == 0 and DISAGREE not in said  # board and store agree
        code, said = sync(capsys, board.pty_path, db)
        assert code == 0 and DISAGREE not in said  # and still do, with nothing to pull
    finally:
        board.close()
    before = links(db)
    assert sorted(before) == [1, 2]
    # The same board id with the same key, its flash wiped: its chain starts again at #1.
    wiped = make_board(tmp_path / "wiped", firmware, key)
    try:
        code, said = sync(capsys, wiped.pty_path, db)  # nothing played yet: its hello alone
        assert DISAGREE in said
        assert "its chain ends at #0, the store holds its results up to #2" in said
        assert "wiped or replaced" in said
        play_a_race_to_one(wiped)
        code, said = sync(capsys, wiped.pty_path, db)
        assert "another result #1 than the one stored" in said  # refused, kept on the board
        assert "its result #1 is not the one the store holds" in said
        assert "its chain ends at #1, the store holds its results up to #2" in said
    finally:
        wiped.close()
    assert links(db) == before  # the board's word changed nothing


def test_a_store_missing_results_is_named(tmp_path, firmware, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    older = str(tmp_path / "older-copy.db")
    shutil.copy(db, older)  # a copy of the store from before the night's first sync
    board = make_board(tmp_path / "table1", firmware, key)
    try:
        play_a_race_to_one(board)
        code, said = sync(capsys, board.pty_path, db)
        assert code == 0 and DISAGREE not in said
        assert sorted(links(db)) == [1]  # stored and acknowledged: freed on the board
        play_a_race_to_one(board)
        code, said = sync(capsys, board.pty_path, older)
        assert DISAGREE in said
        assert "the store is missing its result #1, which the board signed and had " \
               "acknowledged" in said
        assert sorted(links(older)) == [2]  # the new result is stored; #1 is not made up
    finally:
        board.close()
