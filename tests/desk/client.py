"""The desk's app called in-process, as a browser would call it (no server, no socket; the
hall's tests do the same: Starlette's TestClient needs httpx, which pilkku does not install):
a GET or a form POST with the director's cookie, an Origin, the desk's form token, each
left out or changed when a test says so."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from host.desk import guard
from host.hall.app import COOKIE, Hall
from tests.hall import asgi

HOST = "desk.test:8080"
ORIGIN = "http://" + HOST
_DEFAULT = object()


def call(app, method: str, path: str, body: bytes = b"",
         headers: list[tuple[str, str]] | tuple = ()) -> tuple[int, str]:
    """(status, body) of one request to the ASGI `app`, to the desk's host."""
    return asgi.call(app, method, path, body, [("host", HOST)] + list(headers),
                     server=("desk.test", 8080))


class Browser:
    """The director's browser (or, with `cookie=False`, anyone's) at the desk."""

    def __init__(self, app, hall: Hall, cookie: bool = True) -> None:
        self.app, self.hall, self.cookie = app, hall, cookie

    def _headers(self, origin) -> list[tuple[str, str]]:
        headers = []
        if self.cookie:
            headers.append(("cookie", "%s=%s" % (COOKIE, self.hall.token)))
        if origin is not None:
            headers.append(("origin", origin))
        return headers

    def get(self, path: str) -> tuple[int, str]:
        return call(self.app, "GET", path, headers=self._headers(None))

    def post(self, path: str, fields: dict[str, str], csrf=_DEFAULT,
             origin: str | None = ORIGIN, raw: bytes | None = None) -> tuple[int, str]:
        """A form POST; the desk's form token added unless `csrf` is given (None: none)."""
        fields = dict(fields)
        token = guard.form_token(self.hall) if csrf is _DEFAULT else csrf
        if token is not None:
            fields[guard.FIELD] = token
        body = raw if raw is not None else urlencode(fields).encode()
        headers = self._headers(origin) + [("content-type",
                                            "application/x-www-form-urlencoded")]
        return call(self.app, "POST", path, body, headers)


def hidden(html: str, form_id: str | None = None, name: str = "state") -> str:
    """The value of a hidden field in a page (in the form with that id, if given)."""
    if form_id is not None:
        start = html.index('id="%s"' % form_id)
        html = html[start:html.index("</form>", start)]
    found = re.search(r'name="%s" value="([^"]*)"' % re.escape(name), html)
    assert found, "no field %s in the page" % name
    import html as html_module

    return html_module.unescape(found.group(1))
