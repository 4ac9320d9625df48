"""The catalogues kept up to date: the messages marked in the code and the hall's templates
(babel.cfg) extracted with Babel into host/locale/pilkku.pot, argparse's own from the standard
library's argparse.py into host/locale/argparse.pot, and each language's .po updated from
them (a new message comes in untranslated, one gone is dropped, a changed one is kept as
fuzzy for the translator). tests/i18n reads the same extraction.

    .venv/bin/python -m host.i18n.extract      # after marking new strings (docs/languages.md)

then translate the new entries (msgstr "") in host/locale/fi/LC_MESSAGES/*.po and
host/locale/sv/LC_MESSAGES/*.po."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from host.i18n.catalogues import ARGPARSE, DOMAIN, LOCALE_DIR, po_path

ROOT = LOCALE_DIR.parent.parent
LANGUAGES = ("fi", "sv")  # the catalogues kept (English is the messages themselves)
_HEADER = {"project": "pilkku", "copyright_holder": "the pilkku authors",
           "msgid_bugs_address": "", "fuzzy": False}


def messages() -> Catalog:
    """Every message marked in the code and the templates (babel.cfg), with where it is."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog(domain=DOMAIN, **_HEADER)  # type: ignore[arg-type]
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=DEFAULT_KEYWORDS,
            comment_tags=("Translators:",), strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def argparse_messages() -> Catalog:
    """argparse's own words, from the argparse.py this Python runs."""
    catalog = Catalog(domain=ARGPARSE, **_HEADER)  # type: ignore[arg-type]
    for lineno, message, comments, context in extract_from_file("python", argparse.__file__):
        catalog.add(message, None, [("argparse.py", lineno)], auto_comments=comments,
                    context=context)
    return catalog


def update(template: Catalog, domain: str, write_template: bool = True) -> dict[str, int]:
    """Write the .pot and bring each language's .po up to it; returns each language's count
    of messages still to translate."""
    if write_template:
        _write(LOCALE_DIR / ("%s.pot" % domain), template, ignore_obsolete=False)
    left = {}
    for language in LANGUAGES:
        path = po_path(language, domain)
        if path.is_file():
            with path.open("rb") as po:
                catalog = read_po(po, locale=language, domain=domain)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, domain=domain, **_HEADER)  # type: ignore[arg-type]
        catalog.update(template, no_fuzzy_matching=False)
        _write(path, catalog, ignore_obsolete=True)
        left[language] = sum(1 for m in catalog if m.id and (not m.string or m.fuzzy))
    return left


def _write(path: Path, catalog: Catalog, ignore_obsolete: bool) -> None:
    """Write the catalogue unless only its dates would change (no churn in git)."""
    made = io.BytesIO()
    write_po(made, catalog, width=100, sort_output=True, include_lineno=False,
             ignore_obsolete=ignore_obsolete)
    dated = (b'"POT-Creation-Date:', b'"PO-Revision-Date:')

    def undated(text: bytes) -> list[bytes]:
        return [line for line in text.splitlines() if not line.startswith(dated)]

    if path.is_file() and undated(path.read_bytes()) == undated(made.getvalue()):
        return
    path.write_bytes(made.getvalue())


def main() -> int:
    for domain, template in ((DOMAIN, messages()), (ARGPARSE, argparse_messages())):
        left = update(template, domain)
        print("%s: %d messages; to translate: %s" % (
            domain, len(template), ", ".join("%s %d" % item for item in left.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
