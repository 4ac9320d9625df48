"""docs/refusals.md lists what the rules refuse, in the words the referee reads (on the board
when it has no short form of its own, and in `pilkku replay`): every refusal the rules
scenarios meet, by game and code, with the first scenario that meets it. The list is made by
replaying the scenarios here and must stay true; run with PILKKU_UPDATE_DOCS=1 to rewrite it
after a deliberate change of wording."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rules_core.match import Match
from rules_core.refusal import Refused

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "refusals.md"
SCENARIOS = ROOT / "tests" / "scenarios"
GAMES = [("9ball", "9-ball"), ("8ball", "8-ball"), ("14.1", "14.1 continuous"),
         ("kaisa", "Kaisa")]

HEAD = """# What the rules refuse, in their own words

An event the rules do not allow is refused and changes nothing. The board shows a short form
of the most common refusals (`NO UNDO`, say) and these words for the rest; `pilkku replay`
prints them for a refused event in a log. The list holds every refusal the rules scenarios
(`tests/scenarios/`) meet, with the first scenario that meets it; `tests/test_refusal_words.py`
makes it by replaying them and fails when the words change (`PILKKU_UPDATE_DOCS=1` rewrites
it after a deliberate change).
"""


def refusals(folder: str) -> list[tuple[str, str, str]]:
    """(code, words, scenario) for each refusal a game's scenarios meet, first meeting kept."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted((SCENARIOS / folder).glob("*.json")):
        if path.name.startswith("_"):
            continue
        scenario = json.loads(path.read_text())
        try:
            match = Match(scenario["settings"])
        except Refused as refusal:
            found.setdefault((refusal.code, refusal.text), path.stem)
            continue
        for step in scenario.get("steps", []):
            try:
                if "event" in step:
                    match.apply(step["event"])
                elif "undo" in step or "redo" in step:
                    action = match.undo if "undo" in step else match.redo
                    for _ in range(step.get("undo", step.get("redo"))):
                        action()
            except Refused as refusal:
                found.setdefault((refusal.code, refusal.text), path.stem)
    return sorted((code, text, where) for (code, text), where in found.items())


def section(folder: str, title: str) -> str:
    rows = ["## %s" % title, "", "| code | words | first met in |", "|---|---|---|"]
    for code, text, where in refusals(folder):
        rows.append("| `%s` | %s | `%s/%s` |" % (code, text.replace("|", "\\|"), folder, where))
    return "\n".join(rows) + "\n"


def sections() -> dict[str, str]:
    return {folder: section(folder, title) for folder, title in GAMES}


def written() -> str:
    return HEAD + "".join("\n" + text for text in sections().values())


@pytest.mark.parametrize("folder", [folder for folder, _title in GAMES])
def test_the_doc_lists_the_words_of_every_refusal_the_scenarios_meet(folder):
    if os.environ.get("PILKKU_UPDATE_DOCS") and folder == GAMES[0][0]:
        DOC.write_text(written())
    doc = DOC.read_text()
    title = dict(GAMES)[folder]
    wanted = section(folder, title)
    assert wanted in doc, "docs/refusals.md: the %s refusals changed (PILKKU_UPDATE_DOCS=1 " \
                          "rewrites the list)" % title
    assert len(wanted.splitlines()) > 8  # the scenarios meet refusals of every kind


def test_the_doc_is_exactly_what_the_scenarios_give():
    assert DOC.read_text() == written()
