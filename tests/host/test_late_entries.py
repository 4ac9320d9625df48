"""A player entered after the draw (issue 27 item 5): `pilkku players add NAME`. A round robin
gives them a match against everyone, a hakukaavio draws them into the games not started until
the first round-2 game starts (the store's matches follow the engine's add_players), a bracket,
a double or groups refuse saying why."""

from __future__ import annotations

from itertools import combinations

import pytest

from host.tournament import night as ops
from host.tournament.night.entries import add_late_player
from host.tournament.store import Store, StoreError
from tests.host.test_formats_store import NAMES, start
from tests.host.test_hand_void import enter
from tests.host.test_tournament_cli import PLAYERS_CSV, Director, dump


def pairs(store: Store, tid: int) -> list[frozenset]:
    return [frozenset((m["player1"], m["player2"])) for m in store.matches.all(tid)]


@pytest.mark.parametrize("count", [4, 5])
def test_a_round_robin_gives_the_late_player_a_match_against_everyone(tmp_path, capsys,
                                                                       count):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Club Night", "--game", "9ball", "--race", "2")
    names = ["Anna", "Ben", "Cid", "Dan", "Eve"][:count]
    pilkku.ok("players", "import", pilkku.file("p.csv", "name\n" + "\n".join(names) + "\n"))
    pilkku.ok("matches", "generate", "--round-robin")
    with Store.open(pilkku.db) as store:
        tid = store.tournaments.get()["id"]
        rounds_before = {m["round"] for m in store.matches.all(tid)}
    out = pilkku.ok("players", "add", "Fay", "--club", "BK")
    assert out.startswith("Fay added to 'Club Night'.\nTheir matches: ")
    with Store.open(pilkku.db) as store:
        got = pairs(store, tid)
        everyone = names + ["Fay"]
        assert sorted(map(sorted, got)) == sorted(map(sorted, map(frozenset,
                                                                   combinations(everyone, 2))))
        rounds = {}
        for m in store.matches.all(tid):  # nobody twice in a round
            for p in (m["player1"], m["player2"]):
                assert (m["round"], p) not in rounds
                rounds[(m["round"], p)] = m["code"]
        if count % 2:  # an odd field: Fay takes the byes, no new round
            assert {m["round"] for m in store.matches.all(tid)} == rounds_before
        assert store.players.get(tid, "Fay")["club"] == "BK"
    code, _, err = pilkku("players", "add", "Fay")
    assert code == 2 and "there is a player 'Fay' already" in err


@pytest.mark.parametrize("fmt, says", [
    ("bracket", "a single elimination is seeded when it is drawn"),
    ("double", "a double elimination is seeded when it is drawn"),
])
def test_a_bracket_or_double_refuses_saying_why(tmp_path, capsys, fmt, says):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Cup", "--game", "9ball", "--race", "2",
              *(["--format", "double"] if fmt == "double" else []))
    pilkku.ok("players", "import", pilkku.file("players.csv", PLAYERS_CSV))
    pilkku.ok("matches", "generate", *(["--bracket"] if fmt == "bracket" else []))
    before = dump(pilkku.db)
    code, _, err = pilkku("players", "add", "Fay")
    assert code == 2 and "Fay cannot be added now: " + says in err
    assert dump(pilkku.db) == before


def test_a_hakukaavio_draws_the_late_player_in_until_round_2_starts(tmp_path, capsys):
    db = start(tmp_path, capsys, 8, "--format", "hakukaavio")
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        first = [m for m in store.matches.all(tid) if m["round"] == 1]
        enter(store, tid, first[0]["code"])  # one round-1 result: it stays as it is
        kept = store.matches.get(tid, first[0]["code"])
        done = add_late_player(store, tid, "Myöhäinen")
        assert done["player"] == "Myöhäinen" and done["added"]
        engine, numbers = ops.engine_of(store, tid)  # the store follows the draw
        assert engine.count == 9
        late = store.players.get(tid, "Myöhäinen")["id"]
        assert numbers[late] == 9
        theirs = [m for m in store.matches.all(tid) if late in (m["player1_id"],
                                                                m["player2_id"])]
        assert theirs and all(m["winner_id"] is None for m in theirs)
        assert store.matches.get(tid, first[0]["code"])["winner_id"] == kept["winner_id"]
        stored = sorted((m["round"], frozenset((numbers[m["player1_id"]],
                                                numbers[m["player2_id"]])))
                        for m in store.matches.all(tid))
        assert stored == sorted((g.round, frozenset((g.first, g.second)))
                                for g in engine.games)
        # A round-2 game played: late entries are closed.
        second = next(m for m in store.matches.all(tid) if m["round"] == 2
                      and m["winner_id"] is None)
        for m in store.matches.all(tid):  # its players' round-1 games first
            if m["round"] == 1 and m["winner_id"] is None:
                enter(store, tid, m["code"])
        enter(store, tid, second["code"])
        before = dump(store.path)
        with pytest.raises(StoreError, match="a round-2 game has started .* late entries are "
                                             "closed"):
            add_late_player(store, tid, "Liian Myöhään")
        assert dump(store.path) == before
        assert set(NAMES[:8]) < {p["name"] for p in store.players.all(tid)}
