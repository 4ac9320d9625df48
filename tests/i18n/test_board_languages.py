"""The board commands in Finnish and Swedish: `pilkku sim`'s face, key legend and its new
board's displays in the CLI's language (a board kept in a folder keeps its own), and the
refusals of `pilkku sim`, `pilkku flash` and `pilkku board` with no English left."""

from __future__ import annotations

import re

import pytest

from host import i18n
from host.board import face, sim
from host.board.registry import FolderLock
from tests.i18n.english_words import english_words, run

# English words none of these lines may hold in Finnish or Swedish (whole words).
ENGLISH = {"the", "is", "not", "no", "of", "to", "in", "or", "and", "give", "see",
           "file", "key", "keys", "board", "virtual", "running", "stopped", "serial",
           "cannot", "read", "script", "line", "plugged", "printed", "quit", "shot", "foul",
           "clear", "undo", "player", "clock", "such", "directory", "folder", "text"}


KEPT = {"fi": set(), "sv": {"foul"}}  # Swedish clubs say foul (docs/glossary.md)


def english_left(text: str, lang: str) -> list[str]:
    """The English words of `text`, leaving out commands quoted in `backticks`."""
    return english_words(re.sub(r"`[^`]*`", "", text), ENGLISH, KEPT[lang])


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_sims_new_board_speaks_the_clis_language_and_a_kept_one_its_own(tmp_path, lang):
    kept = tmp_path / "kept"
    with i18n.use("en"):  # a board first started in English: its flash keeps no language
        board = sim.boot(kept)
        english = sim.frame_text(board)
        board.close()
    with i18n.use(lang):
        board = sim.boot(tmp_path / "new")
        try:
            said = sim.frame_text(board)
            drawn = face.draw(board.bus)
        finally:
            board.close()
        board = sim.boot(kept)
        try:
            assert sim.frame_text(board) == english  # its own language: English
        finally:
            board.close()
        legend = sim.key_legend()
    assert english.endswith("9BALL GO")
    assert said.endswith({"fi": "9PALLO #", "sv": "9BALL GO"}[lang])
    assert {"fi": "PELAAJA 1", "sv": "SPELARE 1"}[lang] in drawn and "PLAYER" not in drawn
    assert english_left(legend, lang) == []


def test_a_boards_settings_file_says_only_its_language():
    from firmware import config

    files = sim.settings("fi")
    assert sorted(files) == ["config.json", "config.json.2"]
    assert files["config.json"] == files["config.json.2"]
    assert b'"lang":"fi"' in files["config.json"] and b"board" not in files["config.json"]
    assert config.DAMAGED not in files["config.json"].decode()


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_the_board_commands_refuse_in_the_clis_language(tmp_path, capsys, lang):
    (tmp_path / "keys.txt").write_text("wait x\n")
    FolderLock(tmp_path / "busy").take()  # held by this process until the test ends
    calls = [["sim", "--script", str(tmp_path / "p1")],
             ["sim", "--script", str(tmp_path / "keys.txt")],
             ["flash", "--port", str(tmp_path / "p2")],
             ["flash", "--port", str(tmp_path)],
             ["board", "stop", str(tmp_path / "p3")],
             ["sim", "--dir", str(tmp_path / "busy"), "--script", "examples/sim-demo.txt"]]
    for words in calls:
        code, said = run(capsys, ["--lang", lang] + words)
        assert code == 2, (words, said)
        assert said.startswith("pilkku "), said
        shown = said.replace(str(tmp_path), "PATH").replace("pilkku board stop", "")
        assert english_left(shown, lang) == [], (words, said)
