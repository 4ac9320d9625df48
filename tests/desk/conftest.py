"""Fixtures of the desk's boards tests (tests/desk/boards_setup.py): the firmware of the
module's boards, and where they are announced (tests/host/watch_setup.py's announcing)."""

from __future__ import annotations

import pytest

from host.board import firmware_image
from tests.host.watch_setup import announcing


@pytest.fixture(scope="module")
def firmware() -> dict[str, bytes]:
    return firmware_image.image()


@pytest.fixture
def announced(tmp_path, monkeypatch, firmware):
    return announcing(tmp_path, monkeypatch, firmware)
