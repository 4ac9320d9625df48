"""What the desk's boards tests share (test_desk_boards*.py; their fixtures firmware and
announced are conftest.py's): boards announced only in the test's own folder, an older
firmware to be marked and flashed."""

from __future__ import annotations

from host.board import firmware_image, registry
from host.board.virtual_board import VirtualBoard

OLD = "older0000000"


def announcing(tmp_path, monkeypatch, firmware: dict[str, bytes]):
    """Virtual boards announced in this test's own folder (as `pilkku board start` does);
    the watchers' doors in its runtime folder; the laptop's firmware (what the page compares
    with, its version_of, what a flash installs) this module's (others may be editing the
    sources meanwhile, as tests/host/test_flash.py pins it)."""
    monkeypatch.setattr(firmware_image, "image", lambda arch=None, platform=None: firmware)
    monkeypatch.setattr(firmware_image, "version_of",
                        lambda platform=None, compiled=True: firmware_image.version(firmware))
    folder = tmp_path / "announced"
    folder.mkdir()
    monkeypatch.setattr(registry, "VIRTUAL_BOARDS", folder)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))

    def announce(board: VirtualBoard) -> None:
        assert board.process is not None
        (folder / ("%d.port" % board.process.pid)).write_text(board.pty_path)

    return announce


def older(firmware: dict[str, bytes]) -> dict[str, bytes]:
    files = dict(firmware)
    files[firmware_image.VERSION_FILE] = ("VERSION = %r\n" % OLD).encode()
    return files


