"""The hall's web server (Starlette on uvicorn): the pages of pages.py, the style sheet and
script from static/, and /events, the server-sent events that keep every open page current.

One watcher task looks at the store a few times a second (data.looked: the store's revision,
which every write moves on, and which boards still answer); when it moved it renders each page
someone is looking at once and hands the new <main> to every one of its clients, if it is not
the one they were last given.

Read-only for everyone but the director. The director is recognised by a token made at
start and printed once on the laptop's terminal: opening /director?token=... there sets a
cookie (HttpOnly, SameSite=Strict) that lets that browser assign matches to tables on the
schedule page and shows it the reasons the director gave (results, match reports), which no
other page shows. Every other write is refused (403), whoever asks.

Each page is in the language its browser chose with the switch on every page (/language, a
cookie remembered for a year), else the first of ours in its Accept-Language, else English
(host/i18n/choose.py); its updates are pushed in the same language.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import re
import secrets
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import parse_qs, quote

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from host import i18n
from host.hall import data, pages
from host.hall.whole_body import FORM_MAX, LARGER, WholeBody  # noqa: F401 (the desk's)
from host.i18n import choose
from host.season import page as season_page
from host.tournament import night
from host.tournament.store import Store, StoreError

COOKIE = "pilkku_director"
POLL_S = 0.2
QUEUE = 4  # updates a slow client may fall behind before older ones are dropped
_TABLE = re.compile(r"[0-9]{1,4}", re.ASCII)


@dataclass
class Hall:
    """What the server knows: where the store is, which tournament, the director's token,
    and the clients waiting for each page's updates."""

    db: str | None
    tournament: str | None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    clients: dict[str, set[asyncio.Queue]] = field(default_factory=dict)
    version: int = 0
    seen: tuple = ()  # data.looked at the last look
    sent: dict[str, str] = field(default_factory=dict)  # page key -> the <main> last pushed
    closing: bool = False  # the server is stopping: the event streams end
    # Streams of pages that are not the hall's (the director's desk): key -> its <main>.
    # Only the director's browser may follow them.
    streams: dict[str, Callable[[Store, dict, int], str]] = field(default_factory=dict)
    # What else a page shows that is not in the store (the desk's boards page: the running
    # watcher's boards, a flash under way): each look's value, part of what `changed` compares.
    looks: list[Callable[[], object]] = field(default_factory=list)

    def open(self) -> tuple[Store, dict]:
        store = Store.open(self.db)
        try:
            return store, data.tournament(store, self.tournament)
        except StoreError:
            store.close()
            raise

    def render(self, key: str, live: bool = True, director: bool = False,
               lang: str = "en") -> str:
        store, t = self.open()
        with store:
            return pages.page(store, t, key, data_now(), live=live, director=director,
                              version=self.version, lang=lang,
                              csrf=form_token(self) if director else "")

    def main(self, stream: str) -> str:
        store, t = self.open()
        with store:
            return self._main(store, t, stream, data_now())

    def _main(self, store: Store, t: dict, stream: str, now_ms: int) -> str:
        name, _, lang = stream.partition(LANGUAGE_STREAM)
        extra = self.streams.get(name)
        if extra is None:
            return _main(store, t, stream, now_ms, form_token(self))
        with i18n.use(lang or "en"):  # the desk's screen, in its page's language
            return extra(store, t, now_ms)

    def message(self, key: str, main: str) -> str:
        return "data: %s\n\n" % json.dumps({"main": main, "version": self.version})

    def changed(self) -> dict[str, str] | None:
        """The new <main> of every watched page if the store changed since the last look (a
        page whose <main> is the one last pushed is left out: nothing on it moved)."""
        store, t = self.open()
        with store:
            now = data_now()
            looked = data.looked(store, t, now) + tuple(look() for look in self.looks)
            if looked == self.seen:
                return None
            self.seen = looked
            # Counted even when no one watches: a page loaded now says which state it shows.
            self.version += 1
            mains = {stream: self._main(store, t, stream, now) for stream in list(self.clients)}
        fresh = {key: main for key, main in mains.items() if self.sent.get(key) != main}
        self.sent.update(fresh)
        return fresh


DIRECTOR_STREAM = "#director"  # the director's pages (forms, reasons) stream apart
# A page in another language than English streams apart ("index\nlang=fi"): a page key has
# no control character in it (pages.valid_key), so this never stands in a key.
LANGUAGE_STREAM = "\nlang="


