"""A series' table checked against hand-worked nights (host/season/, docs/season.md). Three-
player Kaisa round robins whose results are typed in, so each night's ranking is plain:

    point table: win 2, participation 1, places 10, 6, 3, beat #1-#3 5, 3, 1

    night 1 (A, B, C): A-B A, A-C A, B-C B     places A, B, C; nobody ranked before
        A 1+10+2x2 = 15   B 1+6+2 = 9   C 1+3 = 4           table A 15, B 9, C 4
    night 2 (B, C, D): C-B C, C-D C, D-B D     places C, D, B; B was #2
        C 1+10+4+3 = 18   D 1+6+2+3 = 12   B 1+3 = 4        table C 22, A 15, B 13, D 12
    night 3 (A, C, D): A-C A, A-D A, D-C D     places A, D, C; C was #1, D #4
        A 1+10+4+5 = 20   D 1+6+2+5 = 14   C 1+3 = 4        table A 35, C 26, D 26, B 13
    C and D are level on 26: C's best night (18) beats D's (14), so C is 2nd; with no
    tie-break they share 2nd and B is 4th. Best 2 of 3: C counts 18+4 = 22, so D (26) is 2nd.
    Night 3's D-C corrected to C: places A, C, D; C 1+6+2 = 9, D 1+3 = 4: C 31, D 16.

Below them: a withdrawn player's walkover (no won game), a late entry's night, a point table
changed mid-season, the previous series' leaders carried over, a night not ended.
"""

from __future__ import annotations

import pytest

from host.season import series
from host.tournament import night
from host.tournament.night.entries import add_late_player
from host.tournament.store import Store, StoreError

POINTS = {"win": "2", "participation": "1", "places": "10,6,3", "beat": "5,3,1"}
NIGHTS = [("Ilta 1", "2026-09-01", ["A", "B", "C"], [("A", "B"), ("A", "C"), ("B", "C")]),
          ("Ilta 2", "2026-09-08", ["B", "C", "D"], [("C", "B"), ("C", "D"), ("D", "B")]),
          ("Ilta 3", "2026-09-15", ["A", "C", "D"], [("A", "C"), ("A", "D"), ("D", "C")])]


def code_of(store: Store, tid: int, a: str, b: str) -> str:
    return next(m["code"] for m in store.matches.all(tid) if {m["player1"], m["player2"]}
                == {a, b})


def win(store: Store, tid: int, winner: str, loser: str, *, correct: bool = False) -> None:
    code = code_of(store, tid, winner, loser)
    m = store.matches.get(tid, code)
    first = store.players.names(m)[0] == winner
    score = "60:40" if first else "40:60"
    if correct:
        night.correct(store, tid, code, "the sheet was read wrong", score=score)
    else:
        night.record_hand(store, tid, code, score, "sheet")


def round_robin(store: Store, name: str, players: list[str]) -> int:
    tid = night.new_tournament(store, name, "kaisa", 60)
    night.import_players(store, tid, [(i + 2, p, "") for i, p in enumerate(players)])
    night.draw_round_robin(store, tid)
    return tid


@pytest.fixture
def season(tmp_path):
    with Store.open(tmp_path / "pilkku.db") as store:
        series.change_points(store, "club", **POINTS)
        tids = {}
        for name, _day, players, games in NIGHTS:
            tids[name] = round_robin(store, name, players)
            for winner, loser in games:
                win(store, tids[name], winner, loser)
        yield store, tids


def _add_all(store: Store, name: str) -> None:
    for night_name, day, _players, _games in NIGHTS:
        series.add_nights(store, name, [night_name], day)


def totals(store: Store, name: str, until: str | None = None) -> list[tuple]:
    return [(r["place"], r["name"], r["total"])
            for r in series.table_of(store, name, until)["rows"]]


def test_won_games_places_and_a_bonus_against_the_first(season):
    store, _tids = season
    series.new_series(store, "Syksy", "kaisa", points_name="club")
    _add_all(store, "Syksy")
    assert totals(store, "Syksy", "2026-09-01") == [(1, "A", 15), (2, "B", 9), (3, "C", 4)]
    assert totals(store, "Syksy", "8.9.2026") == [(1, "C", 22), (2, "A", 15), (3, "B", 13),
                                                   (4, "D", 12)]
    rows = series.table_of(store, "Syksy")["rows"]
    assert [(r["place"], r["name"], r["total"]) for r in rows] == [
        (1, "A", 35), (2, "C", 26), (3, "D", 26), (4, "B", 13)]
    by_name = {r["name"]: r for r in rows}
    assert [n["points"] for n in by_name["A"]["night_points"]] == [15, 20]  # 20: beat #1 C
    assert [n["points"] for n in by_name["D"]["night_points"]] == [12, 14]
    assert by_name["C"]["wins"] == 2 and by_name["C"]["best"] == 18


