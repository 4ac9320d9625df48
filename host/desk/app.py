"""The desk's pages on the hall's server: /desk (the night's screen, kept current by the
hall's server-sent events as the "desk" stream), /desk/match/CODE (one match and its
forms), /desk/withdraw, and a POST per action (actions.ACTIONS). Every POST is checked
(guard.refusal) and read (forms) before anything is done; the answer is a page saying what
was done, what to confirm, or why nothing was done (400 bad input, 403 refused, 409 stale).

    hall = Hall(db, tournament); app = make(hall)   # the hall's app with the desk's routes
"""

from __future__ import annotations

import asyncio
import contextvars
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, select_autoescape
from markupsafe import escape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from host import i18n
from host.desk import actions, boards, guard, routing, season, setup, views
from host.desk.forms import BadForm, Fields
from host.desk.versions import Stale
from host.hall import pages
from host.hall.app import Hall, data_now, make_app, page_language
from host.i18n import N_, _, choose
from host.tournament.store import Store, StoreError

HERE = Path(__file__).parent
STREAM = "desk"
ENV = Environment(loader=ChoiceLoader([FileSystemLoader(str(HERE / "templates")),
                                       FileSystemLoader(str(pages.HERE / "templates"))]),
                  autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
ENV.filters.update(pages.ENV.filters)
# Every desk page (and printout) in the language of its request (speaking(): the switch's
# cookie, else Accept-Language), made whole in it: docs/languages.md.
_HERE: contextvars.ContextVar[str] = contextvars.ContextVar("desk_page", default="/desk")
# What a refusal says when it says itself that nothing was done (the page adds "Nothing was
# changed." only after one that does not).
_NOTHING = (N_("nothing was done"), N_("nothing was changed"), N_("nothing was added"))


def says_nothing_done(text: str) -> bool:
    low = text.lower()
    return "othing was" in text or any(i18n.gettext(w).lower() in low for w in _NOTHING)


ENV.globals.update(pages.ENV.globals)  # race(), verdict(): the hall's, in the page's words
ENV.globals.update(language=i18n.language, here=_HERE.get, tr=lambda text: (
    i18n.gettext(text) if text else text),  # a word marked N_() where it was made
    says_nothing_done=says_nothing_done,
    languages=[(code, i18n.SWITCH[code]) for code in i18n.LANGUAGES])
i18n.install(ENV)


def speaking(app):
    """An ASGI app (a route's) run in the language its browser chose, remembering the page
    asked for (a GET's path: where the language switch comes back to)."""
    async def spoken(scope, receive, send) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        request = Request(scope)
        here = "/desk"
        if request.method == "GET":
            here = request.url.path + ("?" + request.url.query if request.url.query else "")
        token = _HERE.set(here)
        try:
            with i18n.use(page_language(request)):
                await app(scope, receive, send)
        finally:
            _HERE.reset(token)
    return spoken


def _back(path: str) -> str:
    """Where the switch may send a browser back to: a desk page or a printout, else /desk."""
    if path.startswith(("/desk", "/print/")) and "//" not in path and "\\" not in path:
        return path
    return "/desk"


async def language_switch(request: Request) -> Response:
    """The desk's language switch: remember the language asked for (the hall's cookie: one
    choice for the hall and the desk) and show the page again in it."""
    lang = request.query_params.get("to", "")
    if lang not in i18n.LANGUAGES:
        return PlainTextResponse(_("no such language here (en, fi, sv)"), status_code=404)
    response = RedirectResponse(_back(request.query_params.get("back", "/desk")),
                                status_code=303)
    response.set_cookie(choose.COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


def render(name: str, **variables) -> str:
    return ENV.get_template(name).render(variables)


def night_main(hall: Hall):
    """The "desk" stream's renderer: the night's screen's <main>."""
    def main(store: Store, t: dict, now_ms: int) -> str:
        template = ENV.get_template("desk.html")
        try:
            context = template.new_context(_night(hall, store, t, now_ms))
        except StoreError as error:  # said on the screen; the hall's pages go on updating
            return '<p class="said refused">%s</p>' % escape(error.text)
        return "".join(template.blocks["main"](context))
    return main


def _night(hall: Hall, store: Store, t: dict, now_ms: int) -> dict:
    return dict(views.night(store, t, now_ms), t=t, csrf=guard.form_token(hall),
                version=hall.version, title=_("The night"), live=True)


def routes(hall: Hall, watcher: Any = None) -> list[Route | Mount]:
    """The desk's routes (and the printouts', when host/desk/printouts.py is there);
    `watcher`: the boards' sync running in this process (`pilkku desk`'s), which the boards
    page shows and acts through."""
    hall.streams[STREAM] = night_main(hall)

    async def run(build, *args) -> Response:
        try:
            return await asyncio.to_thread(build, *args)
        except StoreError as error:
            return HTMLResponse(render("said.html", t=None, ok=False, text=error.text,
                                       title=_("Not done")), status_code=503)

    async def night_screen(request: Request) -> Response:
        if (refused := guard.director_only(hall, request)) is not None:
            return refused

        def build() -> Response:
            try:
                store, t = hall.open()
            except StoreError:
                if setup.empty(hall):  # a new store: the night starts at its setup
                    return RedirectResponse(setup.PATH, status_code=303)
                raise
            with store:
                return HTMLResponse(render("desk.html", **_night(hall, store, t, data_now())),
                                    headers={"Cache-Control": "no-store"})
        return await run(build)

    async def one_match(request: Request) -> Response:
        if (refused := guard.director_only(hall, request)) is not None:
            return refused
        code = request.path_params["code"]

        def build() -> Response:
            store, t = hall.open()
            with store:
                try:
                    shown = views.match(store, t, code)
                except StoreError:
                    return PlainTextResponse(_("no match %(code)s in this tournament")
                                             % {"code": code[:20]},
                                             status_code=404)
                return HTMLResponse(render("match_desk.html", t=t, csrf=guard.form_token(hall),
                                           title=code, **shown),
                                    headers={"Cache-Control": "no-store"})
        return await run(build)

    async def withdrawal(request: Request) -> Response:
        if (refused := guard.director_only(hall, request)) is not None:
            return refused

        def build() -> Response:
            store, t = hall.open()
            with store:
                return HTMLResponse(render("withdraw.html", t=t, csrf=guard.form_token(hall),
                                           players=views.players(store, t["id"]),
                                           title=_("Players")))
        return await run(build)

    async def act(request: Request) -> Response:
        return await asyncio.to_thread(_act, hall, request.path_params["action"],
                                       await request.body(), request)

    from host.desk import pairings  # helper DC's (issue 28.2): the hakukaavio's pairings

    made: list[Route | Mount] = [
        *pairings.routes(hall, render),
        *boards.routes(hall, watcher, render, ENV),  # helper DB's (issue 28.3)
        *setup.routes(hall), *season.routes(hall),  # (season: helper SE2's, issue 30)
        Route("/desk", night_screen),
        Route("/desk/director", lambda r: guard.enter(hall, r)),
        Route("/desk/language", language_switch),
        Route("/desk/match/{code}", one_match), Route("/desk/withdraw", withdrawal),
        Route("/desk/{action}", act, methods=["POST"]),
        Mount("/desk/static", StaticFiles(directory=str(HERE / "static")), name="desk-static"),
    ]
    try:
        from host.desk import printouts  # helper HH's (issue 28, phase 1)
    except ImportError:
        return _spoken(made)
    return _spoken([*printouts.routes(hall), *made])


def _spoken(made: list[Route | Mount]) -> list[Route | Mount]:
    """Each page route made in its browser's language (speaking)."""
    for route in made:
        if isinstance(route, Route):
            route.app = speaking(route.app)
    return made


def _act(hall: Hall, name: str, body: bytes, request: Request) -> Response:
    """A posted action, from its checks to the page that answers it."""
    action = actions.ACTIONS.get(name)
    if action is None:
        return PlainTextResponse(_("the desk has no action %(name)s") % {"name": name[:40]},
                                 status_code=404)
    form = routing.posted(hall, request, body,
                          lambda text, status: _said(False, text, status))
    if isinstance(form, Response):
        return form
    try:
        store, t = hall.open()
    except StoreError as error:
        return _said(False, error.text, 503)
    with store:
        back = _known(store, t["id"], form.get("match", ""))
        try:
            done = action(store, t["id"], Fields(form))
        except BadForm as error:
            return _said(False, error.text, 400, t, back)
        except Stale as error:
            return _said(False, error.text, 409, t, back)
        except StoreError as error:  # the night's refusal, in the page's language
            return _said(False, error.text, 400, t, back)
        if isinstance(done, actions.Ask):
            return HTMLResponse(render("ask.html", t=t, ask=done, csrf=guard.form_token(hall),
                                       hidden=_hidden(done), title=done.title))
        return _said(True, done.text, 200, t)


def _hidden(ask: actions.Ask) -> dict[str, str]:
    """The fields the confirming form posts again as they were."""
    left_out = {guard.FIELD} | set(ask.more) | ({"confirm"} if ask.typed else set()) | (
        {"played"} if ask.choose_played else set())
    return dict({k: v for k, v in ask.form.items() if k not in left_out}, **ask.more)


def _known(store: Store, tid: int, code: str) -> str | None:
    """The match a form names, if there is one: the refusal links back to it."""
    if not code or len(code) > 20:
        return None
    return code if code in store.matches.codes(tid) else None


def _said(ok: bool, text: str, status: int, t: dict | None = None,
          back: str | None = None) -> HTMLResponse:
    """What was done, or why nothing was, in the page's language (every refusal is said
    inside the page's i18n.use: the forms', the guard's, a stale form's, the night's)."""
    return HTMLResponse(render("said.html", t=t, ok=ok, text=text, back=back,
                               title=_("Done") if ok else _("Not done")), status_code=status)


def make(hall: Hall, watcher: Any = None) -> Starlette:
    """The hall's app with the desk's routes (`watcher`: see routes)."""
    return make_app(hall, routes(hall, watcher))