def _main(store: Store, t: dict, stream: str, now_ms: int, csrf: str = "") -> str:
    """The <main> a stream pushes: its page's, the director's with the forms (and their
    form token, `csrf`), in the stream's language."""
    stream, _, lang = stream.partition(LANGUAGE_STREAM)
    director = stream.endswith(DIRECTOR_STREAM)
    key = stream[: -len(DIRECTOR_STREAM)] if director else stream
    return pages.main(store, t, key, now_ms, director, lang=lang or "en",
                      csrf=csrf if director else "")


def page_language(request: Request) -> str:
    """The language a page is shown in to this browser (host/i18n/choose.py)."""
    return choose.for_page(request.cookies.get(choose.COOKIE),
                           request.headers.get("accept-language"))


def data_now() -> int:
    return int(time.time() * 1000)


async def _watch_store(hall: Hall) -> None:
    told = ""  # said once until it reads again or the trouble changes: not every POLL_S
    while True:
        try:
            mains = await asyncio.to_thread(hall.changed)
            told = ""
        except Exception as error:  # the store busy or being replaced: look again soon
            if str(error) != told:
                print("pilkku hall: could not read the store (%s); trying again" % error,
                      file=sys.stderr, flush=True)
                told = str(error)
            mains = None
        if mains:
            for key, main in mains.items():
                message = hall.message(key, main)
                for queue in list(hall.clients.get(key, ())):
                    while queue.full():
                        queue.get_nowait()  # a slow client gets the newest, not a backlog
                    queue.put_nowait(message)
        await asyncio.sleep(POLL_S)


def form_token(hall: Hall) -> str:
    """The form token of the director's forms: the desk's (host/desk/guard.py, which
    guards the hall's Assign too)."""
    from host.desk import guard  # (it builds on this module: looked up when first used)

    return guard.form_token(hall)


def is_director(hall: Hall, request: Request) -> bool:
    given = request.cookies.get(COOKIE, "")
    return bool(given) and hmac.compare_digest(given.encode(), hall.token.encode())


def _no_page(lang: str) -> Response:
    with i18n.use(lang):
        return PlainTextResponse(i18n._("no such page in the hall"), status_code=404)


