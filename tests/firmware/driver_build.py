"""The unix port's build for the firmware driver tests (journal and config cut at every flash
write): rules_core and the named board files compiled with mpy-cross, the drivers beside
them, and a run script for the last driver, so the tests share one way to build it."""

from __future__ import annotations

from pathlib import Path

import pytest

from host.board import toolchain

HERE = Path(__file__).resolve().parent
# The journal's board files, as the journal's drivers (journal_driver, erase_driver) import
# them on the unix port.
JOURNAL_FILES = ["firmware/__init__.py", "firmware/journal.py", "firmware/journal_log.py",
                 "firmware/journal_records.py", "firmware/journal_rewrite.py",
                 "firmware/journal_done.py", "firmware/journal_ring.py",
                 "firmware/journal_ring_file.py", "firmware/journal_place.py",
                 "firmware/snapshot.py", "firmware/room.py", "hardware/__init__.py",
                 "hardware/compat.py",
                 "hardware/boards/__init__.py", "hardware/boards/virtual_flash.py"]


def driver_build(target: Path, board_files: list[str], drivers: tuple[str, ...]) -> Path:
    """`target` holding the build; `drivers[-1]` runs as `run_<it>.py ARGS` (skips the test
    without a MicroPython binary)."""
    try:
        toolchain.micropython_binary()
    except toolchain.ToolchainError as missing:
        pytest.skip(str(missing))
    toolchain.compile_packages(target, ("rules_core",))
    for relative in board_files:
        toolchain.compile_file(toolchain.ROOT / relative,
                               target / Path(relative).with_suffix(".mpy"), relative)
    for name in drivers:
        toolchain.compile_file(HERE / (name + ".py"), target / (name + ".mpy"),
                               "tests/firmware/%s.py" % name)
    main = drivers[-1]
    (target / ("run_%s.py" % main)).write_text(
        "import sys\nimport %s\n%s.main(sys.argv[1:])\n" % (main, main))
    return target
