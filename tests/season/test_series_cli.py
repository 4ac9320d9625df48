"""`pilkku people`, `pilkku series`, `pilkku prize` and `pilkku post` as a director types them
(host/tournament/cli/cmd_series*.py), and the hall's /series.html: what each prints, and every
command fed bad input: exit 2, one line saying what to do, no traceback, the store unchanged."""

from __future__ import annotations

import io
import json

import pytest

from host.cli import main
from host.desk import app as desk
from host.hall.app import Hall
from host.season import series
from host.tournament.store import Store
from tests.hall.asgi import get, text
from tests.season.test_series_table import NIGHTS, POINTS, round_robin, win


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "pilkku.db"
    with Store.open(path) as store:
        series.change_points(store, "club", **POINTS)
        for name, _day, players, games in NIGHTS:
            tid = round_robin(store, name, players)
            for winner, loser in games:
                win(store, tid, winner, loser)
    return str(path)


def pilkku(db: str, *words: str) -> int:
    return main(["--db", db, *words])


def dump(db: str) -> list:
    with Store.open(db) as store:
        conn = store.db.conn
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = "
                                             "'table' AND name != 'revision' ORDER BY name")]
        return [(t, conn.execute("SELECT * FROM %s" % t).fetchall()) for t in tables]


def _season(db: str) -> None:
    assert pilkku(db, "series", "new", "Syksy", "--game", "kaisa", "--points", "club",
                  "--from", "1.9.2026", "--to", "31.12.2026") == 0
    for name, day, _players, _games in NIGHTS:
        assert pilkku(db, "series", "add", "Syksy", name, "--date", day) == 0


def test_a_season_on_the_command_line(db, capsys):
    _season(db)
    capsys.readouterr()
    assert pilkku(db, "series", "table", "Syksy") == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Syksy (Kaisa)"
    assert [line.split()[:3] for line in out.splitlines()[3:7]] == [
        ["1", "A", "35"], ["2", "C", "26"], ["3", "D", "26"], ["4", "B", "13"]]
    assert pilkku(db, "series", "table", "Syksy", "--date", "8.9.2026", "--csv") == 0
    csv_lines = capsys.readouterr().out.splitlines()
    assert csv_lines[0] == "place,name,points,carried,nights,wins,best,1,2"
    assert csv_lines[1] == "1,C,22,0,2,2,18,4,18"
    assert pilkku(db, "series", "table", "Syksy", "--json") == 0
    document = json.loads(capsys.readouterr().out)
    assert [r["total"] for r in document["rows"]] == [35, 26, 26, 13]
    assert pilkku(db, "series", "close", "Syksy") == 0
    assert "closed" in capsys.readouterr().out
    assert pilkku(db, "series", "points", "club", "--win", "5") == 0
    assert "open series" not in capsys.readouterr().out  # the closed one stays
    assert pilkku(db, "series", "table", "Syksy", "--json") == 0
    assert [r["total"] for r in json.loads(capsys.readouterr().out)["rows"]] == [35, 26, 26, 13]


def test_the_halls_series_page(db):
    _season(db)
    hall = Hall(db=db, tournament=None)
    status, html = get(hall, "/series.html?series=Syksy")
    assert status == 200
    shown = text(html)
    assert shown.startswith("Syksy")
    assert "1 A 35 2 4" in shown and "4 B 13 2 1 9 4" in shown
    status, html = get(hall, "/series.html?series=Syksy&date=1.9.2026")
    assert "the nights until 1.9.2026" in text(html) and "1 A 15 1 2" in text(html)
    status, html = get(hall, "/series.html?series=Nobody")
    assert status == 200 and "no series named 'Nobody'" in text(html)
    status, html = get(hall, "/series.html", app=desk.make(hall))  # the desk serves it too
    assert status == 200 and "1 A 35 2 4" in text(html)


def test_the_series_pages_own_language_switch_comes_back_to_its_series(db):
    """/series.html has the hall's switch (it had none): Suomeksi sets the hall's cookie and
    comes back to the same series, in Finnish."""
    from host.hall.app import make_app
    from tests.hall.asgi import answer

    _season(db)
    app = make_app(Hall(db=db, tournament=None))
    page = answer(app, "GET", "/series.html?series=Syksy")[2]
    assert 'href="language?to=fi&amp;page=series&amp;series=Syksy"' in page
    status, headers, _ = answer(app, "GET", "/language?to=fi&page=series&series=Syksy")
    assert status == 303 and headers["location"] == "/series.html?series=Syksy"
    cookie = headers["set-cookie"].split(";", 1)[0]
    finnish = answer(app, "GET", headers["location"], headers=[("cookie", cookie)])[2]
    assert '<html lang="fi">' in finnish and "Syksy" in text(finnish)
    assert "Ranking series" not in finnish  # its words in Finnish


