"""For the printouts' tests: a small app of the hall's director link and the printouts'
routes (host/desk/printouts.py) as the desk's app will include them, a GET of it in-process
(no server), a served one for Chromium, and a page printed to PDF by Chromium with its text
and page sizes read back (pypdf)."""

from __future__ import annotations

import base64
import io
import time

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from host.bench.hall import serving as hall_serving
from host.desk import printouts
from host.hall.app import COOKIE, Hall
from tests.hall import asgi

A4 = (595, 842)  # points, portrait


def app(hall: Hall) -> Starlette:
    """The printouts behind the hall's director link (/director?token=... sets the cookie)."""
    async def director(request: Request) -> Response:
        if request.query_params.get("token") != hall.token:
            return PlainTextResponse("not the director's token", status_code=403)
        response = RedirectResponse("/print/results", status_code=303)
        response.set_cookie(COOKIE, hall.token, httponly=True, samesite="strict")
        return response

    return Starlette(routes=printouts.routes(hall) + [Route("/director", director)])


def get(hall: Hall, path: str, director: bool = True) -> tuple[int, str]:
    """(status, body) of a GET of `path`, with the director's cookie if `director`."""
    return asgi.get(hall, path, director, app=app(hall))


def serving(db: str):
    """The printouts of the store's latest tournament on a free port for the duration."""
    return hall_serving(db, app)


def login(driver, url: str, hall: Hall) -> None:
    driver.get(url + "/director?token=" + hall.token)


def pdf(driver, url: str) -> bytes:
    """The page at `url` printed as Chromium's print dialog prints it: the page's own
    @page size and margins, no backgrounds."""
    driver.get(url)
    _loaded(driver, url)
    printed = driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True,
                                                         "printBackground": False})
    return base64.b64decode(printed["data"])


def _loaded(driver, url: str) -> None:
    """Wait until the printout at `url` is the document, loaded whole with its fonts (on a
    loaded machine a PDF was once made of another document: Letter-sized, one page)."""
    deadline = time.monotonic() + 30
    while not driver.execute_script(
            "return document.URL === arguments[0] && document.readyState === 'complete' && "
            "!!document.querySelector('.paper') && document.fonts.status === 'loaded'", url):
        assert time.monotonic() < deadline, "the printout never loaded: %s" % driver.current_url
        time.sleep(0.05)


def read(document: bytes) -> tuple[list[str], list[tuple[int, int]]]:
    """Each page's text and size (points, rounded) of a PDF."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(document))
    texts = [page.extract_text() or "" for page in reader.pages]
    sizes = [(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in reader.pages]
    return texts, sizes


_WIDEST = """
var limit = document.documentElement.clientWidth, worst = null;
document.querySelectorAll('.paper *').forEach(function (e) {
  var box = e.getBoundingClientRect();
  if (box.width && box.right > limit + 0.5 && (!worst || box.right > worst.right)) {
    worst = {tag: e.tagName, cls: e.className, text: e.textContent.slice(0, 60),
             right: box.right, limit: limit};
  }
});
return worst;
"""


def overflow(driver, landscape: bool) -> dict | None:
    """The element reaching furthest past the printed page's width (None if none does):
    the page laid out for print at A4's width less the margins (190 or 277 mm)."""
    width = round((277 if landscape else 190) * 96 / 25.4)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
    try:
        return driver.execute_script(_WIDEST)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def screenshot(driver, url: str, path, landscape: bool) -> None:
    """Page one as printed: the print layout at A4 (96 px to the inch) with its margins."""
    width, height = (1123, 794) if landscape else (794, 1123)
    driver.get(url)
    _loaded(driver, url)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    try:
        driver.execute_script("document.body.style.padding = '10mm';"
                              "document.body.style.background = '#fff';")
        driver.save_screenshot(str(path))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
