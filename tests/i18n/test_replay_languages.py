"""`pilkku replay` in Finnish and Swedish: every bundled log (8-ball, 9-ball, 14.1, Kaisa to
60, its final innings, its shootout) read back with no English word left but the rule
options' line (the engine's keys, data); the English reading is the one the tests of
tests/test_replay_cli.py know. The hall's match report shows the same lines in the page's
language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from host import i18n
from host.replay.command import render

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOGS = sorted(EXAMPLES.glob("*.json"))
# English words that no Finnish or Swedish line of a replay may hold (whole words).
ENGLISH = {"the", "to", "of", "and", "by", "at", "on", "in", "vs", "wins", "breaks", "break",
           "pockets", "pot", "shot", "continues", "inning", "innings", "points", "ball",
           "balls", "table", "rack", "racks", "foul", "fouls", "lag", "won", "calls", "safety",
           "cushion", "corner", "middle", "red", "white", "respot", "result", "chooses",
           "progress", "waiting", "race", "takes", "lets", "first", "shootout", "final",
           "run", "high", "average", "penalty", "head", "foot", "side", "left", "right",
           "spot", "warned", "accepts", "demands", "decides", "passes", "plays", "has",
           "solids", "stripes", "match", "pocketed", "off", "cue", "best", "per", "recorded",
           "decided", "time", "up", "each", "two", "last", "tied", "another", "pair", "from",
           "hand", "needs", "twice", "row", "no", "contact", "object", "too", "not", "third"}
# The words a club keeps in English (docs/glossary.md: push out; in Swedish break, foul,
# safety, inning).
KEPT = {"fi": {"push", "out"},
        "sv": {"break", "foul", "fouls", "safety", "push", "out", "inning"}}
NAMES = {"Anna", "Ben", "Mikko", "Sanna", "Aino", "Laine", "Eero", "Salo"}


def _english_left(text: str, lang: str) -> list[str]:
    found = []
    for line in text.splitlines():
        if line.startswith("rules: "):
            continue
        for game in ("8-ball", "9-ball"):  # the games' Swedish names (docs/glossary.md)
            line = line.replace(game, "")
        for word in re.findall(r"[^\W\d_]+", line):
            if word.lower() in ENGLISH and word.lower() not in KEPT[lang] and word not in NAMES:
                found.append("%s  <- %s" % (word, line.strip()))
    return found


def _read(path: Path, lang: str) -> str:
    with i18n.use(lang):
        return "\n".join(render(json.loads(path.read_text(encoding="utf-8"))))


def test_the_bundled_logs_are_every_game():
    games = {json.loads(p.read_text())["settings"]["game"] for p in LOGS}
    assert games == {"8ball", "9ball", "14.1", "kaisa"}


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_a_log_read_back_in_finnish_and_swedish_has_no_english_left(path, lang):
    text = _read(path, lang)
    assert _english_left(text, lang) == []
    assert text.count("\n") == _read(path, "en").count("\n")  # line for line as in English


def test_the_averages_are_written_as_the_language_writes_decimals():
    straight = EXAMPLES / "demo-straight.json"
    assert "(average 5.00)" in _read(straight, "en")
    assert "5,00" in _read(straight, "fi") and "5.00" not in _read(straight, "fi")