BAD = [
    ("people", "add", ""),
    ("people", "add", "A\x07"),
    ("people", "join", "A", "B", "--reason", ""),
    ("people", "join", "A", "A", "--reason", "x"),
    ("people", "join", "#999", "A", "--reason", "x"),
    ("people", "link", "--tournament", "Ilta 1", "--person", "A"),
    ("people", "link", "--tournament", "Nope"),
    ("people", "set", "#999", "--club", "X"),
    ("series", "new", "", "--game", "kaisa"),
    ("series", "new", "S", "--game", "kaisa", "--from", "31.2.2026"),
    ("series", "new", "S", "--game", "kaisa", "--from", "2.2.2026", "--to", "1.2.2026"),
    ("series", "new", "S", "--game", "kaisa", "--tie-break", "luck"),
    ("series", "new", "S", "--game", "kaisa", "--best", "0"),
    ("series", "new", "S", "--game", "kaisa", "--carry", "Nope"),
    ("series", "new", "S", "--game", "kaisa", "--carry", "Syksy", "--carry-points", "x"),
    ("series", "new", "S", "--game", "kaisa", "--carry-points", "5,3,1"),
    ("series", "new", "Syksy", "--game", "kaisa"),
    ("series", "new", "S", "--game", "kaisa", "--points", "nope"),
    ("series", "add", "Syksy", "Nope"),
    ("series", "add", "Syksy", "Ilta 1"),
    ("series", "add", "Syksy", "Ilta 9ball"),
    ("series", "add", "Syksy", "Ilta 1", "--date", "1.1.2020"),
    ("series", "add", "Nope", "Ilta 1"),
    ("series", "remove", "Syksy", "Ilta 9ball"),
    ("series", "table", "Nope"),
    ("series", "table", "Syksy", "--date", "tomorrow"),
    ("series", "close", "Nope"),
    ("series", "points", "club", "--places", "1,2,3,4,5,6,7,8,9,10,11"),
    ("series", "points", "club", "--win", "-1"),
    ("series", "points", "club", "--beat", ""),
    ("series", "points", "nope"),
    ("prize", "--fee", "x"),
    ("prize", "--fee", "10", "--paid", "50,60"),
    ("prize", "--fee", "10", "--federation", "120"),
    ("prize", "--fee", "10", "--tournament", "Nope"),
    ("prize", "--fee", "10", "--print"),
    ("post", "results", "--tournament", "Nope"),
    ("post", "invitation", "--date", "soon"),
    ("post", "invitation", "--series", "Nope"),
    ("post", "results", "--series", "Syksy", "--tournament", "Ilta 2"),
]


@pytest.mark.parametrize("words", BAD, ids=[" ".join(w)[:50] for w in BAD])
def test_bad_input_says_what_to_do_and_changes_nothing(db, capsys, words):
    with Store.open(db) as store:
        tid = store.tournaments.new("Ilta 9ball", {"game": "9ball", "rules": {}}, 5)
        store.people.link_tournament(tid)
    assert pilkku(db, "series", "new", "Syksy", "--game", "kaisa", "--points", "club") == 0
    assert pilkku(db, "series", "add", "Syksy", "Ilta 1", "--date", "1.9.2026") == 0
    capsys.readouterr()
    before = dump(db)
    try:
        code = pilkku(db, *words)
    except SystemExit as exit_:  # argparse's refusal of a malformed option
        code = exit_.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and "internal error" not in err
    assert err.strip() and len(err.strip().splitlines()) <= 2, err
    assert dump(db) == before


def test_people_on_the_command_line(db, capsys):
    assert pilkku(db, "people", "link", "--tournament", "Ilta 1") == 0
    assert capsys.readouterr().out.splitlines() == ["A: a new person #1", "B: a new person #2",
                                                    "C: a new person #3"]
    assert pilkku(db, "people", "link", "--tournament", "Ilta 2", "--new", "B") == 0
    assert capsys.readouterr().out.splitlines() == ["B: a new person #4",
                                                    "C: the known person #3",
                                                    "D: a new person #5"]
    assert pilkku(db, "people", "link", "--tournament", "Ilta 3") == 0
    assert capsys.readouterr().out.splitlines() == ["A: the known person #1",
                                                    "C: the known person #3",
                                                    "D: the known person #5"]
    assert pilkku(db, "people", "set", "#4", "--club", "PK", "--licence", "77") == 0
    assert pilkku(db, "people", "complete", "b", "--json") == 0
    capsys.readouterr()
    assert pilkku(db, "people", "complete", "b", "--json") == 0
    picked = json.loads(capsys.readouterr().out)
    assert [(p["id"], p["club"], p["licence"]) for p in picked] == [(2, "", ""),
                                                                    (4, "PK", "77")]
    assert pilkku(db, "people", "join", "#2", "#4", "--reason", "one B after all") == 0
    assert pilkku(db, "people", "history", "--csv") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == "at,kept,kept_name,joined,joined_name,reason,players,undone,undo_reason"
    assert out[-1].endswith(",2,B,4,B,one B after all,[4],,")
    assert pilkku(db, "people", "split", "#4", "--reason", "two Bs: the sheet said so") == 0
    assert "#4 is a person of his own again, not #2 (1 tournament" in capsys.readouterr().out
    assert pilkku(db, "people", "history", "--json") == 0
    (join,) = json.loads(capsys.readouterr().out)
    assert join["undone"] and join["undo_reason"] == "two Bs: the sheet said so"
    assert pilkku(db, "people", "split", "#4", "--reason", "again") == 2


