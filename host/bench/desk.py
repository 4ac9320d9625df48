"""The director's desk's figures for `pilkku bench` (issue 28), on a real server (uvicorn in
a thread, the app `pilkku desk` serves: the hall's pages, the desk, the printouts):

    night(folder, players, tables, results, seed) -> the store of a Kaisa hakukaavio played
        part-way: drawn by the format's engine, `results` games played to their end by the
        rules engine (host/bench/logs.py) and signed as a board signs them, the winners by
        a seeded draw, every table with a match and a board showing it live
    pages_served(db, samples, afresh) -> {page: {"p50", "p99", "cpu_p50", "cpu_p99",
        "samples"}}
        (ms, server time; cpu_: the process's CPU time on the request)
    action_to_pages(db, clients, actions) -> {"p50", "p99", "samples", "clients", "missed"}

Server time is the app's own: from the request reaching it to its last byte handed to the
server (an ASGI wrapper), so the client's socket and its scheduling are not counted. Before
each request a board's live score moves (the store's revision moves on, as on a night where
sixteen boards play), and what is kept per revision is forgotten: every request reads the
store afresh, none is the previous one's (as after each result). The same again with what is
kept per revision kept (the `desk_playing_` figures): a live score leaves it (the store's
facts' revision stays: host/tournament/store/schema.py NOT_FACTS), as while the boards play.

A desk action to the hall's pages: SSE clients on each of the hall's pages and on the desk's
night screen; the desk posts a paper result or a walkover as the director's browser does
(cookie, form token, Origin, the match's state); each sample is the time from the post until
one client has the new page (wall-clock ms, the hall's look every 0.2 s included).
"""

from __future__ import annotations

import asyncio
import random
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from host.bench import logs as bench_logs
from host.bench.hall import listen, percentile, serving
from host.desk import guard, versions
from host.desk.app import make
from host.hall.app import COOKIE
from host.tournament import night as ops
from host.tournament.store import Store, per_revision
from host.tournament.store.documents import sign
from rules_core import canon

RACE = 60  # a Kaisa game, as the clubs play it
PAGES = ("/desk", "/print/sheets?matches=open", "/print/draw", "/print/results")
HALL_PAGES = ("index", "schedule", "draw", "results")  # the hall's, as the audience sees them
WAIT_S = 10  # for an update to reach a client


@dataclass(frozen=True)
class DeskSizes:
    players: int = 64  # a hakukaavio of this many
    tables: int = 16
    results: int = 60  # games played to their end before the figures (of ~125)
    samples: int = 50  # requests of each page
    clients: int = 4  # on each of the hall's four pages and the desk's night screen
    actions: int = 20  # desk actions, each timed at every client


FULL = DeskSizes()
QUICK = DeskSizes(players=16, tables=4, results=8, samples=3, clients=1, actions=2)
# key: (limit, "<" / "<=", what the budget says), as host/bench/command.py BUDGETS
BUDGETS = {
    "desk_action_to_pages_ms_p99": (1000, "<=", "a desk action on every open page in 1 s, p99"),
    "desk_night_screen_ms_p99": (100, "<=", "the night's screen (64 players) in 100 ms, p99"),
    "desk_printouts_ms_p99": (200, "<=", "every printout of that night in 200 ms, p99"),
}
ROWS = (
    ("desk_action_to_pages_ms_p50", "desk: action to every open page p50 (ms)", "%.0f"),
    ("desk_action_to_pages_ms_p99", "desk: action to every open page p99 (ms)", "%.0f"),
    ("desk_night_screen_ms_p50", "desk: night's screen p50, server (ms)", "%.1f"),
    ("desk_night_screen_ms_p99", "desk: night's screen p99, server (ms)", "%.1f"),
    ("desk_night_screen_cpu_ms_p99", "  its CPU time p99 (ms)", "%.1f"),
    ("desk_print_sheets_ms_p99", "  printout: score sheets p99 (ms)", "%.1f"),
    ("desk_print_draw_ms_p99", "  printout: the draw p99 (ms)", "%.1f"),
    ("desk_print_results_ms_p99", "  printout: results and ranking p99 (ms)", "%.1f"),
    ("desk_printouts_ms_p99", "desk: slowest printout p99, server (ms)", "%.1f"),
    ("desk_printouts_cpu_ms_p99", "  printouts' CPU time p99, most (ms)", "%.1f"),
    ("desk_playing_night_screen_ms_p50", "boards at play: night's screen p50 (ms)", "%.1f"),
    ("desk_playing_night_screen_ms_p99", "boards at play: night's screen p99 (ms)", "%.1f"),
    ("desk_playing_night_screen_cpu_ms_p99", "  its CPU time p99 (ms)", "%.1f"),
    ("desk_playing_printouts_ms_p99", "boards at play: slowest printout p99 (ms)", "%.1f"),
    ("desk_playing_printouts_cpu_ms_p99", "  printouts' CPU time p99, most (ms)", "%.1f"),
)


