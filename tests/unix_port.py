"""Running code in the real MicroPython unix port from tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from host.board import toolchain


def run_micropython(build: Path, module: str, args: list[str], heap: str = "64k",
                    timeout: float = 120) -> str:
    """Run `module.main(args)` from `build` in the unix port with a board-sized heap."""
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
