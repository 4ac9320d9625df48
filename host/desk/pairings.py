"""The hakukaavio's next pairings at the desk (/desk/pairings, issue 28 item 2): each game still
to play with why it was drawn (night/why.py: the search's own reason, or the director's
pairing), and a manual pairing form per game not started, doing what `pilkku opponent MATCH
NAME --instead-of PLAYER --reason TEXT` does (night/pairing.py): every breach of the search's
rules named; those the director may set aside asked about, the game's code typed to confirm.

    routes(hall, render) -> [the page's route];  pair(store, tid, fields) -> Done | Ask
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from host.desk import guard, versions
from host.desk.actions import DESK_HOW, Ask, Done, _match
from host.desk.forms import BadForm, Fields
from host.desk.views import _inode
from host.hall.app import Hall
from host.i18n import N_, _
from host.tournament.night.how import in_words
from host.tournament.night.pairing import PairingRefused, pair_game, pairings
from host.tournament.night.why import next_pairings
from host.tournament.store import Store, StoreError

# What the director reads (one place: the template words the reasons themselves).
ASKED = N_("The pairing breaks rules of the search")  # (shown with tr(): the page's words)
BUTTON = N_("Pair them anyway")
REFUSED = "%s cannot be paired so: %s. Nothing was changed."
NOT_HAKUKAAVIO = "a manual pairing is for a drawn hakukaavio"  # (the night's words, matched)


def routes(hall: Hall, render) -> list[Route]:
    """GET /desk/pairings (the director's browser only); its form posts to /desk/pair."""
    async def show(request: Request) -> Response:
        if (refused := guard.director_only(hall, request)) is not None:
            return refused

        def build() -> Response:
            try:
                store, t = hall.open()
                with store:
                    shown = page(store, t)
            except StoreError as error:
                return HTMLResponse(render("said.html", t=None, ok=False, text=error.text,
                                           title=_("Not done")), status_code=503)
            return HTMLResponse(render("pairings.html", t=t, csrf=guard.form_token(hall),
                                       title=_("Pairings"), **shown),
                                headers={"Cache-Control": "no-store"})
        return await asyncio.to_thread(build)
    return [Route("/desk/pairings", show)]


def page(store: Store, t: dict) -> dict:
    """The next pairings, each with its match's state for its form, the players who may be
    named, and the pairings the director has made."""
    tid = t["id"]
    games = [dict(g) for g in _pairings(store, tid)]
    for game in games:
        game["version"] = versions.match(store, store.matches.get(tid, game["match"]))
    withdrawn = store.players.withdrawn(tid)
    names = {p["id"]: p["name"] for p in store.players.all(tid)}
    return {"games": games, "hakukaavio": store.tournaments.format(tid) == "hakukaavio",
            "players": [n for pid, n in names.items() if pid not in withdrawn],
            "made": [dict(p, players=[names.get(pid, "?") for pid in p["players"]])
                     for p in pairings(store, tid)]}


_SEEN: dict[tuple, tuple[int, list[dict]]] = {}  # read once per revision of the store


def _pairings(store: Store, tid: int) -> list[dict]:
    """next_pairings, replayed again only when the store has changed (the whole night's
    draw is replayed: 0.8 s for 70 results of a 64-player night on a loaded laptop)."""
    key, revision = (str(store.path), _inode(store), tid), store.db.revision()
    if key not in _SEEN or _SEEN[key][0] != revision:
        _SEEN[key] = (revision, next_pairings(store, tid))
    return _SEEN[key][1]


def pair(store: Store, tid: int, f: Fields) -> Done | Ask:
    """A manual pairing: the breaches the director may set aside asked first (with the
    game's code typed to confirm); those no one may set aside refuse it."""
    row = _match(store, tid, f)
    names = store.players.names(row)
    player = f.text("player", N_("the player who plays it now"), 60)
    out = f.choice("instead_of", N_("whom they replace"),
                   {n: n for n in names if n is not None})
    reason = f.text("reason", N_("the reason"))
    confirmed = f.flag("yes")
    if confirmed:
        f.typed("confirm", row["code"])
    try:
        done = pair_game(store, tid, row["code"], player, out, reason, confirm=confirmed)
    except PairingRefused as refused:
        breaches = in_words("; ".join(refused.breaches), DESK_HOW)
        if not refused.overridable:
            raise StoreError(REFUSED % (row["code"], breaches)) from None
        return Ask(ASKED, breaches, "/desk/pair", f.form,
                   typed=row["code"], more={"yes": "1"}, button=BUTTON)
    except StoreError as error:
        if NOT_HAKUKAAVIO in error.text:
            raise BadForm(error.text) from None
        raise
    # (said in the page's language: English as it was)
    said = _("%(match)s: %(player)s plays it instead of %(instead_of)s") % {
        "match": row["code"], "player": player, "instead_of": out}
    if done["overridden"]:
        said += " (%s)" % (_("set aside: %(rules)s") % {"rules": "; ".join(done["overridden"])})
    if len(done["gone"]) > 1:
        said += "; " + _("%(player)s's game %(match)s is taken out") % {
            "player": player, "match": done["gone"][1]}
    return Done(said + "; " + (
        _("the draw: %(count)s new game(s)") % {"count": done["drawn"]} if done["drawn"] else
        _("the draw: no new game yet (it pairs the players left without a game when it can)")))