def figures(folder: Path, sizes: DeskSizes, say: Callable[[str], None]) -> dict:
    """The desk's figures, keyed as ROWS and BUDGETS name them."""
    say("the desk: a %d-player hakukaavio on %d tables, %d games played ..."
        % (sizes.players, sizes.tables, sizes.results))
    db = night(folder, sizes.players, sizes.tables, sizes.results)
    say("the desk: its night's screen and printouts served, %d each ..." % sizes.samples)
    served = pages_served(db, sizes.samples)
    got: dict = {"desk_players": sizes.players, "desk_tables": sizes.tables,
                 "desk_results": sizes.results, "desk_page_samples": sizes.samples}
    say("the desk: the same while the boards play, %d each ..." % sizes.samples)
    playing = pages_served(db, sizes.samples, afresh=False)
    got["desk_playing_samples"] = sizes.samples
    got["desk_playing_night_screen_ms_p50"] = playing["desk"]["p50"]
    got["desk_playing_night_screen_ms_p99"] = playing["desk"]["p99"]
    got["desk_playing_night_screen_cpu_ms_p99"] = playing["desk"]["cpu_p99"]
    for figure in ("p99", "cpu_p99"):
        got["desk_playing_printouts_%s" % figure.replace("p99", "ms_p99")] = max(
            times[figure] for page, times in playing.items() if page.startswith("print"))
    for page, times in served.items():
        name = page.replace("desk", "night_screen")
        for figure in ("p50", "p99", "cpu_p50", "cpu_p99"):
            got["desk_%s_%s" % (name, figure.replace("cpu_", "cpu_ms_") if "cpu" in figure
                                else "ms_" + figure)] = times[figure]
    got["desk_printouts_ms_p99"] = max(times["p99"] for page, times in served.items()
                                       if page.startswith("print"))
    got["desk_printouts_cpu_ms_p99"] = max(times["cpu_p99"] for page, times in served.items()
                                           if page.startswith("print"))
    say("the desk: %d actions, %d clients on each page ..." % (sizes.actions, sizes.clients))
    moved = action_to_pages(db, sizes.clients, sizes.actions)
    got["desk_action_to_pages_ms_p50"] = moved["p50"]
    got["desk_action_to_pages_ms_p99"] = moved["p99"]
    got["desk_action_to_pages_samples"] = moved["samples"]
    got["desk_action_clients"] = moved["clients"]
    got["desk_action_updates_missed"] = moved["missed"]
    return got


def night(folder: Path, players: int = 64, tables: int = 16, results: int = 60,
          seed: int = 28) -> str:
    """The store (its path) of the night the figures are taken on."""
    db = str(folder / ("desk-night-%d.db" % players))
    rng = random.Random(seed)
    game = bench_logs.kaisa_log(None, RACE)  # one game played to its end by the engine
    with Store.open(db) as store:
        tid = ops.new_tournament(store, "Bench night", "kaisa", RACE)
        ops.plan_format(store, tid, "hakukaavio", {})
        ops.import_players(store, tid, [(n + 1, "Pelaaja %d Ä" % n, "")
                                        for n in range(1, players + 1)])
        ops.draw_opening(store, tid, random.Random(seed))
        ops.set_tables(store, tid, tables)
        ops.assign_free_tables(store, tid)
        key = store.tournaments.key(tid)
        for _ in range(results):
            at_tables = [m for m in store.matches.all(tid) if m["table"] is not None
                         and m["winner"] is None and m.get("outcome") is None]
            if not at_tables:
                break
            m = at_tables[0]
            names = [m["player1"], m["player2"]]
            rng.shuffle(names)  # the log's winner is one place: a seeded draw of who stands there
            text = canon.dumps(dict(game, settings=dict(game["settings"], players=names),
                                    meta={"match_id": m["code"]}))
            ops.record_result(store, m["code"], text, "bench-%02d" % m["table"],
                              sign(key, text.encode("utf-8")), None, None, tournament_id=tid)
        for number in store.tables.numbers(tid):
            live_score(store, tid, number, [rng.randrange(RACE), rng.randrange(RACE)])
    return db


