"""A club's autumn: twelve weekly Kaisa hakukaavio nights made by the engine (seeded), in two
series: 'Syksy' over all twelve (best 8 of 12) and 'Alkusyksy' over the first six, closed
after them. Along the way a late entry, a player who withdraws mid-night, a second person
called Matti Virtanen, a point table changed mid-season and, at the end, night 3's final
corrected, which changes that night's champion: the series follows.

Every night's points in the table are checked against the night itself (its final ranking,
its games, the table as it stood before it): participation + the place's points + win x the
games won against an opponent + the bonus for each beaten 1st-3rd."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from host.season import series
from host.tournament import night
from host.tournament.night.entries import add_late_player
from host.tournament.night.ranking import final_ranking
from host.tournament.store import Store, StoreError
from tests.season.season_nights import POOL, first_player, new_night, play, seeded_pick

MATTI = "Matti Virtanen"
REGULARS = POOL[:10] + [MATTI]
START = date(2026, 9, 1)
LATE, WITHDRAWS, OTHER_MATTI, CLOSED_AFTER = 4, 7, 6, 6
# The seeded autumn's top three (the number draws and the games' winners by random.Random(2026))
SEEDED_TOP = [(1, "Iivo Ilola", 152), (2, "Matti Virtanen", 113), (3, "Hilja Heino", 109)]


def day(n: int) -> str:
    return (START + timedelta(weeks=n - 1)).isoformat()


def _night(store: Store, n: int, rng: random.Random) -> int:
    players = rng.sample([p for p in REGULARS if p != MATTI], rng.randint(5, 8))
    if n != OTHER_MATTI and n % 2 == 0:
        players.append(MATTI)
    if n == OTHER_MATTI:
        players.append(MATTI)  # not the regular: another man of the same name
    tid = new_night(store, "Viikkokisa %d" % n, players, rng)
    pick = seeded_pick(rng, {p: i + 1 for i, p in enumerate(REGULARS)})
    if n == LATE:
        add_late_player(store, tid, "Lumi Laine")  # came after the draw, before round 2
    if n == WITHDRAWS:
        play(store, tid, pick, stop=lambda: len([m for m in store.matches.all(tid)
                                                 if m["winner"]]) >= 4)
        leaving = next(r["player"] for r in final_ranking(store, tid) if not r["out"])
        night.withdraw(store, tid, leaving, "went home ill")
    play(store, tid, pick)
    if n == OTHER_MATTI:
        regular = store.people.named(MATTI)[0]["id"]
        store.people.link_tournament(tid, new=[MATTI])
        assert store.people.named(MATTI)[1]["id"] != regular
    elif n > OTHER_MATTI and MATTI in players:
        with pytest.raises(StoreError, match="could be 2 people"):
            series.add_nights(store, "Syksy", ["Viikkokisa %d" % n], day(n))
        regular = store.people.named(MATTI)[0]["id"]
        store.people.link_tournament(tid, picks={MATTI: "#%d" % regular})
    return tid


@pytest.fixture(scope="module")
def autumn(tmp_path_factory):
    path = tmp_path_factory.mktemp("season") / "pilkku.db"
    store = Store.open(path)
    rng = random.Random(2026)
    series.new_series(store, "Syksy", "kaisa", date_from="1.9.2026", date_to="30.11.2026",
                      best_of=8)
    series.new_series(store, "Alkusyksy", "kaisa", date_from="1.9.2026",
                      date_to=day(CLOSED_AFTER))
    tids = {}
    for n in range(1, 13):
        tids[n] = _night(store, n, rng)
        series.add_nights(store, "Syksy", ["Viikkokisa %d" % n], day(n))
        if n <= CLOSED_AFTER:
            series.add_nights(store, "Alkusyksy", ["Viikkokisa %d" % n], day(n))
        if n == CLOSED_AFTER:
            series.close(store, "Alkusyksy")
            series.change_points(store, "default", win="2", beat="5,3,1")
    yield store, tids
    store.close()


def expected_night(store: Store, tid: int, points: dict, standing: dict[int, int]) -> dict:
    """The oracle: one night's points per person, worked from the night's own ranking and
    games as a secretary would by hand."""
    person = {p["name"]: store.people.of_tournament(tid)[p["id"]]
              for p in store.players.all(tid)}
    kinds = {r["match"]: r["kind"] for r in store.results.all(tid)}
    got = {}
    for row in final_ranking(store, tid):
        place = row["place"]
        got[person[row["player"]]] = points["participation"] + (
            points["places"][place - 1] if place <= len(points["places"]) else 0)
    for m in store.matches.all(tid):
        if m["winner"] and m["player2"] and kinds[m["code"]] != "walkover":
            loser = m["player2"] if m["winner"] == m["player1"] else m["player1"]
            bonus = standing.get(person[loser], 99)
            got[person[m["winner"]]] += points["win"] + (
                points["beat"][bonus - 1] if bonus <= len(points["beat"]) else 0)
    return got


def check_every_night(store: Store, tids: dict, name: str, last: int) -> list[dict]:
    document = series.table_of(store, name)
    points = document["points"]
    for n in range(1, last + 1):
        before = series.table_of(store, name, day(n - 1))["rows"] if n > 1 else []
        standing = {r["person"]: r["place"] for r in before}
        wanted = expected_night(store, tids[n], points, standing)
        shown = {r["person"]: p["points"] for r in document["rows"]
                 for p in r["night_points"] if p["tournament"] == "Viikkokisa %d" % n}
        assert shown == wanted, n
    for row in document["rows"]:
        nights = sorted((p["points"] for p in row["night_points"]), reverse=True)
        best = nights[:document["best_of"]] if document["best_of"] else nights
        assert row["total"] == row["carried"] + sum(best)
    return document["rows"]


def test_every_night_counts_as_worked_by_hand(autumn):
    store, tids = autumn
    rows = check_every_night(store, tids, "Syksy", 12)
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    assert all(r["counted"] == min(r["nights"], 8) for r in rows)
    assert any(r["nights"] > 8 for r in rows)  # best 8 of 12 left someone's nights out


def test_the_season_is_the_same_each_run(autumn):
    store, _tids = autumn
    top = [(r["place"], r["name"], r["total"]) for r in series.table_of(store, "Syksy")["rows"]]
    assert top[:3] == SEEDED_TOP


def test_the_late_entry_and_the_withdrawn_player_have_their_night(autumn):
    store, tids = autumn
    rows = series.table_of(store, "Syksy")["rows"]
    late = next(r for r in rows if r["name"] == "Lumi Laine")
    assert [p["tournament"] for p in late["night_points"]] == ["Viikkokisa %d" % LATE]
    gone = store.players.withdrawn(tids[WITHDRAWS])
    assert len(gone) == 1
    (player_id,) = gone
    person = store.people.of_tournament(tids[WITHDRAWS])[player_id]
    row = next(r for r in rows if r["person"] == person)
    assert "Viikkokisa %d" % WITHDRAWS in [p["tournament"] for p in row["night_points"]]


def test_two_men_of_one_name_are_two_rows(autumn):
    store, _tids = autumn
    mattis = [r for r in series.table_of(store, "Syksy")["rows"] if r["name"] == MATTI]
    assert len(mattis) == 2 and mattis[0]["person"] != mattis[1]["person"]
    other = next(r for r in mattis if r["nights"] == 1)
    assert other["night_points"][0]["tournament"] == "Viikkokisa %d" % OTHER_MATTI


def test_the_point_table_changed_mid_season_left_the_closed_series_alone(autumn):
    store, tids = autumn
    closed = series.table_of(store, "Alkusyksy")
    assert closed["version"] == 1 and closed["closed"]
    assert closed["rows"] == series.table_of(store, "Alkusyksy", day(CLOSED_AFTER))["rows"]
    assert series.table_of(store, "Syksy")["version"] == 2
    with pytest.raises(StoreError, match="closed"):
        series.add_nights(store, "Alkusyksy", ["Viikkokisa 7"], day(7))


def test_night_3s_final_corrected_and_the_series_follows(autumn):
    store, tids = autumn
    tid = tids[3]
    before = {r["person"]: r for r in series.table_of(store, "Syksy")["rows"]}
    frozen = series.table_of(store, "Alkusyksy")["rows"]
    final = [m for m in store.matches.all(tid) if m["winner"]][-1]
    champion = final["winner"]
    runner = final["player2"] if champion == final["player1"] else final["player1"]
    night.correct(store, tid, final["code"], "the sheet was read wrong",
                  score="60:40" if runner == final["player1"] else "40:60")
    play(store, tid, lambda m: runner if runner in (m["player1"], m["player2"])
         else first_player(m))
    assert final_ranking(store, tid)[0]["player"] == runner
    rows = check_every_night(store, tids, "Syksy", 12)
    person = store.people.of_tournament(tid)
    names = {p["name"]: p["id"] for p in store.players.all(tid)}
    now = {r["person"]: r for r in rows}
    night3 = "Viikkokisa 3"

    def points(table, who):
        return next(p["points"] for p in table[person[names[who]]]["night_points"]
                    if p["tournament"] == night3)

    assert points(now, runner) > points(before, runner)
    assert points(now, champion) < points(before, champion)
    assert series.table_of(store, "Alkusyksy")["rows"] == frozen  # closed: frozen
