"""The tables at their edges (host/tournament/night/tables.py over store/tables.py), through
the operations the `pilkku tables`/`assign` commands call: one table is a night, none is
refused with its words; a match queued by hand and the words for one finished or still waiting
for its players; a table with a match queued is passed over while the next free one is filled;
the table just freed is given the next match first; a removed table's queue given to a free
table, and the words for a table there is not; a released table's board named, and the table
held by none after; and a format's withdrawal rule
(host/tournament/formats/withdrawal.py) as registered, the list's for a tournament with no
format."""

from __future__ import annotations

import pytest

from host.tournament import night as ops
from host.tournament.formats import withdrawal
from host.tournament.store import Store, StoreError
from tests.host.test_store import PLAYERS, cup, log_text


@pytest.fixture
def night(tmp_path):
    """A round robin of four (R1-01 Anna-Dan, R1-02 Ben-Cid, ...), no tables yet."""
    with Store.open(tmp_path / "night.db") as store:
        tid = cup(store, PLAYERS[:4])
        ops.draw_round_robin(store, tid)
        yield store, tid


def refused(call, *args) -> str:
    with pytest.raises(StoreError) as error:
        call(*args)
    return error.value.text


def queued(store: Store, tid: int) -> dict[int, list[str]]:
    return {n: [m["match_id"] for m in store.tables.schedule(tid, n)]
            for n in store.tables.numbers(tid)}


def test_one_table_is_a_night_and_none_is_refused(night):
    store, tid = night
    assert ops.set_tables(store, tid, 1) == [1]
    assert ops.set_tables(store, tid, 3) == [1, 2, 3]
    assert refused(ops.set_tables, store, tid, 0) == "give the number of tables, 1 or more"
    assert store.tables.numbers(tid) == [1, 2, 3]


def test_a_match_queued_by_hand_and_the_words_for_those_that_cannot_be(night):
    store, tid = night
    ops.set_tables(store, tid, 2)
    assert ops.assign(store, tid, "R1-01", 2) == 1  # the match table 2 plays now
    assert ops.assign(store, tid, "R2-01", 2) == 2  # ... and next
    assert queued(store, tid) == {1: [], 2: ["R1-01", "R2-01"]}
    assert refused(ops.assign, store, tid, "R1-02", 0) == "tables are numbered from 1"
    match = next(m for m in store.matches.all(tid) if m["code"] == "R1-02")
    ops.record_result(store, "R1-02", log_text([match["player1"], match["player2"]], [2, 0]),
                      "manual", None, None, None, tournament_id=tid, kind="manual")
    assert refused(ops.assign, store, tid, "R1-02", 1) == "match R1-02 is finished already"
    assert refused(store.tables.schedule, 999, 1) == "no tournament with id 999"


def test_a_match_is_queued_in_its_own_tournament(night):
    store, tid = night
    other = ops.new_tournament(store, "Next week", "9ball", 2)  # the same match codes
    ops.import_players(store, other, [(i + 2, name, "") for i, name in enumerate(PLAYERS[:4])])
    ops.draw_round_robin(store, other)
    ops.set_tables(store, tid, 1)
    ops.assign(store, tid, "R1-01", 1)
    assert queued(store, tid) == {1: ["R1-01"]}
    assert not [m for m in store.matches.all(other) if m["table"]]


def test_a_bracket_match_waiting_for_its_players_is_not_queued(tmp_path):
    with Store.open(tmp_path / "cup.db") as store:
        tid = cup(store, PLAYERS[:4])
        ops.draw_bracket(store, tid)
        assert refused(ops.assign, store, tid, "R2-01", 1) == (
            "match R2-01 waits for the winners of earlier matches; assign it when both "
            "players are known")


def test_a_table_with_a_match_queued_is_passed_over_and_the_next_filled(night):
    store, tid = night
    ops.set_tables(store, tid, 2)
    ops.assign(store, tid, "R3-02", 1)  # table 1 has its match, by hand
    # (R3-02's players are queued at table 1, which blocks R1-01 and R1-02)
    assert ops.assign_free_tables(store, tid) == [("R3-01", 2)]
    assert queued(store, tid) == {1: ["R3-02"], 2: ["R3-01"]}


def test_the_table_just_freed_is_given_the_next_match_first(night):
    store, tid = night
    ops.set_tables(store, tid, 2)
    assert ops.assign_free_tables(store, tid, 2) == [("R1-01", 2), ("R1-02", 1)]


def test_a_formats_registered_withdrawal_rule_is_the_one_used(monkeypatch):
    monkeypatch.setattr(withdrawal, "RULES", dict(withdrawal.RULES))

    def leave(match, withdrawn):
        return "leave"

    def listed(match, withdrawn):
        return "walkover"

    withdrawal.register("groups", leave)
    withdrawal.RULES["list"] = listed
    assert withdrawal.rule_for("groups") is leave
    assert withdrawal.rule_for(None) is listed  # no format yet: an imported list's rule
    assert withdrawal.rule_for("double") is withdrawal.walk_over  # none registered


def test_a_removed_tables_queue_goes_to_a_free_table_and_the_words_for_no_such_table(night):
    store, tid = night
    ops.set_tables(store, tid, 2)
    ops.assign(store, tid, "R1-02", 2)
    ops.assign(store, tid, "R2-01", 2)
    assert queued(store, tid) == {1: [], 2: ["R1-02", "R2-01"]}
    assert refused(ops.remove_table, store, tid, 3) == "there is no table 3 (tables: 1, 2)"
    assert ops.remove_table(store, tid, 2) == ["R1-02", "R2-01"]
    assert queued(store, tid) == {1: ["R1-01"]}  # table 1 was free: the next match goes there
    assert refused(ops.remove_table, store, tid, 5) == "there is no table 5 (tables: 1)"
    ops.remove_table(store, tid, 1)
    assert refused(ops.remove_table, store, tid, 1) == "there is no table 1 (tables: none)"


def test_a_released_table_names_its_board_and_is_held_by_none(night):
    store, tid = night
    ops.set_tables(store, tid, 2)
    store.boards.note(tid, "pk-1", 1)
    store.boards.note(tid, "pk-2", 2)
    assert store.boards.holder(tid, 1) == "pk-1"
    assert store.boards.holder(tid, 1, but="pk-1") is None  # (the board asking is not another)
    assert store.boards.holder(tid, 1, but="pk-2") == "pk-1"
    assert ops.release_table(store, tid, 1) == "pk-1"
    assert store.boards.holder(tid, 1) is None and store.boards.holder(tid, 2) == "pk-2"
    assert ops.release_table(store, tid, 1) is None
