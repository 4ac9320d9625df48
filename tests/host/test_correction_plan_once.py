"""`pilkku correct` plans a correction once: the plan it showed is the one applied when the
store's revision has not moved since (the plan of a 64-player hakukaavio replays the draw:
computing it again in the transaction doubled the command's time); when anything was written
meanwhile (another command, the watcher) it is planned again in the transaction and refused
if it changed (night/corrections.py correct's `shown`)."""

from __future__ import annotations

import pytest

from host.tournament import night
from host.tournament.night import corrections
from host.tournament.store import Store
from tests.host.correction_night import code_of, new_night, opening_played, row, win
from tests.host.test_tournament_cli import Director


@pytest.fixture
def night_8(tmp_path, capsys):
    """An 8-player hakukaavio with its opening played and round 3 begun; the flip of round
    1's 5-6 (its score and the correction's)."""
    pilkku = Director(tmp_path, capsys)
    with Store.open(pilkku.db) as store:
        tid = new_night(store, "hakukaavio", 8, tables=2)
        names = opening_played(store, tid)
        win(store, tid, code_of(store, tid, names[5], names[8]), names[5])
        code = code_of(store, tid, names[5], names[6])
        score = "1:2" if row(store, tid, code)["player2"] == names[6] else "2:1"
    return pilkku, code, score


@pytest.fixture
def planned(monkeypatch) -> list[int]:
    """One entry per correction planned (in the command or in the transaction)."""
    counted: list[int] = []
    plan = corrections.plan_correction

    def counting(*args, **kwargs):
        counted.append(1)
        return plan(*args, **kwargs)

    monkeypatch.setattr(corrections, "plan_correction", counting)
    return counted


def test_the_plan_shown_is_the_plan_applied(night_8, planned):
    pilkku, code, score = night_8
    out = pilkku.ok("correct", code, "--score", score, "--reason", "swapped", "--played",
                    "void", "--yes")
    assert "corrected" in out
    assert len(planned) == 1


def test_a_store_written_after_the_plan_is_planned_again(night_8, planned, monkeypatch):
    """A board's live state written between the plan and its transaction (the watcher):
    the revision moved, so the plan is made again; it is the same plan, so it is applied."""
    pilkku, code, score = night_8
    shown = night.correction_plan

    def then_the_watcher_writes(store, tid, *args, **kwargs):
        plan = shown(store, tid, *args, **kwargs)
        with Store.open(pilkku.db) as other:
            other.live.put("pk-watched", tid, 1, None)
        return plan

    monkeypatch.setattr(night, "correction_plan", then_the_watcher_writes)
    out = pilkku.ok("correct", code, "--score", score, "--reason", "swapped", "--played",
                    "void", "--yes")
    assert "corrected" in out
    assert len(planned) == 2
    with Store.open(pilkku.db) as store:
        tid = store.tournaments.get()["id"]
        m = row(store, tid, code)
        assert "%d:%d" % (m["score1"], m["score2"]) == score


def test_a_night_that_moved_on_after_the_plan_is_refused(night_8, planned, monkeypatch):
    """A result that changes the plan, written between the plan and its transaction: the
    plan made again differs from the one shown; nothing is corrected."""
    pilkku, code, score = night_8
    shown = night.correction_plan

    def then_a_result_comes(store, tid, *args, **kwargs):
        plan = shown(store, tid, *args, **kwargs)
        with Store.open(pilkku.db) as other:
            waiting = [m for m in other.matches.all(tid) if m["winner"] is None
                       and m["outcome"] is None and None not in (m["player1"], m["player2"])]
            win(other, tid, waiting[0]["code"], waiting[0]["player1"])
        return plan

    monkeypatch.setattr(night, "correction_plan", then_a_result_comes)
    with Store.open(pilkku.db) as store:
        tid = store.tournaments.get()["id"]
        before = row(store, tid, code)
    status, _out, err = pilkku("correct", code, "--score", score, "--reason", "swapped",
                               "--played", "void", "--yes")
    assert status != 0 and "moved on" in err
    assert len(planned) == 2
    with Store.open(pilkku.db) as store:
        assert row(store, tid, code)["winner"] == before["winner"]
