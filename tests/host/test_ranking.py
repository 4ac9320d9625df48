"""One final ranking per format (issue 27, item 3): `pilkku standings` (text, --json, --csv),
`pilkku bracket` (text, --json), the hall's draw page and the night layer's final_ranking give
the same places in the same order, for every format, played out and while it runs ("standings
so far" until the end, then "final ranking"). The hakukaavio ranks by the round a player went
out (later is better), then wins, then points, and a Kaisa match's points are its recorded
score (60 for the winner), not the points played past it (docs/formats.md, "The final
ranking")."""

from __future__ import annotations

import csv
import io
import json
import zlib
from pathlib import Path

import pytest

from host.hall import data as hall
from host.tournament import night
from host.tournament.formats import ranking
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.night import setup
from host.tournament.night.ranking import final_ranking
from host.tournament.store import Store
from rules_core import matchlog
from rules_core.match import Match
from tests.host.test_formats_store import pilkku, play_out, start
from tests.host.test_store import sign

KAISA_60 = (Path(__file__).resolve().parents[2] / "examples" / "kaisa-60.json").read_text()


def upsets(a: str, b: str) -> str:
    """A winner for each pair that is not the seeding's (so that ties and upsets happen)."""
    first, second = sorted((a, b))
    return first if zlib.crc32(("%s|%s" % (first, second)).encode()) % 3 else second


def places(rows: list[dict]) -> list[tuple[int, str]]:
    return [(int(r["place"]), r["player"]) for r in rows]


def readers(capsys, db: str) -> dict[str, list[tuple[int, str]]]:
    """Every reader's ranking as (place, player) rows."""
    got = {}
    document = json.loads(pilkku(capsys, "standings", "--json", "--db", db))
    got["standings --json"] = places(document["standings"])
    got["standings --csv"] = places(list(csv.DictReader(io.StringIO(
        pilkku(capsys, "standings", "--csv", "--db", db)))))
    with Store.open(db) as store:
        t = hall.tournament(store, None)
        got["night"] = places(final_ranking(store, t["id"]))
        got["hall"] = places(hall.draw(store, t)["ranking"])
        drawn = t["format"] in ("double", "groups", "hakukaavio")
    if drawn:
        bracket = json.loads(pilkku(capsys, "bracket", "--json", "--db", db))
        got["bracket --json"] = places(bracket["placings"])
    return got


def agree(got: dict[str, list]) -> list:
    night_rows = got["night"]
    assert all(rows == night_rows for rows in got.values()), got
    return night_rows


@pytest.mark.parametrize("count,options", [
    (10, ["--format", "hakukaavio"]),
    (9, ["--format", "hakukaavio", "--knockout-from", "3"]),
    (7, ["--format", "double"]),
    (8, ["--format", "groups", "--groups", "2", "--advance", "2"]),
    (5, ["--format", "round_robin"]),
    (6, ["--format", "single"]),
])
def test_every_reader_gives_the_same_ranking(tmp_path, capsys, count, options):
    db = start(tmp_path, capsys, count, *options)
    so_far = agree(readers(capsys, db))  # before a result: the standings so far
    assert len(so_far) == count
    text = pilkku(capsys, "standings", "--db", db).lower()
    assert "standings so far" in text and "final ranking" not in text
    assert json.loads(pilkku(capsys, "standings", "--json", "--db", db))["final"] is False
    play_out(db, upsets)
    ranked = agree(readers(capsys, db))
    assert sorted(player for _place, player in ranked) == sorted(set(p for _, p in ranked))
    assert len(ranked) == count and ranked[0][0] == 1
    text = pilkku(capsys, "standings", "--db", db).lower()
    assert "final ranking" in text and "so far" not in text
    assert json.loads(pilkku(capsys, "standings", "--json", "--db", db))["final"] is True
    # the text tables list the players in the same order
    for command in (["standings"], ["bracket"]) if "single" not in options and \
            "round_robin" not in options else (["standings"],):
        out = pilkku(capsys, *command, "--db", db)
        table = out[out.index("Final ranking"):]
        assert [table.index(player) for _place, player in ranked] == sorted(
            table.index(player) for _place, player in ranked), command


