"""Fixtures for the tests on the emulated Raspberry Pi Pico (docs/pico.md): the stock
MicroPython UF2s from PILKKU_PICO_UF2 / PILKKU_PICO_ROMFS_UF2 and the boot ROM from
PILKKU_PICO_BOOTROM on rp2040js. Without them every test here skips, saying why.

Each UF2 is flashed with `pilkku flash` once per session (host/board/pico/ready.py); a test
gets a board of its own on a copy of that flash."""

from __future__ import annotations

import pytest

from host.board.pico import chip as pico_chip
from host.board.pico import ready


def pytest_collection_modifyitems(config, items):
    why = pico_chip.missing()
    skip = pytest.mark.skip(reason="the emulated Pico: " + why) if why else None
    # One worker takes every Pico test (`make test` runs two, pytest-xdist's loadgroup):
    # each UF2 is flashed once for them all, and one emulated chip runs at a time.
    # They come first: that worker starts on them at once while the other takes the rest.
    group = pytest.mark.xdist_group("pico")
    pico = [item for item in items if "tests/pico/" in str(item.fspath).replace("\\", "/")]
    for item in pico:
        item.add_marker(skip or group)
    if not skip:
        chosen = set(pico)
        items[:] = pico + [item for item in items if item not in chosen]


class Flashed:
    """A UF2 flashed with pilkku once: the flash image and what `pilkku flash` said."""

    def __init__(self, cache, romfs: bool) -> None:
        self.said: list[str] = []
        self.image = ready.flashed(cache, romfs, say=self.said.append)


@pytest.fixture(scope="session")
def flashed(tmp_path_factory):
    """romfs (True/False) -> Flashed, each made on first use."""
    cache = tmp_path_factory.mktemp("pico-images")
    made: dict[bool, Flashed] = {}

    def get(romfs: bool) -> Flashed:
        if romfs not in made:
            made[romfs] = Flashed(cache, romfs)
        return made[romfs]

    return get


@pytest.fixture
def pico(tmp_path, flashed):
    """A Pico of its own, pilkku in its ROM partition, powered up stepped and showing."""
    board = ready.board_from(flashed(True).image, tmp_path / "pico")
    board.start(stepped=True)
    ready.boot(board)
    yield board
    board.close()
    # every flash program whole aligned pages, or a real Pico's flash would differ
    assert board.misaligned == []
