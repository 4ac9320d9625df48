"""`pilkku flash` onto the emulated Pico as a new user does it: a blank chip given each stock
UF2 (with its ROMFS partition, and plain), powered up, flashed over its USB serial. The code
must land where that firmware allows (the ROM partition as a block device, or files on
littlefs), be only board code, import from there, and boot to the scoreboard's menu."""

from __future__ import annotations

import re

import pytest

from host.board.mpremote_link import Link as ReplLink
from host.board.pico import ready

LOOK = """import os, sys
import firmware
print(firmware.__file__)
base = firmware.__file__.rsplit('firmware/', 1)[0] or '/'
print(' '.join(sorted(os.listdir(base + 'hardware') + os.listdir(base + 'hardware/boards'))))
import pilkku_version
print(pilkku_version.VERSION)
from firmware import journal_place
print(journal_place.layout(), os.statvfs('/')[2])
"""
VIRTUAL_ONLY = {"virtual.mpy", "fakes.mpy", "ht16k33_model.mpy"}


@pytest.mark.parametrize("romfs", [True, False], ids=["romfs-uf2", "plain-uf2"])
def test_a_blank_chip_given_each_uf2_then_pilkku_flash(tmp_path, flashed, romfs):
    done = flashed(romfs)
    said = "\n".join(done.said)
    if romfs:
        assert "the board has a 192 KB ROM partition (48 blocks of 4096 bytes, a block " \
               "device over XIP flash): the firmware goes there" in said
        assert re.search(r"version \w+ verified, runs from /rom", said), said
    else:
        assert "its MicroPython has no ROMFS support (no vfs.rom_ioctl)" in said
        assert re.search(r"\d+ files copied, 0 deleted, 0 unchanged; version \w+ verified",
                         said), said
    assert not any(name in said for name in VIRTUAL_ONLY)
    pico = ready.board_from(done.image, tmp_path / "pico")
    pico.start()
    try:
        ready.up(pico)
        pico.wait_ms(200)  # up: one display shows; the rest of the first frame follows
        shown = pico.texts()
        assert (shown["score_1"], shown["score_2"], shown["message"]) == (
            "PL 1", "PL 2", "9BALL GO")  # the menu, after power-up
        with ReplLink.open(pico.pty_path) as link:
            link.raw_repl(soft_reset=True)
            where, names, version, layout = link.run(LOOK).split("\r\n")[:4]
    finally:
        pico.close()
    assert where.startswith("/rom/firmware/") if romfs else where.lstrip("/").startswith(
        "firmware/"), where  # imported from the ROM partition, or from the filesystem
    assert "pico.mpy" in names.split() and "ht16k33.mpy" in names.split()
    assert not VIRTUAL_ONLY & set(names.split()), names  # only board code on a board
    assert "version %s verified" % version in said
    # The blank chip's littlefs over all 352 blocks was made into the ring's layout: the
    # stub's boot.py mounted the real littlefs of 318 blocks at / (docs/journal.md).
    assert "converting the flash to the journal's ring layout: 0 files" in said, said
    assert "flash layout: the journal's ring layout" in said, said
    assert layout == "ring1 318", layout
