"""The people screen at the director's desk (/desk/people, docs/season.md): the people known
across the store's nights (name, club, licence number, nights played) and the director's
operations on them, the ones `pilkku people` calls (store/people.py): two spellings of one
person joined (with a reason, kept in the history), a join taken back (with a reason), a
person's club and licence number set. Each form posts to /desk/people/STEP, checked as every
desk form is (guard.refusal: the director's cookie, the form token, the Origin) and refused
as stale when the people changed since its page was shown; a refusal changes nothing (the
store's operation is one transaction, and it is called only once the form is read whole).
The answer is the page again with what was done or why nothing was (400 bad input, 403
refused, 409 stale)."""

from __future__ import annotations

import asyncio
import hashlib
import json

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from host.desk import guard, routing
from host.desk.forms import BadForm, Fields
from host.desk.setup import current
from host.desk.setup_players import known_names
from host.desk.versions import Stale
from host.hall.app import Hall
from host.i18n import _, formats
from host.tournament.store import Store, StoreError
from host.tournament.store.people import COMPLETE_MAX, FIELD_MAX, REASON_MAX

PATH = "/desk/people"


def state(store: Store) -> str:
    """What the people's forms act on: the people (names, clubs, licences) and the joins. A
    form made before any of it changed is refused as stale."""
    parts = [[[p["id"], p["name"], p["club"], p["licence"]] for p in store.people.all()],
             [[j["kept"], j["joined"], j["undone"]] for j in store.people.joins()]]
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _person(f: Fields, name: str, label: str) -> str:
    """A person as the form names them: '#ID' (the selects' values)."""
    value = f.form.get(name, "").strip()
    digits = value[1:] if value.startswith("#") else value
    if not (digits.isascii() and digits.isdigit() and 0 < len(digits) < 10):
        raise BadForm(_("choose %(what)s from the list") % {"what": label})
    return "#" + digits


def _reason(f: Fields) -> str:
    reason = f.form.get("reason", "").strip()
    if not reason or len(reason) > REASON_MAX or not reason.isprintable():
        raise BadForm(_("say why (1 to %(most)d characters, one line): the history keeps it")
                      % {"most": REASON_MAX})
    return reason


def join(store: Store, f: Fields) -> str:
    kept = _person(f, "kept", _("the person kept"))
    joined = _person(f, "joined", _("the person joined into them"))
    done = store.people.join(kept, joined, _reason(f))
    return _("#%(joined)d joined into #%(kept)d (%(players)d tournament player(s) moved); kept "
             "in the history below.") % done


def split(store: Store, f: Fields) -> str:
    joined = _person(f, "joined", _("the joined person"))
    done = store.people.split(joined, _reason(f))
    return _("#%(joined)d is a person of their own again, not #%(kept)d (%(players)d "
             "tournament player(s) moved back); kept in the history below.") % done


def details(store: Store, f: Fields) -> str:
    who = _person(f, "person", _("the person"))
    values = []
    for field in ("club", "licence"):
        value = f.form.get(field, "").strip()
        if len(value) > FIELD_MAX or not value.isprintable() or "<" in value or ">" in value:
            raise BadForm(_("a club or a licence number is at most %(most)d characters, one "
                            "line, no < or >") % {"most": FIELD_MAX})
        values.append(value)
    person = store.people.set_details(who, values[0], values[1])
    return _("#%(id)d %(name)s: club '%(club)s', licence number '%(licence)s'.") % person


STEPS = {"join": join, "split": split, "details": details}


def render(status: int = 200, **variables) -> HTMLResponse:
    from host.desk.app import render as desk_render

    return HTMLResponse(desk_render("season_people.html", **variables), status_code=status,
                        headers={"Cache-Control": "no-store"})


def page(hall: Hall, store: Store, said: dict | None = None, status: int = 200
         ) -> HTMLResponse:
    people = store.people.all()
    joins = store.people.joins()
    for j in joins:  # (kept in UTC: shown in the laptop's local time, as the page writes it)
        j["moved"] = len(json.loads(j["players"] or "[]"))
        j["at_shown"] = formats.stamp(j["at"])
        j["undone_shown"] = formats.stamp(j["undone"]) if j["undone"] else ""
    return render(status, title=_("People"), t=current(store, hall), said=said,
                  people=people, joins=joins, csrf=guard.form_token(hall),
                  state=state(store), reason_max=REASON_MAX, field_max=FIELD_MAX)




def routes(hall: Hall) -> list[Route]:
    def complete(request: Request, store: Store) -> Response:
        """The setup's name picker as the director types: [{value, label}] (JSON)."""
        prefix = request.query_params.get("prefix", "")[:80]
        t = current(store, hall)
        offered = known_names(store, 0 if t is None else t["id"], prefix)
        return JSONResponse(offered[:COMPLETE_MAX], headers={"Cache-Control": "no-store"})

    async def post_step(request: Request) -> Response:
        step = request.path_params["step"]
        body = await request.body()
        return await asyncio.to_thread(_step, hall, step, body, request)

    return [Route(PATH, routing.director_page(hall, lambda _r, store: page(hall, store))),
            Route(PATH + "/complete", routing.director_page(hall, complete)),
            Route(PATH + "/{step}", post_step, methods=["POST"])]


def _step(hall: Hall, step: str, body: bytes, request: Request) -> Response:
    """A posted people form, from its checks to the page that answers it."""
    if step not in STEPS:
        return PlainTextResponse(_("the desk's people screen has no form %(form)s")
                                 % {"form": step[:40]}, status_code=404)
    form = routing.posted(hall, request, body, lambda text, status: _answer(hall, text, status))
    if isinstance(form, Response):
        return form

    def done(store: Store) -> Response:
        try:
            if form.get("state", "") != state(store):
                raise Stale(_("the people changed since this page was shown (another form "
                              "or the CLI): nothing was done. Look at the page again and "
                              "send the form from there."))
            said = STEPS[step](store, Fields(form))
        except Stale as error:
            return page(hall, store, _said(False, error.text), 409)
        except (BadForm, StoreError) as error:
            return page(hall, store, _said(False, error.text), 400)
        return page(hall, store, _said(True, said))
    return routing.with_store(hall, done)


def _said(ok: bool, text: str) -> dict:
    return {"ok": ok, "text": text}


def _answer(hall: Hall, text: str, status: int) -> Response:
    return routing.with_store(hall, lambda store: page(hall, store, _said(False, text), status))
