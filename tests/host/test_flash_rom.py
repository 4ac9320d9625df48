"""`pilkku flash` to a board with a ROM partition (host/board/flash_rom.py) on the virtual
board, whose ROM partition is hardware/boards/virtual_vfs.RomPartition behind
`vfs.rom_ioctl` (virtual_vfs): mpremote's own `romfs query` reads it; the firmware goes there
as a ROMFS image and is imported from /rom; unchanged sends nothing; a cut mid-write leaves
a board that reports no version and the next flash mends it; a partition too small for the
image means files, and the old ROM image is erased so it does not shadow them."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest
from flash_setup import pin

from host.board import firmware_image, flash, flash_files, flash_rom
from host.board.mpremote_link import Link, LinkError
from host.board.virtual_board import VirtualBoard


@pytest.fixture(autouse=True)
def pinned(image, monkeypatch):
    pin(image, monkeypatch)


@pytest.fixture
def board(tmp_path, image):
    board = VirtualBoard(tmp_path / "board")
    board.install(image)  # as it left the factory: the firmware as files
    board.start()
    yield board
    board.close()


def state(port: str) -> tuple[dict[str, str], str, str]:
    """The firmware files on the board's filesystem, its version, where it imports from."""
    with Link.open(port) as link:
        link.raw_repl(soft_reset=True)
        files, _folders = flash_files.scan(link)
        version = link.run(flash.VERSION).strip()
        return files, version, flash_rom.runs_from(link)


def mpremote(port: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_romfs_query_then_flash_runs_from_rom_then_nothing_to_send(board, image):
    said = mpremote(board.pty_path, "romfs", "query")
    assert "ROMFS0 partition has size 131072 bytes (32 blocks of 4096 bytes each)" in said
    assert "Not a valid ROMFS" in said
    lines: list[str] = []
    chunks: list[tuple[str, int, int]] = []
    done = flash.flash(board.pty_path, say=lines.append,
                       on_chunk=lambda *c: chunks.append(c))
    rom = flash_rom.image(image)
    scripts = firmware_image.SCRIPTS  # boot.py and main.py stay on the filesystem
    assert done.where == "rom" and done.copied == 1 and done.deleted == len(image) - 2
    assert any(line.startswith("the board has a 128 KB ROM partition") for line in lines)
    assert lines[-1].startswith("ROMFS image written, %d old firmware files deleted"
                                % done.deleted)
    assert chunks[-1] == ("romfs", len(rom), len(rom))
    board.run(200)
    assert board.texts()["message"] == "9BALL GO"  # the firmware runs from /rom
    files, version, origin = state(board.pty_path)
    assert files == {path: hashlib.sha256(image[path]).hexdigest() for path in scripts}
    assert version == firmware_image.version(image) and origin == "/rom/firmware/__init__.mpy"
    said = mpremote(board.pty_path, "romfs", "query")  # leaves the board at its REPL
    assert "Raw contents: d2:cd:31" in said and "ROMFS image size: " in said

    chunks.clear()
    again = flash.flash(board.pty_path, say=lines.append, on_chunk=lambda *c: chunks.append(c))
    assert (again.where, again.copied, again.deleted, again.unchanged) == (
        "rom", 0, 0, len(image) - 2)
    assert chunks == []  # nothing sent
    board.run(200)
    assert board.texts()["message"] == "9BALL GO"


@pytest.mark.parametrize("cut_at", [0.3, 1.0])
def test_cut_in_the_middle_of_the_rom_write_then_flash_again(board, image, cut_at):
    """Cut after a third of the image (the header not yet written: the partition is not a
    ROMFS) or after the header went in (the whole image is there, the old files not yet
    deleted): the board never reports a wrong version, and the next flash mends it."""
    def pull(_path: str, written: int, total: int) -> None:
        if written >= total * cut_at:
            board.kill()

    with pytest.raises((LinkError, flash.FlashError)):
        flash.flash(board.pty_path, on_chunk=pull)
    board.start()
    files, version, origin = state(board.pty_path)
    if cut_at < 1.0:
        assert version == "-"  # the stamp went first; the ROM holds no ROMFS
        assert origin == "firmware/__init__.mpy"  # the old files (sys.path ""), until the end
    else:
        assert version in ("-", firmware_image.version(image))
    lines: list[str] = []
    done = flash.flash(board.pty_path, say=lines.append)
    assert done.where == "rom" and done.version == firmware_image.version(image)
    files, version, origin = state(board.pty_path)
    assert set(files) == {"boot.py", "main.py"} and origin.startswith("/rom/")


def test_image_too_big_for_the_partition_means_files_and_erases_the_old_image(
        board, image, monkeypatch):
    flash.flash(board.pty_path)
    assert state(board.pty_path)[2].startswith("/rom/")
    real = flash_rom.partition
    monkeypatch.setattr(flash_rom, "partition",
                        lambda link: flash_rom.Partition(64 * 1024, real(link).block))
    lines: list[str] = []
    done = flash.flash(board.pty_path, say=lines.append)
    assert (done.where, done.copied, done.unchanged) == (
        "files", len(image) - 3, 2)  # boot.py and main.py; the stamp is not counted
    assert ("the firmware goes to the filesystem as .mpy files (the %d KB ROMFS image does "
            "not fit its 64 KB ROM partition)" % (len(flash_rom.image(image)) // 1024)
            in lines[1])
    assert "erased the ROM partition's firmware image: the files replace it" in lines
    files, version, origin = state(board.pty_path)
    assert origin == "firmware/__init__.mpy" and version == done.version
