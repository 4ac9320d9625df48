"""A correction that changes a winner is always possible (issue 27, item 1): on a real store,
what it does to the draw is planned (stands, redrawn, in play or played: keep or void, the
tables' queues) and applied as one change, in the hakukaavio, the double, groups and the
lists. Each night is played to its champion afterwards, and the engine loads the store."""

from __future__ import annotations

import pytest

from host.tournament import night
from host.tournament.night.corrections import correction_plan
from host.tournament.store import Store, StoreError
from tests.host.correction_night import (
    code_of,
    first_named,
    new_night,
    open_matches,
    opening_played,
    play_on,
    row,
    win,
)
from tests.host.test_store import dump


def pairs(store: Store, tid: int, round_: int, names: dict[int, str]) -> set:
    numbers = {v: k for k, v in names.items()}
    return {frozenset((numbers[m["player1"]], numbers[m["player2"]]))
            for m in store.matches.all(tid) if m["round"] == round_ and m["outcome"] is None}


def assert_loads_and_plays_out(store: Store, tid: int) -> None:
    engine, _numbers = night.engine_of(store, tid)
    assert not engine.finished()
    play_on(store, tid, first_named)
    assert night.engine_of(store, tid)[0].winner() is not None
    assert not store.results.problems(tid)


def test_a_round_one_winner_is_corrected_once_round_two_is_drawn(store):
    """The issue's case: R2-03 belongs to the opening, drawn before any game was played; it
    stands (its id, code and players)."""
    tid = new_night(store, "hakukaavio", 8)
    for code in ("R1-01", "R1-02", "R1-03", "R1-04"):
        win(store, tid, code, row(store, tid, code)["player1"])
    r2 = {m["code"]: m for m in store.matches.all(tid) if m["round"] == 2}
    loser = row(store, tid, "R1-03")["player2"]
    night.correct(store, tid, "R1-03", "the referee swapped the names", score=(1, 2))
    assert row(store, tid, "R1-03")["winner"] == loser
    for code, before in r2.items():
        after = row(store, tid, code)
        assert (after["id"], after["player1"], after["player2"]) == (
            before["id"], before["player1"], before["player2"])
    assert_loads_and_plays_out(store, tid)


def test_a_walkover_flipped_a_second_after_it_was_entered(store):
    tid = new_night(store, "hakukaavio", 8)
    m = row(store, tid, "R1-01")
    night.walkover(store, tid, "R1-01", m["player1"], "did not come")
    night.correct(store, tid, "R1-01", "the other one did not come", score=(0, 2))
    assert row(store, tid, "R1-01")["winner"] == m["player2"]
    assert_loads_and_plays_out(store, tid)


def test_a_score_alone_corrected_in_a_played_out_hakukaavio_changes_nothing_else(store):
    tid = new_night(store, "hakukaavio", 8)
    play_on(store, tid, first_named)
    before = {m["code"]: (m["id"], m["round"], m["seq"]) for m in store.matches.all(tid)}
    plan = correction_plan(store, tid, "R1-02", score=(2, 0))
    assert (plan.redrawn, plan.depends, plan.new, plan.queues) == ([], [], [], [])
    night.correct(store, tid, "R1-02", "typo", score=(2, 0))
    assert {m["code"]: (m["id"], m["round"], m["seq"]) for m in store.matches.all(tid)} == before


def test_games_drawn_from_the_old_result_and_not_started_are_redrawn(store):
    tid = new_night(store, "hakukaavio", 8, tables=2)
    names = opening_played(store, tid)
    assert pairs(store, tid, 3, names) == {frozenset(p) for p in ((1, 4), (2, 7), (5, 8))}
    gone = {code_of(store, tid, names[2], names[7]), code_of(store, tid, names[5], names[8])}
    code = code_of(store, tid, names[5], names[6])
    plan = correction_plan(store, tid, code, winner=names[6], score=(1, 2) if row(
        store, tid, code)["player2"] == names[6] else (2, 1))
    assert {r["match"] for r in plan.redrawn} == gone and not plan.depends
    assert code_of(store, tid, names[1], names[4]) in {r["match"] for r in plan.stands}
    assert {frozenset(r["players"]) for r in plan.new} == {
        frozenset((names[2], names[5])), frozenset((names[6], names[7]))}
    assert "Redrawn (not started)" in plan.text()
    _flip(store, tid, code, names[6])
    assert pairs(store, tid, 3, names) == {frozenset(p) for p in ((1, 4), (2, 5), (6, 7))}
    assert not gone & store.matches.codes(tid)
    history = [h for h in store.results.history(tid) if h["kind"] == "correction"]
    assert all(c in history[0]["reason"] for c in gone)  # "... (R3-02 redrawn, ...)"
    assert_loads_and_plays_out(store, tid)


