"""Where the boards are: the virtual boards this machine runs announce their serial ports in a
folder (`pilkku board start`, `pilkku sim`), and real boards are found on USB by vendor. `pilkku
sync` reads this list; nothing here opens a port."""

from __future__ import annotations

import os
from pathlib import Path

# Where `pilkku board start` announces its virtual boards, so `pilkku sync` finds them.
VIRTUAL_BOARDS = Path(os.environ.get("XDG_RUNTIME_DIR", "/tmp")) / "pilkku-boards"
BOARD_VENDORS = (0x2E8A, 0x303A, 0x10C4, 0x1A86)  # Raspberry Pi, Espressif, USB-UART bridges


def announce(port: str) -> Path:
    VIRTUAL_BOARDS.mkdir(parents=True, exist_ok=True)
    entry = VIRTUAL_BOARDS / ("%d.port" % os.getpid())
    entry.write_text(port)
    return entry


def found_ports() -> list[str]:
    """Boards on USB (by vendor) and the virtual boards running on this machine."""
    from serial.tools import list_ports

    ports = [p.device for p in list_ports.comports() if p.vid in BOARD_VENDORS]
    if VIRTUAL_BOARDS.exists():
        for entry in sorted(VIRTUAL_BOARDS.glob("*.port")):
            try:
                os.kill(int(entry.stem), 0)
                ports.append(entry.read_text().strip())
            except (OSError, ValueError):
                entry.unlink(missing_ok=True)  # its board is gone
    return ports
