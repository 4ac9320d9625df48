"""The hall's figures for `pilkku bench`: how long a key pressed on a virtual board takes to
show on the tables page in a real browser (headless Chromium), with `pilkku sync --watch`
pulling the board's live state every second; and how many server-sent-event clients the hall
keeps updated at once (up to 200), with the delay of their updates.

    key_to_page(folder, firmware, presses) -> {"p50", "p99", "samples"}   (ms) or None
    clients_held(folder, clients, rounds)  -> {"held", "p99", "samples"}  (ms)
    figures(folder, firmware, sizes, say)  -> both, keyed as `pilkku bench` reports them
    chromium(profile, width, height)       -> a Selenium driver of Debian's headless Chromium
    serving(db, app=None)                  -> the hall (or app(hall)) on uvicorn in a thread,
                                              as `pilkku hall` serves it: (URL, hall)
    listen(port, page, ready, arrived)     -> one browser's event stream, its arrivals kept

Times are wall-clock milliseconds on one machine: the page stamps the moment its score
changes (Date.now() in a MutationObserver) and the bench the moment before the key.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from host import cli
from host.board.virtual_board import VirtualBoard
from host.hall.app import Hall, server
from host.sync.commands import Desk
from host.sync.watch import watch
from host.tournament.store import Store

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
# This machine's closed network refuses Chromium's background connections: none are made.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")
LIVE = {"game": "9ball", "players": ["Äijälä Öhman", "Åsa Ek"], "score": [0, 0],
        "shooter": 0, "finished": False, "race_to": 99, "rack": 1, "inning": 1,
        "fouls": [0, 0], "clock": None, "events": 2, "match_id": "R1-01"}


def chromium(profile: Path, width: int = 1366, height: int = 900):
    """A fresh headless Chromium with its own profile, driven by Selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in FLAGS + ("--user-data-dir=%s" % profile, "--window-size=%d,%d" % (width, height),
                         "--lang=fi-FI"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER or ""), options=options)


