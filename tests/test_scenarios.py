"""Every rules scenario runs on CPython in process and on MicroPython (unix port, a board-sized
heap, compiled with mpy-cross); both must meet the scenario's expectations and agree exactly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import scenario_runner
from unix_port import run_micropython

from rules_core import canon

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
GAMES = sorted(p.name for p in SCENARIOS.iterdir() if p.is_dir())


def scenario_files(game: str) -> list[Path]:
    """A game's scenarios; files starting with '_' (its rule list) are not scenarios."""
    return sorted(p for p in (SCENARIOS / game).glob("*.json") if not p.name.startswith("_"))


ALL = [path for game in GAMES for path in scenario_files(game)]
# The heap of a game's MicroPython process: 64 KB, Kaisa's 68. Since 67d3589 (issue 31) a
# Match keeps the state before its last event, so the referee's usual undo replays nothing;
# Kaisa's state is the largest (its runner needed 66 KB after it on the 64-bit unix port, 64
# before). The Pico's own figure is pilkku bench's pico_min_heap_kb_romfs.
HEAP = {"kaisa": "68k"}


@pytest.fixture(scope="module")
def micropython_results(request):
    """Each game's scenarios in one MicroPython process (a board plays one game at a time):
    path -> canonical result line. None under mutation testing (`make mutants` sets
    PILKKU_CPYTHON_ONLY): the mutated sources are CPython's alone."""
    if os.environ.get("PILKKU_CPYTHON_ONLY"):
        return None
    mpy_build = request.getfixturevalue("mpy_build")
    results = {}
    for game in GAMES:
        paths = scenario_files(game)
        streamed = []
        for path in paths:
            lines_file = mpy_build / "scenarios" / game / (path.stem + ".jsonl")
            lines_file.parent.mkdir(parents=True, exist_ok=True)
            lines_file.write_text(scenario_runner.as_lines(json.loads(path.read_text())))
            streamed.append(str(lines_file))
        listing = mpy_build / "scenarios" / game / "all.txt"
        listing.write_text("".join(path + "\n" for path in streamed))
        lines = run_micropython(mpy_build, "scenario_runner", ["@" + str(listing)],
                                heap=HEAP.get(game, "64k"))
        lines = lines.splitlines()
        assert len(lines) == len(paths), lines[-3:]
        results.update({str(path): line for path, line in zip(paths, lines, strict=True)})
    return results


@pytest.mark.parametrize("path", ALL, ids=lambda p: "%s/%s" % (p.parent.name, p.stem))
def test_scenario(path, micropython_results):
    result = scenario_runner.run_file(str(path))
    assert result["failures"] == []
    if micropython_results is not None:
        assert micropython_results[str(path)] == canon.dumps(result)


def test_enough_scenarios_per_game():
    for game in ("8ball", "9ball"):
        assert len(scenario_files(game)) >= 25, game


def rule_ids() -> dict[str, str]:
    """The rules scenarios must cover: tests/scenarios/rules.json (pool, 8-ball, 9-ball) and
    each game folder's _rules.json."""
    rules = json.loads((SCENARIOS / "rules.json").read_text())
    for extra in sorted(SCENARIOS.glob("*/_rules.json")):
        rules.update(json.loads(extra.read_text()))
    return rules


def test_every_rule_is_covered():
    rules = rule_ids()
    covered: set[str] = set()
    for path in ALL:
        cover = json.loads(path.read_text()).get("covers", [])
        unknown = set(cover) - set(rules)
        assert not unknown, "%s covers unknown rules %s" % (path.name, unknown)
        covered |= set(cover)
    missing = sorted(set(rules) - covered)
    assert missing == [], "rules with no scenario: %s" % missing
