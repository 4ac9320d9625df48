"""The emulated Pico's flash is as strict as the chip's (host/board/pico/bridge.mjs): a program
goes through the boot ROM's flash_range_program, which sends whole 256-byte pages of the
source buffer from the offset it is given, so a short or unaligned program writes what a
real Pico would (and the board reports it); and a power cut asked for inside an erase or a
program lands where it was asked, or is reported as impossible, never dropped in silence.

The stock plain UF2 alone (no pilkku): the program runs over the raw REPL on `rp2.Flash()`,
the storage area (littlefs, 352 blocks from flash offset 0xA0000); its last block, which a
freshly formatted littlefs does not use, is the one written. The flash image is read from
the board's folder (written through at every page and sector)."""

from __future__ import annotations

import shutil
import threading

import pytest

from host.board.mpremote_link import Link
from host.board.pico import ready
from host.board.pico.board import IMAGE, PicoBoard
from host.board.pico.chip import PicoError

STORAGE = 0x200000 - 1408 * 1024  # rp2.Flash()'s first byte in the plain UF2's flash
LAST = STORAGE + 351 * 4096  # its last block
OPEN = "import rp2\nf = rp2.Flash()\nn = f.ioctl(4, 0) - 1\n"


@pytest.fixture(scope="module")
def stock(tmp_path_factory):
    """A plain stock chip booted once (its littlefs formatted by _boot.py), powered off."""
    folder = tmp_path_factory.mktemp("stock")
    board = PicoBoard(folder / "chip")
    board.flash_uf2(ready.uf2(romfs=False))
    board.start()
    try:
        board.wait_ms(ready.USB_UP_MS)
        with Link.open(board.pty_path) as link:
            link.raw_repl(soft_reset=False)
            assert link.run("import os\nprint(os.statvfs('/')[2])").strip() == "352"
    finally:
        board.close()
    return folder / "chip" / IMAGE


@pytest.fixture
def chip(stock, tmp_path):
    folder = tmp_path / "chip"
    folder.mkdir()
    shutil.copyfile(stock, folder / IMAGE)
    board = PicoBoard(folder)
    board.start()
    board.wait_ms(ready.USB_UP_MS)
    link = Link.open(board.pty_path)
    link.raw_repl(soft_reset=False)
    yield board, link
    link.close()
    board.close()


def block(board: PicoBoard) -> bytes:
    return board.image.read_bytes()[LAST:LAST + 4096]


def zeroed_then(board, link, cut: tuple[int, int, int], code: str) -> None:
    """The last block programmed all 0x00, then the cut asked for, then `code` sent (its
    answer not waited for: the power goes in it)."""
    link.run(OPEN + "f.ioctl(6, n)\nf.writeblocks(n, bytearray(4096), 0)\n")
    assert block(board) == bytes(4096)
    board.cut_in_flash(*cut)
    link.transport.exec_raw_no_follow(OPEN + code)


def test_a_short_unaligned_program_writes_a_whole_page_of_the_source(chip):
    board, link = chip
    # 3 bytes at offset 300 of the block, from a buffer whose next 509 bytes are zeros: the
    # boot ROM sends 256 bytes from the source; the chip starts at byte 44 of the page and
    # wraps inside it. The whole page 256..511 is programmed, 3 bytes of it as asked.
    link.run(OPEN + "f.ioctl(6, n)\nb = bytearray(512)\nb[0:3] = b'abc'\n"
             "f.writeblocks(n, memoryview(b)[0:3], 300)\n")
    got = block(board)
    assert got[300:303] == b"abc"
    assert got[256:300] == bytes(44) and got[303:512] == bytes(209)
    assert got[:256] == b"\xff" * 256 and got[512:] == b"\xff" * 3584
    assert board.misaligned == [(LAST + 300, 3)]


def test_whole_aligned_pages_are_written_as_asked_and_not_reported(chip):
    board, link = chip
    link.run(OPEN + "f.ioctl(6, n)\nb = bytearray(b'\\xff' * 512)\nb[10:13] = b'xyz'\n"
             "f.writeblocks(n, b, 1024)\n")
    got = block(board)
    assert got[1034:1037] == b"xyz"
    assert got.count(b"\xff") == 4096 - 3
    assert board.misaligned == []


def test_a_cut_inside_an_erase_leaves_the_sector_partly_erased(chip):
    board, link = chip
    zeroed_then(board, link, (1, 0, 1000), "f.ioctl(6, n)\n")
    assert board.wait_dead()
    got = block(board)
    assert got[:1000] == b"\xff" * 1000 and got[1000:] == bytes(3096)


def test_a_cut_inside_a_program_leaves_its_pages_and_bytes_before_the_cut(chip):
    board, link = chip
    zeroed_then(board, link, (2, 2, 100),
                "f.ioctl(6, n)\nf.writeblocks(n, bytearray(1024), 0)\n")
    assert board.wait_dead()
    got = block(board)
    # the erase whole; of the program's four pages two and 100 bytes of the third
    assert got[:612] == bytes(612) and got[612:] == b"\xff" * (4096 - 612)


def test_a_cut_asked_past_the_operations_end_is_reported_and_the_chip_runs_on(chip):
    board, link = chip
    board.cut_in_flash(2, 1)  # the erase, then a program of a single page: no page 1
    link.run(OPEN + "f.ioctl(6, n)\nf.writeblocks(n, bytearray(256), 0)\nprint('ran on')\n")
    assert "a program of 1 page (256 bytes at 0x1ff000), with no room for 1 whole pages" \
        in board.cut_missed
    with pytest.raises(PicoError, match="could not land"):
        board.wait_dead()
    # dropped, not moved on to a later operation
    assert link.run(OPEN + "f.writeblocks(n, bytearray(256), 256)\nprint('alive')\n") \
        .strip() == "alive"
    assert board.alive() and block(board)[:512] == bytes(512)


def test_a_closed_board_leaves_no_reader_on_its_pty(stock, tmp_path):
    """A reader of the pty left running after close() polls a closed fd's number, which the
    next pty opened takes: its bytes (mpremote's Ctrl-A) went to the dead board and the new
    one said nothing (seen in CI: 'it sent nothing in mpremote's wait of 10 s')."""
    (tmp_path / "chip").mkdir()
    shutil.copyfile(stock, tmp_path / "chip" / IMAGE)
    board = PicoBoard(tmp_path / "chip")
    board.start()
    board.wait_ms(10)
    reader = "reader of " + board.pty_path
    assert reader in [thread.name for thread in threading.enumerate()]
    board.close()
    assert reader not in [thread.name for thread in threading.enumerate()]
