"""Fixtures for end-to-end tests on the virtual board (real MicroPython, pty, HT16K33 model)."""

from __future__ import annotations

import pytest

from host.board import firmware_image
from tests.displays import powered_up


@pytest.fixture(scope="session")
def firmware() -> dict[str, bytes]:
    return firmware_image.image()


@pytest.fixture
def board(tmp_path, firmware):
    """A fresh virtual board with the current firmware, powered up at the menu."""
    vb = powered_up(tmp_path / "board", firmware)
    yield vb
    vb.close()
