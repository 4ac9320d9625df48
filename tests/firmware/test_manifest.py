"""firmware/manifest.py, the manifest a MicroPython build freezes pilkku with
(docs/firmware-build.md): run with stand-ins for makemanifest's functions, it names files
that exist, exactly the modules `pilkku flash` puts on a Pico or an ESP32 (none of the
virtual board's), and every module the board
imports from main.py on (followed through every import statement, also inside functions,
and the games rules_core.games imports by name)."""

from __future__ import annotations

from host.board import firmware_image, toolchain
from tests.board_imports import imported_by_the_board

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


def test_manifest_freezes_what_flash_installs_and_all_the_board_imports():
    paths, included = frozen()
    assert included == ["$(PORT_DIR)/boards/manifest.py"]
    installed = {str(path) for platform in firmware_image.BOARD_FILES
                 for path in firmware_image.modules(platform)} | set(firmware_image.SCRIPTS)
    assert "main.py" in paths and "firmware/main.py" not in paths
    assert paths == installed, ("firmware/manifest.py must list exactly what pilkku flash "
                                "installs: add %s, remove %s" % (sorted(installed - paths),
                                                                 sorted(paths - installed)))
    needed = imported_by_the_board()
    assert {"firmware/app.py", "firmware/journal_log.py", "firmware/snapshot.py",
            "rules_core/kaisa.py", "hardware/boards/pico.py"} <= needed
    on_a_board = needed - {"firmware/main.py"} - set(firmware_image.VIRTUAL_ONLY)
    assert on_a_board <= paths, on_a_board - paths
    assert not set(firmware_image.VIRTUAL_ONLY) & paths


def test_the_check_finds_a_module_left_out():
    """Leave a module out of the manifest: the comparison above would fail."""
    paths, _ = frozen()
    paths.discard("firmware/snapshot.py")
    assert not imported_by_the_board() - {"firmware/main.py"} <= paths
    assert MANIFEST.read_text().count('"snapshot.py"') == 1