def _quiet(*args: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        if cli.main(list(args)) != 0:
            raise RuntimeError("pilkku %s failed" % " ".join(args))


@contextlib.contextmanager
def serving(db: str, app: Callable[[Hall], Any] | None = None) -> Iterator[tuple[str, Hall]]:
    """The hall of the store's latest tournament on a free port of 127.0.0.1 for the
    duration, served by uvicorn in a thread as `pilkku hall` serves it; yields (its base URL,
    the hall). `app(hall)`: the ASGI app to serve instead of the hall's alone (the desk's:
    host/desk/app.py make; the tests' own)."""
    hall = Hall(db, None)
    running = server(hall, "127.0.0.1", 0, app(hall) if app else None)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the hall did not start")
        time.sleep(0.05)
    try:
        yield "http://127.0.0.1:%d" % running.servers[0].sockets[0].getsockname()[1], hall
    finally:
        running.should_exit = True
        thread.join(timeout=10)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


_STAMP = """
window.changes = [];
new MutationObserver(function () {
  var score = document.querySelector('#table-1 .player .score');
  if (score) { window.changes.push([score.textContent, Date.now()]); }
}).observe(document.getElementById('main'), {childList: true, subtree: true});
"""


def key_to_page(folder: Path, firmware: dict[str, bytes], presses: int) -> dict | None:
    """A 9-ball match on a virtual board, watched every 1 s, shown in Chromium: each sample
    is one rack won at the keypad (its last key) until the page shows the new score. None
    without Chromium."""
    if not (CHROMIUM and DRIVER):
        return None
    db = str(folder / "hall-bench.db")
    players = folder / "hall-players.csv"
    players.write_text("name\nÄijälä Öhman\nÅsa Ek\n", encoding="utf-8")
    _quiet("tournament", "new", "Bench", "--game", "9ball", "--race", str(presses + 1),
           "--db", db)
    _quiet("players", "import", str(players), "--db", db)
    _quiet("matches", "generate", "--round-robin", "--db", db)
    _quiet("tables", "1", "--db", db)
    board = VirtualBoard(folder / "hall-board")
    stop = threading.Event()
    driver = None
    try:
        board.install(firmware)
        board.start()
        board.run(100)
        _quiet("pair", "--port", board.pty_path, "--db", db)
        _quiet("sync", "--port", board.pty_path, "--table", "1", "--db", db)
        for key in "#11":  # start the match; player 1 breaks
            board.tap(key)
        with Store.open(db) as store:
            t = store.tournaments.get()
            key_bytes = store.tournaments.key(t["id"])
        threading.Thread(target=watch, args=([board.pty_path], Desk(db, t), key_bytes, stop),
                         kwargs={"interval": 1.0, "say": lambda text: None},
                         daemon=True).start()
        with serving(db) as (url, _hall):
            driver = chromium(folder / "hall-chromium")
            driver.get(url + "/index.html")
            _wait(driver, "return document.querySelector('#table-1 .player .score')")
            driver.execute_script(_STAMP)
            samples = []
            for sample in range(presses):
                time.sleep((sample * 0.37) % 1.0)  # spread the presses over the watch's second
                board.tap("9")
                began = time.time() * 1000
                board.tap("A")  # the 9 on the break: the rack, the score + 1
                shown = _wait(driver, "var c = window.changes.filter(function (x) { return "
                              "x[0] === '%d'; }); return c.length ? c[0][1] : null;"
                              % (sample + 1))
                samples.append(shown - began)
    finally:
        stop.set()
        if driver is not None:
            driver.quit()
        board.close()
    return {"p50": percentile(samples, 0.5), "p99": percentile(samples, 0.99),
            "samples": len(samples)}


def _wait(driver, script: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = driver.execute_script(script)
        if got:
            return got
        time.sleep(0.02)
    raise RuntimeError("the hall's page never showed it")


async def listen(port: int, page: str, ready: asyncio.Event,
                 arrived: list[tuple[float, bytes]], cookie: str = "") -> None:
    """One browser's event stream of `page` (with the director's `cookie` if given): each
    update's arrival (wall-clock ms) and its data line, until cancelled."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /events?page=%s HTTP/1.1\r\nHost: bench\r\n%s\r\n" % (
        page.encode(), b"Cookie: %s\r\n" % cookie.encode() if cookie else b""))
    await writer.drain()
    ready.set()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                arrived.append((time.time() * 1000, line))
    finally:
        writer.close()


async def _clients(db: str, port: int, clients: int, rounds: int) -> dict:
    arrived: list[list[tuple[float, bytes]]] = [[] for _ in range(clients)]
    readies = [asyncio.Event() for _ in range(clients)]
    tasks = [asyncio.create_task(listen(port, "index", readies[i], arrived[i]))
             for i in range(clients)]
    await asyncio.gather(*(r.wait() for r in readies))
    await asyncio.sleep(1.0)  # every client has its first page
    delays: list[float] = []
    held = clients
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        for number in range(1, rounds + 1):
            # The card's score as it comes in the JSON: <span class=\"score\">N</span>
            shows = b'score\\">%d<' % number
            for got in arrived:
                got.clear()
            began = time.time() * 1000
            store.live.put("bench-board", tid, 1, dict(LIVE, score=[number, 0]))
            deadline = time.monotonic() + 5
            shown: list[float | None] = [None] * clients
            while time.monotonic() < deadline and None in shown:
                await asyncio.sleep(0.01)
                shown = [next((at for at, line in got if shows in line), None)
                         for got in arrived]
            held = min(held, sum(1 for at in shown if at is not None))
            delays += [at - began for at in shown if at is not None]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"held": held, "p99": percentile(delays, 0.99) if delays else None,
            "samples": len(delays)}


def clients_held(folder: Path, clients: int, rounds: int) -> dict:
    """`clients` SSE clients on the tables page; each round changes a table's live state in
    the store and times its arrival at every client. held: clients that got every update."""
    db = str(folder / "hall-clients.db")
    _quiet("tournament", "new", "Clients", "--game", "9ball", "--race", "99", "--db", db)
    _quiet("tables", "1", "--db", db)
    with Store.open(db) as store:
        store.live.put("bench-board", store.tournaments.get()["id"], 1, LIVE)
    with serving(db) as (url, _hall):
        port = int(url.rsplit(":", 1)[1])
        return asyncio.run(_clients(db, port, clients, rounds))


def figures(folder: Path, firmware: dict[str, bytes], sizes: Any,
            say: Callable[[str], None]) -> dict:
    """The hall's figures for `pilkku bench` (`sizes`: host/bench/command.py Sizes): key to
    a browser's page (watch every 1 s) and SSE clients held."""
    got: dict = {}
    say("the hall: a key on a virtual board until Chromium's page shows it ...")
    page = key_to_page(folder, firmware, sizes.hall_presses)
    if page is None:
        got["hall_key_to_page"] = "skipped: no chromium/chromedriver"
    else:
        got["hall_key_to_page_ms_p50"] = page["p50"]
        got["hall_key_to_page_ms_p99"] = page["p99"]
        got["hall_key_to_page_samples"] = page["samples"]
    say("the hall: %d server-sent-event clients ..." % sizes.hall_clients)
    held = clients_held(folder, sizes.hall_clients, sizes.hall_rounds)
    got["hall_clients"] = sizes.hall_clients
    got["hall_clients_held"] = held["held"]
    if held["p99"] is not None:
        got["hall_clients_update_ms_p99"] = held["p99"]
    return got
