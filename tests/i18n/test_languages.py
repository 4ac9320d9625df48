"""Which language pilkku speaks and how it writes dates and numbers: the CLI's from --lang,
else LC_ALL / LC_MESSAGES / LANG; a page's from its remembered switch, else Accept-Language;
English otherwise. `pilkku --help` and argparse's own words in Finnish and Swedish."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime

import pytest

from host import cli, i18n
from host.i18n import choose, formats


@pytest.mark.parametrize("given, environ, expected", [
    (None, {}, "en"),
    (None, {"LANG": "fi_FI.UTF-8"}, "fi"),
    (None, {"LANG": "sv_FI.UTF-8"}, "sv"),
    (None, {"LANG": "sv_SE.UTF-8"}, "sv"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {"LANG": "fi_FI.UTF-8", "LC_MESSAGES": "sv_FI.UTF-8"}, "sv"),
    (None, {"LANG": "fi_FI.UTF-8", "LC_ALL": "C.UTF-8"}, "en"),
    (None, {"LANG": "fi_FI.UTF-8", "LANGUAGE": "sv:fi"}, "sv"),
    (None, {"LANGUAGE": "fi"}, "en"),  # LANGUAGE counts only with a locale set, as in gettext
    ("sv", {"LANG": "fi_FI.UTF-8"}, "sv"),
    ("fi-FI", {}, "fi"),
])
def test_the_clis_language(given, environ, expected):
    assert choose.for_cli(given, environ) == expected


@pytest.mark.parametrize("cookie, header, expected", [
    (None, None, "en"),
    (None, "fi-FI,fi;q=0.9,en-US;q=0.8,en;q=0.7", "fi"),
    (None, "sv-FI,sv;q=0.9,fi;q=0.8", "sv"),
    (None, "en-GB,en;q=0.9,fi;q=0.8", "en"),
    (None, "de-DE,de;q=0.9,sv;q=0.5,fi;q=0.4", "sv"),
    (None, "fi;q=0.2,sv;q=0.8", "sv"),
    (None, "fi;q=0,sv;q=0.1", "sv"),
    (None, "de, *", "en"),
    (None, "fi;q=x", "en"),
    ("sv", "fi-FI,fi;q=0.9", "sv"),  # the switch the browser remembers wins
    ("xx", "fi-FI", "fi"),  # a cookie that is no language of ours is not heard
])
def test_a_pages_language(cookie, header, expected):
    assert choose.for_page(cookie, header) == expected


def test_dates_times_and_decimals_as_each_language_writes_them():
    when = datetime(2024, 2, 25, 14, 3)
    shown = {}
    for lang in i18n.LANGUAGES:
        with i18n.use(lang):
            shown[lang] = (formats.date(when), formats.time(when), formats.decimal(1.25))
    assert shown == {"fi": ("25.2.2024", "14.03", "1,25"), "sv": ("25.2.2024", "14.03", "1,25"),
                     "en": ("2024-02-25", "14:03", "1.25")}


def test_use_speaks_inside_its_block_only():
    with i18n.use("fi"):
        assert i18n._("Tables") == "Pöydät"
        with i18n.use("sv"):
            assert i18n._("Tables") == "Bord"
        assert i18n.ngettext("%(num)sF", "%(num)sF", 2) % {"num": 2} == "2 virhettä"
    assert i18n._("Tables") == "Tables"
    with i18n.use("xx"):
        assert i18n.language() == "en"


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    return subprocess.run([sys.executable, "-m", "host.cli", *args], capture_output=True,
                          text=True, env=dict(environ, **env), timeout=60)


@pytest.mark.parametrize("lang, words, english", [
    ("fi_FI.UTF-8", ("käyttö:", "sijaintiargumentit", "valitsimet:", "KOMENTO",
                     "näytä tämä ohje ja lopeta", "tulokset tähän mennessä"),
     ("usage:", "positional arguments", "options:", "show this help", "the results so far")),
    ("sv_FI.UTF-8", ("användning:", "positionella argument", "flaggor:", "KOMMANDO",
                     "visa den här hjälpen och avsluta", "resultaten hittills"),
     ("usage:", "positional arguments", "options:", "show this help", "the results so far")),
])
def test_pilkku_help_in_the_environments_language(lang, words, english):
    done = run(["--help"], LANG=lang)
    assert done.returncode == 0, done.stderr
    for word in words:
        assert word in done.stdout, (word, done.stdout)
    for word in english:
        assert word not in done.stdout, (word, done.stdout)


def test_argparse_errors_in_finnish_and_swedish(capsys):
    for lang, expected in (("fi", "virheellinen valinta: 'nosuch' (vaihtoehdot:"),
                           ("sv", "ogiltigt val: 'nosuch' (välj bland")):
        with pytest.raises(SystemExit) as leaving:
            cli.main(["--lang", lang, "nosuch"])
        assert leaving.value.code == 2
        said = capsys.readouterr().err
        assert said.startswith("pilkku: argument") and expected in said, said
        assert ("(katso: pilkku --help)" if lang == "fi" else "(se: pilkku --help)") in said
    with pytest.raises(SystemExit):
        cli.main(["hall", "--port", "x", "--lang=fi"])
    said = capsys.readouterr().err
    assert "'x' ei ole kokonaisluku väliltä 0–65535" in said, said


def test_lang_anywhere_on_the_line_and_a_wrong_one_refused(capsys):
    with pytest.raises(SystemExit):
        cli.main(["hall", "--lang", "sv", "--help"])
    shown = capsys.readouterr().out
    assert shown.startswith("användning: pilkku hall") and "flaggor:" in shown, shown
    assert cli.main(["--lang", "de", "results"]) == 2
    assert "'de' is not a language pilkku speaks" in capsys.readouterr().err
    assert cli.language_of(["results", "--", "--lang", "fi"]) == (
        None, ["results", "--", "--lang", "fi"])
    assert cli.language_of(["--lang"]) == ("", [])


def command_lines(parser, prefix=()) -> list[tuple[str, ...]]:
    """Every command and action of `pilkku` (players import, ...), as words."""
    found = []
    for action in parser._actions:
        if action.__class__.__name__ == "_SubParsersAction":
            for name, child in action.choices.items():
                found.append(prefix + (name,))
                found.extend(command_lines(child, prefix + (name,)))
    return found


@pytest.mark.parametrize("lang, usage, options", [("fi", "käyttö: pilkku", "valitsimet:"),
                                                  ("sv", "användning: pilkku", "flaggor:")])
def test_every_commands_help_in_finnish_and_swedish_has_argparses_words(lang, usage, options,
                                                                       capsys):
    """No traceback, and argparse's own words translated, in every command's help (the
    commands' own help texts come in the next phase: docs/languages.md)."""
    lines = command_lines(cli.build_parser())
    assert len(lines) > 25
    for words in lines:
        with pytest.raises(SystemExit) as leaving:
            cli.main([*words, "--help", "--lang", lang])
        shown = capsys.readouterr()
        assert leaving.value.code == 0, (words, shown.err)
        assert shown.out.startswith(usage) and options in shown.out, (words, shown.out)
        assert "usage:" not in shown.out and "show this help message" not in shown.out, words
