"""The hall without a browser: the static export, the director's token, the event stream,
`pilkku stats`, and the watcher's checks of what a board says about its live match."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from host import cli
from host.bench.hall import serving
from host.desk import guard
from host.sync.commands import Desk
from host.sync.watch import BadLive, check_live, watch
from host.tournament.store import Store
from tests.hall import tournament

LIVE = {"game": "9ball", "players": ["Äijälä Öhman", "Caisa"], "score": [1, 0], "shooter": 0,
        "finished": False, "race_to": 3, "rack": 2, "inning": 1, "fouls": [0, 1],
        "clock": "27", "events": 7, "match_id": "R1-01"}


def get(url: str, cookie: str = "") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def post(url: str, body: str, cookie: str = "", origin: str | None = "") -> int:
    """A form POST; `origin`: the page's Origin header ("": the server's own, None: none)."""
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    if origin is not None:
        headers["Origin"] = origin or url.rsplit("/", 1)[0]
    request = urllib.request.Request(url, data=body.encode(), method="POST", headers=headers)
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_export_writes_every_page_as_static_html(round_robin_db, tmp_path, capsys):
    out = tmp_path / "site"
    assert cli.main(["hall", "--db", round_robin_db, "--export", str(out)]) == 0
    # seven pages, six match reports, two overlays, the style sheet and the CSV
    assert "wrote 17 files of 'Kevät Cup'" in capsys.readouterr().out
    names = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert {"index.html", "tv.html", "draw.html", "tv-draw.html", "schedule.html",
            "results.html",
            "stats.html", "stats.csv", "static/hall.css", "overlay/1.html"} <= names
    report = next(out.glob("match/*.html")).read_text(encoding="utf-8")
    assert "Rack 1, " in report and "verified: signed by the table&#39;s board" in report
    assert "hall.js" not in report and "data-events" not in report  # static: no live updates
    assert 'href="../draw.html"' in report  # relative links work from a folder on a website
    assert "Äijälä Öhman" in (out / "draw.html").read_text(encoding="utf-8")


def test_pilkku_stats_prints_csv_from_the_match_logs(round_robin_db, capsys):
    assert cli.main(["stats", "--db", round_robin_db, "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("player,matches,won,innings,score,high_run,average,break_and_runs,"
                        "break_wins,fouls,safeties,extensions")
    rows = {line.split(",")[0]: line.split(",") for line in lines[1:]}
    assert set(rows) == {"Äijälä Öhman", "Åsa Ek", "Ben", "Caisa"}
    assert sum(int(r[2]) for r in rows.values()) == 6  # one winner per match
    assert cli.main(["stats", "--db", round_robin_db, "--match", "R9-99"]) == 2
    assert "no match 'R9-99'" in capsys.readouterr().err


def test_pilkku_stats_of_one_match_prints_its_figures(round_robin_db, capsys):
    assert cli.main(["stats", "--db", round_robin_db, "--match", "R1-01"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("from the match logs, match R1-01")
    assert len(out.splitlines()) == 5  # the line, the headings, the rule, the two players


def form_token(page: str) -> str:
    """The form token the director's schedule carries in its Assign forms."""
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert found, "no form token on the page"
    return found.group(1)


def test_only_the_director_may_assign_and_only_with_the_printed_token(tmp_path):
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    with serving(db) as (url, hall):
        assert post(url + "/assign", "match=R1-01&table=2") == 403
        assert post(url + "/assign", "match=R1-01&table=2", "pilkku_director=guess") == 403
        assert get(url + "/director?token=guess")[0] == 403
        status, page = get(url + "/schedule.html", "pilkku_director=" + hall.token)
        assert status == 200 and "You are the director" in page
        assert "You are the director" not in get(url + "/schedule.html")[1]
        assert "csrf" not in get(url + "/schedule.html")[1]
        token = form_token(page)
        assert post(url + "/assign", "match=R1-01&table=2&csrf=" + token,
                    "pilkku_director=" + hall.token) == 303
        assert post(url + "/assign", "match=R1-01&table=x&csrf=" + token,
                    "pilkku_director=" + hall.token) == 400
    with Store.open(db) as store:
        t = store.tournaments.get()
        assert [m["match_id"] for m in store.tables.schedule(t["id"], 2)] == ["R1-01"]