def test_shared_places_repeat_their_number(tmp_path, capsys):
    """A single elimination's semi-final losers share 3rd, the quarter-final losers 5th."""
    db = start(tmp_path, capsys, 8, "--format", "single")
    play_out(db, upsets)
    ranked = agree(readers(capsys, db))
    assert [place for place, _player in ranked] == [1, 2, 3, 3, 5, 5, 5, 5]


# -- the hakukaavio's rule on a night where the standings and the bracket disagreed ---------

KAISA_NAMES = ["Aino Laine", "Eero Salo", "Jussi Korhonen", "Matti Mäkelä", "Pekka Nieminen",
               "Ville Heikkinen", "Timo Koskinen", "Kari Järvinen"]
# (first, second, winner, recorded points) by draw number, in the order entered: 8 wins; 2 goes
# out in round 5; 4 and 6 in round 4 (4 with two wins, 6 with one win but more points); 1, 5
# and 3 in round 3 with one win each (159, 142 and 116 points); 7 in round 2.
NIGHT = [(1, 2, 1, (60, 23)), (3, 4, 4, (11, 60)), (5, 6, 6, (48, 60)), (7, 8, 8, (10, 60)),
         (1, 3, 3, (54, 60)), (2, 4, 2, (60, 19)), (5, 7, 5, (60, 26)), (6, 8, 8, (53, 60)),
         (1, 4, 4, (45, 60)), (2, 3, 2, (60, 45)), (5, 8, 8, (34, 60)), (6, 2, 2, (31, 60)),
         (4, 8, 8, (3, 60)), (2, 8, 8, (35, 60))]


def kaisa_log(players: list[str], winner: int) -> str:
    """A Kaisa game ended by the loser's concession: recorded 60 : 0."""
    match = Match({"game": "kaisa", "players": players, "race_to": 60, "rules": None})
    match.apply({"t": "lag", "winner": 0})
    match.apply({"t": "choose", "choice": "one_dot"})
    match.apply({"t": "concede", "player": 1 - winner})
    return matchlog.dumps(match, {})


@pytest.fixture
def kaisa_night(tmp_path, monkeypatch) -> str:
    """The hakukaavio of NIGHT on the store: numbers in registration order; R1-01 is
    examples/kaisa-60.json (Aino Laine won it 63 : 40 at the table, recorded 60 : 40); every
    other game a concession corrected by the director to its points (same winner)."""
    monkeypatch.setattr(setup, "numbering", lambda count, _seeds, _rng: list(
        range(1, count + 1)))
    db = str(tmp_path / "kaisa.db")
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Kaisa-ilta", "kaisa", 60)
        night.plan_format(store, tid, "hakukaavio", {"knockout_from": None, "seeds": 0})
        night.import_players(store, tid, [(i, n, "") for i, n in enumerate(KAISA_NAMES, 1)])
        night.draw_opening(store, tid)
        key = store.tournaments.key(tid)
        for first, second, winner, points in NIGHT:
            a, b = KAISA_NAMES[first - 1], KAISA_NAMES[second - 1]
            match = next(m for m in store.matches.all(tid) if m["winner"] is None
                         and {m["player1"], m["player2"]} == {a, b})
            if match["code"] == "R1-01":
                text = KAISA_60
            else:
                text = kaisa_log([match["player1"], match["player2"]],
                                 0 if KAISA_NAMES[winner - 1] == match["player1"] else 1)
            assert night.record_result(store, match["code"], text, "manual",
                                       sign(key, text), None, None, tournament_id=tid,
                                       kind="manual")
            if match["code"] != "R1-01":
                score = points if match["player1"] == a else points[::-1]
                night.correct(store, tid, match["code"], "the points from the sheet",
                              score=score)
    return db


