"""How the desk's screens are answered, one way for all of them (the setup, the season, the
people): a page only for the director's browser, made from the store opened in a thread
(a store that cannot be opened or read is a 503 saying why), and a posted form read and then
guarded (guard.refusal) before anything is done with it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from host.desk import guard
from host.desk.forms import BadForm, read
from host.hall.app import Hall
from host.tournament.store import Store, StoreError


def with_store(hall: Hall, build: Callable[[Store], Response]) -> Response:
    """`build(store)` with the store opened; a 503 saying why when it cannot be read."""
    try:
        with Store.open(hall.db) as store:
            return build(store)
    except StoreError as error:
        return PlainTextResponse(error.text, status_code=503)


def director_page(hall: Hall, build: Callable[[Request, Store], Response]):
    """A page's endpoint: refused (403) to a browser that is not the director's, else
    `build(request, store)` in a thread (the store's reads never hold the server up)."""
    async def shown(request: Request) -> Response:
        if (refused := guard.director_only(hall, request)) is not None:
            return refused
        return await asyncio.to_thread(with_store, hall, lambda store: build(request, store))
    return shown


def posted(hall: Hall, request: Request, body: bytes,
           refuse: Callable[[str, int], Response],
           reader: Callable[[bytes], dict[str, str]] = read) -> dict[str, str] | Response:
    """The posted form, read and guarded; or the answer that nothing was done: to a browser
    that is not the director's the plain refusal alone (403, no desk page), else
    `refuse(text, status)`, the page saying why: a form that cannot be read (400), one the
    guard refuses (403: no form token, another site)."""
    if (stranger := guard.director_only(hall, request)) is not None:
        return stranger
    try:
        form = reader(body)
    except BadForm as error:
        return refuse(error.text, 400)
    refused = guard.refusal(hall, request, form)
    if refused:
        return refuse(refused, 403)
    return form
