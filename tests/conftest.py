"""Shared fixtures: the board's packages compiled with mpy-cross."""

from __future__ import annotations

from pathlib import Path

import pytest

from host.board import toolchain

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory) -> Path:
    """rules_core (and the scenario runner) compiled to .mpy, as the board runs them."""
    target = tmp_path_factory.mktemp("mpy")
    toolchain.compile_packages(target, ("rules_core",))
    toolchain.compile_file(TESTS / "scenario_runner.py", target / "scenario_runner.mpy",
                           "tests/scenario_runner.py")
    return target

