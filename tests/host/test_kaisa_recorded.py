"""Kaisa's recorded score counts everywhere (issue 27, item 4): a game the winner ended at 63
points is recorded 60 : 40 (the seed's §3: the winner's points as the race, the loser's at
most the race; rules_core/kaisa.py `winner_recorded`), so the match's score, `pilkku results`,
the standings' points and the hall all say 60 : 40, while the 63 played stay in the log, its
report and the statistics. A store that counted the points played is put right when opened."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

from host import cli
from host.tournament import night
from host.tournament.store import Store, migrations

LOG = (Path(__file__).resolve().parents[2] / "examples" / "kaisa-60.json").read_text()


@pytest.fixture
def kaisa(tmp_path) -> tuple[Path, int]:
    db = tmp_path / "kaisa.db"
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Viikkokisa", "kaisa", 60)
        night.import_players(store, tid, [(1, "Aino Laine", ""), (2, "Eero Salo", "")])
        night.draw_round_robin(store, tid)
        key = store.tournaments.key(tid)
        signed = hmac.new(key, LOG.encode(), hashlib.sha256).hexdigest()
        assert night.record_result(store, "R1-01", LOG, "pk-1", signed, None, None)
    return db, tid


def test_the_recorded_score_is_the_matchs(kaisa):
    db, tid = kaisa
    with Store.open(db) as store:
        match = store.matches.all(tid)[0]
        assert (match["winner"], match["score1"], match["score2"]) == ("Aino Laine", 60, 40)
        assert store.results.problems(tid) == []  # it verifies against its log


def test_the_standings_and_results_count_60(kaisa, capsys):
    db, _tid = kaisa
    assert cli.main(["standings", "--json", "--db", str(db)]) == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert [(r["player"], r["for"], r["against"]) for r in rows] == [
        ("Aino Laine", 60, 40), ("Eero Salo", 40, 60)]
    assert cli.main(["results", "--csv", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "60" in out and "63" not in out


def test_the_points_played_stay_in_the_report(kaisa, capsys):
    db, _tid = kaisa
    replayed = Path(db).parent / "log.json"
    replayed.write_text(LOG)
    assert cli.main(["replay", str(replayed)]) == 0
    out = capsys.readouterr().out
    assert "recorded 60 : 40" in out and "63" in out


def test_a_store_that_counted_the_points_played_is_put_right(kaisa):
    """As a store made before v8 left it: 63 in the match's score. Its step run, it says 60
    again, and the result verifies (before, the store's 63 was the replay's too)."""
    db, tid = kaisa
    with Store.open(db) as store:
        store.db.conn.execute("UPDATE matches SET score1 = 63 WHERE tournament_id = ?", (tid,))
        assert store.results.problems(tid)  # 63 is not what the log records
        with store.db.transaction():
            migrations.v8_recorded_kaisa_scores(store.db.conn)
    with Store.open(db) as store:
        match = store.matches.all(tid)[0]
        assert (match["score1"], match["score2"]) == (60, 40)
        assert store.results.problems(tid) == []