def test_a_replayed_or_cross_site_assign_is_refused_and_changes_nothing(tmp_path):
    """The hall's Assign has the desk's guard (host/desk/guard.py): the director's cookie,
    the form token only the director's pages carry, and an Origin naming this server. A
    request replayed without the cookie or the token, or sent from another site, is refused
    (403) and nothing is assigned."""
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    with serving(db) as (url, hall):
        cookie = "pilkku_director=" + hall.token
        token = form_token(get(url + "/schedule.html", cookie)[1])
        form = "match=R1-01&table=2"
        assert post(url + "/assign", form + "&csrf=" + token) == 403  # no cookie
        assert post(url + "/assign", form, cookie) == 403  # no token
        assert post(url + "/assign", form + "&csrf=" + "0" * 32, cookie) == 403
        assert post(url + "/assign", form + "&csrf=" + token, cookie, origin=None) == 403
        assert post(url + "/assign", form + "&csrf=" + token, cookie,
                    origin="http://evil.example") == 403
    with Store.open(db) as store:
        t = store.tournaments.get()
        assert store.tables.schedule(t["id"], 2) == []


def test_a_walkover_has_a_report_without_a_log(tmp_path, capsys):
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    assert cli.main(["walkover", "R1-02", "Ben", "--reason", "Åsa ei tullut", "--db", db]) == 0
    with Store.open(db) as store:
        t = store.tournaments.get()
        match_id = next(m["id"] for m in store.matches.all(t["id"]) if m["code"] == "R1-02")
    with serving(db) as (url, hall):
        status, page = get(url + "/match/%d.html" % match_id)
        assert status == 200, page
        assert "No match log: walkover, entered by the director." in page
        assert "verified: signed by the director" in page
        assert "Åsa ei tullut" not in page  # the director's reason: the director's page only
        assert "Åsa ei tullut" in get(url + "/match/%d.html" % match_id,
                                      "pilkku_director=" + hall.token)[1]
        assert get(url + "/stats.html")[0] == 200


def test_the_event_stream_pushes_a_new_live_state(tmp_path):
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        store.live.put("pk-one", tid, 1, LIVE)
    with serving(db) as (url, _hall):
        with urllib.request.urlopen(url + "/events?page=overlay/1", timeout=10) as stream:
            first = _next_event(stream)
            assert "Äijälä Öhman" in first["main"] and ">1<" in first["main"]
            with Store.open(db) as store:
                store.live.put("pk-one", tid, 1, dict(LIVE, score=[2, 0]))
            # The next update that shows it (one saying the board went quiet may come first
            # on a slow machine: the state was put before the stream opened).
            assert any(">2<" in _next_event(stream)["main"] for _ in range(3))
        assert get(url + "/events?page=../etc")[0] == 404


def _next_event(stream) -> dict:
    for raw in stream:
        line = raw.decode("utf-8")
        if line.startswith("data: "):
            return json.loads(line[6:])
    raise AssertionError("the stream ended")


@pytest.mark.parametrize("change", [
    {"score": [1.0, 0]}, {"score": [True, 0]}, {"game": "snooker"}, {"shooter": 2},
    {"players": ["A" * 41, "B"]}, {"players": ["A\x1b[2J", "B"]}, {"clock": "x" * 9},
    {"fouls": [0]}, {"finished": 0}, {"events": -1}, {"rack": 2 ** 63}])
def test_a_live_state_is_checked_field_by_field(change):
    assert check_live(dict(LIVE)) == LIVE
    with pytest.raises(BadLive):
        check_live(dict(LIVE, **change))


def test_a_board_that_stops_answering_is_marked_silent(tmp_path, firmware):
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    board = tournament.boards(tmp_path, firmware, db, 1)[0]
    assert tournament.start_match(board)
    with Store.open(db) as store:
        t = store.tournaments.get()
        key = store.tournaments.key(t["id"])
    stop = threading.Event()
    said: list[str] = []
    watcher = threading.Thread(target=watch, args=([board.pty_path], Desk(db, t), key, stop),
                               kwargs={"say": said.append, "interval": 0.3}, daemon=True)
    watcher.start()
    try:
        row = _wait_row(db, t["id"], lambda r: r["state"] is not None)
        assert row["state"]["players"] == ["Äijälä Öhman", "Caisa"] and not row["silent"]
        board.kill()
        row = _wait_row(db, t["id"], lambda r: r["silent"])
        assert row["state"]["score"] == [0, 0]  # the last confirmed state is kept, as it was
        assert any("still trying" in text for text in said)
    finally:
        stop.set()
        watcher.join(timeout=10)
        board.close()


def _wait_row(db: str, tid: int, check) -> dict:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        with Store.open(db) as store:
            rows = store.live.states(tid)
        if rows and check(rows[0]):
            return rows[0]
        time.sleep(0.1)
    raise AssertionError("the store never showed it: %s" % rows)


