"""A manual pairing of a hakukaavio game not yet started (issue 27 item 5): the director names
who plays it instead of one of its players. The search's rules are checked and every breach
named before anything changes (a rematch only with --yes; never a player who is out, never a
game started); the pairing is kept with who and why, the engine rebuilds from the store, the
rest of the night plays to a champion, and a later correction's replay keeps it."""

from __future__ import annotations

import json

import pytest

from host.tournament import night
from host.tournament.night.pairing import PairingRefused, pair_game, pairings
from host.tournament.store import Store, StoreError
from tests.host.correction_night import (
    code_of,
    first_named,
    new_night,
    numbered,
    opening_played,
    play_on,
    win,
)
from tests.host.test_store import dump
from tests.host.test_tournament_cli import Director


def round_three(store: Store) -> tuple[int, dict[int, str]]:
    tid = new_night(store, "hakukaavio", 8)
    return tid, opening_played(store, tid)


def open_pairs(store: Store, tid: int, names: dict[int, str]) -> set:
    number = {v: k for k, v in names.items()}
    return {frozenset((number[m["player1"]], number[m["player2"]]))
            for m in store.matches.all(tid) if m["winner"] is None and m["outcome"] is None}


def check_valid(store: Store, tid: int) -> None:
    """The engine loads the store; each player's own rounds are 1, 2, ... once each, nobody
    plays on after going out, the store verifies."""
    engine, _numbers = night.engine_of(store, tid)
    knockout = engine.knockout or 99
    for p in range(1, engine.count + 1):
        games = sorted((g for g in engine.games if p in g.players()),
                       key=lambda g: g.own_round(p))
        assert [g.own_round(p) for g in games] == list(range(1, len(games) + 1)), p
        losses = 0
        for g in games:
            assert losses < 2, "player %d plays after going out" % p
            if p in g.losers():
                losses += 2 if g.own_round(p) >= knockout else 1
    assert not store.results.problems(tid)


def test_a_manual_pairing_is_made_audited_and_the_night_plays_out(store):
    tid, names = round_three(store)
    assert open_pairs(store, tid, names) == {frozenset(p) for p in ((1, 4), (2, 7), (5, 8))}
    code = code_of(store, tid, names[1], names[4])
    taken = code_of(store, tid, names[5], names[8])
    done = pair_game(store, tid, code, names[8], names[4], "4 must leave early: plays 5 now")
    # R3's 1-4 is 1-8 under its own code; 8's game with 5 is taken out; the two left without
    # a game wait for the draw (two games are unfinished: it pairs what every outcome agrees
    # on).
    assert {m["player1"] for m in store.matches.all(tid) if m["code"] == code} | {
        m["player2"] for m in store.matches.all(tid) if m["code"] == code} == {names[1], names[8]}
    assert open_pairs(store, tid, names) == {frozenset(p) for p in ((1, 8), (2, 7))}
    kept = pairings(store, tid)
    assert len(kept) == 1 and kept[0]["reason"] == "4 must leave early: plays 5 now"
    assert kept[0]["who"] == "the director" and kept[0]["at"] and kept[0]["overridden"] == []
    assert (done["match"], done["gone"]) == (code, [code, taken])
    check_valid(store, tid)
    play_on(store, tid, first_named)
    engine, _ = night.engine_of(store, tid)
    assert engine.winner() is not None
    check_valid(store, tid)
    for left in (4, 5):  # the draw gave both their round-3 games
        assert any(left in g.players() and g.own_round(left) == 3 for g in engine.games)


