"""A cable pulled in the middle of `pilkku flash` (issue 13, item 6): the board is left
with two builds mixed (some files new, some old, no version stamp; or a ROM partition half
written), and often in the middle of receiving a piece of code in raw-paste mode. The next
`pilkku flash` must find it answering, mend it, and leave one build that reports its version.

The cable is a pty relay that stops carrying after a given number of bytes to the board,
mid-paste, then closes as a pulled plug does."""

from __future__ import annotations

import os
import threading

import pytest
from flash_setup import pin

from host.board import firmware_image, flash
from host.board.mpremote_link import LinkError
from host.board.pty_relay import PtyRelay
from host.board.virtual_board import VirtualBoard


class PulledCable(PtyRelay):
    """Carries `budget` bytes to the board, then is pulled out."""

    def __init__(self, board_port: str, budget: int) -> None:
        self.budget = budget
        self.pulled = threading.Event()
        self.unplugged = threading.Event()
        super().__init__(board_port)

    def carry(self, data: bytes, target: int) -> None:
        if self.pulled.is_set():
            return
        if target == self.board:
            if len(data) >= self.budget:
                os.write(target, data[:self.budget])
                self.pull()
                return
            self.budget -= len(data)
        os.write(target, data)

    def pull(self) -> None:
        """Both ends go dead: the laptop's at once, the board's once the forwarding threads
        have stopped (closing an fd another thread reads would keep its lock)."""
        self.pulled.set()
        self.running = False
        os.close(self.master)

        def unplug() -> None:
            for thread in self.threads:
                if thread is not threading.current_thread():
                    thread.join(2)
            os.close(self.board)
            os.close(self._slave)
            self.unplugged.set()

        threading.Thread(target=unplug, daemon=True).start()


@pytest.fixture(autouse=True)
def pinned(image, monkeypatch):
    pin(image, monkeypatch)


@pytest.mark.parametrize(("rom", "budget"), [(False, 9000), (False, 30011), (True, 20011),
                                              (True, 41000)])
def test_flash_after_a_cable_pulled_mid_flash(tmp_path, image, rom, budget):
    board = VirtualBoard(tmp_path / "board", rom=rom)
    board.install({path: data for path, data in image.items()
                   if path.startswith("rules_core/")})  # an older, partial build
    board.start()
    try:
        cable = PulledCable(board.pty_path, budget)
        with pytest.raises(LinkError):
            flash.flash(cable.port, say=lambda _line: None)
        assert cable.pulled.is_set() and cable.unplugged.wait(5)
        lines: list[str] = []
        done = flash.flash(board.pty_path, say=lines.append)
        assert done.version == firmware_image.version(image)
        assert done.where == ("rom" if rom else "files")
        assert lines[-1].endswith("s") and "verified" in lines[-1]
        board.run(200)
        assert board.texts()["message"] == "9BALL GO"
    finally:
        board.close()
