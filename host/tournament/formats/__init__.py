"""The tournament formats, free of storage: who meets whom as results arrive. A round robin
and a single-elimination bracket are drawn whole at the start (lists.py); the double
elimination, groups into a knockout and the hakukaavio are engines that draw as results come
(docs/formats.md). The store keeps what they drew; the director's operations
(host/tournament/night/) rebuild an engine from the store and ask it what comes next.

    make_engine(name, players, options) -> Double | Groups | Hakukaavio
"""

from __future__ import annotations

from typing import Any

from host.tournament.formats.double import Double
from host.tournament.formats.groups import Groups
from host.tournament.formats.hakukaavio import Hakukaavio

ENGINES = ("double", "groups", "hakukaavio")
FORMATS = ("round_robin", "single") + ENGINES
DRAWN = ENGINES  # formats whose players play their games in order


def make_engine(name: str, count: int, options: dict) -> Any:
    """The engine of `name` for `count` players; ValueError says what is wrong."""
    if name == "double":
        return Double(count, reset=options.get("reset", True))
    if name == "groups":
        return Groups(count, options.get("groups", 2), options.get("advance", 2))
    return Hakukaavio(count, options.get("knockout_from"), options.get("seeds", 0),
                      options.get("placings"))
