"""The translations of one language, read from its gettext catalogue (host/locale/LANG/
LC_MESSAGES/DOMAIN.po) when first asked for and kept for the process.

Why the .po at run time and no compiled .mo: nothing to build and nothing to forget to build
(a .mo older than its .po would show yesterday's words); the .po is parsed by Babel and turned
into the standard library's GNUTranslations in memory (about 15 ms of imports and a few ms per
catalogue, paid only when a language other than English is used: English needs no catalogue).
Fuzzy and empty entries are left out, so an unfinished translation shows the English."""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "pilkku"  # the project's own messages
ARGPARSE = "argparse"  # argparse's own words ("usage:", "error:"), from the standard library


def po_path(language: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / ("%s.po" % domain)


@functools.lru_cache(maxsize=None)
def translations(language: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The language's translations of `domain`; English (or a language with no catalogue):
    the messages as written."""
    path = po_path(language, domain)
    if language == "en" or not path.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as po:
        catalog = read_po(po, locale=language, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)
