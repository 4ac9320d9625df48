"""The club's season at the director's desk (docs/season.md): /desk/season (the series, one
series' table at a date, a new series, this tournament added to or taken out of a series,
a series closed, a point table's points changed) and /desk/season/money (this tournament's
prize money, and the invitation and the results as text to copy). Each form posts to
/desk/season/STEP (host/desk/season_steps.py: the operations the CLI calls), checked as
every desk form is (guard.refusal: the director's cookie, the form token, the Origin) and
refused as stale when made before the season changed. The answer is the page again with what
was done or why nothing was (400 bad input, 403 refused, 409 stale)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from host.desk import guard, routing, season_people, season_steps
from host.desk.forms import BadForm
from host.desk.setup import LANGUAGE_NAMES, current
from host.desk.versions import Stale
from host.games import GAME_NAMES
from host.hall.app import Hall
from host.i18n import N_, _
from host.season import post, prize
from host.season import series as season
from host.season.points import shown as points_shown
from host.season.table import TIE_BREAKS, flat_rows
from host.tournament.night.ranking import standings
from host.tournament.store import Store, StoreError

PATH = "/desk/season"
MONEY = PATH + "/money"
WORDS = {
    "title": N_("Series"),
    "money": N_("Prize money and texts"),
    "no_step": "the desk's season has no form %s",
}
# The invitation form's fields as its refusals call them (host/season/post.py names options).
LABELS = {"time": N_("The time"), "place": N_("The place"), "fee": N_("The entry fee"),
          "registration": N_("Registration"), "contact": N_("Contact"),
          "note": N_("Anything else")}


def render(name: str, status: int = 200, **variables) -> HTMLResponse:
    from host.desk.app import render as desk_render

    return HTMLResponse(desk_render(name, **variables), status_code=status,
                        headers={"Cache-Control": "no-store"})


def _common(hall: Hall, store: Store, t: dict | None) -> dict:
    tid = None if t is None else t["id"]
    return {"t": t, "csrf": guard.form_token(hall), "tid": "" if tid is None else tid,
            "state": season_steps.state(store, tid)}


def season_page(hall: Hall, store: Store, query: dict[str, str], said: dict | None = None,
                status: int = 200) -> HTMLResponse:
    """The series, the chosen one's table (at a date), and the season's forms."""
    t = current(store, hall)
    everything = store.series.all()
    mine: set[int] = set()
    for s in everything:
        s["nights"] = store.series.nights(s["id"])
        s["from_day"], s["to_day"] = (season.shown_date(s["date_from"]),
                                      season.shown_date(s["date_to"]))
        s["closed_day"] = season.shown_date(s["closed"])
        s["game_name"] = GAME_NAMES.get(s["game"], s["game"])
        if t is not None and any(n["tournament_id"] == t["id"] for n in s["nights"]):
            mine.add(s["id"])
    chosen = query.get("series") or next(
        (s["name"] for s in reversed(everything) if not s["closed"]),
        everything[-1]["name"] if everything else None)
    doc, rows, problem = None, [], None
    if chosen:
        try:
            doc = season.table_of(store, chosen, query.get("date") or None)
            rows = flat_rows(doc)
            for night in doc["nights"]:
                night["day"] = season.shown_date(night["played"])
        except StoreError as error:
            problem = error.text
    ambiguous = []
    if t is not None:
        persons = store.people.of_tournament(t["id"])
        for p in store.players.all(t["id"]):
            named = store.people.named(p["name"])
            if persons[p["id"]] is None and len(named) > 1:
                ambiguous.append({"name": p["name"], "people": named})
    tables = store.series.point_tables()
    latest = {}
    for table in tables:
        latest[table["name"]] = dict(table, shown=points_shown(table["points"]))
    return render("season_page.html", status, title=_(WORDS["title"]), said=said,
                  series=everything, mine=mine, chosen=chosen, doc=doc, rows=rows,
                  problem=problem, date=query.get("date", ""), ambiguous=ambiguous,
                  games=sorted(GAME_NAMES.items()), tie_breaks=TIE_BREAKS,
                  tables=list(latest.values()), pick=season_steps.PICK,
                  closed_day=season.shown_date((doc or {}).get("closed")),
                  until_day=season.shown_date((doc or {}).get("until")),
                  **_common(hall, store, t))


def money_page(hall: Hall, store: Store, query: dict[str, str], said: dict | None = None,
               status: int = 200) -> HTMLResponse:
    """This tournament's prize money (the form, the money shared out) and the texts to post."""
    t = current(store, hall)
    shown: dict = {"said": said, "title": _(WORDS["money"]), "query": query}
    if t is not None:
        ranked = standings(store, t["id"])
        saved = store.series.prize(t["id"])
        shown.update(saved=saved, final=ranked["final"],
                     players=len(store.players.all(t["id"])))
        if saved is not None:
            shared = prize.split(saved["settings"], ranked["ranking"])
            shared["shown"] = [dict(p, money=prize.money(p["amount"]))
                               for p in shared["prizes"]]
            shown["shared"] = shared
            shown["m"] = prize.money
        shown["series"] = [s["name"] for s in store.series.all()]
        shown["post_lang"] = post.language_of(store, t["id"])
        shown["post_language"] = LANGUAGE_NAMES[shown["post_lang"]]
        try:
            shown["results"] = post.results(store, t["name"], query.get("link") or None,
                                            query.get("results_series") or None)
        except StoreError as error:
            shown["results_problem"] = error.text
        if query.get("invite"):
            try:
                shown["invitation"] = post.invitation(
                    store, t["name"], {k: (query.get(k) or None) for k in post.DETAILS},
                    {k: _(v) for k, v in LABELS.items()})
            except StoreError as error:
                shown["invitation_problem"] = error.text
    return render("season_money.html", status, **shown, **_common(hall, store, t))


