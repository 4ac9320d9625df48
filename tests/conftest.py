"""Shared fixtures: the board's packages compiled with mpy-cross, the firmware of a module's
virtual boards, and where they are announced."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The run's own runtime folder, before pilkku is imported (host/board/registry.py reads it
# once): the virtual boards its tests start are announced there, and the watchers' doors open
# there, never in the machine's /tmp or /run/user, where a director's own boards or another
# run's (a second worker, a second checkout) would be found.
# A test's own runtime folder is made in it (tests/host/watch_setup.runtime_folder): short,
# for a watcher's door is a socket, whose path has at most 107 bytes.
os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="pilkku-tests-")
os.environ["PILKKU_TESTS_RUNTIME"] = os.environ["XDG_RUNTIME_DIR"]
atexit.register(shutil.rmtree, os.environ["XDG_RUNTIME_DIR"], True)

from host.board import toolchain  # noqa: E402

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


@pytest.fixture(scope="module")
def firmware() -> dict[str, bytes]:
    """The firmware of a module's virtual boards, taken once a module (others may be editing
    the sources meanwhile; tests/hall and tests/e2e take theirs once a session)."""
    from host.board import firmware_image

    return firmware_image.image()


@pytest.fixture
def announced(tmp_path, monkeypatch, firmware):
    """announce(board): a running virtual board announced in this test's own folder
    (tests/host/watch_setup.announcing: its doors and firmware too)."""
    from tests.host.watch_setup import announcing

    return announcing(tmp_path, monkeypatch, firmware)
