"""The firmware's version (host/board/firmware_image.py version_of): a hash of what a board's
flash is made from (each module's path there and its source, boot.py and main.py, the compiler
for .mpy files), known without compiling: the desk's boards page compiled the laptop's three
images at every start (1.2 s in a thread) only to learn their versions. An image carries the
version of its sources (its stamp, which the board reports), so the page and the board agree."""

from __future__ import annotations

import shutil

import pytest

from host.board import firmware_image, toolchain
from host.desk import boards_view

PLATFORMS = (None, *sorted(firmware_image.BOARD_FILES))


@pytest.fixture
def no_compiling(monkeypatch):
    def refused(*_args, **_kwargs):
        raise AssertionError("compiled")

    monkeypatch.setattr(toolchain, "compile_file", refused)


def test_the_versions_are_known_without_compiling(no_compiling):
    versions = [firmware_image.version_of(platform) for platform in PLATFORMS]
    assert len(set(versions)) == 3  # each kind of board gets other files
    assert all(len(v) == 12 and int(v, 16) >= 0 for v in versions)
    boards_view._versions.cache_clear()
    assert boards_view.laptop_versions() == frozenset(versions)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_an_image_carries_the_version_of_its_sources(platform):
    files = firmware_image.image(None, platform)
    assert firmware_image.version(files) == firmware_image.version_of(platform)
    assert files[firmware_image.VERSION_FILE] == (
        "VERSION = %r\n" % firmware_image.version_of(platform)).encode()


def test_the_sources_for_cpython_carry_theirs():
    files = firmware_image.sources()
    assert firmware_image.version(files) == firmware_image.version_of(None, compiled=False)
    assert firmware_image.version(files) != firmware_image.version_of(None)


def test_a_changed_source_or_compiler_changes_the_version(tmp_path, monkeypatch,
                                                           no_compiling):
    for package in toolchain.BOARD_PACKAGES:
        shutil.copytree(toolchain.ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(toolchain, "ROOT", tmp_path)
    before = {p: firmware_image.version_of(p) for p in PLATFORMS}
    with open(tmp_path / "firmware" / "words.py", "a") as f:
        f.write("\n")
    after = {p: firmware_image.version_of(p) for p in PLATFORMS}
    assert all(before[p] != after[p] for p in PLATFORMS)
    (tmp_path / "hardware" / "boards" / "esp32.py").write_text("# another board file\n")
    again = {p: firmware_image.version_of(p) for p in PLATFORMS}
    assert again["esp32"] != after["esp32"] and again["rp2"] == after["rp2"]
    monkeypatch.setattr(firmware_image, "_compiler", lambda: b"another mpy-cross")
    assert firmware_image.version_of("rp2") != again["rp2"]
    assert firmware_image.version_of(None, compiled=False) == firmware_image.version_of(
        None, compiled=False)  # (the sources for CPython are not compiled)


def test_an_image_without_a_stamp_has_no_version():
    assert firmware_image.version({"firmware/app.mpy": b"M\x06"}) == ""