def _query(request: Request) -> dict[str, str]:
    return {k: v[:200] for k, v in request.query_params.items()}


def routes(hall: Hall) -> list[Route]:
    """The season's routes (before the desk's /desk/{action})."""
    def page(build):
        return routing.director_page(
            hall, lambda request, store: build(hall, store, _query(request)))

    async def post_step(request: Request) -> Response:
        step = request.path_params["step"]
        body = await request.body()
        return await asyncio.to_thread(_step, hall, step, body, request)

    return [Route(PATH, page(season_page)), Route(MONEY, page(money_page)),
            Route(PATH + "/{step}", post_step, methods=["POST"]),
            *season_people.routes(hall)]


def _step(hall: Hall, step: str, body: bytes, request: Request) -> Response:
    """A posted season form, from its checks to the page that answers it."""
    if step not in season_steps.STEPS:
        return PlainTextResponse(WORDS["no_step"] % step[:40], status_code=404)
    answer = money_page if step == "prize" else season_page
    form = routing.posted(hall, request, body, lambda text, status: routing.with_store(
        hall, lambda store: answer(hall, store, {}, _said(False, text), status)))
    if isinstance(form, Response):
        return form
    query = {"series": form.get("series", "")[:200]} if step != "new" else {
        "series": form.get("name", "").strip()[:200]}

    def done(store: Store) -> Response:
        try:
            said = season_steps.run(store, current(store, hall), step, form)
        except BadForm as error:  # (the desk's forms' English: docs/languages.md)
            return answer(hall, store, _kept(query, step), _said(False, error.text), 400)
        except Stale as error:
            return answer(hall, store, _kept(query, step), _said(False, error.text), 409)
        except StoreError as error:
            return answer(hall, store, _kept(query, step), _said(False, error.text), 400)
        return answer(hall, store, query, _said(True, said), 200)
    return routing.with_store(hall, done)


def _kept(query: dict[str, str], step: str) -> dict[str, str]:
    """The page after a refusal: a series not made is not there to show."""
    return {} if step == "new" else query


def _said(ok: bool, text: str) -> dict:
    """What was done or why nothing was (in the page's language)."""
    return {"ok": ok, "text": text}
