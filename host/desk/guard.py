"""Who may write at the desk, and that the write was meant there: the director's cookie (the
hall's, HttpOnly and SameSite=Strict), a form token only the desk's own pages carry (an HMAC
of the director's token: another site cannot read the page to copy it), and the browser's
Origin (or Referer) naming this server. Each refusal says what is wrong; nothing is done."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from host.hall.app import COOKIE, Hall, is_director
from host.i18n import N_, _

FIELD = "csrf"  # the form token's field in every form of the desk
NOT_DIRECTOR = N_("only the director's browser may use the desk: open the director's link "
                "that `pilkku desk` printed")


def form_token(hall: Hall) -> str:
    """The token every desk form carries (the same for the server's life)."""
    return hmac.new(hall.token.encode(), b"pilkku desk form", hashlib.sha256).hexdigest()[:32]


def director_only(hall: Hall, request: Request) -> Response | None:
    """A 403 for a browser without the director's cookie, else None."""
    if is_director(hall, request):
        return None
    return PlainTextResponse(_(NOT_DIRECTOR), status_code=403)


def refusal(hall: Hall, request: Request, form: dict[str, str]) -> str | None:
    """Why a posted form is refused before it is read further, or None."""
    if not is_director(hall, request):
        return _(NOT_DIRECTOR)
    where = _origin(request)
    if where is None:
        return _("the browser did not say which page sent the form (no Origin or Referer): "
                 "nothing was done")
    if where != request.headers.get("host", ""):
        return (_("the form came from another site (%(site)s), not from the desk: nothing was "
                  "done") % {"site": where[:80]})
    given = form.get(FIELD, "")
    if not given or not hmac.compare_digest(given.encode(), form_token(hall).encode()):
        return _("the form is not one the desk gave this server (it was made before the desk "
                 "restarted, or elsewhere): load the page again; nothing was done")
    return None


def _origin(request: Request) -> str | None:
    """host[:port] of the page that sent the request, from Origin, else Referer."""
    origin = request.headers.get("origin")
    if origin == "null":  # a sandboxed frame, a file: never the desk
        return "null"
    for value in (origin, request.headers.get("referer")):
        if value:
            return urlsplit(value).netloc
    return None


def enter(hall: Hall, request: Request) -> Response:
    """/desk/director?token=...: the director's cookie set, on to the night's screen."""
    given = request.query_params.get("token", "")
    if not hmac.compare_digest(given.encode(), hall.token.encode()):
        return PlainTextResponse(_("not the director's token (it changes each time pilkku "
                                   "desk starts: use the link it printed last)"),
                                 status_code=403)
    response = RedirectResponse("/desk", status_code=303)
    response.set_cookie(COOKIE, hall.token, httponly=True, samesite="strict")
    return response
