"""`pilkku flash`'s conversion of a Pico to the journal's ring layout (host/board/flash_layout.py)
against a scripted board: the layout read from the board's answer; the board's own files kept
on the laptop before the flash is made over and deleted there only once written back; a
conversion that fails keeps them for the next flash, which writes them back; the stub's
boot.py small enough to stay inline in blocks 0-1. (The real thing on the emulated chip:
tests/pico/test_pico_convert.py.)"""

from __future__ import annotations

import base64

import pytest

from firmware import journal_place as place
from host.board import flash_files, flash_layout
from host.board.flash_layout import LayoutError


class Board:
    """Answers flash_layout's code as a Pico would: files in a dict, a layout."""

    def __init__(self, blocks: int, mounted: int, files: dict[str, bytes], fail_make=False):
        self.blocks, self.mounted, self.files = blocks, mounted, dict(files)
        self.fail_make = fail_make
        self.ran: list[str] = []
        self.written: dict[str, bytes] = {}

    def run(self, code: str) -> str:
        self.ran.append(code)
        if code == flash_layout.PROBE:
            return "%d %d 0 e6614103e7" % (self.blocks, self.mounted)
        if code == flash_layout.LIST:
            return "\n".join("%d /%s" % (len(d), p) for p, d in self.files.items())
        if code.startswith("_pk_r("):
            path, offset, count = eval(code[len("_pk_r"):])  # noqa: S307  # our own text
            return base64.b64encode(self.files[path.lstrip("/")][offset:offset + count]).decode()
        if code == flash_layout.MAKE:
            if self.fail_make:
                raise RuntimeError("the cable came out")
            self.files = {}
            self.mounted = place.FS_BLOCKS
            return "%d %d" % (place.FLASH_BLOCKS, place.FS_BLOCKS)
        return ""


@pytest.fixture(autouse=True)
def _writes(monkeypatch):
    def write_file(link, path, data, deflate, on_chunk=None):
        link.written[path] = data
        link.files[path] = data

    monkeypatch.setattr(flash_files, "write_file", write_file)


OWN = {"journal/seq": b"3", "journal/done/3.log": b"S..." * 900, "config.json": b"{}",
       "firmware/app.mpy": b"code", "main.py": b"main"}


def test_the_layout_is_read_from_the_board():
    assert flash_layout.probe(Board(352, 318, {})).name == flash_layout.RING1
    assert flash_layout.probe(Board(352, 352, {})).name == flash_layout.OLD
    with pytest.raises(LayoutError, match="nothing was changed"):
        flash_layout.probe(Board(300, 300, {}))


def test_an_old_board_s_own_files_go_through_the_laptop_and_come_back(tmp_path):
    board = Board(352, 352, OWN)
    said: list[str] = []
    layout = flash_layout.convert(board, flash_layout.probe(board), False, said.append,
                                  tmp_path)
    assert layout.name == flash_layout.RING1
    own = {p: d for p, d in OWN.items() if not p.startswith("firmware/") and p != "main.py"}
    assert board.written == own  # the firmware's own files are flashed anew, not carried
    assert board.ran.index(flash_layout.MAKE) > max(
        i for i, code in enumerate(board.ran) if code.startswith("_pk_r("))  # read first
    assert not any(tmp_path.rglob("*"))  # the laptop's copy deleted once written back
    assert "3 files of the board's" in said[0]


def test_a_conversion_cut_short_keeps_the_files_for_the_next_flash(tmp_path):
    board = Board(352, 352, OWN, fail_make=True)
    with pytest.raises(RuntimeError):
        flash_layout.convert(board, flash_layout.probe(board), False, print, tmp_path)
    kept = {p.relative_to(tmp_path / "e6614103e7").as_posix(): p.read_bytes()
            for p in tmp_path.rglob("*") if p.is_file()}
    assert kept == {p: d for p, d in OWN.items() if "/" not in p or p.startswith("journal")
                    if p != "main.py"}
    # The next flash finds the board wiped (a fresh littlefs over it all): the laptop's copy
    # is written back.
    board.files, board.fail_make = {}, False
    flash_layout.convert(board, flash_layout.probe(board), False, print, tmp_path)
    assert board.written == kept and not any(tmp_path.rglob("*"))


def test_the_stub_stays_inline_in_blocks_0_and_1():
    assert len(flash_layout.STUB.encode()) < 512
    assert "readonly=True" in flash_layout.STUB  # a failed mount: the stub, read-only
