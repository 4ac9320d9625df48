"""Board code rules: every module of rules_core/, hardware/ and firmware/ compiles with
mpy-cross; what the board imports of rules_core fits, game by game, in a 64 KB heap of the
MicroPython unix port; rules_core imports nothing outside itself."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

import pytest

from host.board import toolchain
from tests.board_imports import imported_for_game

BOARD_FILES = toolchain.board_sources()


@pytest.mark.parametrize("relative", BOARD_FILES, ids=str)
def test_compiles_with_mpy_cross(relative, tmp_path):
    toolchain.compile_file(toolchain.ROOT / relative, tmp_path / "out.mpy", str(relative))
    assert (tmp_path / "out.mpy").stat().st_size > 0


def _rules_core(paths: set[str]) -> list[str]:
    return sorted(toolchain.module_name(Path(p)) for p in paths if p.startswith("rules_core/"))


def test_rules_core_imports_under_micropython(mpy_build):
    # One process per game, as a board plays one game at a time in a 64 KB heap: what of
    # rules_core the board imports for that game (the shared modules first, then the game,
    # which imports its own helpers; not the laptop's, like rules_core/stats.py, nor another
    # game's: tests/board_imports.py).
    from rules_core.games import GAMES

    for game in sorted(GAMES.values()):
        names = _rules_core(imported_for_game(game))
        shared = _rules_core(imported_for_game(None))
        order = shared + [game] + [n for n in names if n not in shared and n != game]
        (mpy_build / "imports.py").write_text(
            "import gc\nfor name in %r:\n    __import__(name)\n    gc.collect()\n"
            "print('imported', %d)\n" % (order, len(order)))
        done = subprocess.run([toolchain.micropython_binary(), "-X", "heapsize=64k",
                               str(mpy_build / "imports.py")], capture_output=True, text=True,
                              env=dict(os.environ, MICROPYPATH=str(mpy_build)))
        assert done.returncode == 0, game + ": " + done.stderr
        assert done.stdout.strip() == "imported %d" % len(order)


@pytest.mark.parametrize("relative", toolchain.board_sources(("rules_core",)), ids=str)
def test_rules_core_imports_only_itself(relative):
    # rules_core imports only itself and modules MicroPython has built in.
    allowed = {"rules_core", "json", "sys", "micropython", "binascii", "hashlib"}
    tree = ast.parse((toolchain.ROOT / relative).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        assert set(roots) <= allowed, "%s imports %s" % (relative, roots)
