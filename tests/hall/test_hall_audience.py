"""The hall as the audience reads it (issue 27, item 9): a walkover is a walkover, not a
played 60–0 at a table; the director's reasons stay the director's; a match's page by its
code; a match report in words and local time; a card says "playing" only once the referee has
started the match, and marks the winner of a finished one; `pilkku matches` says the same.
Pages are fetched from the hall's app in-process (tests/hall/asgi.py), stores made by the
director's operations (tests/hall/night.py)."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime

import pytest

from host import cli
from host.hall import export, pages
from host.hall.app import Hall
from host.tournament import night
from host.tournament.night import hand
from host.tournament.store import Store
from tests.hall import night as nights
from tests.hall.asgi import get, text


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "hall.db")


def match_id(db: str, code: str) -> int:
    with Store.open(db) as store:
        t = store.tournaments.get()
        return next(m["id"] for m in store.matches.all(t["id"]) if m["code"] == code)


def test_a_walkover_reads_as_a_walkover_not_a_played_score_at_a_table(db):
    tid = nights.cup(db, game="kaisa", race=60, tables=4)
    with Store.open(db) as store:
        night.assign(store, tid, "R1-02", 4)
        night.walkover(store, tid, "R1-02", "Åsa Ek", "ei tullut")
    hall = Hall(db, None)
    row = text(get(hall, "/results.html")[1], "result-R1-02")
    assert "w.o." in row and "walkover" in row
    assert "60" not in row and "–0" not in row  # no played score ...
    assert "4" not in row.split("Åsa Ek")[0]  # ... and no table it was played at
    shown = {"schedule": text(get(hall, "/schedule.html")[1], "match-R1-02"),
             "draw": text(get(hall, "/draw.html")[1], "bout-R1-02"),
             "report": text(get(hall, "/match/%d.html" % match_id(db, "R1-02"))[1])}
    for page, words in shown.items():
        assert "w.o." in words and "60" not in words, (page, words)
    assert "walkover" in shown["report"] and "table 4" not in shown["report"]


def test_the_directors_reasons_are_on_no_public_page(db, tmp_path):
    tid = nights.cup(db)
    with Store.open(db) as store:
        night.walkover(store, tid, "R1-02", "Åsa Ek", "Ben ei tullut")
        nights.play(store, tid, "R1-01")
        night.correct(store, tid, "R1-01", "kirjausvirhe", score=(2, 0))
        assert night.withdraw(store, tid, "Ben", "sairastui")  # his matches walked over
        keys = pages.keys(store, store.tournaments.get())
    reasons = ("Ben ei tullut", "kirjausvirhe", "sairastui")
    hall = Hall(db, None)
    for key in keys + ["match/R1-01"]:
        status, page = get(hall, "/%s.html" % key)
        assert status == 200 and not [r for r in reasons if r in page], key
    with Store.open(db) as store:
        written = export.export(store, store.tournaments.get(), tmp_path / "site")
    assert not [p for p in written if any(r in p.read_text("utf-8") for r in reasons)]
    # The director, in the browser the printed link opened, reads them.
    results = text(get(hall, "/results.html", director=True)[1])
    assert all(r in results for r in reasons)
    assert "kirjausvirhe" in get(hall, "/match/R1-01.html", director=True)[1]


def test_a_match_page_is_found_by_its_code_as_by_its_id(db):
    tid = nights.cup(db)
    with Store.open(db) as store:
        nights.play(store, tid, "R1-02", winner=1)
    hall = Hall(db, None)
    by_code = get(hall, "/match/R1-02.html")
    by_id = get(hall, "/match/%d.html" % match_id(db, "R1-02"))
    assert by_code[0] == 200 and "Match R1-02" in text(by_code[1])
    assert text(by_code[1]) == text(by_id[1])
    assert get(hall, "/match/R9-99.html")[0] == 404
    assert get(hall, "/match/..%2Fstats.html")[0] == 404


def test_a_match_report_has_no_rule_keys_and_its_times_are_local(db, monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Helsinki")
    time.tzset()
    try:
        tid = nights.cup(db)
        with Store.open(db) as store:
            nights.play(store, tid, "R1-01")
            received = store.results.current("R1-01")["received"]
        page = text(get(Hall(db, None), "/match/%d.html" % match_id(db, "R1-01"))[1])
        local = datetime.fromisoformat(received).astimezone()
        assert local.utcoffset() and local.strftime("%Y-%m-%d %H:%M") in page
        assert received not in page and "+00:00" not in page
        assert "rules:" not in page and "break_rule" not in page and "=" not in page
        # the match's own times (the board's clock, seconds since 1970), local too
        assert datetime.fromtimestamp(1_796_000_000).strftime("%H:%M") in page
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def matches_status(db: str, code: str, capsys) -> str:
    assert cli.main(["matches", "--json", "--db", db]) == 0
    rows = json.loads(capsys.readouterr().out)
    return next(r["status"] for r in rows if r["match"] == code)


def test_playing_only_once_the_referee_has_started_the_match(db, capsys):
    tid = nights.cup(db)
    with Store.open(db) as store:
        night.assign(store, tid, "R1-01", 1)
        night.assign(store, tid, "R1-02", 1)
        one, two = [(m["player1"], m["player2"]) for m in store.matches.all(tid)][:2]
        store.live.put("pk-1", tid, 1, None)  # the board shows its menu: R1-01 not started
    hall = Hall(db, None)
    card = text(get(hall, "/index.html")[1], "table-1")
    assert "board idle" in card and "R1-01" in card and "not started" in card
    assert "playing" not in card
    schedule = get(hall, "/schedule.html")[1]
    assert text(schedule, "match-R1-01").endswith("next at table 1, not started")
    assert text(schedule, "match-R1-02").endswith("queued at table 1 (2nd)")
    assert matches_status(db, "R1-01", capsys) == "next at table 1, not started"
    assert matches_status(db, "R1-02", capsys) == "queued at table 1 (2nd)"

    with Store.open(db) as store:  # the referee starts it
        store.live.put("pk-1", tid, 1, nights.live("R1-01", list(one), [0, 0]))
    card = text(get(hall, "/index.html")[1], "table-1")
    assert "playing" in card and "not started" not in card
    assert text(get(hall, "/schedule.html")[1], "match-R1-01").endswith("playing at table 1")
    assert matches_status(db, "R1-01", capsys) == "playing at table 1"

    with Store.open(db) as store:  # finished on the board, its result not synced yet
        store.live.put("pk-1", tid, 1, nights.live("R1-01", list(one), [2, 1], finished=True))
    assert "finished" in text(get(hall, "/index.html")[1], "table-1")
    assert text(get(hall, "/schedule.html")[1], "match-R1-01").endswith(
        "finished at table 1, result not in yet")
    assert matches_status(db, "R1-01", capsys) == "finished at table 1, result not in yet"


@pytest.mark.parametrize("score, won", [([2, 1], 0), ([0, 2], 1)])
def test_a_finished_card_marks_the_winner(db, score, won):
    tid = nights.cup(db)
    with Store.open(db) as store:
        night.assign(store, tid, "R1-01", 1)
        players = [store.matches.all(tid)[0]["player%d" % i] for i in (1, 2)]
        store.live.put("pk-1", tid, 1, nights.live("R1-01", players, score, finished=True))
    page = get(Hall(db, None), "/index.html")[1]
    card = page[page.index('id="table-1"'):]
    rows = re.findall(r'<div class="player([^"]*)">(.*?)</div>', card, re.S)[:2]
    assert ["winner" in classes for classes, _ in rows] == [i == won for i in (0, 1)]
    winner_row = text('<div id="w">%s</div>' % rows[won][1], "w")
    assert winner_row.startswith(players[won]) and "winner" in winner_row  # read aloud too
    assert "winner" not in text('<div id="l">%s</div>' % rows[1 - won][1], "l")


def test_a_hand_result_a_void_and_both_losing_say_so_on_every_page(db):
    tid = nights.cup(db)
    with Store.open(db) as store:
        night.assign(store, tid, "R1-01", 1)
        hand.record_hand(store, tid, "R1-01", "2:1", "pöytäkirjasta")
        hand.no_winner(store, tid, "R1-02", "void", "väärä pari")
        hand.no_winner(store, tid, "R2-01", "both_lose", "kumpikaan ei tullut")
    hall = Hall(db, None)
    results, schedule, draw = (get(hall, "/%s.html" % page)[1]
                               for page in ("results", "schedule", "draw"))
    by_hand = text(results, "result-R1-01")
    assert "2–1" in by_hand and "entered by hand" in by_hand and " 1 " in by_hand  # its table kept
    for code, words, score in (("R1-02", "void — did not count", "void"),
                               ("R2-01", "lost by both — both absent", "lost by both")):
        row = text(results, "result-" + code)
        assert words in row and not re.search(r"[0-9]–[0-9]", row), row
        assert text(schedule, "match-" + code).endswith(words)
        assert score in text(schedule, "match-" + code)
        assert words in text(draw, "bout-" + code)
        report = text(get(hall, "/match/%s.html" % code)[1])
        assert words in report and "No result yet" not in report
    assert "entered by hand" in text(draw, "bout-R1-01")
    assert "entered by hand" in text(get(hall, "/match/R1-01.html")[1])
    assert not [r for r in ("pöytäkirjasta", "väärä pari", "kumpikaan")
                if r in results + schedule + draw]


def test_pilkku_matches_says_a_void_and_a_match_lost_by_both_are_decided(db, capsys):
    tid = nights.cup(db)
    with Store.open(db) as store:
        hand.no_winner(store, tid, "R1-02", "void", "väärä pari")
        hand.no_winner(store, tid, "R2-01", "both_lose", "kumpikaan ei tullut")
    assert matches_status(db, "R1-02", capsys) == "void: did not count"
    assert matches_status(db, "R2-01", capsys) == "lost by both"