def test_the_people_history_table_says_when_in_local_time(db, capsys, monkeypatch):
    """The text table's times are the laptop's local day and time, as the desk's people
    screen shows them; --csv keeps the store's UTC stamp (data)."""
    import time as clock
    from datetime import datetime

    monkeypatch.setenv("TZ", "Europe/Helsinki")
    clock.tzset()
    try:
        assert pilkku(db, "people", "add", "Beata") == 0
        assert pilkku(db, "people", "add", "Beatta") == 0
        added = [line.split("#", 1)[1].split()[0] for line in capsys.readouterr().out.splitlines()]
        assert pilkku(db, "people", "join", "#" + added[0], "#" + added[1],
                      "--reason", "one spelled twice") == 0
        capsys.readouterr()
        with Store.open(db) as store:
            utc = store.people.joins()[-1]["at"]
        local = datetime.fromisoformat(utc).astimezone().strftime("%Y-%m-%d %H:%M")
        assert pilkku(db, "people", "history") == 0
        table = capsys.readouterr().out
        assert local in table and utc not in table
        assert pilkku(db, "people", "history", "--csv") == 0
        assert utc in capsys.readouterr().out
    finally:
        monkeypatch.delenv("TZ")
        clock.tzset()


class Terminal(io.StringIO):
    """Typed answers at a terminal."""

    def isatty(self) -> bool:
        return True


def _two_matti(db: str) -> None:
    with Store.open(db) as store:
        for name in ("Ilta M1", "Ilta M2", "Ilta M3"):
            round_robin(store, name, ["Matti", "Eeva", "Olli"])
        store.people.link_tournament(store.tournaments.get("Ilta M1")["id"])
        store.people.link_tournament(store.tournaments.get("Ilta M2")["id"], new=["Matti"])
    assert pilkku(db, "series", "new", "S", "--game", "kaisa") == 0


def test_a_name_two_people_share_is_asked_about_at_a_terminal(db, capsys, monkeypatch):
    _two_matti(db)
    assert pilkku(db, "series", "add", "S", "Ilta M3") == 2  # no terminal: refused, as said
    assert "--person 'Matti=#ID'" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", Terminal("\n"))
    assert pilkku(db, "series", "add", "S", "Ilta M3") == 1  # asked, nothing answered
    out = capsys.readouterr().out
    assert out.splitlines()[:4] == ["'Matti' could be:", "  1) #1 Matti", "  2) #4 Matti",
                                    "  n) a new person"]
    assert "Nothing was changed." in out
    monkeypatch.setattr("sys.stdin", Terminal("2\n"))
    assert pilkku(db, "series", "add", "S", "Ilta M3") == 0
    with Store.open(db) as store:
        tid = store.tournaments.get("Ilta M3")["id"]
        matti = store.players.get(tid, "Matti")["id"]
        assert store.people.of_tournament(tid)[matti] == 4


def test_a_new_person_of_a_known_name_at_the_terminal(db, capsys, monkeypatch):
    _two_matti(db)
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    assert pilkku(db, "people", "link", "--tournament", "Ilta M3") == 0
    assert "Matti: a new person #5" in capsys.readouterr().out
    assert pilkku(db, "series", "add", "S", "Ilta M3", "--person", "Matti=#1") == 0


def test_the_halls_export_has_the_series_pages(db, tmp_path):
    _season(db)
    assert pilkku(db, "series", "new", "Talvi", "--game", "kaisa") == 0
    site = tmp_path / "site"
    assert pilkku(db, "hall", "--export", str(site)) == 0
    with Store.open(db) as store:
        ids = {s["name"]: s["id"] for s in store.series.all()}
    syksy = (site / ("series-%d.html" % ids["Syksy"])).read_text("utf-8")
    assert "1 A 35 2 4" in text(syksy)
    assert 'href="series-%d.html"' % ids["Talvi"] in syksy  # linked as files
    assert "No night counted yet." in text((site / "series.html").read_text("utf-8"))
