"""A free table takes the ready match whose players have waited longest since their last game
finished (issue 28, item 2: night/tables.py over formats/lists.py pick_next): a player who has
not played yet has waited since the draw, a tie goes to the order of play, and a player who
just finished is not put straight back on while another has waited. A correction's plan
(night/consequences.py) predicts each table's queue with the same rule: what it shows is what
the tables then get, checked over hakukaavio nights played on 2-4 tables in a random order."""

from __future__ import annotations

import random
import shutil

import pytest

from host.tournament import night
from host.tournament.night.corrections import correction_plan
from host.tournament.store import Store, StoreError
from tests.host.correction_night import new_night, row, win_one_at_a_table
from tests.host.test_store import log_text, sign

NAMES = ["Aino", "Bror", "Cai", "Dora", "Eero", "Fanni", "Gus"]


def listed(store: Store, matches: list[tuple[str, str, str]], tables: int) -> int:
    """A list tournament of NAMES with `matches` (code, player, player) in order of play."""
    tid = night.new_tournament(store, "Ilta", "9ball", 2)
    night.import_players(store, tid, [(i + 2, n, "") for i, n in enumerate(NAMES)])
    night.import_matches(store, tid, [(i + 2, {"id": c, "player1": a, "player2": b,
                                               "round": None, "table": None})
                                      for i, (c, a, b) in enumerate(matches)])
    night.set_tables(store, tid, tables)
    return tid


def queues(store: Store, tid: int) -> dict[int, list[str]]:
    return {n: [m["match_id"] for m in store.tables.schedule(tid, n)]
            for n in store.tables.numbers(tid)}


def played(store: Store, tid: int, code: str) -> None:
    """`code` won 2:1 by its first player, as a board's signed log."""
    m = row(store, tid, code)
    text = log_text([m["player1"], m["player2"]], [2, 1])
    night.record_result(store, code, text, "manual", sign(store.tournaments.key(tid), text),
                        None, None, tournament_id=tid, kind="manual")


def test_a_player_who_just_finished_is_not_put_straight_back_on(store):
    # M3 comes first in order of play, but Aino has just played M1; Fanni and Gus have
    # waited since the draw.
    tid = listed(store, [("M1", "Aino", "Bror"), ("M2", "Cai", "Dora"),
                         ("M3", "Aino", "Eero"), ("M4", "Fanni", "Gus")], 2)
    assert night.assign_free_tables(store, tid) == [("M1", 1), ("M2", 2)]  # a tie: in order
    played(store, tid, "M1")
    assert queues(store, tid) == {1: ["M4"], 2: ["M2"]}
    played(store, tid, "M2")  # Aino and Eero next: Eero has waited, Aino since M1
    assert queues(store, tid) == {1: ["M4"], 2: ["M3"]}


def test_start_next_takes_the_same_match_as_a_free_table_would(store):
    tid = listed(store, [("M1", "Aino", "Bror"), ("M3", "Aino", "Eero"),
                         ("M4", "Fanni", "Gus")], 1)
    assert night.start_next(store, tid) == ("M1", 1)
    played(store, tid, "M1")
    assert queues(store, tid) == {1: ["M4"]}
    night.unassign(store, tid, "M4")
    assert night.start_next(store, tid) == ("M4", 1)  # not M3: Aino has just played


def test_of_two_who_played_the_one_who_finished_first_goes_first(store):
    # M4 (Bror, Dora) and M5 (Aino, Cai): Bror and Dora finished M1 and M2 after Aino and
    # Cai had finished M0 and M0b; Aino's M5 is the later in order of play but waited longer.
    tid = listed(store, [("M0", "Aino", "Eero"), ("M0b", "Cai", "Fanni"),
                         ("M1", "Bror", "Gus"), ("M2", "Dora", "Eero"),
                         ("M4", "Bror", "Dora"), ("M5", "Aino", "Cai")], 1)
    night.start_next(store, tid)
    for code in ("M0", "M0b", "M1", "M2"):  # (the order of play and the rule agree so far)
        assert queues(store, tid)[1] == [code]
        played(store, tid, code)
    assert queues(store, tid)[1] == ["M5"]


@pytest.mark.parametrize("players, tables, seed", [(10, 2, 0), (12, 2, 1), (12, 3, 1)])
def test_a_hakukaavio_table_is_not_given_a_game_of_the_players_just_finished(
        store, players, tables, seed):
    """A hakukaavio played in a random order of the tables finishing: each table freed takes
    a game whose players have waited at least as long as those of any other game ready (the
    order of play alone gave the freed table a game of those just finished in each of these
    nights)."""
    tid = new_night(store, "hakukaavio", players, tables=tables)
    chance = random.Random(seed)
    finished: dict[str, int] = {}
    step = 0
    for _result in range(60):
        m = win_one_at_a_table(store, tid, chance)
        if m is None:
            break
        step += 1
        finished[m["player1"]] = finished[m["player2"]] = step
        now = row(store, tid, m["code"])
        given = [g for g in store.matches.all(tid) if g["table"] == now["table"]
                 and g["winner"] is None and g["outcome"] is None]
        if not given:
            continue
        mine = given[0]
        key = max(finished.get(mine["player1"], 0), finished.get(mine["player2"], 0))
        for other in _ready(store, tid):
            other_key = max(finished.get(other["player1"], 0),
                            finished.get(other["player2"], 0))
            assert key <= other_key, (mine["code"], other["code"], finished)


def _ready(store: Store, tid: int) -> list[dict]:
    """The waiting games (at no table) whose players have no earlier open game, at no table."""
    blocked: set = set()
    ready = []
    for m in store.matches.all(tid):
        if m["winner"] is not None or m["outcome"] is not None:
            continue
        players = {m["player1"], m["player2"]}
        if m["table"] is None and None not in players and not players & blocked:
            ready.append(m)
        blocked |= players
    return ready


@pytest.mark.parametrize("tables", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_corrections_predicted_queues_are_what_the_tables_get(tmp_path, tables, seed):
    """A hakukaavio of 10 played part way on `tables` tables in a random order; then each of
    a few finished games flipped on a copy (void and keep): the plan's queues for every table
    are the queues after the correction."""
    chance = random.Random(seed)
    with Store.open(tmp_path / "night.db") as store:
        tid = new_night(store, "hakukaavio", 10, tables=tables)
        for _result in range(chance.randint(8, 14)):
            if win_one_at_a_table(store, tid, chance) is None:
                break
        codes = [m["code"] for m in store.matches.all(tid) if m["winner"] is not None]
    checked = 0
    for code in chance.sample(codes, min(4, len(codes))):
        for choice in ("void", "keep"):
            path = tmp_path / ("%s-%s.db" % (code, choice))
            shutil.copy(tmp_path / "night.db", path)
            with Store.open(path) as store:
                checked += _predicted_is_done(store, tid, code, choice)
    assert checked


def _predicted_is_done(store: Store, tid: int, code: str, choice: str) -> int:
    m = row(store, tid, code)
    score = (1, 2) if m["winner"] == m["player1"] else (2, 1)
    winner = m["player2"] if m["winner"] == m["player1"] else m["player1"]
    plan = correction_plan(store, tid, code, score=score, winner=winner, played=choice)
    predicted = queues(store, tid)
    predicted.update({q["table"]: q["after"] for q in plan.queues})
    try:
        night.correct(store, tid, code, "the other one won", score=score, winner=winner,
                      played=choice)
    except StoreError:
        return 0  # (keep refused: nothing changed, nothing predicted)
    assert queues(store, tid) == predicted, (code, choice, plan.text())
    return 1
