"""`pilkku sync` and `pilkku pair` in Finnish and Swedish: a sync of a virtual board (its
hello, the result it holds stored, its schedule sent, the last line), a board that is not
paired, and the refusals, with no English word left in what they print."""

from __future__ import annotations

import re

import pytest

from tests.host.sync_setup import make_board, make_store, play_a_race_to_one
from tests.i18n.english_words import english_words, run

ENGLISH = {"the", "is", "not", "no", "of", "to", "in", "or", "and", "give", "see", "board",
           "boards", "table", "result", "results", "stored", "already", "kept", "synced",
           "gets", "match", "matches", "firmware", "paired", "run", "plug", "found", "all",
           "done", "with", "tournament", "port", "serial", "none", "names", "one", "pair"}
KEPT = {"fi": set(), "sv": {"port", "match"}}  # Swedish words spelt as English ones


def english_left(text: str, lang: str, *names: str) -> list[str]:
    """The English words of `text`, leaving out commands quoted in `backticks` or after
    "pilkku", options, and the names given (ports, board ids, the tournament)."""
    for name in names:
        text = text.replace(name, " ")
    text = re.sub(r"`[^`]*`|pilkku( \w+)?( --[a-z]+( [A-Z/]+)?)*|--[a-z]+", " ", text)
    return english_words(text, ENGLISH, KEPT[lang])


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_a_sync_says_everything_in_the_clis_language(tmp_path, capsys, firmware, lang):
    db, tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "table", firmware, key)
    try:
        play_a_race_to_one(board)  # a free game: stored beside the store, freed
        code, said = run(capsys, ["--lang", lang, "sync", "--port", board.pty_path, "--db", db])
    finally:
        board.close()
    assert code == 0, said
    assert english_left(said, lang, board.pty_path, "pk-test", "Cup", "R1-01", "R1-02") == [], said
    assert {"fi": "synkronoitu 1 tulostaulua", "sv": "synkade 1 tavla"}[lang] in said


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_an_unpaired_board_and_the_refusals_in_the_clis_language(tmp_path, capsys, firmware,
                                                                lang):
    db = make_store(tmp_path / "cup.db")[0]
    board = make_board(tmp_path / "table", firmware, None)
    try:
        code, said = run(capsys, ["--lang", lang, "sync", "--port", board.pty_path, "--db", db])
    finally:
        board.close()
    assert code == 1 and "pilkku pair --port" in said, said
    assert english_left(said, lang, board.pty_path, "pk-test", "Cup") == [], said
    for words in (["sync", "--port", str(tmp_path / "p1")],
                  ["sync", "--table", "2"],
                  ["pair", "--port", str(tmp_path / "p1")],
                  ["sync", "--watch", "--interval", "100"]):
        code, said = run(capsys, ["--lang", lang] + words + ["--db", db])
        assert code == 2, (words, said)
        assert english_left(said, lang, str(tmp_path)) == [], (words, said)
