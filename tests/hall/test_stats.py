"""host/tournament/stats.py: a match's figures read from its log by the rules engine, and
summed over a tournament."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.tournament import stats
from rules_core import matchlog

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOGS = sorted(p.name for p in EXAMPLES.glob("*.json"))


def load(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", LOGS)
def test_figures_agree_with_the_engines_own_counts(name):
    doc = load(name)
    figures = stats.of_match(doc)
    state = matchlog.load(doc).state
    for p in (0, 1):
        mine = figures["per_player"][p]
        assert mine["score"] == state.score[p]
        assert mine["innings"] == state.stats[p]["innings"]
        assert mine["fouls"] == state.stats[p]["fouls"]
        assert mine["avg_x100"] == stats.per_inning(state.score[p], state.stats[p]["innings"])
        if state.game == "kaisa":  # Kaisa's engine keeps its own best inning: the same
            assert mine["high_run"] == state.stats[p]["best"]
        if state.game in ("8ball", "9ball"):
            assert mine["break_wins"] == state.stats[p]["break_wins"]
            assert mine["break_and_runs"] == state.stats[p]["break_and_runs"]
        else:
            assert mine["break_wins"] is None
    assert figures["winner"] == state.winner


def test_straight_pool_runs_penalties_and_a_negative_average():
    figures = stats.of_match(load("demo-straight.json"))
    anna, ben = figures["per_player"]
    assert anna["score"] == -17 and anna["avg_x100"] == -283  # -17 in 6 innings: -2.83
    assert ben["high_run"] == 19  # the longest run of the demo, across a re-rack
    assert ben["safeties"] == 2


@pytest.mark.parametrize("name", ["demo-8ball.json", "demo-9ball.json"])
def test_the_high_run_in_pool_is_the_most_racks_won_in_a_row(name):
    doc = load(name)
    winners = [int(note.split(":")[1]) for match, _before, event in matchlog.steps(doc)
               if event is not None for note in match.state.notes
               if note.startswith("rack_won:")]
    best = [0, 0]
    for i, winner in enumerate(winners):
        run = 1
        while i - run >= 0 and winners[i - run] == winner:
            run += 1
        best[winner] = max(best[winner], run)
    assert winners and [p["high_run"] for p in stats.of_match(doc)["per_player"]] == best


def test_a_tournament_total_sums_counts_keeps_the_best_run_and_recomputes_the_average():
    total: dict = {}
    stats.add(total, {"innings": 4, "score": 3, "high_run": 2, "avg_x100": 75, "fouls": 1,
                      "break_and_runs": 1, "break_wins": 0, "safeties": 0, "extensions": None})
    stats.add(total, {"innings": 6, "score": 1, "high_run": 1, "avg_x100": 16, "fouls": 2,
                      "break_and_runs": 0, "break_wins": 1, "safeties": 1, "extensions": None})
    assert total["innings"] == 10 and total["score"] == 4 and total["high_run"] == 2
    assert total["avg_x100"] == 40 and total["fouls"] == 3 and total["extensions"] is None


def test_a_log_that_does_not_replay_is_refused():
    doc = load("demo-9ball.json")
    doc["events"].append({"t": "shot", "pocketed": [42]})
    with pytest.raises(matchlog.BadLog):
        stats.of_match(doc)
