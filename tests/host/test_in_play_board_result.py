"""A board's result that meets a match the director has decided (issue 27 item 2): it is kept
in the history but not counted, the sync frees it on the board (its 16 slots do not fill),
`pilkku results --history` shows it, and `pilkku correct MATCH --use-board-result` counts it
instead. Store level with signed board links; then once through a real sync of a virtual
board, whose referee played the match the director had given away."""

from __future__ import annotations

import json

import pytest
from sync_setup import (
    a_result_held,
    board_results,
    sync,
    sync_saying,
)

from host import cli
from host.tournament import night as ops
from host.tournament.store import Store
from host.tournament.store.chain import link_mac
from tests.host.test_tournament_cli import Director, log_text, round_robin


@pytest.fixture
def night(tmp_path, capsys) -> Director:
    """A 9-ball round robin, race to 2: R1-01 Anna vs Dan, R1-02 Cid vs Ben."""
    pilkku = Director(tmp_path, capsys)
    round_robin(pilkku)
    return pilkku


def from_board(pilkku: Director, code: str, players, score, n: int = 1, prev: str = "",
               board: str = "pk-one"):
    """A board's signed result #n for `code` as sync hands it to the store: its link kept,
    then recorded."""
    text = log_text(players, score)
    with Store.open(pilkku.db) as store:
        tid = store.tournaments.get()["id"]
        mac = link_mac(store.tournaments.key(tid), board, n, prev, text.encode())
        store.chains.record(tid, board, n, prev, mac, text)
        return ops.record_result(store, code, text, board, mac, None, None, tournament_id=tid,
                                 chain_n=n), mac


@pytest.mark.parametrize("decide, kind, says", [
    (["walkover", "R1-01", "Dan"], "walkover", "the director (a walkover)"),
    (["record", "R1-01", "--score", "0:2"], "hand", "the director (a score typed in)"),
    (["void", "R1-01"], "void", "the director (void)"),
    (["both-lose", "R1-01"], "both_lose", "the director (lost by both)"),
    (["withdraw", "Anna"], "walkover", "the director (a walkover)"),
], ids=["walkover", "hand", "void", "both_lose", "withdraw"])
def test_a_boards_result_for_a_decided_match_is_kept_not_counted(night, decide, kind, says):
    night.ok(*decide, "--reason", "the director's")
    outcome, _mac = from_board(night, "R1-01", ["Anna", "Dan"], [2, 1])
    assert outcome == (
        "not counted: R1-01 was decided by %s, result #1, before it came; kept in the history "
        "as #%d (to count it instead: pilkku correct R1-01 --use-board-result --reason TEXT)"
        % (says, 2 if decide[0] != "withdraw" else 4))
    history = json.loads(night.ok("results", "--history", "--json"))
    board_row = next(h for h in history if h["board"] == "pk-one")
    assert (board_row["kind"], board_row["set_aside"], board_row["verified"],
            board_row["winner"]) == ("board", True, True, "Anna")
    text = night.ok("results", "--history")
    assert "not counted (#1 first)" in text
    code, _, _ = night("results")  # nothing is wrong with the store
    assert code == 0
    with Store.open(night.db) as store:
        tid = store.tournaments.get()["id"]
        current = store.results.current("R1-01", tid)
        assert current is not None and current["kind"] == kind
    # The same log again (its acknowledgement lost): a duplicate, freed again.
    assert from_board(night, "R1-01", ["Anna", "Dan"], [2, 1])[0] is False
    # The director counts the board's result instead.
    out = night.ok("correct", "R1-01", "--use-board-result", "--reason", "the referee's sheet "
                   "agrees with the board")
    assert "R1-01 corrected: Anna 2 : 1 Dan, Anna wins" in out
    code, _, _ = night("results")
    assert code == 0


def test_use_board_result_says_when_there_is_none(night):
    night.ok("walkover", "R1-01", "Dan", "--reason", "x")
    code, _, err = night("correct", "R1-01", "--use-board-result", "--reason", "x")
    assert code == 2 and "no board's result of R1-01 was kept aside" in err


def test_a_boards_second_result_for_a_played_match_is_kept_too(night):
    first, mac = from_board(night, "R1-01", ["Anna", "Dan"], [2, 0])
    assert first is True
    again, _ = from_board(night, "R1-01", ["Anna", "Dan"], [1, 2], n=2, prev=mac)
    assert again.startswith("not counted: R1-01 was decided by board pk-one's result, "
                            "result #1")
    night.ok("correct", "R1-01", "--use-board-result", "--reason", "played again")
    with Store.open(night.db) as store:
        assert store.results.current("R1-01")["kind"] == "correction"
        assert store.matches.get(None, "R1-01")["score2"] == 2


def test_a_log_the_director_records_for_a_decided_match_names_a_way_that_works(night):
    night.ok("walkover", "R1-01", "Dan", "--reason", "x")
    path = night.file("r.json", log_text(["Anna", "Dan"], [2, 1]))
    code, _, err = night("record", "R1-01", path)
    assert code == 2 and "pilkku correct R1-01 --log FILE --reason TEXT" in err
    night.ok("correct", "R1-01", "--log", path, "--reason", "the board's log, copied")


def test_through_sync_the_board_is_freed_and_the_history_keeps_its_result(tmp_path, firmware,
                                                                          capsys):
    # table 1 gets its schedule, R1-01 Anna vs Dan first; Anna wins 1:0 on the board
    with a_result_held(tmp_path, firmware) as (db, tournament, key, board):
        with Store.open(db) as store:  # meanwhile the director gave it away
            ops.walkover(store, tournament["id"], "R1-01", "Dan", "Anna was not there",
                         confirm_in_play=True)
        summary, said = sync_saying(board.pty_path, db, key)
        assert board_results(board.pty_path, key) == []  # freed: its slot is free again
        assert (summary["stored"], summary["kept"]) == (1, 0)
        assert said[0].startswith("stored, not counted: R1-01 was decided by the director "
                                  "(a walkover)"), said
        assert cli.main(["results", "--history", "--json", "--db", db]) == 0
        history = json.loads(capsys.readouterr().out)
        assert [(h["kind"], h["set_aside"], h["verified"]) for h in history] == [
            ("walkover", False, True), ("board", True, True)]
        assert cli.main(["correct", "R1-01", "--use-board-result", "--reason", "she came",
                         "--db", db]) == 0
        with Store.open(db) as store:
            assert store.matches.get(None, "R1-01")["winner_id"] == store.players.get(
                tournament["id"], "Anna")["id"]
        summary = sync(board.pty_path, db, key)
        assert (summary["stored"], summary["kept"]) == (0, 0)
        assert cli.main(["results", "--db", db]) == 0  # nothing wrong in the store