def make_app(hall: Hall, routes: Sequence[Route | Mount] = ()) -> Starlette:
    """The hall's app; `routes`: more (the director's desk), looked up before the pages."""
    async def show(request: Request) -> Response:
        key = request.path_params.get("key", "index")
        if key.endswith(".html"):
            key = key[:-5]
        lang = page_language(request)
        if not pages.valid_key(key):
            return _no_page(lang)
        director = is_director(hall, request) and pages.for_director(key)
        try:
            html = await asyncio.to_thread(hall.render, key, True, director, lang)
        except pages.NoPage:
            return _no_page(lang)
        except StoreError as error:
            return PlainTextResponse(error.text, status_code=503)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def stats_csv(request: Request) -> Response:
        def build() -> str:
            store, t = hall.open()
            with store:
                return pages.stats_csv(store, t)

        return Response(await asyncio.to_thread(build), media_type="text/csv; charset=utf-8")

    async def events(request: Request) -> Response:
        key = request.query_params.get("page", "")
        if key in hall.streams:
            if not is_director(hall, request):
                return PlainTextResponse("only the director's browser follows this page",
                                         status_code=403)
            lang = request.query_params.get("lang", "")  # the desk page's own
            if lang in i18n.LANGUAGES and lang != "en":
                key += LANGUAGE_STREAM + lang
        elif not pages.valid_key(key):
            return PlainTextResponse("no such page", status_code=404)
        else:
            if pages.for_director(key) and is_director(hall, request):
                key += DIRECTOR_STREAM  # pushed with the forms and reasons, as it was loaded
            lang = request.query_params.get("lang", "")  # the page's own (its switch's)
            if lang in i18n.LANGUAGES and lang != "en":
                key += LANGUAGE_STREAM + lang
        queue: asyncio.Queue = asyncio.Queue(QUEUE)
        hall.clients.setdefault(key, set()).add(queue)
        try:  # the page as it is now: nothing between its load and this stream is missed
            now = await asyncio.to_thread(hall.main, key)
        except (pages.NoPage, StoreError):
            hall.clients[key].discard(queue)
            return PlainTextResponse("no such page", status_code=404)
        queue.put_nowait(hall.message(key, now))

        async def stream() -> AsyncIterator[str]:
            try:
                yield "retry: 1000\n\n"
                quiet = 0.0
                while not hall.closing:
                    try:
                        yield await asyncio.wait_for(queue.get(), 0.5)
                        quiet = 0.0
                    except asyncio.TimeoutError:
                        quiet += 0.5
                        if quiet >= 15:  # keeps proxies and the browser connected
                            quiet = 0.0
                            yield ": still here\n\n"
            finally:
                hall.clients.get(key, set()).discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def director(request: Request) -> Response:
        given = request.query_params.get("token", "")
        if not hmac.compare_digest(given.encode(), hall.token.encode()):
            return PlainTextResponse("not the director's token", status_code=403)
        response = RedirectResponse("/schedule.html", status_code=303)
        response.set_cookie(COOKIE, hall.token, httponly=True, samesite="strict")
        return response

    async def language(request: Request) -> Response:
        """The switch: remember the language asked for, and show the page again in it."""
        lang = request.query_params.get("to", "")
        key = request.query_params.get("page", "index")
        if lang not in i18n.LANGUAGES:
            return PlainTextResponse("no such language here (en, fi, sv)", status_code=404)
        if key == "series":  # the season's page (host/season/page.py), on its series
            series = request.query_params.get("series", "")[:200]
            back = "/series.html" + ("?series=%s" % quote(series) if series else "")
        else:
            back = "/%s.html" % (key if pages.valid_key(key) else "index")
        response = RedirectResponse(back, status_code=303)
        response.set_cookie(choose.COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    async def assign(request: Request) -> Response:
        if not is_director(hall, request):
            return PlainTextResponse("only the director may change the tournament",
                                     status_code=403)
        body = await request.body()  # whole and at most FORM_MAX bytes: WholeBody
        form = parse_qs(body.decode("utf-8", "replace"))
        from host.desk import guard  # the desk's guard: the form token, the Origin

        refused = guard.refusal(hall, request, {k: v[0] for k, v in form.items()})
        if refused:
            return PlainTextResponse(refused, status_code=403)
        code = (form.get("match") or [""])[0]
        table = (form.get("table") or [""])[0]
        if not _TABLE.fullmatch(table):  # ASCII digits only: int() would take '٣' and '３'
            return PlainTextResponse("give a table number (1 to 4 digits 0-9)",
                                     status_code=400)

        def act() -> None:
            store, t = hall.open()
            with store:
                night.assign(store, t["id"], code, int(table))

        try:
            await asyncio.to_thread(act)
        except StoreError as error:
            return PlainTextResponse(error.text, status_code=400)
        return RedirectResponse("/schedule.html", status_code=303)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(_watch_store(hall))
        try:
            yield
        finally:
            task.cancel()

    served = [
        Route("/", show), Route("/events", events), Route("/stats.csv", stats_csv),
        Route("/director", director), Route("/assign", assign, methods=["POST"]),
        Route("/language", language),
        Mount("/static", StaticFiles(directory=str(pages.STATIC)), name="static"),
        *season_page.routes(hall.db),  # /series.html (docs/season.md)
        *routes, Route("/{key:path}", show),
    ]
    return Starlette(routes=served, lifespan=lifespan, middleware=[Middleware(WholeBody)])


class _Server(uvicorn.Server):
    """uvicorn's server, ending the hall's event streams first when it stops (else it would
    wait on them, as they never end by themselves), and stopping quietly on Ctrl-C (uvicorn
    would raise the signal again once stopped, a traceback for the director)."""

    hall: Hall

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # a server in a thread (tests, bench) is stopped by should_exit
            return
        stop = lambda *_: setattr(self, "should_exit", True)  # noqa: E731
        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    async def shutdown(self, sockets=None) -> None:
        self.hall.closing = True
        await super().shutdown(sockets)


def server(hall: Hall, host: str, port: int, app: Starlette | None = None) -> uvicorn.Server:
    """The hall's server on host:port (port 0: a free one); run() it. `app`: the hall's
    with more routes (host/desk/app.py's make), else the hall's alone."""
    made = _Server(uvicorn.Config(app or make_app(hall), host=host, port=port,
                                  log_level="warning", timeout_graceful_shutdown=3))
    made.hall = hall
    return made
