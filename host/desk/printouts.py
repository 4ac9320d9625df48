"""The director's printouts, served as print-ready pages (A4, black on white, a Print button
that is not printed): score sheets for chosen matches and blank ones, the draw, the night's
results with the ranking. Only the director's browser (the hall's director cookie:
host/hall/app.py is_director) gets them; what each shows is print_data.py's, the layout
templates/print_*.html with static/print.css.

    GET /print/sheets?matches=R1-01,R1-02   (matches=open: every match waiting to be played)
    GET /print/sheets/blank?game=kaisa&count=4   (game: the tournament's if not given)
    GET /print/draw
    GET /print/results

`routes(hall)` gives them to the app that serves the hall and the desk. A request the page
cannot be made from gets a plain-text answer saying why: 403 (not the director), 400 (a
query that is not what it should be), 404 (a match the tournament has not), 503 (the store).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from host import i18n
from host.desk import print_data
from host.desk.print_data import PrintError
from host.hall import pages, words
from host.hall.app import Hall, is_director
from host.i18n import N_, _, ngettext
from host.tournament.store import Store, StoreError
from host.tournament.store.text import shown

HERE = Path(__file__).parent
SCRIPT = (HERE / "static" / "print.js").read_text(encoding="utf-8")
ENV = Environment(loader=FileSystemLoader([str(HERE / "templates"), str(HERE / "static")]),
                  autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
# A printout is in the language of the page it is printed from (docs/languages.md): the
# request's (host/desk/app.py speaking), the hall's words for the names made elsewhere.
ENV.filters.update(words=words.shown)
ENV.globals.update(language=i18n.language, race=pages.ENV.globals["race"])
i18n.install(ENV)
QUERY_MAX = 2000  # characters of a ?matches= list (200 codes of up to 9)
_CODE = re.compile(r"[^\x00-\x1f\x7f,/]{1,20}")  # a match code as the store takes one
_COUNT = re.compile(r"[0-9]{1,4}", re.ASCII)  # int() would take '٣' and '３' and ' 4'
NOT_DIRECTOR = N_("only the director prints: open the director's link that `pilkku hall` (or "
                "`pilkku desk`) printed, in this browser")
NO_MATCHES = ("name the matches to print: /print/sheets?matches=R1-01,R1-02 (their codes as "
              "`pilkku matches` lists them), or matches=open for every match waiting")


def _matches(request: Request) -> list[str]:
    """The codes of ?matches=, in the order given, each once. PrintError if it is missing,
    too long or names something no match code can be."""
    given = request.query_params.getlist("matches")
    if not given or not any(g.strip() for g in given):
        raise PrintError(NO_MATCHES)
    if sum(len(g) for g in given) > QUERY_MAX:
        raise PrintError("too many matches in one printout: at most %d sheets"
                         % print_data.SHEETS_MAX)
    codes: list[str] = []
    for part in ",".join(given).split(","):
        code = part.strip()
        if not code:
            continue
        if not _CODE.fullmatch(code):
            raise PrintError("'%s' is not a match code (up to 20 characters, as `pilkku "
                             "matches` lists them)" % shown(code, 20))
        if code not in codes:
            codes.append(code)
    return codes


def _count(request: Request) -> int:
    text = request.query_params.get("count", "4")
    if not _COUNT.fullmatch(text):
        raise PrintError("count is a whole number from 1 to %d (got '%s')"
                         % (print_data.SHEETS_MAX, shown(text, 20)))
    return int(text)


def _page(template: str, shown_data: dict, title: str, pages_note: str = "") -> str:
    t = shown_data["t"]
    return ENV.get_template(template).render(
        shown_data, title=title, pages_note=pages_note,
        landscape=shown_data.get("landscape", False),
        printed=_printed(datetime.now().astimezone()), t=t)


def _printed(when: datetime) -> str:
    """When it was printed, as the printout's language writes it (25.2.2024 14.03)."""
    if i18n.language() == "en":  # pilkku's ISO look, and no Babel to import
        return when.strftime("%Y-%m-%d %H:%M")
    from host.i18n import formats

    return formats.date_time(when)


def _sheets_note(made: dict) -> str:
    count = len(made["sheets"])
    pages = -(-count // made["per_page"])
    return (ngettext("%(num)d sheet", "%(num)d sheets", count) % {"num": count} + ", "
            + _("%(num)d a page") % {"num": made["per_page"]} + ": "
            + ngettext("%(num)d page", "%(num)d pages", pages) % {"num": pages})


def _sheets(store: Store, t: dict, request: Request) -> str:
    made = print_data.sheets(store, t, _matches(request))
    return _page("print_sheets.html", made, _("Score sheets"), _sheets_note(made))


def _blank(store: Store, t: dict, request: Request) -> str:
    game = request.query_params.get("game") or None
    made = print_data.blank(t, game, _count(request))
    return _page("print_sheets.html", made, _("Blank score sheets"), _sheets_note(made))


def _draw(store: Store, t: dict, request: Request) -> str:
    return _page("print_draw.html", print_data.draw(store, t), _("Draw"))


def _results(store: Store, t: dict, request: Request) -> str:
    return _page("print_results.html", print_data.results(store, t), _("Results and ranking"))


Build = Callable[[Store, dict, Request], str]


def _endpoint(hall: Hall, build: Build) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        if not is_director(hall, request):
            return PlainTextResponse(_(NOT_DIRECTOR), status_code=403)

        def render() -> str:
            store, t = hall.open()
            with store:  # t as the hall reads it (data.tournament): the game's names
                return build(store, t, request)

        try:
            html = await asyncio.to_thread(render)
        except PrintError as error:
            return PlainTextResponse(error.text, status_code=error.status)
        except StoreError as error:
            return PlainTextResponse(error.text, status_code=503)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    return serve


async def _script(request: Request) -> Response:
    return Response(SCRIPT, media_type="text/javascript; charset=utf-8")


def routes(hall: Hall) -> list[Route]:
    """The printouts' routes, for the app that serves the hall and the desk."""
    return [Route("/print/sheets", _endpoint(hall, _sheets)),
            Route("/print/sheets/blank", _endpoint(hall, _blank)),
            Route("/print/draw", _endpoint(hall, _draw)),
            Route("/print/results", _endpoint(hall, _results)),
            Route("/print/print.js", _script)]