def live_score(store: Store, tid: int, table: int, score: list[int]) -> None:
    """The board at `table` shows its match (the first queued there) at `score`."""
    queued = store.tables.schedule(tid, table)
    if not queued:
        return
    m = store.matches.get(tid, queued[0]["match_id"])
    names = store.players.names(m)
    store.live.put("bench-%02d" % table, tid, table, {
        "game": "kaisa", "players": names, "score": score, "shooter": 0, "finished": False,
        "race_to": RACE, "rack": 1, "inning": sum(score) // 7 + 1, "fouls": [0, 0],
        "clock": None, "events": sum(score), "match_id": m["code"]})


def heartbeat(store: Store, tid: int) -> None:
    """Every board answers again with what it showed, as the watcher's look each second
    does (the store's revision stays: host/tournament/store/schema.py HEARTBEATS)."""
    for row in store.live.states(tid):
        store.live.put(row["board_id"], tid, row["table"], row["state"])


class _Timed:
    """ASGI: the app's own time on each request, by path (query left out), in ms; and the
    CPU time the process spent meanwhile (one request at a time: its work, whatever the
    machine's load; the wall-clock time adds the waits for a core)."""

    def __init__(self, app) -> None:
        self.app = app
        self.times: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began, cpu = time.perf_counter(), time.process_time()

        async def timed(message) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body"):
                self.times.setdefault(scope["path"], []).append(
                    (time.perf_counter() - began) * 1000)
                self.cpu.setdefault(scope["path"], []).append(
                    (time.process_time() - cpu) * 1000)
            await send(message)

        await self.app(scope, receive, timed)


def _director(url: str, hall) -> dict[str, str]:
    host = urllib.parse.urlsplit(url).netloc
    return {"Cookie": "%s=%s" % (COOKIE, hall.token), "Origin": "http://%s" % host}


def _get(url: str, headers: dict[str, str]) -> int:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                timeout=30) as answer:
        answer.read()
        return answer.status


def pages_served(db: str, samples: int, afresh: bool = True) -> dict[str, dict]:
    """Each of PAGES got `samples` times, a board's score moved before each; `afresh`: every
    read of the night done again for each (as after each result: what is kept per revision
    forgotten), else kept as while the boards play (their live scores leave it)."""
    timed: list[_Timed] = []

    def app(hall):
        timed.append(_Timed(make(hall)))
        return timed[0]

    figures = {}
    with serving(db, app) as (url, hall), Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        tables = store.tables.numbers(tid)
        headers = _director(url, hall)
        for page in PAGES:
            _get(url + page, headers)  # its templates compiled, its logs once replayed
            path = page.split("?")[0]
            timed[0].times.pop(path, None)
            timed[0].cpu.pop(path, None)
            for n in range(samples):
                live_score(store, tid, tables[n % len(tables)], [n % RACE, (n * 7) % RACE])
                if afresh:
                    per_revision.forget()
                if _get(url + page, headers) != 200:
                    raise RuntimeError("%s was not served" % page)
            got, cpu = timed[0].times[path], timed[0].cpu[path]
            figures[path.strip("/").replace("/", "_")] = {
                "p50": percentile(got, 0.5), "p99": percentile(got, 0.99),
                "cpu_p50": percentile(cpu, 0.5), "cpu_p99": percentile(cpu, 0.99),
                "samples": len(got)}
    return figures


