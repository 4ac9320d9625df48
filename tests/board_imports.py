"""Which modules the board imports: followed from firmware/main.py (and the games that
rules_core.games imports by name) through every import statement, also inside functions.
Modules of the board's packages the board never imports (rules_core/stats.py: the laptop's)
are not in it. `imported_for_game` follows one game: a board playing it never loads another
game's modules (rules_core.games imports the one played by name; the firmware imports a
game's own panel and face, named for the game, only for that game), nor what only they
import (Kaisa never loads pool.py). A game's own modules are named for it: kaisa.py,
kaisa_clock.py, referee_kaisa.py, referee_straight.py."""

from __future__ import annotations

import ast

from host.board import toolchain
from rules_core.games import GAMES

ROOT = toolchain.ROOT


def module_path(name: str) -> str | None:
    """rules_core.match -> rules_core/match.py (a package: its __init__.py), None if the name
    is not one of the board's modules."""
    base = ROOT / name.replace(".", "/")
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return str(candidate.relative_to(ROOT))
    return None


def imported_by_the_board() -> set[str]:
    return _followed(["firmware.main"] + sorted(GAMES.values()), [])


def imported_for_game(game_module: str | None) -> set[str]:
    """What a board playing one game imports: the firmware and that game's module, with
    everything they import, the other games' modules left out (None: the firmware's own,
    every game left out)."""
    others = [name.rsplit(".", 1)[1] for name in GAMES.values() if name != game_module]
    return _followed(["firmware.main"] + ([game_module] if game_module else []), others)


def _of_a_game(name: str, games: list[str]) -> bool:
    last = name.rsplit(".", 1)[-1]
    return any(last == g or last.startswith(g + "_") or last.endswith("_" + g) for g in games)


def _followed(names: list[str], other_games: list[str]) -> set[str]:
    seen: set[str] = set()
    while names:
        name = names.pop()
        path = module_path(name)
        if (path is None or name in seen or not name.startswith(toolchain.BOARD_PACKAGES)
                or _of_a_game(name, other_games)):
            continue
        seen.add(name)
        parts = name.split(".")
        for package_depth in range(1, len(parts)):  # importing a.b.c imports a and a.b
            names.append(".".join(parts[:package_depth]))
        for node in ast.walk(ast.parse((ROOT / path).read_text())):
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.append(node.module)
                names += [node.module + "." + alias.name for alias in node.names]
    return {module_path(name) for name in seen} - {None}  # type: ignore[misc]
