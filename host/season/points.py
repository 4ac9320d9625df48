"""A ranking series' point table (docs/season.md): what a night gives a player. The table is
checked here and kept in versions by the store (store/series.py); a series counts by the
version it holds, so changing a table moves only the open series to the new version.

    {"win": points per won game,
     "participation": points for playing the night,
     "places": [points for 1st, 2nd, ... 10th] (at most 10; places past the list get 0),
     "beat": [bonus for beating the series' 1st, 2nd, 3rd as the table stood before the night]}

A won game is one won against an opponent (a walkover given, with nobody to beat, is not).
Players sharing a place (the night's ranking) each get that place's points.
"""

from __future__ import annotations

from host.i18n import N_, _
from host.tournament.store import StoreError

DEFAULT = {"win": 1, "participation": 1, "places": [10, 8, 6, 5, 4, 3, 2, 1, 0, 0],
           "beat": [3, 2, 1]}
PLACES_MAX = 10
BEAT_MAX = 3
POINTS_MAX = 1000

TEXT = {  # (N_: said in the language spoken where used)
    "number": N_("%(what)s: '%(found)s' is not a whole number from 0 to %(most)d"),
    "list": N_("%(what)s: at most %(most)d numbers separated by commas, e.g. %(example)s "
               "(found '%(found)s')"),
    "unknown": N_("a point table has win, participation, places and beat, not %(found)s"),
    "shown": N_("win %(win)d, participation %(participation)d, places %(places)s, beat #1-#3 "
                "%(beat)s"),
}


def _number(what: str, text: object) -> int:
    word = str(text).strip()
    if not (word.isascii() and word.isdigit() and len(word) <= 4 and int(word) <= POINTS_MAX):
        raise StoreError(_(TEXT["number"]) % {"what": what, "found": word[:20],
                                              "most": POINTS_MAX})
    return int(word)


def _numbers(what: str, text: object, most: int, example: str) -> list[int]:
    items = text if isinstance(text, list) else str(text).split(",")
    if not items or len(items) > most or (isinstance(text, str) and not text.strip()):
        raise StoreError(_(TEXT["list"]) % {"what": what, "most": most, "example": example,
                                            "found": str(text)[:40]})
    return [_number(what, item) for item in items]


def checked(table: dict) -> dict:
    """A point table with every field checked (StoreError naming what is wrong)."""
    unknown = sorted(set(table) - set(DEFAULT))
    if unknown:
        raise StoreError(_(TEXT["unknown"]) % {"found": ", ".join(unknown)})
    return {"win": _number("win", table.get("win", 0)),
            "participation": _number("participation", table.get("participation", 0)),
            "places": _numbers("places", table.get("places", [0]), PLACES_MAX,
                               "10,8,6,5,4,3,2,1"),
            "beat": _numbers("beat", table.get("beat", [0]), BEAT_MAX, "3,2,1")}


def changed(base: dict, win=None, participation=None, places=None, beat=None) -> dict:
    """`base` with the fields given (as typed) changed, checked."""
    table = dict(base)
    for key, value in (("win", win), ("participation", participation), ("places", places),
                       ("beat", beat)):
        if value is not None:
            table[key] = value
    return checked(table)


def place_points(table: dict, place: int) -> int:
    return table["places"][place - 1] if 1 <= place <= len(table["places"]) else 0


def beat_points(table: dict, place: int | None) -> int:
    """The bonus for beating the series' player at `place` (None: not in its top)."""
    if place is None or not 1 <= place <= len(table["beat"]):
        return 0
    return table["beat"][place - 1]


def shown(table: dict) -> str:
    return _(TEXT["shown"]) % {"win": table["win"], "participation": table["participation"],
                               "places": ",".join(map(str, table["places"])),
                               "beat": ",".join(map(str, table["beat"]))}
