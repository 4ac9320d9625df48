"""What the CLI's language tests share (test_board_languages.py, test_sync_languages.py): the
English words left in what a command printed, and a command run in-process with what it
printed."""

from __future__ import annotations

import re

from host import cli


def english_words(text: str, english: set[str], kept: set[str]) -> list[str]:
    """The words of `text` (whole words, any case) that are in `english` and not in `kept`
    (English words the language keeps)."""
    return [word for word in re.findall(r"[^\W\d_]+", text)
            if word.lower() in english and word.lower() not in kept]


def run(capsys, words: list[str]) -> tuple[int, str]:
    """`pilkku words...` in this process: (its exit code, what it printed)."""
    code = cli.main(words)
    out, err = capsys.readouterr()
    return code, out + err