def test_a_tie_shares_the_place_without_tie_breaks(season):
    store, _tids = season
    series.new_series(store, "Tasan", "kaisa", points_name="club", tie_break=[])
    _add_all(store, "Tasan")
    assert totals(store, "Tasan") == [(1, "A", 35), (2, "C", 26), (2, "D", 26), (4, "B", 13)]


def test_best_two_of_three(season):
    store, _tids = season
    series.new_series(store, "Paras", "kaisa", points_name="club", best_of=2)
    _add_all(store, "Paras")
    rows = series.table_of(store, "Paras")["rows"]
    assert [(r["place"], r["name"], r["total"]) for r in rows] == [
        (1, "A", 35), (2, "D", 26), (3, "C", 22), (4, "B", 13)]
    c = next(r for r in rows if r["name"] == "C")
    assert [(n["points"], n["counted"]) for n in c["night_points"]] == [
        (4, True), (18, True), (4, False)]  # of two equal nights the earlier counts


def test_a_corrected_result_changes_the_placing_and_the_series_follows(season):
    store, tids = season
    series.new_series(store, "Syksy", "kaisa", points_name="club")
    _add_all(store, "Syksy")
    win(store, tids["Ilta 3"], "C", "D", correct=True)
    assert totals(store, "Syksy") == [(1, "A", 35), (2, "C", 31), (3, "D", 16), (4, "B", 13)]


def test_a_withdrawn_players_walkover_is_no_won_game(tmp_path):
    with Store.open(tmp_path / "pilkku.db") as store:
        series.change_points(store, "club", **POINTS)
        tid = round_robin(store, "Ilta", ["A", "B", "C"])
        win(store, tid, "A", "C")
        night.withdraw(store, tid, "C", "went home")  # C-B: a walkover to B
        win(store, tid, "A", "B")
        series.new_series(store, "S", "kaisa", points_name="club")
        series.add_nights(store, "S", ["Ilta"], "2026-09-01")
        rows = series.table_of(store, "S")["rows"]
        # B is 2nd by the night's ranking (the walkover is a win there) but beat nobody
        assert [(r["place"], r["name"], r["total"], r["wins"]) for r in rows] == [
            (1, "A", 15, 2), (2, "B", 7, 0), (3, "C", 4, 0)]


def test_a_point_table_changed_mid_season_moves_only_the_open_series(season):
    store, _tids = season
    series.new_series(store, "Kevät", "kaisa", points_name="club")
    series.add_nights(store, "Kevät", ["Ilta 1"], "2026-09-01")
    frozen = series.close(store, "Kevät")
    series.new_series(store, "Syksy", "kaisa", points_name="club")
    _add_all(store, "Syksy")
    version, moved = series.change_points(store, "club", win="0")
    assert (version, moved) == (2, ["Syksy"])
    closed = series.table_of(store, "Kevät")
    assert closed["rows"] == frozen and closed["version"] == 1
    assert [r["total"] for r in closed["rows"]] == [15, 9, 4]
    # without win points: night 1 A 11, B 7, C 4; night 2 C 1+10+3 = 14, D 1+6+3 = 10, B 4
    # (A and B level on 11: A's best night is better, so B is #3); night 3 A 1+10+5 = 16,
    # D 1+6+5 = 12, C 4. C and D level on 22: C's best night (14) wins
    assert totals(store, "Syksy") == [(1, "A", 27), (2, "C", 22), (3, "D", 22), (4, "B", 11)]


def test_the_previous_series_leaders_carry_points_over(season):
    store, _tids = season
    series.new_series(store, "Kevät", "kaisa", points_name="club")
    series.add_nights(store, "Kevät", ["Ilta 1"], "2026-09-01")
    series.close(store, "Kevät")
    series.new_series(store, "Syksy", "kaisa", points_name="club", carry_from="Kevät",
                      carry_points=[5, 3, 1])
    assert totals(store, "Syksy") == [(1, "A", 5), (2, "B", 3), (3, "C", 1)]
    series.add_nights(store, "Syksy", ["Ilta 2"], "2026-09-08")
    # B carried 3 and is #2 before night 2: C and D each beat B for 3
    assert totals(store, "Syksy") == [(1, "C", 19), (2, "D", 12), (3, "B", 7), (4, "A", 5)]