def _flip(store: Store, tid: int, code: str, winner: str, **kw) -> dict:
    m = row(store, tid, code)
    score = (1, 2) if m["player2"] == winner else (2, 1)
    return night.correct(store, tid, code, "wrong winner entered", score=score, **kw)


def _played_five_eight(store: Store) -> tuple[int, dict, str, str]:
    tid = new_night(store, "hakukaavio", 8)
    names = opening_played(store, tid)
    played = code_of(store, tid, names[5], names[8])
    win(store, tid, played, names[5])
    return tid, names, played, code_of(store, tid, names[5], names[6])


def test_a_played_game_drawn_from_the_old_result_needs_keep_or_void(store):
    tid, names, played, code = _played_five_eight(store)
    before = dump(store.path)
    with pytest.raises(StoreError) as refused:
        _flip(store, tid, code, names[6])
    assert played in refused.value.text and "--played keep" in refused.value.text
    assert "--played void" in refused.value.text
    assert dump(store.path) == before


def test_keep_leaves_the_played_game_as_played(store):
    tid, names, played, code = _played_five_eight(store)
    _flip(store, tid, code, names[6], played="keep")
    kept = row(store, tid, played)
    assert (kept["winner"], kept["outcome"]) == (names[5], None)
    assert frozenset((2, 7)) not in pairs(store, tid, 3, names)  # not started: redrawn
    assert_loads_and_plays_out(store, tid)


def test_void_takes_the_played_game_out_with_a_signed_entry(store):
    tid, names, played, code = _played_five_eight(store)
    _flip(store, tid, code, names[6], played="void")
    voided = row(store, tid, played)
    assert (voided["winner"], voided["outcome"]) == (None, "void")
    entry = [h for h in store.results.history(tid) if h["match"] == played][-1]
    assert (entry["kind"], entry["board"], entry["verified"]) == ("void", "director", True)
    assert code in entry["reason"] and "wrong winner entered" in entry["reason"]
    assert pairs(store, tid, 3, names) == {frozenset(p) for p in ((1, 4), (2, 5), (6, 7))}
    assert_loads_and_plays_out(store, tid)


def _w1_01_and_02_won(store: Store) -> tuple[int, dict]:
    """A double of eight whose W1-01 and W1-02 the first named won: (its id, W1-01)."""
    tid = new_night(store, "double", 8)
    for code in ("W1-01", "W1-02"):
        win(store, tid, code, row(store, tid, code)["player1"])
    return tid, row(store, tid, "W1-01")


def test_a_double_flip_redraws_the_next_round_that_has_not_started(store):
    tid, w1 = _w1_01_and_02_won(store)
    assert row(store, tid, "W2-01")["player1"] == w1["player1"]
    plan = correction_plan(store, tid, "W1-01", score=(1, 2))
    assert [r["match"] for r in plan.redrawn] == ["W2-01", "L1-01"]
    _flip(store, tid, "W1-01", w1["player2"])
    w2 = row(store, tid, "W2-01")
    assert w1["player2"] in (w2["player1"], w2["player2"])
    assert w1["player1"] not in (w2["player1"], w2["player2"])
    assert_loads_and_plays_out(store, tid)


def test_a_double_game_played_in_a_place_now_another_players_can_only_be_voided(store):
    tid, w1 = _w1_01_and_02_won(store)
    win(store, tid, "W2-01", row(store, tid, "W2-01")["player1"])
    with pytest.raises(StoreError, match="--played void"):
        _flip(store, tid, "W1-01", w1["player2"])
    with pytest.raises(StoreError, match="cannot be kept"):
        _flip(store, tid, "W1-01", w1["player2"], played="keep")
    _flip(store, tid, "W1-01", w1["player2"], played="void")
    voided = row(store, tid, "W2-01v1")
    assert voided["outcome"] == "void" and voided["player1"] == w1["player1"]
    assert w1["player2"] in (row(store, tid, "W2-01")["player1"],
                             row(store, tid, "W2-01")["player2"])
    assert_loads_and_plays_out(store, tid)


def test_a_group_score_corrected_after_the_knockout_is_drawn(store):
    tid = new_night(store, "groups", 8, groups=2, advance=2)
    group = [m for m in store.matches.all(tid) if not m["code"].startswith("K")]
    for m in group:
        win(store, tid, m["code"], m["player1"])
    knockout = {m["code"] for m in store.matches.all(tid) if m["code"].startswith("K")}
    assert knockout
    first = group[0]
    night.correct(store, tid, first["code"], "scores swapped", score=(1, 2))
    assert row(store, tid, first["code"])["winner"] == first["player2"]
    assert_loads_and_plays_out(store, tid)


