"""`pilkku pair`: give a board the tournament's pairing key (over its REPL, with mpremote),
so that its results are signed and the laptop's writes to it are accepted.

A board whose config was found damaged on its flash (both copies: firmware/config.py) kept
its id but lost its key and its table: pairing it clears the damage mark, and gives it back
the table the store last saw it at. The tournament's language for the board's displays is
written with the key (firmware/words.py; a board of a firmware before it ignores it)."""

from __future__ import annotations

from typing import NamedTuple

from firmware.config import DAMAGED
from host.board.mpremote_link import Link

WRITE_KEY = """from firmware.config import Config
c = Config("/")
damaged = c.values.pop(%r, None) is not None
tables = %r
if damaged and c.values.get("table") is None and c.board in tables:
    c.values["table"] = tables[c.board]
c.values["key"] = %r
lang = %r
if lang == "en":
    c.values.pop("lang", None)
elif lang:
    c.values["lang"] = lang
c.save()
print(c.board, c.values.get("table"), int(damaged))
"""


class Paired(NamedTuple):
    board: str  # the board's id
    table: int | None  # its table now
    mended: bool  # its config had been found damaged: the mark is cleared, the table given


def pair(port: str, key: bytes, tables: dict[str, int] | None = None,
         lang: str | None = None) -> Paired:
    """Write the key into the board's /config.json; `tables`: the table the store last saw
    each board at, given back to a board whose config was damaged; `lang` the language of
    its displays (None: left as it is). The board is restarted
    into the scoreboard afterwards."""
    with Link.open(port) as link:
        link.raw_repl(soft_reset=True)
        said = link.run(WRITE_KEY % (DAMAGED, dict(tables or {}), key.hex(), lang)).split()
        link.start_firmware()
    table = said[1] if len(said) == 3 else ""
    return Paired(said[0] if said else "?", int(table) if table.isdigit() else None,
                  said[-1:] == ["1"])
