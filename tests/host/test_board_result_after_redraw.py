"""A board's result for a match the director's correction changed under it (issue 27 item 2):
the code was given to other players (redrawn), its slot emptied, or it is gone. Before, the
store refused it ("the log names A and B; match X is C vs D", "match X has no players yet") at
every sync and it stayed on the board, filling its 16 slots, with no command to free it. Now
the log is kept in the history as the game it was, void (it cannot count: the draw no longer
has that game), the sync frees it, and the message says why it cannot count. Store level,
then once through a real sync of a virtual board."""

from __future__ import annotations

import json

import pytest
from sync_setup import a_result_held, board_results, sync, sync_saying

from host import cli
from host.tournament import night
from host.tournament.night.pairing import pair_game
from host.tournament.store import Store, StoreError
from host.tournament.store.chain import link_mac
from host.tournament.store.schema import ResultRefused
from tests.host.correction_night import first_named, new_night, play_on, row, win
from tests.host.test_store import log_text


def from_board(store: Store, tid: int, code: str, players, score, n: int = 1,
               board: str = "pk-one"):
    """A board's signed result #n for `code`, as the sync hands it to the store."""
    text = log_text(players, score)
    mac = link_mac(store.tournaments.key(tid), board, n, "", text.encode())
    store.chains.record(tid, board, n, "", mac, text)
    return night.record_result(store, code, text, board, mac, None, None, tournament_id=tid,
                               chain_n=n)


def test_a_result_for_a_code_redrawn_with_other_players_is_kept_void(store):
    tid = new_night(store, "double", 8)
    w1 = row(store, tid, "W1-01")
    win(store, tid, "W1-01", w1["player1"])
    w12 = row(store, tid, "W1-02")
    win(store, tid, "W1-02", w12["player1"])
    w2 = row(store, tid, "W2-01")
    played = [w2["player1"], w2["player2"]]
    # The director flips W1-01: W2-01 (not started, as far as the store knew) is redrawn.
    night.correct(store, tid, "W1-01", "the sheet", score=(1, 2), winner=w1["player2"])
    assert {row(store, tid, "W2-01")["player1"], row(store, tid, "W2-01")["player2"]} != set(
        played)
    # ... but its board had played it with the old players.
    said = from_board(store, tid, "W2-01", played, [2, 1])
    assert isinstance(said, str) and said.startswith("not counted: W2-01 was given to other "
                                                     "players by the director"), said
    assert "kept in the history as W2-01v1" in said and "it cannot count" in said
    kept = row(store, tid, "W2-01v1")
    assert (kept["player1"], kept["player2"], kept["outcome"]) == (played[0], played[1],
                                                                   "void")
    history = store.results.history(tid)
    board_rows = [h for h in history if h["board"] == "pk-one"]
    assert [(h["match"], h["set_aside"], h["verified"], h["winner"]) for h in board_rows] == [
        ("W2-01v1", True, True, played[0])]
    assert not store.results.problems(tid)
    night.engine_of(store, tid)  # the draw loads as before
    assert row(store, tid, "W2-01")["winner"] is None
    # The same log again (its acknowledgement lost): a duplicate, freed again.
    assert from_board(store, tid, "W2-01", played, [2, 1]) is False


def test_a_result_for_a_match_with_no_players_now_is_kept_void(store):
    tid = night.new_tournament(store, "Cup", "9ball", 2)
    night.import_players(store, tid, [(2, "Anna", ""), (3, "Ben", ""), (4, "Cid", ""),
                                      (5, "Dan", "")])
    night.draw_bracket(store, tid)
    first, other = store.matches.all(tid)[:2]  # the semi-finals
    win(store, tid, first["code"], first["player1"])
    final = row(store, tid, first["next"])
    # A bracket correction emptied the final's slot (the first match's winner taken back).
    with store.db.transaction():
        store.matches.undo_advance(store.matches.get(tid, first["code"]))
    assert row(store, tid, final["code"])["player1"] is None or \
        row(store, tid, final["code"])["player2"] is None
    # The final's board had played it: the first semi's winner against the other's player.
    said = from_board(store, tid, final["code"], [first["player1"], other["player1"]], [2, 0])
    assert isinstance(said, str) and "has no players now" in said, said
    assert "kept in the history as %sv1" % final["code"] in said
    assert not store.results.problems(tid)


def test_a_result_for_a_code_that_is_gone_is_kept_void(store):
    tid = new_night(store, "hakukaavio", 8)
    m = store.matches.all(tid)[-1]
    with store.db.transaction():  # a correction's redraw took the game out
        store.matches.remove(m["id"])
    said = from_board(store, tid, m["code"], [m["player1"], m["player2"]], [2, 1])
    assert isinstance(said, str) and "is no game of the draw now" in said, said
    kept = row(store, tid, m["code"] + "v1")
    assert (kept["outcome"], kept["round"]) == ("void", m["round"])
    assert not store.results.problems(tid)
    night.engine_of(store, tid)


def test_a_result_for_a_game_the_director_paired_again_is_kept_void(store):
    tid = new_night(store, "hakukaavio", 8)
    m = store.matches.all(tid)[-1]  # a round-2 game; its board started it unseen
    others = [p["name"] for p in store.players.all(tid)
              if p["name"] not in (m["player1"], m["player2"])]
    for opponent in others:  # the first the rules allow
        try:
            pair_game(store, tid, m["code"], opponent, m["player2"], "x", confirm=True)
            break
        except StoreError:
            continue
    said = from_board(store, tid, m["code"], [m["player1"], m["player2"]], [2, 1])
    assert isinstance(said, str) and said.startswith(
        "not counted: %s was given to other players by the director" % m["code"]), said
    assert row(store, tid, m["code"] + "v1")["outcome"] == "void"
    assert not store.results.problems(tid)
    play_on(store, tid, first_named)
    assert night.engine_of(store, tid)[0].winner() is not None


def test_a_log_naming_strangers_is_still_refused(store):
    tid = new_night(store, "double", 8)
    with pytest.raises(ResultRefused, match="the log names Zed and Yan"):
        from_board(store, tid, "W1-01", ["Zed", "Yan"], [2, 1])


def test_through_sync_the_board_is_freed(tmp_path, firmware, capsys):
    with a_result_held(tmp_path, firmware) as (db, tournament, key, board):
        with Store.open(db) as store:  # meanwhile a correction gave R1-01's place to others
            tid = tournament["id"]
            m = store.matches.get(tid, "R1-01")
            others = [p["id"] for p in store.players.all(tid)
                      if p["id"] not in (m["player1_id"], m["player2_id"])]
            with store.db.transaction():
                store.matches.set_players(m["id"], others[0], others[1])
        summary, said = sync_saying(board.pty_path, db, key)
        assert board_results(board.pty_path, key) == []  # freed
        assert (summary["stored"], summary["kept"]) == (1, 0)
        assert said[0].startswith("stored, not counted: R1-01 was given to other players by "
                                  "the director"), said
        assert cli.main(["results", "--history", "--json", "--db", db]) == 0
        history = json.loads(capsys.readouterr().out)
        assert [(h["match"], h["kind"], h["set_aside"], h["verified"]) for h in history] == [
            ("R1-01v1", "void", False, True), ("R1-01v1", "board", True, True)]
        summary = sync(board.pty_path, db, key)
        assert (summary["stored"], summary["kept"]) == (0, 0)