def test_a_game_of_the_opening_paired_before_any_result(store):
    tid = new_night(store, "hakukaavio", 8)
    names = numbered(store, tid)
    code = code_of(store, tid, names[1], names[3])  # round 2: 1-3, 2-4, 5-7, 6-8
    taken = code_of(store, tid, names[5], names[7])
    done = pair_game(store, tid, code, names[5], names[3], "3 comes late")
    assert done["gone"] == [code, taken]
    engine, numbers = night.engine_of(store, tid)  # the opening's 1-3 and 5-7 are gone
    pairs = {frozenset(g.players()) for g in engine.games if g.round == 2}
    assert frozenset((1, 5)) in pairs and not pairs & {frozenset((1, 3)), frozenset((5, 7))}
    check_valid(store, tid)
    play_on(store, tid, first_named)
    engine, _ = night.engine_of(store, tid)
    assert engine.winner() is not None
    for left in (3, 7):  # the draw gave both a second game
        assert sum(1 for g in engine.games if left in g.players()) >= 2
    check_valid(store, tid)


def test_a_round_one_game_paired_again_would_put_players_twice_in_round_two(store):
    tid = new_night(store, "hakukaavio", 8)
    names = numbered(store, tid)
    code = code_of(store, tid, names[1], names[2])  # round 1; 2 and 4 meet in round 2
    before = dump(store.path)
    with pytest.raises(PairingRefused) as refused:
        pair_game(store, tid, code, names[4], names[2], "x", confirm=True)
    assert "%s would play twice in round 2" % names[1] in str(refused.value)
    assert "%s has a later game drawn already" % names[2] in str(refused.value)
    assert refused.value.overridable is False
    assert dump(store.path) == before
    # Round 2's 1-3 given to 2, whom 1 meets in round 1 (not played yet): a rematch to be.
    with pytest.raises(PairingRefused, match="%s and %s are drawn to meet \\(%s\\): a rematch; "
                       "add --yes" % (names[1], names[2], code)):
        pair_game(store, tid, code_of(store, tid, names[1], names[3]), names[2], names[3], "x")


@pytest.mark.parametrize("opponent, instead, says, yes", [
    (2, 4, "have met already (R1-01): a rematch; add --yes", True),  # (R1-01: 1-2)
    (3, 4, "is out of the tournament", False),
    (6, 4, "is out of the tournament", False),
], ids=["rematch", "out", "out-twice-lost"])
def test_each_breach_is_named_and_nothing_changes(store, opponent, instead, says, yes):
    tid, names = round_three(store)
    code = code_of(store, tid, names[1], names[4])
    before = dump(store.path)
    with pytest.raises(PairingRefused) as refused:
        pair_game(store, tid, code, names[opponent], names[instead], "why not")
    assert says in str(refused.value)
    assert refused.value.overridable is yes
    assert dump(store.path) == before
    if yes:  # the director may set a rematch aside
        pair_game(store, tid, code, names[opponent], names[instead], "why not", confirm=True)
        assert pairings(store, tid)[0]["overridden"]
        check_valid(store, tid)
        play_on(store, tid, first_named)
        assert night.engine_of(store, tid)[0].winner() is not None
    else:
        with pytest.raises(PairingRefused):
            pair_game(store, tid, code, names[opponent], names[instead], "x", confirm=True)
        assert dump(store.path) == before


def test_a_game_decided_or_started_is_never_paired_again(store):
    tid, names = round_three(store)
    decided = code_of(store, tid, names[1], names[2])
    with pytest.raises(PairingRefused, match="is decided already"):
        pair_game(store, tid, decided, names[5], names[2], "x", confirm=True)
    code = code_of(store, tid, names[1], names[4])
    store.boards.note(tid, "pk-1", 1)
    store.live.put("pk-1", tid, 1, {"match_id": code, "score": [1, 0], "finished": False,
                                    "players": [names[1], names[4]]})
    before = dump(store.path)
    with pytest.raises(PairingRefused, match="R3-01 was started on its board"):
        pair_game(store, tid, code, names[8], names[4], "x", confirm=True)
    other = code_of(store, tid, names[2], names[7])
    with pytest.raises(PairingRefused, match="playing another game: %s was started" % code):
        pair_game(store, tid, other, names[1], names[7], "x", confirm=True)
    with pytest.raises(StoreError, match="does not play"):
        pair_game(store, tid, other, names[1], names[5], "x")
    with pytest.raises(StoreError, match="needs --reason"):
        pair_game(store, tid, other, names[1], names[7], " ")
    assert dump(store.path) == before


