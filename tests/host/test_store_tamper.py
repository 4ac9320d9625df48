"""Tampering with the store file, as a person holding it would (an SQLite tool on the file,
no key used), against the real `pilkku` command: every form that shows results (`results`,
`--json`, `--csv`, `--history`, `standings` and `matches` in each form) names what was
changed, never counts a result that does not verify, exits 1, and never crashes. An
untouched night, and a night with the director's own entries, show nothing and exit 0."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from host.tournament import night as ops
from host.tournament.store import Store
from host.tournament.store.chain import link_mac
from tests.host.test_store import PLAYERS, cup, log_text

BOARD = "pk-1"
FORMS = [["results"], ["results", "--json"], ["results", "--csv"], ["results", "--history"],
         ["standings"], ["standings", "--json"], ["standings", "--csv"],
         ["matches"], ["matches", "--json"], ["matches", "--csv"]]


def chained_night(path: Path) -> Path:
    """A round robin of four with three results from one board, each a link of its chain."""
    with Store.open(path) as store:
        tid = cup(store, PLAYERS[:4])
        ops.draw_round_robin(store, tid)
        key, prev = store.tournaments.key(tid), ""
        for n, code in enumerate(["R1-01", "R1-02", "R2-01"], 1):
            match = next(m for m in store.matches.all(tid) if m["code"] == code)
            text = log_text([match["player1"], match["player2"]], [2, 0],
                            meta={"match_id": code, "started": 100 * n, "ended": 100 * n + 50})
            mac = link_mac(key, BOARD, n, prev, text.encode())
            store.chains.record(tid, BOARD, n, prev, mac, text)
            ops.record_result(store, code, text, BOARD, mac, 100 * n, 100 * n + 50,
                                tournament_id=tid, chain_n=n)
            prev = mac
    return path


@pytest.fixture
def night(tmp_path):
    return chained_night(tmp_path / "night.db")


def tamper(path, sql: str) -> None:
    """Edit the file as an attacker would: another connection, no pilkku code."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(sql)
        conn.commit()
    finally:
        conn.close()


def pilkku(path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "host.cli", *args, "--db", str(path),
                           "--tournament", "Cup"],
                          capture_output=True, text=True, timeout=120)


def standings(path) -> dict:
    return {row["player"]: row for row in json.loads(pilkku(path, "standings", "--json")
                                                     .stdout)["standings"]}


def test_an_untouched_night_shows_no_problem_and_exits_0(night):
    for form in FORMS:
        done = pilkku(night, *form)
        assert done.returncode == 0, (form, done.stdout, done.stderr)
        assert "FAILED" not in done.stdout + done.stderr, form
    assert json.loads(pilkku(night, "standings", "--json").stdout)["problems"] == []


# The flipped result: R1-01 is Anna vs Dan, 2:0 to Anna; the attacker gives it to Dan.
FLIP = ("UPDATE matches SET score1 = 0, score2 = 2, winner_id = player2_id WHERE code = "
        "'R1-01';")

TAMPERS = {
    "signature removed, score flipped": (
        "UPDATE results SET hmac = NULL WHERE chain_n = 1;" + FLIP,
        "match R1-01: its result (from pk-1) does not verify"),
    "signature removed, called a hand entry, score flipped": (
        "UPDATE results SET hmac = NULL, kind = 'manual', chain_n = NULL WHERE chain_n = 1;"
        + FLIP, "match R1-01: its result (from pk-1) is not signed: not counted"),
    "replaced by itself": (
        "UPDATE results SET replaced_by = id WHERE chain_n = 1;",
        "match R1-01 has a winner but no current result"),
    "replaced by another match's result": (
        "UPDATE results SET replaced_by = (SELECT id FROM results WHERE chain_n = 3) "
        "WHERE chain_n = 1;", "is marked replaced by"),
    "a link's tournament id edited": (
        "UPDATE board_links SET tournament_id = 99 WHERE n = 1;",
        "board pk-1: result #1 does not verify"),
    "the only link moved to another tournament id": (
        "UPDATE board_links SET tournament_id = 99;",
        "match R1-01: its result (from pk-1) does not verify"),
    "moved to an unplayed match": (
        "UPDATE results SET match_id = (SELECT id FROM matches WHERE code = 'R3-02') "
        "WHERE chain_n = 1;", "match R1-01 has a winner but no current result"),
    "the match moved to another tournament": (
        "INSERT INTO tournaments (name, game, race_to, rules, pairing_key, created) VALUES "
        "('Other', '9ball', 2, '{}', x'00', '2026-01-01');"
        "UPDATE matches SET tournament_id = (SELECT id FROM tournaments WHERE name = 'Other') "
        "WHERE code = 'R1-01';",
        "board pk-1: the result of match R1-01 (#1) is no longer that match's"),
    "the match renamed": (
        "UPDATE matches SET code = 'R9-99' WHERE code = 'R1-01';",
        "board pk-1: the result of match R1-01 (#1) is no longer that match's"),
    "deleted, its match's winner kept": (
        "DELETE FROM results WHERE chain_n = 1; DELETE FROM board_links WHERE n = 1;",
        "match R1-01 has a winner but no current result"),
}


