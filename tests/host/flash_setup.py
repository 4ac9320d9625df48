"""What the flash tests share (test_flash_cut.py, test_flash_rom.py; their image fixture is
conftest.py's): the architecture the unix port reports, and the image every flash of a
module installs pinned to the module's own."""

from __future__ import annotations

import pytest

from host.board import firmware_image, toolchain

ARCH = "x64"  # what the unix port reports; bytecode-only files are the same for any arch


def pin(image: dict[str, bytes], monkeypatch) -> None:
    """`pilkku flash` installs `image` (others may be editing the sources meanwhile); the
    test skipped where there is no MicroPython unix port to run the virtual board."""
    try:
        toolchain.micropython_binary()
    except toolchain.ToolchainError as missing:
        pytest.skip(str(missing))
    monkeypatch.setattr(firmware_image, "image", lambda arch=None, platform=None: image)
