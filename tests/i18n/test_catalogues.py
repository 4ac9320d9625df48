"""The catalogues against the code: every message marked in the code and the hall's templates
(extracted with Babel, as `python -m host.i18n.extract` does) and every word argparse says has
a Finnish and a Swedish translation, none fuzzy; no translation drops or adds a placeholder;
the English words other modules make, which the hall and `pilkku --help` translate where they
are shown (host/hall/words.py, host/cli.py COMMAND_HELP), are the words those modules make."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from host import cli
from host.games import GAME_NAMES
from host.hall import data, marks, words
from host.i18n import catalogues, extract
from host.tournament.night import ranking

LANGUAGES = ("fi", "sv")
# A Python %-placeholder: its name (or None) and its conversion; "%%" is no placeholder.
_PLACEHOLDER = re.compile(r"%(?:\((?P<name>[^)]*)\))?[#0 +\-]*(?:\d+|\*)?(?:\.\d+)?"
                          r"(?P<kind>[diouxXeEfFgGcrsa%])")


def placeholders(text: str) -> list[tuple[str | None, str]]:
    found = [(m["name"], m["kind"]) for m in _PLACEHOLDER.finditer(text) if m["kind"] != "%"]
    named = [f for f in found if f[0] is not None]
    return sorted(named) if named else found  # named: any order; positional: in order


def catalogue(language: str, domain: str):
    with catalogues.po_path(language, domain).open("rb") as po:
        return read_po(po, locale=language, domain=domain)


def _key(message) -> tuple:
    return (message.context, message.id)


@pytest.fixture(scope="module")
def templates():
    return {catalogues.DOMAIN: extract.messages(), catalogues.ARGPARSE: extract.argparse_messages()}


@pytest.mark.parametrize("domain", [catalogues.DOMAIN, catalogues.ARGPARSE])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_has_a_translation(templates, language, domain):
    wanted = {_key(m) for m in templates[domain] if m.id}
    po = catalogue(language, domain)
    translated = {_key(m) for m in po if m.id and not m.fuzzy and (
        all(m.string) if isinstance(m.string, tuple) else m.string)}
    missing = sorted(map(str, wanted - translated))
    assert not missing, ("%d messages have no %s translation in %s (run `python -m "
                         "host.i18n.extract`, then translate them): %s"
                         % (len(missing), language, catalogues.po_path(language, domain),
                            missing[:10]))
    stale = sorted(map(str, {_key(m) for m in po if m.id} - wanted))
    assert not stale, "no longer in the code (run `python -m host.i18n.extract`): %s" % stale


@pytest.mark.parametrize("domain", [catalogues.DOMAIN, catalogues.ARGPARSE])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translation_drops_or_adds_a_placeholder(language, domain):
    wrong = []
    for m in catalogue(language, domain):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for index, string in enumerate(strings):
            if not string:
                continue
            source = ids[min(index, len(ids) - 1)]
            if placeholders(string) != placeholders(source) and not (
                    len(ids) > 1 and placeholders(string) == placeholders(ids[0])):
                wrong.append((source, string))
    assert not wrong, wrong
    # Babel's own check of python-format entries says the same
    errors = [(m.id, e) for m, errs in catalogue(language, domain).check() for e in errs]
    assert not errors, errors


def test_the_placeholder_check_sees_a_dropped_and_an_added_one():
    assert placeholders("Pöytä %(number)s") == placeholders("Table %(number)s")
    assert placeholders("Pöytä") != placeholders("Table %(number)s")
    assert placeholders("%(a)s %(b)d") == placeholders("%(b)d ja %(a)s")
    assert placeholders("%(a)s %(a)s") != placeholders("%(a)s")
    assert placeholders("100 %% %s") == placeholders("%s")
    assert placeholders("%(minutes)02d min") != placeholders("%(minutes)s min")


def test_the_words_the_hall_translates_are_the_words_the_modules_make():
    """A word changed in data.py, marks.py, games.py or ranking.py and not here would be shown
    in English on a Finnish page: this says which."""
    made = set(data.FORMAT_NAMES.values()) | set(GAME_NAMES.values()) | {
        words for words in marks.KIND_WORDS.values() if words} | {
        text for pair in marks.OUTCOMES.values() for text in pair} | {
        ranking.FINAL, ranking.SO_FAR}
    unknown = sorted(made - set(words.WORDS))
    assert not unknown, "add them to host/hall/words.py WORDS: %s" % unknown


def test_pilkku_help_lists_the_subcommands_with_translated_help():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    shown = {a.help for a in sub._choices_actions if a.help}
    missing = sorted(shown - set(cli.COMMAND_HELP))
    assert not missing, ("a subcommand's help changed or is new: put it in host/cli.py "
                         "COMMAND_HELP and translate it (docs/languages.md): %s" % missing)