def test_a_later_correction_keeps_the_manual_pairing(store):
    tid, names = round_three(store)
    code = code_of(store, tid, names[1], names[4])
    pair_game(store, tid, code, names[8], names[4], "4 must leave early")
    win(store, tid, code, names[1])
    win(store, tid, code_of(store, tid, names[2], names[7]), names[2])
    drawn = [m for m in store.matches.all(tid) if m["winner"] is None and m["outcome"] is None]
    assert drawn  # drawn after the pairing
    later = drawn[0]["code"]
    win(store, tid, later, drawn[0]["player1"])
    # A result drawn after the pairing corrected: the replay makes the pairing as it was.
    night.correct(store, tid, later, "the sheet", score=(1, 2), winner=drawn[0]["player2"])
    assert code in {m["code"] for m in store.matches.all(tid)
                    if {m["player1"], m["player2"]} == {names[1], names[8]}}
    assert not {frozenset((m["player1"], m["player2"])) for m in store.matches.all(tid)
                if m["round"] == 3} & {frozenset((names[1], names[4])),
                                       frozenset((names[5], names[8]))}
    check_valid(store, tid)
    play_on(store, tid, first_named)
    assert night.engine_of(store, tid)[0].winner() is not None
    check_valid(store, tid)


def test_a_correction_before_the_pairing_leaves_a_valid_night(store):
    tid, names = round_three(store)
    code = code_of(store, tid, names[1], names[4])
    pair_game(store, tid, code, names[8], names[4], "4 must leave early")
    # Round 1's 5-6 won by 6: round 3 would be 1-4, 2-5, 6-7: 8's game with 5 is not drawn,
    # so the pairing cannot be made as it was; its game (not started) goes, the draw's come.
    night.correct(store, tid, code_of(store, tid, names[5], names[6]), "flip", score=(1, 2),
                  winner=names[6], played="keep")
    check_valid(store, tid)
    play_on(store, tid, first_named)
    assert night.engine_of(store, tid)[0].winner() is not None
    check_valid(store, tid)


def test_the_cli_pairs_shows_the_breach_and_the_history(tmp_path, capsys):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Kaisa", "--game", "9ball", "--race", "2", "--format",
              "hakukaavio")
    players = "name\n" + "".join("P%d\n" % i for i in range(1, 9))
    pilkku.ok("players", "import", pilkku.file("players.csv", players))
    pilkku.ok("matches", "generate")
    with Store.open(pilkku.db) as store:
        tid = store.tournaments.get()["id"]
        names = opening_played(store, tid)
        code = code_of(store, tid, names[1], names[4])
        taken = code_of(store, tid, names[5], names[8])
    code_, _out, err = pilkku("opponent", code, names[2], "--instead-of", names[4],
                              "--reason", "asked")
    assert code_ == 2 and "a rematch" in err and "--yes" in err
    out = pilkku.ok("opponent", code, names[8], "--instead-of", names[4], "--reason",
                    "4 leaves early")
    assert out.splitlines()[:2] == [
        "%s: %s vs %s (paired by the director instead of %s)." % (code, names[1], names[8],
                                                                   names[4]),
        "%s's game %s is taken out." % (names[8], taken)]
    history = pilkku.ok("results", "--history")
    assert "paired by the director" in history and "4 leaves early" in history
    assert "%s: %s vs %s paired by the director instead of %s" % (
        code, names[1], names[8], names[4]) in history
    listed = json.loads(pilkku.ok("results", "--history", "--json"))
    assert isinstance(listed, list)  # (the results' JSON is unchanged: a list of results)
