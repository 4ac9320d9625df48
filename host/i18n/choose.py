"""Which language to speak: for the CLI from --lang, else the environment (LC_ALL, then
LC_MESSAGES, then LANG, as gettext reads them; LANGUAGE's list first when it names one we
have); for a page from the switch the browser remembers (a cookie), else its Accept-Language.
Anything else: English."""

from __future__ import annotations

import os
from collections.abc import Mapping

from host.i18n import LANGUAGES

COOKIE = "pilkku_lang"


def _code(text: str) -> str | None:
    """'fi_FI.UTF-8', 'sv-FI', 'fi' -> the language we speak, or None."""
    code = text.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def for_cli(given: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """--lang if given, else the locale the environment names for messages."""
    if given:
        return _code(given) or "en"
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            if value in ("C", "POSIX") or value.startswith("C."):
                return "en"
            # gettext's rule: with a locale set, LANGUAGE's list comes first
            for wanted in env.get("LANGUAGE", "").split(":"):
                if wanted and _code(wanted):
                    return _code(wanted) or "en"
            return _code(value) or "en"
    return "en"


def accepted(header: str) -> str:
    """The language an Accept-Language header prefers most among ours (q=0: not wanted)."""
    ranked = []
    for order, part in enumerate(header.split(",")[:20]):
        tag, _, params = part.partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:7])
            except ValueError:
                weight = 0.0
        code = _code(tag) if tag.strip() != "*" else None
        if code and weight > 0:
            ranked.append((-weight, order, code))
    return min(ranked)[2] if ranked else "en"


def for_page(cookie: str | None, accept_language: str | None) -> str:
    """The switch's choice if the browser remembers one, else what it accepts."""
    if cookie in LANGUAGES:
        return cookie  # type: ignore[return-value]
    return accepted(accept_language or "")
