"""`pilkku pair`: give a board the tournament's pairing key (over its REPL, with mpremote),
so that its results are signed and the laptop's writes to it are accepted."""

from __future__ import annotations

from host.board.mpremote_link import Link

WRITE_KEY = """from firmware.config import Config
c = Config("/")
c.values["key"] = %r
c.save()
print(c.board)
"""


def pair(port: str, key: bytes) -> str:
    """Write the key into the board's /config.json; return the board's id. The board is
    restarted into the scoreboard afterwards."""
    with Link.open(port) as link:
        link.raw_repl(soft_reset=True)
        board = link.run(WRITE_KEY % key.hex()).strip()
        link.start_firmware()
    return board
