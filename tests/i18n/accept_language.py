"""A real browser asking for a language first, as a Finnish (or Swedish) laptop's does, for
the i18n browser tests of the hall and the desk; as it was after (English, no cookies)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

FINNISH = "fi-FI,fi,en-US;q=0.8,en;q=0.7"


@contextmanager
def asking_for(browser, accept_language: str = FINNISH) -> Iterator:
    agent = browser.execute_script("return navigator.userAgent")
    browser.execute_cdp_cmd("Emulation.setUserAgentOverride", {
        "userAgent": agent, "acceptLanguage": accept_language})
    try:
        yield browser
    finally:
        browser.delete_all_cookies()
        browser.execute_cdp_cmd("Emulation.setUserAgentOverride", {
            "userAgent": agent, "acceptLanguage": "en-US,en"})
