"""Fixtures the host's tests share (their firmware is tests/conftest.py's): the image the
flash tests install (taken once a module: others may be editing the sources meanwhile); the
sync tests' cup (sync_setup.make_store's: a 9-ball race to one of four, one table) with its
board at table 1, paired with the cup's key; and a store (night.db in the test's folder) open
for the test, for the night's tests that work on the store directly."""

from __future__ import annotations

import pytest
from flash_setup import ARCH
from sync_setup import make_board, make_store

from host.board import firmware_image
from host.tournament.store import Store


@pytest.fixture(scope="module")
def image() -> dict[str, bytes]:
    """The firmware for the unix port's architecture, as `pilkku flash` makes it."""
    return firmware_image.image(ARCH)


@pytest.fixture
def cup(tmp_path):
    """(store path, tournament, pairing key)."""
    return make_store(tmp_path / "cup.db")


@pytest.fixture
def board(tmp_path, firmware, cup):
    vb = make_board(tmp_path / "table", firmware, cup[2])
    yield vb
    vb.close()


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "night.db") as opened:
        yield opened
