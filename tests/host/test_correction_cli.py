"""`pilkku correct` shows what a correction does to the draw before doing it (issue 27, item
1): the plan (stands, redrawn, played or in play: keep or void, the tables' queues), then
"Apply? [y/N]" at a terminal, at once with --yes, refused without a terminal, --dry-run and
--json only showing it; `pilkku results --history` shows the voided matches' entries."""

from __future__ import annotations

import io
import json

import pytest

from host.tournament.store import Store
from tests.host.correction_night import code_of, new_night, opening_played, row, win
from tests.host.test_store import dump
from tests.host.test_tournament_cli import Director


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def night(tmp_path, capsys):
    """The 8-player hakukaavio of test_correction_plan with round 3 drawn, 5-8 played; the
    flip of round 1's 5-6 that redraws 2-7 and asks about 5-8."""
    pilkku = Director(tmp_path, capsys)
    with Store.open(pilkku.db) as store:
        tid = new_night(store, "hakukaavio", 8, tables=2)
        names = opening_played(store, tid)
        played = code_of(store, tid, names[5], names[8])
        win(store, tid, played, names[5])
        code = code_of(store, tid, names[5], names[6])
        m = row(store, tid, code)
        score = "1:2" if m["player2"] == names[6] else "2:1"
        redrawn = code_of(store, tid, names[2], names[7])
    return pilkku, code, score, played, redrawn


def test_the_plan_is_shown_and_a_choice_asked_for(night):
    pilkku, code, score, played, redrawn = night
    before = dump(pilkku.db)
    status, out, err = pilkku("correct", code, "--score", score, "--reason", "swapped")
    assert status == 2 and "What this correction changes:" in out
    assert "Redrawn (not started): %s" % redrawn in out
    assert played in out and "keep or void?" in out
    assert "--played keep" in err and "--played void" in err and played in err
    assert dump(pilkku.db) == before


def test_without_a_terminal_it_says_to_add_yes(night):
    pilkku, code, score, played, _redrawn = night
    before = dump(pilkku.db)
    status, out, err = pilkku("correct", code, "--score", score, "--reason", "swapped",
                              "--played", "void")
    assert status == 2 and "voided: they do not count" in out and "--yes" in err
    assert dump(pilkku.db) == before
    out = pilkku.ok("correct", code, "--score", score, "--reason", "swapped", "--played",
                    "void", "--yes")
    assert "%s corrected:" % code in out
    history = json.loads(pilkku.ok("results", "--history", "--json"))
    voided = [h for h in history if h["match"] == played][-1]
    assert (voided["kind"], voided["board"], voided["verified"]) == ("void", "director", True)
    assert "swapped" in voided["reason"] and code in voided["reason"]
    text = pilkku.ok("results", "--history")
    assert "void" in text and "%s voided" % played in text  # the correction's reason says so


def test_at_a_terminal_it_asks(night, monkeypatch):
    pilkku, code, score, played, _redrawn = night
    before = dump(pilkku.db)
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    status, out, _err = pilkku("correct", code, "--score", score, "--reason", "swapped",
                               "--played", "keep")
    assert status == 1 and "Apply? [y/N]" in out and "Nothing was changed." in out
    assert dump(pilkku.db) == before
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    out = pilkku.ok("correct", code, "--score", score, "--reason", "swapped", "--played",
                    "keep")
    assert "kept: they stand as played" in out and "%s corrected:" % code in out
    with Store.open(pilkku.db) as store:
        tid = store.tournaments.get()["id"]
        assert row(store, tid, played)["outcome"] is None


def test_dry_run_and_json_only_show_it(night):
    pilkku, code, score, played, redrawn = night
    before = dump(pilkku.db)
    out = pilkku.ok("correct", code, "--score", score, "--reason", "x", "--dry-run")
    assert "What this correction changes:" in out
    plan = json.loads(pilkku.ok("correct", code, "--score", score, "--reason", "x", "--json"))
    assert plan["match"] == code and plan["choice_needed"] and not plan["applied"]
    assert [r["match"] for r in plan["redrawn"]] == [redrawn]
    assert [(r["match"], r["state"]) for r in plan["depends"]] == [(played, "played")]
    assert {"table", "before", "after"} <= set(plan["queues"][0]) if plan["queues"] else True
    assert dump(pilkku.db) == before
    plan = json.loads(pilkku.ok("correct", code, "--score", score, "--reason", "x", "--json",
                                "--played", "void", "--yes"))
    assert plan["applied"] and plan["followed"].startswith("%s redrawn" % redrawn)