def test_a_round_robin_winner_simply_changes(store):
    tid = night.new_tournament(store, "Liiga", "9ball", 2)
    night.import_players(store, tid, [(2, "A", ""), (3, "B", ""), (4, "C", "")])
    night.draw_round_robin(store, tid)
    for m in open_matches(store, tid):
        win(store, tid, m["code"], m["player1"])
    m = store.matches.all(tid)[0]
    plan = correction_plan(store, tid, m["code"], score=(1, 2))
    assert "Nothing else" in plan.text()
    night.correct(store, tid, m["code"], "swapped", score=(1, 2))
    assert row(store, tid, m["code"])["winner"] == m["player2"]


def _bracket(store: Store) -> int:
    tid = night.new_tournament(store, "Cup", "9ball", 2)
    night.import_players(store, tid, [(i + 2, n, "") for i, n in enumerate(
        ["A", "B", "C", "D", "E", "F", "G", "H"])])
    night.draw_bracket(store, tid)
    return tid


def _play_bracket_out(store: Store, tid: int) -> None:
    for _step in range(20):
        ready = open_matches(store, tid)
        if not ready:
            break
        win(store, tid, ready[0]["code"], ready[0]["player1"])
    final = row(store, tid, "R3-01")
    assert final["winner"] is not None
    for round_ in (1, 2, 3):  # nobody twice in a round, the void matches aside
        players = [p for m in store.matches.all(tid) if m["round"] == round_
                   and m["outcome"] is None for p in (m["player1"], m["player2"])]
        assert len(players) == len(set(players))


def test_a_single_elimination_flip_moves_the_winner_on_or_voids_what_he_played(store):
    tid = _bracket(store)
    for code in ("R1-01", "R1-02"):
        win(store, tid, code, row(store, tid, code)["player1"])
    first = row(store, tid, "R1-01")
    plan = correction_plan(store, tid, "R1-01", score=(1, 2))
    assert [r["match"] for r in plan.redrawn] == ["R2-01"] and not plan.depends
    win(store, tid, "R2-01", first["player1"])
    with pytest.raises(StoreError, match="--played void"):
        _flip(store, tid, "R1-01", first["player2"])
    with pytest.raises(StoreError, match="cannot be kept"):
        _flip(store, tid, "R1-01", first["player2"], played="keep")
    _flip(store, tid, "R1-01", first["player2"], played="void")
    assert row(store, tid, "R2-01v1")["outcome"] == "void"
    again = row(store, tid, "R2-01")
    assert first["player2"] in (again["player1"], again["player2"]) and again["winner"] is None
    assert None in (row(store, tid, "R3-01")["player1"], row(store, tid, "R3-01")["player2"])
    _play_bracket_out(store, tid)


def _live(store: Store, tid: int, code: str, score: list[int]) -> None:
    m = row(store, tid, code)
    store.live.put("pk-1", tid, m["table"], {
        "game": "9ball", "players": [m["player1"], m["player2"]], "score": score,
        "shooter": 0, "finished": False, "race_to": 2, "rack": 1, "inning": 1,
        "fouls": [0, 0], "clock": None, "events": 3, "match_id": code})


def test_a_game_in_play_drawn_from_the_old_result_is_asked_about_too(store):
    """A board playing 5-8 (the referee started it): in play, keep or void; its score moving
    on while the director reads the plan does not make the plan another one."""
    tid = new_night(store, "hakukaavio", 8)
    names = opening_played(store, tid)
    playing = code_of(store, tid, names[5], names[8])
    _live(store, tid, playing, [1, 0])
    code = code_of(store, tid, names[5], names[6])
    m = row(store, tid, code)
    score = (1, 2) if m["player2"] == names[6] else (2, 1)
    plan = correction_plan(store, tid, code, score=score, played="void")
    assert [(r["match"], r["state"]) for r in plan.depends] == [(playing, "in play")]
    assert "being played" in plan.depends[0]["why"] and "1:0" in plan.depends[0]["why"]
    _live(store, tid, playing, [1, 1])
    night.correct(store, tid, code, "swapped", score=score, played="void",
                  shown=plan.as_dict())
    assert row(store, tid, playing)["outcome"] == "void"
    with pytest.raises(StoreError, match="moved on"):  # another result came meanwhile
        stale = correction_plan(store, tid, code, score=(score[1], score[0]), played="void")
        win(store, tid, code_of(store, tid, names[1], names[4]), names[1])
        night.correct(store, tid, code, "back", score=(score[1], score[0]), played="void",
                      shown=stale.as_dict())