def test_a_series_is_not_closed_while_one_of_its_nights_is_played(season):
    store, _tids = season
    round_robin(store, "Ilta 4", ["A", "B", "C"])  # drawn, nothing played yet
    series.new_series(store, "Syksy", "kaisa", points_name="club")
    _add_all(store, "Syksy")
    series.add_nights(store, "Syksy", ["Ilta 4"], "2026-09-22")
    assert totals(store, "Syksy")[0] == (1, "A", 35)  # a night not ended counts nothing yet
    with pytest.raises(StoreError, match="'Ilta 4' has not ended.*pilkku series remove"):
        series.close(store, "Syksy")
    assert series.table_of(store, "Syksy")["closed"] is None
    series.remove_night(store, "Syksy", "Ilta 4")
    series.close(store, "Syksy")


def test_every_tournament_of_the_game_within_the_dates(season):
    store, _tids = season
    store.tournaments.new("Pool", {"game": "9ball", "rules": {}}, 5)
    today = store.tournaments.get("Ilta 1")["created"][:10]
    series.new_series(store, "Nyt", "kaisa", points_name="club", date_from=today,
                      date_to=today)
    assert series.add_nights(store, "Nyt") == ["Ilta 1", "Ilta 2", "Ilta 3"]
    with pytest.raises(StoreError, match="no tournament to add"):
        series.add_nights(store, "Nyt")


def test_a_pick_for_somebody_not_playing_is_refused(season):
    store, _tids = season
    series.new_series(store, "Syksy", "kaisa", points_name="club")
    with pytest.raises(StoreError, match="'Z', who plays none of these nights"):
        series.add_nights(store, "Syksy", ["Ilta 1"], "2026-09-01", new=["Z"])
    assert series.table_of(store, "Syksy")["nights"] == []


def test_a_carried_leader_joined_since_carries_to_the_person_kept(season):
    store, _tids = season
    series.new_series(store, "Kevät", "kaisa", points_name="club")
    series.add_nights(store, "Kevät", ["Ilta 1"], "2026-09-01")
    series.close(store, "Kevät")
    store.people.add("Aa")
    store.people.join("Aa", "A", "A is Aa, written short")
    series.new_series(store, "Syksy", "kaisa", points_name="club", carry_from="Kevät")
    assert totals(store, "Syksy") == [(1, "Aa", 3), (2, "B", 2), (3, "C", 1)]


def test_a_player_entered_after_the_night_was_added_has_a_row_of_his_own(season):
    store, tids = season
    series.new_series(store, "Syksy", "kaisa", points_name="club")
    _add_all(store, "Syksy")
    tid = night.new_tournament(store, "Ilta 4", "kaisa", 60)
    night.import_players(store, tid, [(2, "A", ""), (3, "E", "")])
    series.add_nights(store, "Syksy", ["Ilta 4"], "2026-09-22")
    # entered after: B is a known name (that person at entry), F nobody's yet (not linked)
    night.import_players(store, tid, [(4, "B", ""), (5, "F", "")])
    night.draw_round_robin(store, tid)
    for winner, loser in (("A", "E"), ("B", "E"), ("B", "A"), ("F", "E"), ("A", "F"),
                          ("B", "F")):
        win(store, tid, winner, loser)
    document = series.table_of(store, "Syksy")
    assert document["unlinked"] == [{"tournament": "Ilta 4", "players": ["F"]}]
    (f,) = [r for r in document["rows"] if r["name"] == "F"]
    assert f["person"] < 0 and f["nights"] == 1
    (b,) = [r for r in document["rows"] if r["name"] == "B"]
    assert b["person"] > 0 and b["nights"] == 3
    with pytest.raises(StoreError, match="not linked to people yet.*people link"):
        series.close(store, "Syksy")
    store.people.link_tournament(tid)
    (f,) = [r for r in series.table_of(store, "Syksy")["rows"] if r["name"] == "F"]
    assert f["person"] > 0 and f["nights"] == 1  # linked: a person of his own


def test_a_late_entrys_night_counts_whole(tmp_path):
    # A and B drawn, C entered late (a match against each): A-B A, C-A C, C-B C: places
    # C, A, B; C 1+10+2x2 = 15, A 1+6+2 = 9, B 1+3 = 4 (nobody ranked before)
    with Store.open(tmp_path / "pilkku.db") as store:
        series.change_points(store, "club", **POINTS)
        tid = round_robin(store, "Ilta", ["A", "B"])
        add_late_player(store, tid, "C")
        for winner, loser in (("A", "B"), ("C", "A"), ("C", "B")):
            win(store, tid, winner, loser)
        series.new_series(store, "S", "kaisa", points_name="club")
        series.add_nights(store, "S", ["Ilta"], "2026-09-01")
        assert totals(store, "S") == [(1, "C", 15), (2, "A", 9), (3, "B", 4)]
