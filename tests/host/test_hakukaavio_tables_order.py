"""In a hakukaavio a player's games go to the tables in their order (night/tables.py,
the drawn formats' `in_order`): the draw gives a player his next games before his earlier
one is played, and a free table must not take his later game while the earlier one waits for
a table (the earlier one's opponent busy elsewhere), or he would play them out of order. The
tournament is played out in the store, the tables finishing in an order drawn from a seed,
and after every result what the director sees in `pilkku matches` is checked: for each
player, his games finished, then at a table, then waiting, in the order of play."""

from __future__ import annotations

import random

import pytest

from host.tournament import night
from host.tournament.store import Store
from host.tournament.store.results import sign
from tests.host.test_formats_store import start
from tests.host.test_store import log_text


def out_of_order(matches: list[dict]) -> list[tuple[str, list[str]]]:
    """Players with a game at a table while an earlier game of theirs waits for one:
    (player, their games as code:state) for each."""
    wrong = []
    players = {p for m in matches for p in (m["player1"], m["player2"]) if p is not None}
    for player in sorted(players):
        mine = [m for m in matches if player in (m["player1"], m["player2"])]  # in seq order
        states = ["done" if m["winner"] else "table" if m["table"] else "waits" for m in mine]
        if "waits" in states and "table" in states[states.index("waits"):]:
            shown = ["%s:%s" % (m["code"], s) for m, s in zip(mine, states, strict=True)]
            wrong.append((player, shown))
    return wrong


@pytest.mark.parametrize("players, tables", [(9, 3), (9, 4), (10, 4)])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_players_games_go_to_the_tables_in_their_order(tmp_path, capsys, players, tables,
                                                          seed):
    db = start(tmp_path, capsys, players, "--format", "hakukaavio")
    chance = random.Random(seed)
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        night.set_tables(store, tid, tables)
        night.assign_free_tables(store, tid)
        key = store.tournaments.key(tid)
        for _result in range(200):
            matches = store.matches.all(tid)
            assert out_of_order(matches) == []
            playing = [m for m in matches if m["table"] and m["winner"] is None]
            if not playing:
                break
            m = chance.choice(playing)  # the table that finishes next
            score = chance.choice([[2, 1], [1, 2]])
            text = log_text([m["player1"], m["player2"]], score)
            night.record_result(store, m["code"], text, "manual", sign(key, text.encode()), None,
                                None, tournament_id=tid, kind="manual")
        assert night.engine_of(store, tid)[0].finished()  # played out: no game was left waiting
