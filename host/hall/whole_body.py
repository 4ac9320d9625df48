"""The hall's ASGI middleware that reads a request's body whole before the app answers it
(host/hall/app.py puts it before every route, the desk's too), and how much of a body the
app is given: FORM_MAX, or LARGER's for the paths that take more."""

from __future__ import annotations

from host import i18n

FORM_MAX = 4096  # a desk form: a 200-character reason in Finnish, its checks
# Paths that take a larger body than FORM_MAX, and how large (the desk's setup: a pasted
# list of players, a players file uploaded): path -> bytes.
LARGER: dict[str, int] = {}


class WholeBody:
    """ASGI middleware: a request's body is read whole before the hall answers it, and the app
    is given its first FORM_MAX bytes (LARGER's for its paths; the rest is read and dropped).
    A request whose body does not arrive whole (a broken chunked body, a client gone
    mid-body) is not answered by the app: uvicorn has answered 400 itself, or no one is
    listening.

    Why before: an answer given to a body not yet read (a 403 without the director's cookie,
    a 405 to a POST of a page) left uvicorn reading it afterwards, and a bad chunk met then
    ended in a traceback in the server's log (h11 cannot send its 400 after the answer, or the
    answer after its 400: 'Exception in ASGI application')."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # English unless a page chooses (a hall page: page_language): the laptop's own
        # language (`LANG=fi_FI.UTF-8 pilkku desk`) is the terminal's, not the pages'.
        with i18n.use("en"):
            await self._whole(scope, receive, send)

    async def _whole(self, scope, receive, send) -> None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")[:max(0, LARGER.get(scope["path"], FORM_MAX)
                                                      - len(body))]
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": bytes(body), "more_body": False}
        given = False

        async def again():  # the body once, then what uvicorn says (a disconnect)
            nonlocal given
            if given:
                return await receive()
            given = True
            return whole

        await self.app(scope, again, send)
