"""The board's kept files damaged on its flash (issue 32, item 2), met by the real `pilkku sync`
and `pilkku pair` on virtual boards, into a real store: bytes are flipped in the LittleFS image
while the board is off. One copy damaged: mended by the board and named by the sync. Both
copies of the chain: the laptop gives the board its last stored link, the board's results are
signed on from it, stored, and none is reported edited; never a chain restarted at #1. Both
copies of the config: the sync says to pair the board again, and pairing gives it back its
table; both copies of the schedule: the sync sends it again."""

from __future__ import annotations

import os
import subprocess

import pytest
from sync_setup import desk, make_board, make_store, play_the_scheduled_match, sync

from host import cli
from host.board import toolchain
from host.board.virtual_board import VirtualBoard, build_rom, has_micropython
from host.tournament.store import Store

pytestmark = pytest.mark.skipif(not has_micropython(), reason="flips bytes in a LittleFS image")
DISAGREE = "results and the store disagree"


def flip(board: VirtualBoard, *names: str, offset: int = 9) -> None:
    """One byte of each named file on the board's flash flipped, the board off meanwhile (a
    flash cell gone bad, as far as the file's bytes go)."""
    board.stop()
    rom = build_rom(board.folder)
    script = board.folder / "flip.py"
    script.write_text(
        "import virtual_flash\n"
        "virtual_flash.mount(%r, %d, '/flash')\n"
        "for name in %r:\n"
        "    with open('/flash/' + name, 'rb') as f:\n"
        "        data = bytearray(f.read())\n"
        "    data[%d %% len(data)] ^= 0x04\n"
        "    with open('/flash/' + name, 'wb') as f:\n"
        "        f.write(data)\n"
        "print('flipped')\n" % (str(board.image.resolve()), board.blocks, list(names), offset))
    done = subprocess.run([toolchain.micropython_binary(), str(script)], capture_output=True,
                          text=True, env=dict(os.environ, MICROPYPATH=str(rom)))
    assert "flipped" in done.stdout, done.stderr
    board.start()
    board.run(100)


def pilkku_sync(capsys, board: VirtualBoard, db: str) -> tuple[int, str]:
    code = cli.main(["sync", "--port", board.pty_path, "--db", db])
    said = capsys.readouterr()
    return code, said.out + said.err


def store_state(db: str) -> tuple[dict, list, list]:
    """(the board's links by number, the verified flag of every result, every problem)."""
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        return (store.chains.links("pk-test"), [r["verified"] for r in store.results.all(tid)],
                store.results.problems(tid))


def test_a_lost_chain_is_given_its_head_by_the_laptop_and_nothing_looks_edited(
        tmp_path, firmware, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "t1", firmware, key)
    try:
        assert sync(board.pty_path, db, key)["scheduled"] > 0
        play_the_scheduled_match(board)
        assert sync(board.pty_path, db, key)["stored"] == 1  # link #1
        # A result pulled and signed (#2), its link never stored (the laptop kept it back).
        play_the_scheduled_match(board)
        assert sync(board.pty_path, db, key,
                    store_result=lambda _board, _pulled: "kept: not now")["kept"] == 1
        assert sorted(store_state(db)[0]) == [1]
        flip(board, "chain.json", "chain.json.2")
        code, said = pilkku_sync(capsys, board, db)
        # Before the fix: the chain restarted at #1, and the result was refused for good as
        # "another result #1 than the one stored".
        assert code == 0, said
        assert "chain of signed results was damaged on its flash" in said
        assert "goes on from #1" in said and DISAGREE not in said
        links, verified, problems = store_state(db)
        assert sorted(links) == [1, 2] and verified == [True, True] and problems == []
        # A result whose link the store holds but not the result (refused, kept on the board):
        # the board goes on from that link, and signs the result again as the next.
        play_the_scheduled_match(board)
        laptop = desk(db)

        def link_only(board_id, pulled):
            with Store.open(db) as store:
                store.chains.record(laptop.tournament["id"], board_id, pulled.n, pulled.prev,
                                  pulled.board_mac, pulled.text)
            return "kept: the link only"

        assert sync(board.pty_path, db, key, store_result=link_only)["kept"] == 1
        flip(board, "chain.json", "chain.json.2", offset=77)
        code, said = pilkku_sync(capsys, board, db)
        assert code == 0 and "goes on from #3" in said and DISAGREE not in said, said
        links, verified, problems = store_state(db)
        assert sorted(links) == [1, 2, 3, 4] and verified == [True, True, True]
        assert problems == []
        # A result stored whose acknowledgement never reached the board: signed again as the
        # next link, it is the same document, taken as already stored, and freed.
        play_the_scheduled_match(board)

        def stored_unacknowledged(board_id, pulled):
            assert laptop.store_result(board_id, pulled) == "stored"
            return "kept: the acknowledgement is lost"

        assert sync(board.pty_path, db, key, store_result=stored_unacknowledged)["kept"] == 1
        flip(board, "chain.json", "chain.json.2", offset=40)
        code, said = pilkku_sync(capsys, board, db)
        assert code == 0 and "goes on from #5" in said and DISAGREE not in said, said
        assert "1 already stored" in said
        links, verified, problems = store_state(db)
        assert sorted(links) == [1, 2, 3, 4, 5, 6] and verified == [True] * 4
        assert problems == []
        code, said = pilkku_sync(capsys, board, db)  # and the next sync says nothing of it
        assert code == 0 and "damaged" not in said and DISAGREE not in said, said
    finally:
        board.close()
    assert cli.main(["results", "--db", db]) == 0  # nothing FAILED
    capsys.readouterr()


