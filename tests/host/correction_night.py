"""A night on a real store for the correction tests: a tournament of a drawn format made with
the director's operations, results entered as a board's signed logs, and the checks every
corrected night must pass (the engine loads the store; the rest plays to a champion)."""

from __future__ import annotations

import random
from collections.abc import Callable

from host.tournament import night
from host.tournament.store import Store
from tests.host.test_store import log_text, sign

NAMES = ["Aino", "Bror", "Cai", "Dora", "Eero", "Fanni", "Gus", "Hilja", "Iivo", "Jade",
         "Kalle", "Lumi", "Mats", "Nelli", "Otto", "Pia"]


def new_night(store: Store, fmt: str, count: int, tables: int = 0, **options) -> int:
    tid = night.new_tournament(store, "Ilta", "9ball", 2)
    night.plan_format(store, tid, fmt, options)
    night.import_players(store, tid, [(i + 2, n, "") for i, n in enumerate(NAMES[:count])])
    night.draw_opening(store, tid)
    if tables:
        night.set_tables(store, tid, tables)
        night.assign_free_tables(store, tid)
    return tid


def row(store: Store, tid: int, code: str) -> dict:
    return next(m for m in store.matches.all(tid) if m["code"] == code)


def win(store: Store, tid: int, code: str, winner: str) -> None:
    """`winner` wins `code` 2:1, as a board's signed log."""
    m = row(store, tid, code)
    players = [m["player1"], m["player2"]]
    score = [2, 1] if winner == players[0] else [1, 2]
    assert winner in players, (winner, players)
    text = log_text(players, score)
    key = store.tournaments.key(tid)
    assert night.record_result(store, code, text, "manual", sign(key, text), None, None,
                               tournament_id=tid, kind="manual")


def win_one_at_a_table(store: Store, tid: int, chance: random.Random) -> dict | None:
    """One of the undecided games at a table, chosen by `chance` (the table that finishes
    next), won by one of its players chosen by `chance`: the game (None: no game at a table)."""
    playing = [m for m in store.matches.all(tid) if m["table"] and m["winner"] is None
               and m["outcome"] is None]
    if not playing:
        return None
    m = chance.choice(playing)
    win(store, tid, m["code"], chance.choice([m["player1"], m["player2"]]))
    return m


def open_matches(store: Store, tid: int) -> list[dict]:
    return [m for m in store.matches.all(tid) if m["winner"] is None and m["outcome"] is None
            and None not in (m["player1"], m["player2"])]


def play_on(store: Store, tid: int, pick: Callable[[dict], str], limit: int = 400) -> None:
    """Play the open matches (the first in order of play whose players have no earlier open
    match) until the engine has a champion."""
    for _step in range(limit):
        engine, _numbers = night.engine_of(store, tid)
        if engine.finished():
            return
        ready = _ready(open_matches(store, tid))
        assert ready, "not finished, but nothing to play"
        m = ready[0]
        win(store, tid, m["code"], pick(m))
    raise AssertionError("no champion after %d results" % limit)


def _ready(matches: list[dict]) -> list[dict]:
    busy: set = set()
    ready = []
    for m in matches:
        players = {m["player1"], m["player2"]}
        if not players & busy:
            ready.append(m)
        busy |= players
    return ready


def first_named(m: dict) -> str:
    return m["player1"]


def numbered(store: Store, tid: int) -> dict[int, str]:
    """The hakukaavio's number draw: number -> name."""
    names = {p["id"]: p["name"] for p in store.players.all(tid)}
    return {n: names[int(pid)] for pid, n in store.tournaments.plan(tid)["numbers"].items()}


def code_of(store: Store, tid: int, a: str, b: str, *, void: bool = False) -> str:
    """The (last) match between the two players."""
    found = [m["code"] for m in store.matches.all(tid) if {m["player1"], m["player2"]} == {a, b}
             and (m["outcome"] == "void") == void]
    assert found, "no match %s - %s" % (a, b)
    return found[-1]


# An 8-player hakukaavio by numbers: round 1 won by 1, 4, 5, 7; round 2 by 1, 2, 5, 8 (3 and 6
# are out). Its round 3 is 1-4, 2-7, 5-8; with round 1's 5-6 won by 6 instead, 1-4, 2-5, 6-7.
ROUND_1 = {(1, 2): 1, (3, 4): 4, (5, 6): 5, (7, 8): 7}
ROUND_2 = {(1, 3): 1, (2, 4): 2, (5, 7): 5, (6, 8): 8}


def opening_played(store: Store, tid: int) -> dict[int, str]:
    """The 8-player hakukaavio's opening played by ROUND_1 and ROUND_2, in order of play."""
    names = numbered(store, tid)
    for results in (ROUND_1, ROUND_2):
        for (a, b), winner in results.items():
            win(store, tid, code_of(store, tid, names[a], names[b]), names[winner])
    return names