def test_the_hakukaavio_ranks_by_the_round_out_then_wins_then_points(kaisa_night, capsys):
    ranked = agree(readers(capsys, kaisa_night))
    names = KAISA_NAMES
    assert ranked == [(1, names[7]), (2, names[1]), (3, names[3]), (4, names[5]),
                      (5, names[0]), (6, names[4]), (7, names[2]), (8, names[6])]
    with Store.open(kaisa_night) as store:
        rows = {r["player"]: r for r in final_ranking(store, store.tournaments.get()["id"])}
    # out later ranks higher: Ville (round 4, 144 points) above Aino (round 3, 159)
    assert (rows[names[5]]["out"], rows[names[0]]["out"]) == ("round 4", "round 3")
    # the same round: more wins first (Matti, two wins, 142 points, above Ville's one, 144)
    assert (rows[names[3]]["won"], rows[names[3]]["for"]) == (2, 142)
    assert (rows[names[5]]["won"], rows[names[5]]["for"]) == (1, 144)
    assert rows[names[7]]["out"] is None and rows[names[7]]["lost"] == 0


def test_a_kaisa_match_counts_its_recorded_points(kaisa_night, capsys):
    """R1-01 was won 63 : 40 at the table and is recorded 60 : 40: Aino's points for are 60 +
    54 + 45 = 159, not 162, in the ranking and in every reader."""
    with Store.open(kaisa_night) as store:
        tid = store.tournaments.get()["id"]
        rows = {r["player"]: r for r in final_ranking(store, tid)}
        first = next(m for m in store.matches.all(tid) if m["code"] == "R1-01")
    assert (first["score1"], first["score2"]) == (60, 40)
    assert (rows["Aino Laine"]["for"], rows["Aino Laine"]["against"]) == (159, 160)
    document = json.loads(pilkku(capsys, "standings", "--json", "--db", kaisa_night))
    aino = next(r for r in document["standings"] if r["player"] == "Aino Laine")
    assert (aino["for"], aino["against"]) == (159, 160)
    assert document["unit"] == "points"


def test_a_withdrawn_player_is_marked(kaisa_night, capsys):
    with Store.open(kaisa_night) as store:
        tid = store.tournaments.get()["id"]
        store.players.withdraw(store.players.get(tid, "Kari Järvinen")["id"])
    document = json.loads(pilkku(capsys, "standings", "--json", "--db", kaisa_night))
    marked = [r["player"] for r in document["standings"] if r["withdrawn"]]
    assert marked == ["Kari Järvinen"]
    assert "Kari Järvinen (withdrawn)" in pilkku(capsys, "standings", "--db", kaisa_night)


def test_the_finals_loser_is_second_though_another_went_out_in_its_round():
    """5 players: 2 goes out in game round 4 (5 beats him, 60 : 43) with two wins and 206
    points; the final 4-5 is game round 4 too, and its loser 4 has two wins and 191 points.
    He is 2nd (the finalist rule), 2 is 3rd."""
    draw = Hakukaavio(5)
    for a, b, winner, points in [(1, 2, 2, (1, 60)), (3, 4, 4, (23, 60)), (5, 1, 5, (60, 14)),
                                 (2, 3, 2, (60, 6)), (4, 5, 5, (27, 60)), (2, 4, 4, (43, 60)),
                                 (5, 2, 5, (60, 43)), (4, 5, 5, (44, 60))]:
        draw.record(a, b, winner, points=points)
    assert draw.finished() and draw.games[-1].round == 4
    rows = ranking.drawn(draw, [], [1, 2, 3, 4, 5])
    assert [(r["place"], r["player"], r["out"], r["won"], r["for"]) for r in rows] == [
        (1, 5, None, 4, 240), (2, 4, "round 4", 2, 191), (3, 2, "round 4", 2, 206),
        (4, 3, "round 2", 0, 29), (5, 1, "round 2", 0, 15)]