def test_a_page_that_does_not_exist_is_404(round_robin_db):
    with serving(round_robin_db) as (url, _hall):
        for path in ("/match/99999.html", "/overlay/9.html", "/../../etc/passwd", "/nope.html"):
            assert get(url + path)[0] == 404, path
        status, text = get(url + "/stats.csv")
        assert status == 200 and text.startswith("player,matches,won")
    assert Path(round_robin_db).exists()


def test_the_bench_holds_its_event_stream_clients(tmp_path):
    from host.bench.hall import clients_held

    held = clients_held(tmp_path, clients=5, rounds=2)
    assert held["held"] == 5 and held["samples"] == 10 and held["p99"] >= 0


class _Log(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def _raw(port: int, parts: list[bytes]) -> bytes:
    """What the server answers to bytes sent as they are, in parts a moment apart."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        for part in parts:
            sock.sendall(part)
            time.sleep(0.1)
        sock.shutdown(socket.SHUT_WR)
        got = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(4096):
                got += chunk
    return got


def test_malformed_assign_requests_get_a_400_and_no_traceback(tmp_path):
    """A broken chunked body, a body longer than its Content-Length, and table numbers in
    other digits than 0-9 ('٣', '３'): each a clear 400, nothing assigned, and nothing but a
    warning line in the server's log."""
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    log = _Log()
    with serving(db) as (url, hall):
        errors = logging.getLogger("uvicorn.error")
        errors.addHandler(log)
        try:
            port = int(url.rsplit(":", 1)[1])
            head = ("POST /assign HTTP/1.1\r\nHost: hall\r\nCookie: pilkku_director=%s\r\n"
                    "Origin: http://hall\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\n" % hall.token).encode()
            chunked = _raw(port, [head + b"Transfer-Encoding: chunked\r\n\r\n",
                                  b"ZZ\r\nmatch=R1-01\r\n0\r\n\r\n"])
            seen = ("csrf=%s&match=R1-01&table=" % guard.form_token(hall)).encode()
            longer = _raw(port, [head + b"Content-Length: %d\r\n\r\n" % len(seen),
                                 seen + b"2&more=1"])  # (the app reads no table)
            answers = [chunked, longer]
            for digits in ("%D9%A3", "%EF%BC%93", "1%D9%A3"):  # '٣', '３', '1٣'
                form = ("match=R1-01&table=%s&csrf=%s" % (digits, guard.form_token(hall))
                        ).encode()
                answers.append(_raw(port, [head + b"Content-Length: %d\r\n\r\n" % len(form)
                                           + form]))
        finally:
            errors.removeHandler(log)
    assert all(answer.startswith(b"HTTP/1.1 400 ") for answer in answers), answers
    assert b"give a table number" in answers[-1]
    assert not [line for line in log.lines if "Exception" in line or "Traceback" in line], \
        log.lines
    with Store.open(db) as store:
        t = store.tournaments.get()
        assert store.tables.schedule(t["id"], 3) == [] and store.tables.schedule(t["id"], 2) == []


BROKEN_BODIES = {  # what follows the request's head, in the parts it is sent in
    "a bad chunk after the head": [b"Transfer-Encoding: chunked\r\n\r\n",
                                   b"ZZ\r\nmatch=R1-01\r\n0\r\n\r\n"],
    "a bad chunk with the head": [b"Transfer-Encoding: chunked\r\n\r\nZZ\r\nmatch\r\n0\r\n\r\n"],
    "a good chunk then a bad one": [b"Transfer-Encoding: chunked\r\n\r\n5\r\nmatch\r\n",
                                    b"ZZ\r\n=R1\r\n0\r\n\r\n"],
    "a chunk cut short": [b"Transfer-Encoding: chunked\r\n\r\n", b"50\r\nmatch=R1"],
    "a body cut short": [b"Content-Length: 50\r\n\r\n", b"match=R1-01"],
}


@pytest.mark.parametrize("path", ["/assign", "/", "/schedule.html"])
@pytest.mark.parametrize("director", [False, True], ids=["no-cookie", "director"])
def test_a_broken_body_leaves_the_servers_log_clean(tmp_path, path, director):
    """A POST whose body breaks (a bad chunk, or the client gone mid-body), with or without
    the director's cookie: the client gets a 4xx or nothing (it left), and the server's log
    has no traceback. Without the cookie the hall answered before reading the body; uvicorn
    then met the bad chunk after the answer and logged 'Exception in ASGI application' (the
    chunk came with the head) or asyncio's 'Fatal error: protocol.data_received() call
    failed' with h11's LocalProtocolError."""
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    log = _Log()
    loggers = [logging.getLogger(name) for name in ("uvicorn", "asyncio", "")]
    answers = {}
    with serving(db) as (url, hall):
        for logger in loggers:
            logger.addHandler(log)
        try:
            port = int(url.rsplit(":", 1)[1])
            cookie = "Cookie: pilkku_director=%s\r\n" % hall.token if director else ""
            head = ("POST %s HTTP/1.1\r\nHost: hall\r\n%sContent-Type: "
                    "application/x-www-form-urlencoded\r\n" % (path, cookie)).encode()
            for name, parts in BROKEN_BODIES.items():
                answers[name] = _raw(port, [head + parts[0]] + parts[1:])
                # the server's side of a connection ends a moment after the client's: a
                # request that ends it cleanly lets the next one start after it
                assert get(url + "/index.html")[0] == 200
        finally:
            for logger in loggers:
                logger.removeHandler(log)
    for name, answer in answers.items():
        status = answer.split(b" ", 2)[1] if answer else b""
        assert status in (b"", b"400", b"403") or (status == b"405" and path != "/assign"), \
            (name, answer)
        if "bad chunk" in name:
            assert answer, name  # the client is still there: it is answered
    bad = [line for line in log.lines if "Traceback" in line or "Exception" in line
           or "Error" in line]
    assert not bad, bad
    with Store.open(db) as store:
        assert store.tables.schedule(store.tournaments.get()["id"], 2) == []


def _next_event_with(stream, text: str) -> dict:
    """The next pushed update whose <main> holds `text` (updates without it may come first:
    the stream's first message is the page as it was at its start)."""
    while True:
        update = _next_event(stream)
        if text in update["main"]:
            return update


def test_a_correction_that_keeps_the_winner_reaches_an_open_page(tmp_path):
    """The hall pushed when its signature of chosen fields moved (winners, tables, queue
    slots): a correction keeping the winner changed none, and open pages never showed it
    (issue 32, item 4). Now it pushes when the store's revision moves, as every write moves it:
    a walkover, then two corrections of its score, each reach the open results page."""
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    with Store.open(db) as store:
        t = store.tournaments.get()
        match = next(m for m in store.matches.all(t["id"]) if m["code"] == "R1-01")
    one, two = match["player1"], match["player2"]
    with serving(db) as (url, hall):
        # The read's timeout only ends a failing run (no update ever comes): the stream's
        # keep-alive comes every 15 s. The director's stream: the reasons are on it.
        with _stream(url + "/events?page=results", "pilkku_director=" + hall.token) as stream:
            assert "No results yet." in _next_event(stream)["main"]
            tournament.pilkku("walkover", "R1-01", one, "--reason", "no show", "--db", db)
            _next_event_with(stream, '%s</td><td class="score">w.o.</td><td>%s' % (one, two))
            for score in ("2:1", "2:0"):
                tournament.pilkku("correct", "R1-01", "--score", score, "--reason",
                                  "the referee's slip", "--db", db)
                shown = _next_event_with(stream, '%s</td><td class="score">%s</td><td>%s' % (
                    one, score.replace(":", "–"), two))
                assert "corrected by the director" in shown["main"]
                assert "reason: the referee&#39;s slip" in shown["main"]


def _stream(url: str, cookie: str = ""):
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    return urllib.request.urlopen(request, timeout=12)


def test_the_directors_schedule_keeps_its_forms_when_a_change_is_pushed(tmp_path):
    """A pushed schedule was rendered for everyone: the director's Assign forms vanished from
    an open page at the first change until it was reloaded. The director's stream now pushes
    the director's view; everyone else's still has no forms."""
    db = tournament.new_tournament(tmp_path, "Kevät Cup", "--round-robin", 2)
    with serving(db) as (url, hall):
        cookie = "pilkku_director=" + hall.token
        with _stream(url + "/events?page=schedule", cookie) as director, \
                _stream(url + "/events?page=schedule") as audience:
            assert "Assign" in _next_event(director)["main"]
            assert "Assign" not in _next_event(audience)["main"]
            page = get(url + "/schedule.html", cookie)[1]
            assert post(url + "/assign", "match=R1-02&table=2&csrf=" + form_token(page),
                        cookie) == 303
            pushed = _next_event_with(director, "at table 2")
            assert "Assign" in pushed["main"]
            assert "Assign" not in _next_event_with(audience, "at table 2")["main"]
