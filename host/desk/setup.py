"""The desk's SET UP pages: /desk/setup (a new tournament, its players, seeds and tables, the
draw shown before it is confirmed) and a POST per step (/desk/setup/STEP). Each step calls the
operation the CLI calls (setup_new, setup_players, setup_draw); each POST is checked as every
desk form is (guard.refusal: the director's cookie, the form token, the Origin), and a form
made for another tournament than the one the desk follows now, or (seeds, tables, the draw)
for a setup that changed since, is refused as stale. The answer is the setup page again with
what was done or why nothing was (400 bad input, 403 refused, 409 stale).

With no tournament in the store yet (`pilkku desk` on a new store), /desk leads here."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from host.desk import guard, routing, setup_draw, setup_new, setup_players
from host.desk.forms import BadForm, Fields
from host.desk.versions import Stale
from host.hall import app as hall_app
from host.hall import data
from host.hall.app import Hall
from host.i18n import N_, _
from host.tournament import night
from host.tournament.store import ImportRefused, Store, StoreError
from host.tournament.store.tournaments import BOARD_LANG, BOARD_LANGUAGES

LANGUAGE_NAMES = setup_new.LANGUAGE_NAMES

PATH = "/desk/setup"
FIELDS_MAX = 200  # a form's fields (the rules' options of every game are in the new form)
WORDS = {
    # (N_: every word here said in the page's language, translated where used)
    "other": N_("the desk follows another tournament now ('%(tournament)s'): this form was "
                "made for an earlier one. Nothing was done: look at the setup again."),
    "none": N_("there is no tournament yet: start one first"),
    "too_long": N_("the form is longer than the desk takes (%(most)d KB): nothing was done"),
    "not_form": N_("the form could not be read (not a form of the desk)"),
    "twice": N_("the form gives %(field)s more than once"),
    "tables": N_("the number of tables"),
    "tables_set": N_("Tables: %(tables)s."),
    "no_step": N_("the desk's setup has no step %(step)s"),
    "title": N_("Set up"),
    "preview": N_("The draw, not made yet"),
    "fill": N_("fill the free tables"),
    "more": N_("and %(more)d more"),
}
PROBLEMS_SHOWN = 20  # a refused list's problems shown (a file of 70 000 twice-listed names)


def _limit(step: str) -> int:
    return {"paste": setup_players.PASTE_MAX,
            "upload": setup_players.UPLOAD_MAX}.get(step, hall_app.FORM_MAX)


def current(store: Store, hall: Hall) -> dict | None:
    """The tournament the desk follows, or None when the store has none yet."""
    if hall.tournament is None and not store.tournaments.all():
        return None
    return data.tournament(store, hall.tournament)


def empty(hall: Hall) -> bool:
    """Whether the desk has no tournament to show yet (the night's screen leads here)."""
    with Store.open(hall.db) as store:
        return current(store, hall) is None


def _page(hall: Hall, store: Store, t: dict | None) -> dict:
    shown: dict = {"t": t, "csrf": guard.form_token(hall), "title": _(WORDS["title"]),
                   "new": setup_new.page()}
    if t is None:
        return shown
    tid = t["id"]
    chosen = setup_players.seeds(store, tid)
    shown.update(
        tid=tid, state=setup_draw.state(store, tid), drawn=store.matches.any(tid),
        players=[dict(p, seeded=p["name"] in chosen) for p in store.players.all(tid)],
        seeds=chosen, known=setup_players.known_names(store, tid),
        tables=store.tables.numbers(tid), plan=store.tournaments.plan(tid),
        lang_set=store.tournaments.plan(tid).get(BOARD_LANG), lang_names=LANGUAGE_NAMES,
        formats=setup_new.FORMAT_WORDS, name_max=setup_players.NAME_MAX,
        club_max=setup_players.CLUB_MAX)
    return shown


def render(name: str, status: int = 200, **variables) -> HTMLResponse:
    from host.desk.app import render as desk_render

    return HTMLResponse(desk_render(name, **variables), status_code=status,
                        headers={"Cache-Control": "no-store"})


def _read(body: bytes) -> dict[str, str]:
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True,
                          max_num_fields=FIELDS_MAX, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise BadForm(_(WORDS["not_form"])) from None
    twice = sorted(name for name, values in fields.items() if len(values) > 1)
    if twice:
        raise BadForm(_(WORDS["twice"]) % {"field": twice[0][:40]})
    return {name: values[0] for name, values in fields.items()}


def _read_step(step: str, body: bytes, request: Request, files: list[bytes | None]
               ) -> dict[str, str]:
    """A step's form (an upload's file put in `files`); BadForm when it cannot be read."""
    if len(body) >= _limit(step):
        most = {"most": _limit(step) >> 10}
        raise BadForm(_(setup_players.WORDS["file_long"]) % {
            "most": setup_players.MAX_BYTES >> 10} if step == "upload" else
            _(setup_players.WORDS["paste_long"]) % most
            if step == "paste" else _(WORDS["too_long"]) % most)
    if step != "upload":
        return _read(body)
    form, data_file = setup_players.multipart(body, request.headers.get("content-type", ""))
    files.append(data_file)
    return form


def tables(store: Store, tid: int, f: Fields) -> str:
    count = f.whole("count", WORDS["tables"], 1, setup_new.TABLES_MAX)
    return _(WORDS["tables_set"]) % {"tables": ", ".join(
        str(n) for n in night.set_tables(store, tid, count))}


def language(store: Store, tid: int, f: Fields) -> str:
    """The tournament's language (its boards', sent at their next sync, and its texts to
    post), as `pilkku tournament language` sets it."""
    lang = f.choice("lang", _("the language"), {code: code for code in BOARD_LANGUAGES})
    store.tournaments.set_board_language(tid, lang)
    return _("The tournament speaks %(language)s now: its boards from their next sync, its "
             "texts to post at once.") % {"language": LANGUAGE_NAMES[lang]}


# step -> (what it does, whether it checks the whole setup's state)
STEPS = {
    "player": (setup_players.one, False), "seed": (setup_players.seed, True),
    "unseed": (setup_players.unseed, True), "clear-seeds": (setup_players.clear_seeds, True),
    "tables": (tables, True), "rename": (setup_players.rename, True),
    "remove": (setup_players.remove, True), "language": (language, False),
}


def routes(hall: Hall) -> list[Route]:
    """The setup's routes (before the desk's /desk/{action})."""
    for step in ("paste", "upload"):
        hall_app.LARGER["%s/%s" % (PATH, step)] = _limit(step)

    def page(_request: Request, store: Store) -> Response:
        return render("setup_page.html", **_page(hall, store, current(store, hall)))

    async def post(request: Request) -> Response:
        step = request.path_params["step"]
        body = await request.body()
        return await asyncio.to_thread(_step, hall, step, body, request)

    return [Route(PATH, routing.director_page(hall, page)),
            Route(PATH + "/{step}", post, methods=["POST"])]


def _step(hall: Hall, step: str, body: bytes, request: Request) -> Response:
    """A posted setup step, from its checks to the page that answers it."""
    if step not in STEPS and step not in ("new", "paste", "upload", "preview", "draw"):
        return PlainTextResponse(_(WORDS["no_step"]) % {"step": step[:40]}, status_code=404)
    files: list[bytes | None] = []  # an upload's file, once its form is read
    form = routing.posted(hall, request, body,
                          lambda text, status: routing.with_store(
                              hall, lambda store: _answer(hall, False, text, status, store)),
                          lambda raw: _read_step(step, raw, request, files))
    if isinstance(form, Response):
        return form
    data_file = files[0] if files else None
    f = Fields(form)
    try:
        with Store.open(hall.db) as store:
            t = current(store, hall)
            try:
                if step == "new":
                    said = setup_new.new(store, f, hall.tournament)
                    return _answer(hall, True, said, 200, store)
                if t is None:
                    raise BadForm(_(WORDS["none"]))
                tid = t["id"]
                if form.get("tournament") != str(tid):
                    raise Stale(_(WORDS["other"]) % {"tournament": t["name"]})
                if step == "paste":
                    said = setup_players.paste(store, tid, form.get("names", ""))
                elif step == "upload":
                    said = setup_players.upload(store, tid, data_file or b"")
                elif step == "preview":
                    setup_draw.check_state(store, tid, form.get("state", ""))
                    shown = setup_draw.preview(store, tid, guard.form_token(hall))
                    return render("setup_preview.html", t=t, csrf=guard.form_token(hall),
                                  title=_(WORDS["preview"]), tid=tid, **shown)
                elif step == "draw":
                    said = setup_draw.confirm(store, tid, form, guard.form_token(hall),
                                              f.flag("fill"))
                else:
                    action, checked = STEPS[step]
                    if checked:
                        setup_draw.check_state(store, tid, form.get("state", ""))
                    said = action(store, tid, f)
            except ImportRefused as error:
                return _answer(hall, False, "", 400, store, error.problems)
            except BadForm as error:
                return _answer(hall, False, error.text, 400, store)
            except Stale as error:
                return _answer(hall, False, error.text, 409, store)
            except StoreError as error:
                return _answer(hall, False, error.text, 400, store)
            return _answer(hall, True, said, 200, store)
    except StoreError as error:  # the store could not be opened or read
        return PlainTextResponse(error.text, status_code=503)


def _answer(hall: Hall, ok: bool, text: str, status: int, store: Store | None = None,
            problems: list[str] | None = None) -> Response:
    """The setup page as it is now, with what was done or why nothing was."""
    if store is None:
        with Store.open(hall.db) as opened:
            return _answer(hall, ok, text, status, opened, problems)
    shown = _page(hall, store, current(store, hall))
    problems = problems or []
    if len(problems) > PROBLEMS_SHOWN:
        problems = problems[:PROBLEMS_SHOWN] + [
            _(WORDS["more"]) % {"more": len(problems) - PROBLEMS_SHOWN}]
    return render("setup_page.html", status, said={"ok": ok, "text": text,
                                                   "problems": problems}, **shown)
