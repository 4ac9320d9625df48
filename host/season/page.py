"""The hall's /series.html: a ranking series' table (host/season/series.py table_of), the
series kept listed to pick from (?series=NAME; default the latest open one) and the table at a
date (?date=25.2.2026). Its words are in its template (host/season/templates/series.html),
in the page's language (the hall's cookie, else Accept-Language; its own switch sets the
cookie and comes back to the same series); read-only, as the hall's other pages. The hall's
export writes it too (export: series.html and series-ID.html, linked as files)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from host import i18n
from host.i18n import choose
from host.season.series import shown_date, table_of
from host.season.table import flat_rows
from host.tournament.store import Store, StoreError

HERE = Path(__file__).parent
_ENV = Environment(loader=FileSystemLoader(HERE / "templates"),
                   autoescape=select_autoescape(["html"]))
i18n.install(_ENV)  # the page in the language spoken while it is made


def render(store: Store, name: str | None = None, until: str | None = None,
           lang: str | None = None, static: bool = False) -> str:
    """The page in `lang` (None: the language spoken now: the CLI's for the hall's export);
    `static`: for the hall's export (each series its own file, series-ID.html, linked as
    such)."""
    with i18n.use(lang or i18n.language()):
        return _render(store, name, until, static)


def _render(store: Store, name: str | None, until: str | None, static: bool) -> str:
    everything = store.series.all()
    problem, doc, rows = None, None, []
    if name is None and everything:
        open_ones = [s for s in everything if not s["closed"]] or everything
        name = open_ones[-1]["name"]
    if name is not None:
        try:
            doc = table_of(store, name, until)
            rows = flat_rows(doc)
            for night in doc["nights"]:
                night["day"] = shown_date(night["played"])
        except StoreError as error:
            problem, doc = error.text, None
    return _ENV.get_template("series.html").render(
        lang=i18n.language(), all=everything, doc=doc, rows=rows, problem=problem, static=static,
        languages=[(code, i18n.SWITCH[code]) for code in i18n.LANGUAGES], chosen=name or "",
        closed_day=shown_date((doc or {}).get("closed")),
        until_day=shown_date((doc or {}).get("until")))


def export(store: Store, folder: Path) -> list[Path]:
    """The series pages written for the hall's export (`pilkku hall --export`): series.html
    (the latest open series) and series-ID.html for each; none when there is no series."""
    everything = store.series.all()
    if not everything:
        return []
    written = []
    for name, path in [(None, folder / "series.html")] + [
            (s["name"], folder / ("series-%d.html" % s["id"])) for s in everything]:
        path.write_text(render(store, name, static=True), encoding="utf-8")
        written.append(path)
    return written


def routes(db: str | None) -> list[Route]:
    """The page's route on the hall's server (host/hall/app.py make_app)."""
    async def page(request: Request) -> HTMLResponse:
        name = request.query_params.get("series")
        until = request.query_params.get("date")
        lang = choose.for_page(request.cookies.get(choose.COOKIE),
                               request.headers.get("accept-language"))

        def build() -> str:
            with Store.open(db) as store:
                return render(store, name, until, lang)

        try:
            return HTMLResponse(await asyncio.to_thread(build))
        except StoreError as error:
            return HTMLResponse("<p>%s</p>" % _escaped(error.text), status_code=404)

    return [Route("/series.html", page)]


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
