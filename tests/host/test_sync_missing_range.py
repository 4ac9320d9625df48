"""A store missing a run of a board's results names the whole run, first and last: `pilkku
sync` into an older copy of the store (a virtual board, the real firmware) says which of the
board's acknowledged results are not there, #first to #last; and `pilkku results` names a gap
of more than one link in a board's chain the same way. (A single missing result is asserted
in test_sync_chain_head.py and test_store_chain.py; a range starting one low passed them.)"""

from __future__ import annotations

import shutil

from sync_setup import make_board, make_store, play_a_race_to_one
from test_store import PLAYERS, cup, log_text

from host import cli
from host.board import firmware_image
from host.tournament import night
from host.tournament.store import Store
from host.tournament.store.chain import link_mac


def sync(capsys, port: str, db: str) -> str:
    code = cli.main(["sync", "--port", port, "--db", db])
    said = capsys.readouterr()
    assert code == 0, said.out + said.err
    return said.out + said.err


def test_a_store_missing_results_2_to_3_names_them(tmp_path, capsys):
    db, _tournament, key = make_store(tmp_path / "cup.db")
    older = str(tmp_path / "older-copy.db")
    board = make_board(tmp_path / "table1", firmware_image.image(), key)
    try:
        play_a_race_to_one(board)
        assert "disagree" not in sync(capsys, board.pty_path, db)
        shutil.copy(db, older)  # a copy holding #1, taken after the first sync
        play_a_race_to_one(board)
        play_a_race_to_one(board)
        assert "disagree" not in sync(capsys, board.pty_path, db)  # #2 and #3, acknowledged
        with Store.open(db) as store:
            assert sorted(store.chains.links("pk-test")) == [1, 2, 3]
        play_a_race_to_one(board)
        said = sync(capsys, board.pty_path, older)
    finally:
        board.close()
    assert "warning: board pk-test's results and the store disagree: the store is missing " \
           "its results #2 to #3, which the board signed and had acknowledged" in said
    with Store.open(older) as store:
        assert sorted(store.chains.links("pk-test")) == [1, 4]  # #4 stored, #2 #3 not made up


def test_a_gap_of_two_links_in_a_chain_is_named_first_to_last(tmp_path):
    path = tmp_path / "night.db"
    with Store.open(path) as store:
        tid = cup(store, PLAYERS[:4])
        night.draw_round_robin(store, tid)
        key, prev = store.tournaments.key(tid), ""
        for n, match in enumerate(store.matches.all(tid)[:4], 1):
            text = log_text([match["player1"], match["player2"]], [2, 0],
                            meta={"match_id": match["code"], "started": 100 * n,
                                  "ended": 100 * n + 50})
            mac = link_mac(key, "pk-1", n, prev, text.encode())
            store.chains.record(tid, "pk-1", n, prev, mac, text)
            night.record_result(store, match["code"], text, "pk-1", mac, 100 * n, 100 * n + 50,
                                tournament_id=tid, chain_n=n)
            prev = mac
        store.db.conn.execute("DELETE FROM results WHERE chain_n IN (2, 3)")
        store.db.conn.execute("DELETE FROM board_links WHERE n IN (2, 3)")
        problems, _touched = store.chains.problems(tid)
    assert problems == ["board pk-1: results #2 to #3 are missing (deleted?)"]
