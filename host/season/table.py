"""A series' table from its nights (season/nights.py) and its point table (season/points.py):
the rules a club secretary keeps a Kaisa ranking by (docs/season.md).

- A night gives a player: participation + win x games won + the points of the place the
  night's ranking gave (shared places: each gets that place's points) + a bonus for each game
  won against the series' 1st, 2nd or 3rd as the table stood before that night (players
  sharing a place count as that place).
- A player's total: the points carried over from the previous series (if the series carries)
  + the best N nights' points (best of N; every night without it).
- Ranked by total, then by the tie-break keys in order; players level on all of them share
  the better place, the following places are skipped.

    table(nights, points, names, best_of=None, tie_break=(), carried={}) -> [row]
    row: {place, person, name, total, carried, nights, counted, wins, best, night_points:
          [{tournament, played, points, counted}]}
    flat_rows(document)   a table_of document as one flat row a person (text, CSV, the page)
"""

from __future__ import annotations

from host.i18n import N_
from host.season import points as point_rules

TIE_BREAKS = {  # (N_: each key's meaning, said where shown)
    "best": N_("the best single night's points"),
    "wins": N_("games won in the series"),
    "places": N_("more 1st places, then more 2nd places, ... (count-back)"),
    "nights": N_("more nights played"),
}
DEFAULT_TIE_BREAK = ["best", "wins", "places"]


def _empty(person: int, name: str, carried: int) -> dict:
    return {"person": person, "name": name, "carried": carried, "wins": 0, "places": [],
            "night_points": []}


def _key(entry: dict, best_of: int | None, tie_break: list[str]) -> tuple:
    points = sorted((n["points"] for n in entry["night_points"]), reverse=True)
    counted = points if best_of is None else points[:best_of]
    total = entry["carried"] + sum(counted)
    keys = []
    for name in tie_break:
        if name == "best":
            keys.append(points[0] if points else 0)
        elif name == "wins":
            keys.append(entry["wins"])
        elif name == "nights":
            keys.append(len(entry["night_points"]))
        elif name == "places":
            keys.append(tuple(entry["places"].count(p) for p in range(1, 11)))
    return (total, *keys)


def ranked(entries: dict[int, dict], best_of: int | None, tie_break: list[str]) -> list[dict]:
    """The entries as table rows, best first, with shared places."""
    keyed = sorted(((_key(e, best_of, tie_break), e) for e in entries.values()),
                   key=lambda ke: (tuple(_negated(ke[0])), ke[1]["name"], ke[1]["person"]))
    rows, place, previous = [], 0, None
    for index, (key, entry) in enumerate(keyed, 1):
        if key != previous:
            place, previous = index, key
        points = sorted(entry["night_points"], key=lambda n: -n["points"])
        counted_ids = {id(n) for n in (points if best_of is None else points[:best_of])}
        nights = [dict(n, counted=id(n) in counted_ids) for n in entry["night_points"]]
        rows.append({"place": place, "person": entry["person"], "name": entry["name"],
                     "total": key[0], "carried": entry["carried"], "nights": len(nights),
                     "counted": sum(1 for n in nights if n["counted"]), "wins": entry["wins"],
                     "best": max((n["points"] for n in nights), default=0),
                     "night_points": nights})
    return rows


def _negated(key: tuple) -> list:
    return [tuple(-x for x in k) if isinstance(k, tuple) else -k for k in key]


def night_points(night: dict, points: dict, standing: dict[int, int]) -> dict[int, int]:
    """What one night gives each of its players; `standing`: person -> place in the series
    before the night."""
    got: dict[int, int] = {}
    for row in night["placings"]:
        got[row["person"]] = (points["participation"]
                              + point_rules.place_points(points, row["place"]))
    for game in night["games"]:
        got[game["winner"]] = (got.get(game["winner"], points["participation"])
                               + points["win"]
                               + point_rules.beat_points(points, standing.get(game["loser"])))
    return got


def table(nights: list[dict], points: dict, names: dict[int, str], best_of: int | None = None,
          tie_break: list[str] | tuple[str, ...] = (), carried: dict[int, int] | None = None
          ) -> list[dict]:
    """The series' table after `nights` (in the order played; unfinished ones left out)."""
    tie = list(tie_break)
    entries = {p: _empty(p, names.get(p, "#%d" % p), c) for p, c in (carried or {}).items()}
    for night in nights:
        if not night["final"]:
            continue
        standing = {row["person"]: row["place"] for row in ranked(entries, best_of, tie)}
        for person, got in night_points(night, points, standing).items():
            entry = entries.setdefault(person, _empty(person, names.get(person, "#%d" % person),
                                                      0))
            entry["night_points"].append({"tournament": night["tournament"],
                                          "played": night["played"], "points": got})
        for row in night["placings"]:
            entries[row["person"]]["places"].append(row["place"])
        for game in night["games"]:
            entries[game["winner"]]["wins"] += 1
    return ranked(entries, best_of, tie)


def flat_rows(document: dict) -> list[dict]:
    """One row a person: place, name, points, nights, wins, best, then each night's points
    ('(n)': not counted), as the text table and the CSV show them."""
    rows = []
    for row in document["rows"]:
        flat = {"place": row["place"], "name": row["name"], "points": row["total"],
                "carried": row["carried"], "nights": row["nights"], "wins": row["wins"],
                "best": row["best"]}
        got = {n["tournament"]: n for n in row["night_points"]}
        for index, held in enumerate(document["nights"], 1):
            n = got.get(held["tournament"])
            flat["%d" % index] = "" if n is None else (
                n["points"] if n["counted"] else "(%d)" % n["points"])
        rows.append(flat)
    return rows
