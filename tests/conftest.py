"""Shared fixtures: the board's packages compiled with mpy-cross."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from host.board import toolchain

TESTS = Path(__file__).resolve().parent

# The tests read pilkku in English: on a Finnish or Swedish laptop the locale would make the
# CLI (and the `pilkku` the tests start) speak its language (host/i18n/choose.py); the tests
# of the languages (tests/i18n) say which one they want.
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory) -> Path:
    """rules_core (and the scenario runner) compiled to .mpy, as the board runs them."""
    target = tmp_path_factory.mktemp("mpy")
    toolchain.compile_packages(target, ("rules_core",))
    toolchain.compile_file(TESTS / "scenario_runner.py", target / "scenario_runner.mpy",
                           "tests/scenario_runner.py")
    return target

