"""The desk's boards page: /desk/boards (every board seen, its table, firmware, last answer,
results left on it, live or not answering, what to do about one that refuses; the ports
where a board waits to be paired; the flashes), kept current by the hall's server-sent
events as the "boards" stream, and its POSTs /desk/boards/{pair,move,flash}
(host/desk/boards_actions.py), each checked as every desk form is (host/desk/guard.py).

    made = routes(hall, watcher, render)   # watcher: `pilkku desk`'s own (None: the page
                                           # shows what the store knows, and acts on nothing)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from markupsafe import escape
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from host import i18n
from host.desk import boards_view, guard
from host.desk.boards_actions import ACTIONS, Refused
from host.desk.boards_jobs import Jobs
from host.desk.forms import BadForm, Fields, read
from host.desk.versions import Stale
from host.hall.app import Hall
from host.i18n import N_, _
from host.tournament.store import Store, StoreError

STREAM = "boards"
PATH = "/desk/boards"
TITLE = N_("The boards")

Render = Callable[..., str]


def variables(hall: Hall, store: Store, t: dict, watcher: Any, jobs: Jobs) -> dict:
    shown = boards_view.page(store, t, watcher, jobs)
    for row in shown["boards"]:
        at = row.get("answered_at")
        row["clock"] = datetime.fromtimestamp(at).strftime(
            "%H:%M:%S" if i18n.language() == "en" else "%H.%M.%S") if at else None  # 14.03.05
        row["at_ms"] = int(at * 1000) if at else None
    for job in shown["jobs"]:
        job["anchor"] = _anchor(job["port"])
    return dict(shown, t=t, csrf=guard.form_token(hall), version=hall.version, title=_(TITLE),
                live=True, stream=STREAM)


def routes(hall: Hall, watcher: Any, render: Render, env: Any) -> list[Route]:
    jobs = Jobs()

    def main(store: Store, t: dict, now_ms: int) -> str:
        template = env.get_template("boards.html")
        try:
            context = template.new_context(variables(hall, store, t, watcher, jobs))
        except StoreError as error:
            return '<p class="said refused">%s</p>' % escape(error.text)
        return "".join(template.blocks["main"](context))

    hall.streams[STREAM] = main
    # Looked at only while a browser follows the page: the hall's own pages are not made
    # again for what only this page shows.
    hall.looks.append(lambda: boards_view.look(watcher, jobs) if hall.clients.get(STREAM)
                      else ())

    async def page(request: Request) -> Response:
        if (refused := guard.director_only(hall, request)) is not None:
            return refused

        def build() -> Response:
            try:
                store, t = hall.open()
            except StoreError as error:
                return _said(render, None, False, error.text, 503)
            with store:
                return HTMLResponse(render("boards.html",
                                           **variables(hall, store, t, watcher, jobs)),
                                    headers={"Cache-Control": "no-store"})
        return await asyncio.to_thread(build)

    async def act(request: Request) -> Response:
        name = request.path_params["action"]
        body = await request.body()
        return await asyncio.to_thread(_act, hall, watcher, jobs, render, name, body, request)

    return [Route(PATH, page), Route(PATH + "/{action}", act, methods=["POST"])]


def _act(hall: Hall, watcher: Any, jobs: Jobs, render: Render, name: str, body: bytes,
         request: Request) -> Response:
    action = ACTIONS.get(name)
    if action is None:
        return PlainTextResponse(_("the boards page has no action %(action)s")
                                 % {"action": name[:40]}, status_code=404)
    try:
        form = read(body)
    except BadForm as error:
        return _said(render, None, False, error.text, 400)
    refused = guard.refusal(hall, request, form)
    if refused:
        return _said(render, None, False, refused, 403)
    try:
        store, t = hall.open()
    except StoreError as error:
        return _said(render, None, False, error.text, 503)
    with store:
        try:
            done = action(store, t, watcher, jobs, Fields(form))
        except BadForm as error:
            return _said(render, t, False, error.text, 400)
        except Stale as error:
            return _said(render, t, False, error.text, 409)
        except (Refused, StoreError) as error:
            return _said(render, t, False, error.text, 400)
    if name == "flash":  # its progress is on the page
        return RedirectResponse("%s#flash-%s" % (PATH, _anchor(done)), status_code=303)
    return _said(render, t, True, done, 200)


def _anchor(port: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in port)


def _said(render: Render, t: dict | None, ok: bool, text: str, status: int) -> HTMLResponse:
    return HTMLResponse(render("boards_said.html", t=t, ok=ok, text=text,
                               title="Done" if ok else "Not done", at=time.time()),
                        status_code=status)
