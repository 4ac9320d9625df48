"""Property tests of corrections that change a winner (issue 27, item 1): in played-out
hakukaavios (8-16 players) and doubles (4-12), each earlier result is flipped in turn on a
copy of the store, its later games voided (and, in the hakukaavio, kept where keeping is
possible; where it is not, the refusal says why and nothing changes). After each, the engine
loads the store, the draw is valid by docs/formats.md (one game per own round, losses counted
once, nobody playing on after going out, no one twice in a round of the double) and the rest
of the night plays to a champion with the search's rules holding for every game drawn.

CI flips a few results of a few nights; the nightly run flips every result of thousands
(formats_conformance.budget, docs/testing.md)."""

from __future__ import annotations

import os
import random
import shutil

from hypothesis import given
from hypothesis import strategies as st

from host.tournament import night
from host.tournament.formats.double import Double
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.store import Store, StoreError
from tests.host.correction_night import new_night, open_matches, row, win
from tests.host.formats_conformance import budget
from tests.host.test_formats_properties import check_new_games
from tests.host.test_store import dump

NIGHTLY = os.environ.get("HYPOTHESIS_PROFILE") == "nightly"
FLIPS_IN_CI = 3


def played_out(path, fmt: str, count: int, seed: int, **options) -> int:
    rng = random.Random(seed)
    with Store.open(path) as store:
        tid = new_night(store, fmt, count, **options)
        play_to_champion(store, tid, lambda m: rng.choice([m["player1"], m["player2"]]))
    return tid


def play_to_champion(store: Store, tid: int, pick, limit: int = 400) -> None:
    """Play the first open match whose players have no earlier open one, result by result;
    each game the hakukaavio draws is checked against the search's rules."""
    for _step in range(limit):
        engine, _numbers = night.engine_of(store, tid)
        check_valid(engine)
        if engine.finished():
            return
        busy: set = set()
        ready = None
        for m in open_matches(store, tid):
            if not {m["player1"], m["player2"]} & busy:
                ready = m
                break
            busy |= {m["player1"], m["player2"]}
        assert ready is not None, "not finished, but nothing can be played"
        before = _keys(engine)
        win(store, tid, ready["code"], pick(ready))
        after, _numbers = night.engine_of(store, tid)
        if isinstance(after, Hakukaavio):
            new = [g.as_dict() for g in after.games if _key(g) not in before]
            check_new_games(after, new, {})
    raise AssertionError("no champion after %d results" % limit)


def _key(game) -> tuple:
    return (game.round, game.first, game.second, game.rounds)


def _keys(engine) -> set:
    return {_key(g) for g in engine.games} if isinstance(engine, Hakukaavio) else set()


def check_valid(engine) -> None:
    if isinstance(engine, Hakukaavio):
        _check_hakukaavio(engine)
    elif isinstance(engine, Double):
        _check_double(engine)


def _check_hakukaavio(draw: Hakukaavio) -> None:
    knockout = draw.knockout or 1 << 30
    for player in range(1, draw.count + 1):
        games = sorted((g for g in draw.games if player in g.players()),
                       key=lambda g: g.own_round(player))
        # one game in each of his own rounds
        assert [g.own_round(player) for g in games] == list(range(1, len(games) + 1))
        losses = 0
        for index, game in enumerate(games):
            if player in game.losers():
                losses += 1
                if losses >= 2 or game.own_round(player) >= knockout:
                    assert index == len(games) - 1, "%d plays on after going out" % player
        assert losses <= 2, "a loss counted twice: %d lost %d times" % (player, losses)


def _check_double(draw: Double) -> None:
    seen: dict = {}
    losses = dict.fromkeys(range(1, draw.count + 1), 0)
    for game in draw.games():
        place = (draw.matches[game["code"]].stage, game["round"])
        for player in (game["first"], game["second"]):
            assert (player, place) not in seen, "%d twice in %s" % (player, place)
            seen[(player, place)] = game["code"]
        if game["winner"] is not None:
            losses[game["second"] if game["winner"] == game["first"] else game["first"]] += 1
    assert max(losses.values()) <= 2, losses
    if draw.finished():
        assert losses[draw.winner()] <= 1


def flip_each(tmp_path, tid: int, choices: tuple[str, ...], seed: int) -> None:
    """Each earlier result flipped on a copy of the store, with each choice."""
    with Store.open(tmp_path / "night.db") as store:
        codes = [m["code"] for m in store.matches.all(tid) if m["winner"] is not None]
    if not NIGHTLY:
        codes = random.Random(seed).sample(codes, min(FLIPS_IN_CI, len(codes)))
    for code in codes:
        for played in choices:
            path = tmp_path / ("%s-%s.db" % (code, played))
            shutil.copy(tmp_path / "night.db", path)
            with Store.open(path) as store:
                _flip_and_play_on(store, tid, code, played)


def _flip_and_play_on(store: Store, tid: int, code: str, played: str) -> None:
    m = row(store, tid, code)
    score = (1, 2) if m["winner"] == m["player1"] else (2, 1)
    before = dump(store.path)
    try:
        night.correct(store, tid, code, "the other one won", score=score, played=played)
    except StoreError as refused:
        assert played == "keep" and "void them (--played void)" in refused.text, refused.text
        assert dump(store.path) == before, "a refused correction changed the store"
        return
    flipped = row(store, tid, code)
    assert flipped["winner"] not in (None, m["winner"])
    assert not store.results.problems(tid)
    play_to_champion(store, tid, lambda match: match["player1"])
    assert not store.results.problems(tid)


@budget(ci=4, nightly=1000)
@given(players=st.integers(8, 16), knockout=st.sampled_from([None, None, 3, 4]),
       seed=st.integers(0, 10**6))
def test_a_flipped_hakukaavio_result_leaves_a_valid_night_that_plays_out(
        tmp_path_factory, players, knockout, seed):
    tmp_path = tmp_path_factory.mktemp("haku")
    tid = played_out(tmp_path / "night.db", "hakukaavio", players, seed,
                     knockout_from=knockout)
    flip_each(tmp_path, tid, ("void", "keep"), seed)


@budget(ci=4, nightly=1000)
@given(players=st.integers(4, 12), reset=st.booleans(), seed=st.integers(0, 10**6))
def test_a_flipped_double_result_leaves_a_valid_night_that_plays_out(
        tmp_path_factory, players, reset, seed):
    tmp_path = tmp_path_factory.mktemp("double")
    tid = played_out(tmp_path / "night.db", "double", players, seed, reset=reset)
    flip_each(tmp_path, tid, ("void",), seed)