def test_one_copy_damaged_is_mended_and_named(tmp_path, firmware, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "t1", firmware, key)
    try:
        sync(board.pty_path, db, key)
        play_the_scheduled_match(board)
        sync(board.pty_path, db, key)
        flip(board, "chain.json", "config.json.2", "schedule.json")
        code, said = pilkku_sync(capsys, board, db)
        assert code == 0, said
        for name in ("chain of signed results", "config", "schedule"):
            assert "its %s was damaged on its flash and mended from its second copy" \
                % name in said, (name, said)
        play_the_scheduled_match(board)
        code, said = pilkku_sync(capsys, board, db)
        assert code == 0 and "1 result(s) stored" in said and DISAGREE not in said, said
        assert store_state(db)[1:] == ([True, True], [])
    finally:
        board.close()


def test_a_lost_config_asks_to_pair_again_and_pairing_restores_the_table(
        tmp_path, firmware, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "t1", firmware, key)
    try:
        assert pilkku_sync(capsys, board, db)[0] == 0  # (the store notes its table)
        play_the_scheduled_match(board)
        assert pilkku_sync(capsys, board, db)[0] == 0
        flip(board, "config.json", "config.json.2")
        code, said = pilkku_sync(capsys, board, db)
        # Before the fix: a new board id, silently, whose results the store took as another
        # board's (its chain then "missing" results #1 to #n).
        assert code == 1
        assert "board pk-test lost its settings (its config was damaged on its flash)" in said
        assert "pilkku pair --port %s" % board.pty_path in said
        code = cli.main(["pair", "--port", board.pty_path, "--db", db])
        said = capsys.readouterr().out
        assert code == 0 and "board pk-test" in said and "table 1" in said, said
        board.run(500)
        code, said = pilkku_sync(capsys, board, db)
        assert code == 0 and "table 1 gets" in said and DISAGREE not in said, said
        play_the_scheduled_match(board)
        code, said = pilkku_sync(capsys, board, db)
        assert code == 0 and "1 result(s) stored" in said, said
        assert store_state(db)[1:] == ([True, True], [])
    finally:
        board.close()


def test_a_lost_schedule_is_sent_again(tmp_path, firmware, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "t1", firmware, key)
    try:
        scheduled = sync(board.pty_path, db, key)["scheduled"]
        flip(board, "schedule.json", "schedule.json.2")
        code, said = pilkku_sync(capsys, board, db)
        assert code == 0 and "its schedule was damaged on its flash: sent again" in said, said
        assert "table 1 gets %d match(es)" % scheduled in said
        play_the_scheduled_match(board)
        assert sync(board.pty_path, db, key)["stored"] == 1
    finally:
        board.close()
