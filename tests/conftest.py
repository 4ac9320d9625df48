"""Shared fixtures: the board's packages compiled with mpy-cross, and running code in the
real MicroPython unix port."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from host import toolchain

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory) -> Path:
    """rules_core (and the scenario runner) compiled to .mpy, as the board runs them."""
    target = tmp_path_factory.mktemp("mpy")
    toolchain.compile_packages(target, ("rules_core",))
    toolchain.compile_file(TESTS / "scenario_runner.py", target / "scenario_runner.mpy",
                           "tests/scenario_runner.py")
    return target


def run_micropython(build: Path, module: str, args: list[str], heap: str = "64k",
                    timeout: float = 120) -> str:
    """Run `module` from `build` in the unix port (with a board-sized heap); return stdout."""
    # A small driver script, not `-c` or `-m`: those cost the unix port several KB more of
    # heap before our code runs, which would not fit the board-sized heap.
    driver = build / ("run_%s.py" % module)
    driver.write_text("import sys\nimport %s\n%s.main(sys.argv[1:])\n" % (module, module))
    env = dict(os.environ, MICROPYPATH=str(build))
    done = subprocess.run([toolchain.micropython_binary(), "-X", "heapsize=" + heap, str(driver)]
                          + args, capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError("micropython failed (%d):\n%s%s" % (
            done.returncode, done.stdout[-2000:], done.stderr[-2000:]))
    return done.stdout
