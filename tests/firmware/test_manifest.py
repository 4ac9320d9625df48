"""firmware/manifest.py, the manifest a MicroPython build freezes pilkku with
(docs/firmware-build.md): run with stand-ins for makemanifest's functions, it names files
that exist, exactly the modules `pilkku flash` puts on a board, and every module the board
imports from main.py on (followed through every import statement, also inside functions,
and the games rules_core.games imports by name)."""

from __future__ import annotations

import ast

from host.board import firmware_image, toolchain
from rules_core.games import GAMES

ROOT = toolchain.ROOT
MANIFEST = ROOT / "firmware" / "manifest.py"


def frozen() -> tuple[set[str], list[str]]:
    """The board paths the manifest freezes (rules_core/match.py, main.py) and what it
    includes."""
    paths: set[str] = set()
    included: list[str] = []
    here = MANIFEST.parent

    def package(name, files=None, base_path=".", opt=None):
        assert files, "list the package's files: a package() without them freezes all"
        for name_in in files:
            source = (here / base_path / name / name_in).resolve()
            assert source.is_file(), source
            paths.add(str(source.relative_to(ROOT)))

    def module(name, base_path=".", opt=None):
        source = (here / base_path / name).resolve()
        assert source.is_file(), source
        paths.add(name)

    exec(compile(MANIFEST.read_text(), str(MANIFEST), "exec"),
         {"package": package, "module": module, "include": included.append})
    return paths, included


def module_path(name: str) -> str | None:
    """rules_core.match -> rules_core/match.py (a package: its __init__.py), None if the name
    is not one of the board's modules."""
    base = ROOT / name.replace(".", "/")
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return str(candidate.relative_to(ROOT))
    return None


def imported_by_the_board() -> set[str]:
    names = ["firmware.main"] + sorted(GAMES.values())
    seen: set[str] = set()
    while names:
        name = names.pop()
        path = module_path(name)
        if path is None or name in seen or not name.startswith(toolchain.BOARD_PACKAGES):
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


def test_manifest_freezes_what_flash_installs_and_all_the_board_imports():
    paths, included = frozen()
    assert included == ["$(PORT_DIR)/boards/manifest.py"]
    installed = {path[:-len(".mpy")] + ".py" if path.endswith(".mpy") else path
                 for path in firmware_image.image() if path != firmware_image.VERSION_FILE}
    assert "main.py" in paths and "firmware/main.py" not in paths
    assert paths == installed, ("firmware/manifest.py must list exactly what pilkku flash "
                                "installs: add %s, remove %s" % (sorted(installed - paths),
                                                                 sorted(paths - installed)))
    needed = imported_by_the_board()
    assert {"firmware/app.py", "firmware/journal_log.py", "firmware/snapshot.py",
            "rules_core/kaisa.py", "hardware/boards/pico.py"} <= needed
    assert needed - {"firmware/main.py"} <= paths, needed - paths


def test_the_check_finds_a_module_left_out():
    """Leave a module out of the manifest: the comparison above would fail."""
    paths, _ = frozen()
    paths.discard("firmware/snapshot.py")
    assert not imported_by_the_board() - {"firmware/main.py"} <= paths
    assert MANIFEST.read_text().count('"snapshot.py"') == 1