@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_store_is_named_by_every_form_and_exits_1(night, name):
    sql, says = TAMPERS[name]
    tamper(night, sql)
    for form in FORMS:
        done = pilkku(night, *form)
        shown = done.stdout + done.stderr
        assert done.returncode == 1, (name, form, shown)
        assert "FAILED: " in shown and says in shown, (name, form, shown)
        assert "internal error" not in shown and "Traceback" not in shown, (name, form)
        assert "no tournament with id" not in shown, (name, form)
    document = json.loads(pilkku(night, "standings", "--json").stdout)
    assert any(says in p for p in document["problems"]), document["problems"]
    table = standings(night)
    # R1-01 (Anna's win over Dan, or Dan's flipped one) is not counted for anyone
    assert table["Dan"]["played"] == 0 and table["Anna"]["played"] <= 1, table


def test_a_board_result_without_its_signature_fails_not_unsigned(night):
    tamper(night, "UPDATE results SET hmac = NULL WHERE chain_n = 1;" + FLIP)
    rows = json.loads(pilkku(night, "results", "--json").stdout)
    assert [(r["match"], r["verified"]) for r in rows][0] == ("R1-01", False)
    text = pilkku(night, "results").stdout
    line = next(x for x in text.splitlines() if x.startswith("R1-01"))
    assert line.split()[-1] == "FAILED", line


def test_a_result_moved_to_an_unplayed_match_is_shown_without_a_score(night):
    tamper(night, TAMPERS["moved to an unplayed match"][0])
    done = pilkku(night, "results")
    line = next(x for x in done.stdout.splitlines() if x.startswith("R3-02"))
    assert line.split()[-1] == "FAILED" and ":" not in line, line
    assert "match R3-02: its result (from pk-1) does not verify" in done.stdout


def test_the_directors_entries_verify_and_exit_0(night, tmp_path):
    """A result entered by hand, a correction and a walkover are the director's, signed with
    the tournament's key: no problem, counted."""
    with Store.open(night) as store:
        tid = store.tournaments.get()["id"]
        match = next(m for m in store.matches.all(tid) if m["code"] == "R2-02")
    log = tmp_path / "r2-02.json"
    log.write_text(log_text([match["player1"], match["player2"]], [1, 2]))
    steps = [["record", "R2-02", str(log)],
             ["correct", "R1-01", "--score", "1:2", "--reason", "the scorer's slip"],
             ["walkover", "R3-01", "Anna", "--reason", "Ben did not come"]]
    for step in steps:
        done = pilkku(night, *step)
        assert done.returncode == 0, (step, done.stdout, done.stderr)
    for form in FORMS:
        done = pilkku(night, *form)
        assert done.returncode == 0, (form, done.stdout, done.stderr)
    assert standings(night)["Dan"]["won"] >= 1  # the corrected R1-01 counts for Dan


@pytest.mark.parametrize("name", ["replaced by itself", "moved to an unplayed match"])
def test_the_halls_pages_name_the_problems_too(night, name):
    """The hall reads the same Store.results and Store.problems as the commands."""
    from host.hall import pages

    tamper(night, TAMPERS[name][0])
    with Store.open(night) as store:
        t = store.tournaments.get()
        for key in ("draw", "results"):
            html = pages.page(store, t, key, 0)
            assert "FAILED: match R1-01 has a winner but no current result" in html, key
            assert "None" not in html, key
