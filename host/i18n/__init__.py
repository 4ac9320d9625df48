"""Languages: pilkku speaks English, Finnish (fi) and Swedish (sv).

The language of what is being made now (a command's output, a page) is a context variable:
the CLI sets it for its whole run (host/cli.py main, from --lang or the environment:
choose.py), the hall's server around each page: `with use("fi"): ...`. Code marks what a person
reads with `_("...")` (or `ngettext` for a count); a word made in one place and shown in
another is marked with `N_("...")` where it is written and translated with `_(word)` where it
is shown. Placeholders are named: `_("Round %(number)d") % {"number": n}`.

docs/languages.md says how to mark a new string and how the catalogues are kept."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from host.i18n.catalogues import ARGPARSE, DOMAIN, translations

LANGUAGES = ("en", "fi", "sv")  # English first: the fallback
# The switch on a page: each language named in its own words, as Finnish sites name them.
SWITCH = {"en": "In English", "fi": "Suomeksi", "sv": "På svenska"}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("pilkku_language", default="en")
# The language of a thread that chose none: a new thread starts with an empty context, so the
# CLI's threads (a sync's boards, the watcher's ports) would speak English (use_everywhere).
_threads = ["en"]


def language() -> str:
    """The language of what is being made now."""
    return _current.get(_threads[0])


@contextlib.contextmanager
def use(lang: str) -> Iterator[None]:
    """Speak `lang` inside the block (a page), then what was spoken before."""
    token = _current.set(lang if lang in LANGUAGES else "en")
    try:
        yield
    finally:
        _current.reset(token)


@contextlib.contextmanager
def use_everywhere(lang: str) -> Iterator[None]:
    """Speak `lang` inside the block and in the threads started meanwhile that choose no
    language of their own (the CLI's whole run); then what was spoken before."""
    before = _threads[0]
    _threads[0] = lang if lang in LANGUAGES else "en"
    try:
        with use(lang):
            yield
    finally:
        _threads[0] = before


def gettext(message: str) -> str:
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A word whose translation depends on where it stands (e.g. "table" a pool table or a
    table of figures)."""
    return translations(language()).pgettext(context, message)


_ = gettext


def N_(message: str) -> str:
    """Marks a message for the catalogue without translating it here: it is translated where
    it is shown, with _(message)."""
    return message


def install_argparse() -> None:
    """argparse's own words ("usage:", "positional arguments", "error: ...") in the current
    language. argparse calls the module-level names `_` and `ngettext` it imported from the
    standard gettext module when it builds a help or an error; they are pointed at the
    argparse catalogue of the language spoken at that moment."""
    import argparse

    argparse._ = lambda message: translations(language(), ARGPARSE).gettext(message)  # type: ignore[attr-defined]
    argparse.ngettext = lambda s, p, n: translations(  # type: ignore[attr-defined]
        language(), ARGPARSE).ngettext(s, p, n)


def install(environment, lang: str | None = None) -> None:
    """Jinja2's i18n extension on `environment` ({% trans %} blocks and {{ _("...") }}),
    speaking the current language, or always `lang` (the desk's pages: English until they
    are translated)."""
    environment.add_extension("jinja2.ext.i18n")
    if lang is None:
        environment.install_gettext_callables(gettext, ngettext, newstyle=True,
                                              pgettext=pgettext)
    else:
        fixed = translations(lang)
        environment.install_gettext_callables(fixed.gettext, fixed.ngettext, newstyle=True,
                                              pgettext=fixed.pgettext)


__all__ = ["DOMAIN", "LANGUAGES", "SWITCH", "N_", "_", "gettext", "install", "install_argparse",
           "language", "ngettext", "pgettext", "use", "use_everywhere"]
