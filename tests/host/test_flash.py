"""`pilkku flash` against real virtual boards: the firmware in the MicroPython unix port, its
USB serial on a pty, its flash a LittleFS2 image (host/board/virtual_board.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from host import cli
from host.board import firmware_image, flash, flash_files, toolchain
from host.board.mpremote_link import Link
from host.board.virtual_board import VirtualBoard

ARCH = "x64"  # what the unix port reports; bytecode-only files are the same for any arch


class Cut(Exception):
    """The cable is pulled (the test's stand-in for the user's side of a power cut)."""


@pytest.fixture(scope="module")
def image() -> dict[str, bytes]:
    return firmware_image.image(ARCH)


@pytest.fixture(autouse=True)
def archs(image, monkeypatch) -> list[str | None]:
    """Flash this module's image (others may be editing the sources meanwhile); the
    architectures asked for."""
    asked: list[str | None] = []

    def pinned(arch: str | None = None, platform: str | None = None) -> dict[str, bytes]:
        asked.append(arch)
        return image

    monkeypatch.setattr(firmware_image, "image", pinned)
    return asked


@pytest.fixture
def board(tmp_path):
    """A board whose MicroPython has no ROM partition: the firmware goes there as files
    (tests/host/test_flash_rom.py flashes boards with one)."""
    board = VirtualBoard(tmp_path / "board", rom=False)
    yield board
    board.close()


def restamped(files: dict[str, bytes]) -> dict[str, bytes]:
    """The files with a stamp of their own (an image made of other sources carries another
    version: firmware_image.version_of)."""
    files = dict(files)
    made = hashlib.sha256(repr(sorted((path, data) for path, data in files.items()
                                      if path != flash.STAMP)).encode()).hexdigest()[:12]
    files[flash.STAMP] = ("VERSION = %r\n" % made).encode()
    return files


def recompiled(files: dict[str, bytes], paths: list[str], where: Path) -> dict[str, bytes]:
    """The same modules compiled under another source name: new bytes, still valid."""
    changed = dict(files)
    for path in paths:
        target = where / path
        toolchain.compile_file(toolchain.ROOT / path.replace(".mpy", ".py"), target,
                               path.replace(".mpy", "_v2.py"))
        changed[path] = target.read_bytes()
    return restamped(changed)


def look(port: str) -> tuple[dict[str, str], list[str], str]:
    """The board's files of ours (path -> sha256), its folders, and the version it reports."""
    with Link.open(port) as link:
        link.raw_repl(soft_reset=True)
        files, folders = flash_files.scan(link)
        return files, folders, link.run(flash.VERSION).strip()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_fresh_board_then_nothing_changed(board, image, archs):
    board.start()  # no firmware yet: the board sits at its REPL
    lines: list[str] = []
    done = flash.flash(board.pty_path, say=lines.append)
    count = len(image) - 1  # the stamp is not counted as a file
    assert (done.copied, done.deleted, done.unchanged) == (count, 0, 0)
    assert done.version == firmware_image.version(image) and archs == [ARCH]
    assert lines[0].startswith(board.pty_path + ": MicroPython 1.")
    assert lines[1].startswith("the firmware goes to the filesystem as .mpy files (its "
                               "MicroPython has no ROMFS support (no vfs.rom_ioctl))")
    assert lines[2] == "[1/%d] firmware/__init__.mpy %d B" % (
        count, len(image["firmware/__init__.mpy"]))
    assert lines[-1].startswith("%d files copied, 0 deleted, 0 unchanged; version %s verified"
                                % (count, done.version))
    board.run(200)  # flash ends with a soft reset into main.py
    assert board.texts()["message"] == "9BALL GO"

    again = flash.flash(board.pty_path, say=lines.append)  # over the running firmware
    assert (again.copied, again.deleted, again.unchanged) == (0, 0, count)
    board.run(200)
    assert board.texts()["message"] == "9BALL GO"


def test_one_changed_file_is_the_one_copied(board, image, monkeypatch, tmp_path):
    board.install(image)  # factory-programmed with the current firmware
    board.start()
    changed = recompiled(image, ["rules_core/pool.mpy"], tmp_path / "v2")
    monkeypatch.setattr(firmware_image, "image", lambda arch=None, platform=None: changed)
    lines: list[str] = []
    done = flash.flash(board.pty_path, say=lines.append, start=False)
    assert (done.copied, done.deleted, done.unchanged) == (1, 0, len(image) - 2)
    assert lines[2] == "[1/1] rules_core/pool.mpy %.1f kB" % (len(changed[
        "rules_core/pool.mpy"]) / 1000)
    files, _, version = look(board.pty_path)
    assert files["rules_core/pool.mpy"] == sha(changed["rules_core/pool.mpy"])
    assert version == firmware_image.version(changed) != firmware_image.version(image)


