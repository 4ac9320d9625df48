"""The hall's Starlette app called in-process (no server, no socket): a GET as a browser makes
it, and what a person reads in a page: the text of the element with an id, or of the whole
<main>, tags dropped and white space collapsed."""

from __future__ import annotations

import asyncio
from html.parser import HTMLParser

from host.hall.app import COOKIE, Hall, make_app


def call(app, method: str, path: str, body: bytes = b"",
         headers: list[tuple[str, str]] | tuple = (),
         server: tuple[str, int] = ("hall", 80)) -> tuple[int, str]:
    """(status, body) of one request to the ASGI `app`: `headers` as (name, value) text,
    the Host header the server's own name unless given."""
    status, _answered, text = answer(app, method, path, body, headers, server)
    return status, text


def answer(app, method: str, path: str, body: bytes = b"",
           headers: list[tuple[str, str]] | tuple = (),
           server: tuple[str, int] = ("hall", 80)) -> tuple[int, dict[str, str], str]:
    """(status, the answer's headers by lower-case name, body) of one request (as `call`)."""
    path, _, query = path.partition("?")
    given_headers = [(k.lower(), v) for k, v in headers]
    if not any(k == "host" for k, _ in given_headers):
        given_headers.insert(0, ("host", "%s:%d" % server if server[1] != 80 else server[0]))
    if body:
        given_headers.append(("content-length", str(len(body))))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query.encode(), "root_path": "",
             "headers": [(k.encode(), v.encode()) for k, v in given_headers],
             "client": ("127.0.0.1", 1), "server": server}
    sent: list[dict] = []
    given = False

    async def receive() -> dict:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    answered = {k.decode().lower(): v.decode() for k, v in start.get("headers", [])}
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], answered, text.decode("utf-8")


def get(hall: Hall, path: str, director: bool = False, app=None) -> tuple[int, str]:
    """(status, body) of a GET of `path` (with the director's cookie if `director`) from
    the hall's app, or `app` made for `hall`."""
    headers = [("cookie", "%s=%s" % (COOKIE, hall.token))] if director else []
    return call(make_app(hall) if app is None else app, "GET", path, headers=headers)


class _Text(HTMLParser):
    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "col", "wbr"}

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted, self.depth, self.parts = wanted, 0, []

    def handle_starttag(self, tag, attrs) -> None:
        if tag in self.VOID:
            return
        if self.depth:
            self.depth += 1
        elif dict(attrs).get("id") == self.wanted or (self.wanted == "main" and tag == "main"):
            self.depth = 1
        if self.depth:
            self.parts.append(" ")

    def handle_endtag(self, tag) -> None:
        if self.depth and tag not in self.VOID:
            self.depth -= 1
            self.parts.append(" ")

    def handle_data(self, data) -> None:
        if self.depth:
            self.parts.append(data)


def text(html: str, element: str = "main") -> str:
    """What a person reads in the element with id `element` ("main": the page's <main>)."""
    parser = _Text(element)
    parser.feed(html)
    return " ".join("".join(parser.parts).split())
