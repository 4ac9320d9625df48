"""The CLI in Finnish and Swedish (issue 29): every `pilkku` subcommand, called badly (the whole
matrix of tests/host/test_cli_matrix.py) and through a night's good calls, with
`LANG=fi_FI.UTF-8` or `sv_FI.UTF-8`: no traceback, and no English left in what it says.

English is found by its small words ("the", "is", "not", "with" ...) and the night's nouns
("table", "winner", "round" ...), whole words, after taking out what is not a sentence: the
command's own words (`pilkku players import`), options (`--race`), choices (`{fi,sv}`), paths
and what a message quotes back (a player's name, the value typed)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from host import cli
from host.board import registry
from tests.host.test_cli_matrix import calls, leaves, made, run  # noqa: F401 (made: fixture)
from tests.host.test_store import log_text

LOCALES = {"fi": "fi_FI.UTF-8", "sv": "sv_FI.UTF-8"}

# Whole words no Finnish or Swedish message has (Swedish says "match" too: not looked for there).
ENGLISH = set("""the is are was were not with and of to has have this that there it for from
by an or can cannot already only which when give given must should none yet found missing
unknown error usage options table tables board boards player players winner round result
results store file match matches""".split())
ENGLISH_IN = {"fi": ENGLISH, "sv": ENGLISH - {"match"}}

COMMAND_WORDS = sorted({word for words, _parser in leaves(cli.build_parser()) for word in words},
                       key=len, reverse=True)
_NOT_SENTENCE = [
    re.compile(r"pilkku(?: (?:%s)\b)+" % "|".join(re.escape(w) for w in COMMAND_WORDS)),
    re.compile(r"--?[A-Za-z][\w-]*(?:[ =][A-Z_]+\b)?"),     # options and their metavars
    re.compile(r"\{[^}]*\}"),                              # argparse's choices
    re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|‘[^’\n]*’|“[^”\n]*”|«[^»\n]*»|”[^”\n]*”"),  # quoted
    re.compile(r"\S*/\S*"),                                # paths and URLs
]


def english_in(text: str, lang: str) -> list[str]:
    """The English words left in `text` once what is not a sentence is taken out."""
    for pattern in _NOT_SENTENCE:
        text = pattern.sub(" ", text)
    words = re.findall(r"[A-Za-zÅÄÖåäö]+", text)
    return sorted({w for w in words if w in ENGLISH_IN[lang]})


def test_the_english_finder_finds_english_and_not_finnish_or_swedish():
    assert english_in("pilkku: the table is not free", "fi") == ["is", "not", "table", "the"]
    assert english_in("pilkku players import: tiedostoa ei löydy: '/tmp/the file'", "fi") == []
    assert english_in("pilkku: --round-robin ja --winner PELAAJA {fi,sv}", "fi") == []
    assert english_in("pilkku: matchen är inte slut", "sv") == []
    assert english_in("pilkku: match R1-01 finns inte", "sv") == []
    assert english_in("pilkku: match R1-01 ei ole", "fi") == ["match"]


def speaking(monkeypatch, lang: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", LOCALES[lang])


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_bad_call_answers_in_the_environments_language(made, tmp_path, monkeypatch,  # noqa: F811
                                                              lang):
    _root, _files, good_db, _stores = made
    monkeypatch.setattr(registry, "VIRTUAL_BOARDS", tmp_path / "no-boards")
    speaking(monkeypatch, lang)
    failures: dict[str, list[str]] = {}  # what was said (paths out) -> the calls that said it
    for argv, what in calls(made):
        db = tmp_path / "store.db"
        shutil.copyfile(good_db, db)
        if "--db" not in argv:
            argv = ["--db", str(db)] + argv
        code, text = run(argv)
        left = english_in(text, lang)
        if "Traceback" in text or code != 2 or left:
            said = re.sub(r"\S*/\S*", "PATH", re.sub(r"^pilkku[^:\n]*:", "pilkku:", text.strip()))
            failures.setdefault("exit %s, English %s: %r" % (code, left, said[:200]), []).append(
                "%s (%s)" % (" ".join(argv[2:4]), what))
    assert not failures, "\n".join("%s\n    from %d calls, e.g. %s" % (said, len(where), where[0])
                                    for said, where in failures.items())


def before_play(folder: Path) -> list[list[str]]:
    """A small night's calls until its first results, in the order a director makes them."""
    players = folder / "players.csv"
    players.write_text("name\nAnna\nBen\nCid\nDan\nEve\n", encoding="utf-8")
    return [
        ["tournament", "new", "Cup", "--game", "9ball", "--race", "2"],
        ["tournament", "list"],
        ["players", "import", str(players)],
        ["players", "rename", "Eve", "Eva"],
        ["players"],
        ["matches", "generate", "--round-robin"],
        ["matches"],
        ["tables", "2"],
        ["assign", "--auto"],
        ["tables"],
        ["players", "add", "Fay"],
    ]


def playing(folder: Path, first: dict, second: dict) -> list[list[str]]:
    """The night's calls once its first two matches are known: a board's log, a result
    corrected, a walkover, a void, a withdrawal, and what the director reads and prints."""
    log = folder / "R1-01.json"
    log.write_text(log_text([first["player1"], first["player2"]], [2, 1]), encoding="utf-8")
    return [
        ["record", "R1-01", str(log)],
        ["results"],
        ["standings"],
        ["correct", "R1-01", "--score", "0:2", "--reason", "typed wrong", "--yes"],
        ["walkover", "R1-02", second["player1"], "--reason", "late"],
        ["void", "R1-02", "--reason", "wrong table", "--yes"],
        ["withdraw", "Fay", "--reason", "ill", "--yes"],
        ["matches"],
        ["stats"],
        ["replay", str(log)],
        ["people"],
        ["post", "results"],
        ["hall", "--export", str(folder / "hall")],
    ]


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_nights_commands_speak_the_environments_language(tmp_path, monkeypatch, lang):
    speaking(monkeypatch, lang)
    db = str(tmp_path / "night.db")
    failures = []

    def call(argv: list[str]) -> str:
        code, text = run(argv + ["--db", db] if argv[0] != "replay" else argv)
        left = english_in(text, lang)
        if "Traceback" in text or code != 0 or left:
            failures.append("%s: exit %s, English %s: %r" % (" ".join(argv[:3]), code, left,
                                                             text.strip()[:300]))
        return text

    for argv in before_play(tmp_path):
        call(argv)
    matches = {m["match"]: m for m in json.loads(call(["matches", "--json"]))}
    for argv in playing(tmp_path, matches["R1-01"], matches["R1-02"]):
        call(argv)
    assert not failures, "\n".join(failures)