def test_stale_files_go_and_the_boards_data_stays(board, image):
    data = {"journal/current.log": b"the match so far", "schedule.json": b"{}"}
    stale = {"firmware/old_screen.mpy": b"M\x06", "hardware/gone/part.mpy": b"M\x06",
             "main.py.tmp": b"half"}
    board.install({**image, **data, **stale})
    board.start()
    before = board_data(board.pty_path)  # as the firmware left it at boot
    assert "schedule.json" in before and any(path.startswith("journal/") for path in before)
    done = flash.flash(board.pty_path, say=lambda _line: None, start=False)
    assert (done.copied, done.deleted, done.unchanged) == (0, 3, len(image) - 1)
    files, folders, _ = look(board.pty_path)
    assert not set(stale) & set(files) and "hardware/gone" not in folders
    assert board_data(board.pty_path) == before


def board_data(port: str) -> dict[str, str]:
    """Every file on the board outside the firmware's: path -> sha256."""
    ours = ["/" + name + tail for name in flash_files.FOLDERS + flash_files.ROOT_FILES
            for tail in ("", ".tmp")]
    walk = ("def walk(p):\n for e in os.ilistdir(p or '/'):\n  q = p + '/' + e[0]\n"
            "  if q in %r:\n   continue\n  if e[1] & 0x4000:\n   walk(q)\n  else:\n"
            "   print(q[1:], _pk_hash(q))\nwalk('')\n" % ours)
    with Link.open(port) as link:
        link.raw_repl(soft_reset=True)
        return dict(line.split() for line in link.run(flash.HASH + walk).splitlines())


def test_a_cut_mid_file_leaves_whole_modules(board, image, monkeypatch, tmp_path):
    board.install(image)
    board.start()
    paths = sorted(path for path in image if path.startswith("rules_core/"))
    new = recompiled(image, paths, tmp_path / "v2")
    finished: list[str] = []

    def pull_the_cable(path: str, written: int, size: int) -> None:
        if written == size:
            finished.append(path)
        elif finished:  # a file half sent, after at least one whole one
            board.kill()
            raise Cut(path)

    monkeypatch.setattr(firmware_image, "image", lambda arch=None, platform=None: new)
    with pytest.raises(Cut) as cut:
        flash.flash(board.pty_path, say=lambda _line: None, on_chunk=pull_the_cable)
    board.start()
    files, _, version = look(board.pty_path)
    assert version == "-"  # a partial flash reports no version
    assert files[finished[0]] == sha(new[finished[0]])
    assert files[str(cut.value)] == sha(image[str(cut.value)])  # the old one, whole
    for path, digest in files.items():
        assert path.endswith(".tmp") or digest in (sha(image[path]), sha(new[path])), path

    done = flash.flash(board.pty_path, say=lambda _line: None)
    assert done.copied == len(paths) - len(finished)
    files, _, version = look(board.pty_path)
    assert version == firmware_image.version(new)
    assert files == {path: sha(data) for path, data in new.items()}


def test_mpy_too_new_for_the_board(image):
    old = flash.Board("rp2", "1.18.0", 5 | 4 << 10, True)
    with pytest.raises(flash.FlashError, match="update the board's MicroPython"):
        flash.check_mpy(old, image)


def test_a_missing_port_says_what_to_do(tmp_path, capsys):
    assert cli.main(["flash", "--port", str(tmp_path / "ttyACM0")]) == 2  # bad input: 2
    assert "is the board plugged in?" in capsys.readouterr().err


def test_a_stale_version_stamp_is_an_error_not_a_success(board, image, monkeypatch, capsys):
    """The stamp the board reports after flashing must be the image's version: a board that
    kept another stamp (a stamp left over from an older build, one not written) fails."""
    older = dict(image)
    older[flash.STAMP] = b"VERSION = 'older0000000'\n"
    write = flash_files.write_file

    def kept_stale(link, path, data, deflate, on_chunk=None):
        if path == flash.STAMP:
            data = b"VERSION = 'stale0000000'\n"
        write(link, path, data, deflate, on_chunk)

    monkeypatch.setattr(flash_files, "write_file", kept_stale)
    board.install(older)
    board.start()
    lines: list[str] = []
    with pytest.raises(flash.FlashError, match="stale0000000") as failed:
        flash.flash(board.pty_path, say=lines.append, start=False)
    assert firmware_image.version(image) in str(failed.value)
    assert not any("verified" in line for line in lines)
    assert cli.main(["flash", "--port", board.pty_path]) == 1
    err = capsys.readouterr().err
    assert "stale0000000" in err and "pilkku flash" in err and "Traceback" not in err