def _mains(hall, pages: list[tuple[str, str]]) -> dict[str, str]:
    """Each page's <main> as the hall renders it now."""
    return {page: hall.main(page) for page, _cookie in pages}


def _post(url: str, hall, action: str, fields: dict[str, str]) -> str:
    body = urllib.parse.urlencode(dict(fields, csrf=guard.form_token(hall))).encode()
    request = urllib.request.Request(url + "/desk/" + action, data=body,
                                     headers=_director(url, hall), method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.read().decode("utf-8")


def _form(store: Store, tid: int, n: int) -> tuple[str, dict[str, str], str]:
    """The n-th action: a paper result or a walkover on a match being played at a table
    (its table freed, the next match queued there). (action, form, code)"""
    playing = [m for m in store.matches.all(tid) if m["table"] is not None
               and m["winner"] is None and m.get("outcome") is None
               and None not in (m["player1"], m["player2"])]
    if not playing:
        raise RuntimeError("no match left at a table for the desk to decide")
    m = playing[n % len(playing)]
    state = versions.match(store, store.matches.get(tid, m["code"]))
    fields = {"match": m["code"], "state": state, "reason": "bench", "in_play": "1"}
    if n % 2:
        return "walkover", dict(fields, winner="1"), m["code"]
    return "score", dict(fields, score="%d:%d" % (RACE, 10 + n % 40)), m["code"]


async def _actions(url: str, hall, db: str, per_page: int, actions: int) -> dict:
    port = int(url.rsplit(":", 1)[1])
    cookie = "%s=%s" % (COOKIE, hall.token)
    pages = [(page, "") for page in HALL_PAGES] + [("desk", cookie)]
    clients = [(page, c) for page, c in pages for _ in range(per_page)]
    arrived: list[list[tuple[float, bytes]]] = [[] for _ in clients]
    readies = [asyncio.Event() for _ in clients]
    tasks = [asyncio.create_task(listen(port, page, readies[i], arrived[i], c))
             for i, (page, c) in enumerate(clients)]
    await asyncio.gather(*(r.wait() for r in readies))
    deadline = time.monotonic() + 30
    while not all(arrived) and time.monotonic() < deadline:  # each its page as it is
        await asyncio.sleep(0.05)
    delays: list[float] = []
    missed = 0
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        for n in range(actions):
            await asyncio.sleep(0.5 + (n * 0.037) % 0.2)  # spread over the hall's looks
            heartbeat(store, tid)  # no board turns silent meanwhile: no other change
            action, fields, code = _form(store, tid, n)
            shown = await asyncio.to_thread(_mains, hall, pages)
            before = [len(got) for got in arrived]
            began = time.time() * 1000
            said = await asyncio.to_thread(_post, url, hall, action, fields)
            if code not in said:
                raise RuntimeError("the desk did not do %s %s: %s" % (action, code, said[:300]))
            # A page the action did not change (the tables page: the board there still
            # shows the match it played) gets nothing, rightly: not waited for.
            now = await asyncio.to_thread(_mains, hall, pages)
            waited = [i for i, (page, _c) in enumerate(clients) if now[page] != shown[page]]
            wait_until = time.monotonic() + WAIT_S
            while time.monotonic() < wait_until and any(len(arrived[i]) == before[i]
                                                        for i in waited):
                await asyncio.sleep(0.005)
            for i in waited:
                if len(arrived[i]) > before[i]:
                    delays.append(arrived[i][before[i]][0] - began)
                else:  # counted as the whole wait: a missed update fails the budget
                    missed += 1
                    delays.append(WAIT_S * 1000.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"p50": percentile(delays, 0.5) if delays else None,
            "p99": percentile(delays, 0.99) if delays else None,
            "samples": len(delays), "clients": len(clients), "missed": missed}


def action_to_pages(db: str, per_page: int, actions: int) -> dict:
    """`per_page` clients on each hall page and on the desk's night screen; `actions` desk
    actions, each timed until every client has its page anew."""
    with serving(db, make) as (url, hall):
        return asyncio.run(_actions(url, hall, db, per_page, actions))
