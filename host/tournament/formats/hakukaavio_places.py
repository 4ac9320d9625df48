"""The hakukaavio's numbers and placings (HAKUKAAVIO.md §10-11): where the seeds sit in the
number order, and the final list of places with its options.

    seed_numbers(players, seeds) -> [number of seed 1, number of seed 2, ...]
    numbering(players, seeds, rng) -> [number of registered player 1, 2, ...] (seeds first)
    placings(games, players, knockout, option, registered) -> [{"place", "player", ...}]

The placing options (§10 and pilkku's own, docs/formats.md "The final ranking"): "rounds"
(pilkku's default: by the round a player went out, then wins, then points), "wins" (§10's
default: only the winner by rounds, everyone else by wins, then points), "finalists", "top3"
and "cup" (§10). "default", stored by older tournaments, is pilkku's default.
"""

from __future__ import annotations

import math
import random
import struct
from collections.abc import Sequence
from typing import Any

from host.i18n import _

PLACINGS = ("rounds", "wins", "finalists", "top3", "cup")
DEFAULT = "rounds"
SEED_COUNTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 24)
SLOTS_24 = (16, 1, 24, 9, 17, 8, 20, 4, 13, 12, 21, 5, 15, 2, 23, 10, 18, 7, 14, 3, 22, 11,
            19, 6)
IN = 10**9
FINALIST = 5 * 10**8
THIRD = 25 * 10**7
WIN = 100000


def _single(value: float) -> float:
    """The value rounded to single precision, as the established software computes it."""
    return struct.unpack("f", struct.pack("f", value))[0]


def _nearest_free(wanted: int, taken: set, players: int) -> int:
    """wanted if free, else the nearest free number in 1..players, the lower on a tie."""
    for distance in range(players + 1):
        for number in (wanted - distance, wanted + distance):
            if 1 <= number <= players and number not in taken:
                return number
    raise ValueError("no free number left")


def seed_numbers(players: int, seeds: int) -> list[int]:
    """The numbers the seeds take, seed 1 first (§11)."""
    if seeds not in SEED_COUNTS:
        raise ValueError(_("seed 1 to 8 players, or 24, or none"))
    if seeds > players or (seeds == 24 and players < 24):
        raise ValueError(_("%(seeds)d seeds need at least %(players)d players") % {
            "seeds": seeds, "players": max(seeds, 24 if seeds == 24 else 0)})
    if seeds == 24:
        wanted = []
        for seed in range(1, 25):
            i = SLOTS_24.index(seed)
            wanted.append(1 + math.floor(_single(_single(i / 23) * (players - 2))))
    else:
        s1 = players - 1
        s2 = players // 2
        s3 = s2 // 2
        s4 = round((s1 + s2) / 2)  # round() goes half to even, as §11 says
        wanted = [s1, s2, s3, s4, round((s2 + s4) / 2), s3 // 2, round((s2 + s3) / 2),
                  math.ceil((s1 + s4) / 2)][:seeds]
    taken: set = set()
    numbers = []
    for number in wanted:
        number = _nearest_free(number, taken, players)
        taken.add(number)
        numbers.append(number)
    return numbers


def numbering(players: int, seeds: int, rng: random.Random) -> list[int]:
    """The number draw (§2, §11): the seeds (the first `seeds` registered) at their numbers,
    everyone else at random on the free numbers. Item i is registered player i+1's number."""
    fixed = seed_numbers(players, seeds)
    free = [n for n in range(1, players + 1) if n not in fixed]
    rng.shuffle(free)
    return fixed + free


def option_of(name: str | None) -> str:
    """The placing option a tournament stored (None or "default": pilkku's default)."""
    if name in (None, "default"):
        return DEFAULT
    if name not in PLACINGS:
        raise ValueError(_("placings: one of %(placings)s") % {"placings": ", ".join(PLACINGS)})
    return name


def _is_in(player: int, games: Sequence, knockout: int | None) -> bool:
    """The tournament view (§4): out after two losses, or a loss at own round >= R."""
    return _out_round(player, games, knockout) is None


def _out_round(player: int, games: Sequence, knockout: int | None) -> int | None:
    """The game round of the game he went out in (tournament view), None while in."""
    losses = 0
    for game in games:
        if player in game.losers():
            losses += 1
            if losses >= 2 or (knockout is not None and game.own_round(player) >= knockout):
                return game.round
    return None


def _last_loss(player: int, games: Sequence) -> int:
    """The game round of his last loss (0: none): where a player the draw stopped drawing
    (§4, docs/formats.md item 7) is placed as out."""
    return max((g.round for g in games if player in g.losers()), default=0)


def placings(games: Sequence, players: int, knockout: int | None, option: str | None = None,
             registered: Sequence[int] | None = None, ended: bool = False,
             counted_in: set | None = None) -> list[dict]:
    """The places (§10, and "rounds"). `registered`: the numbers in registration order (ties
    keep it), default 1..players. `counted_in`: the players counted as in (default: the
    tournament view); `ended`: the tournament has ended (for the finalist rules). Each row:
    place, player, wins, points, games, in, out (the game round he went out in, or None)."""
    option = option_of(option)
    order = list(registered) if registered is not None else list(range(1, players + 1))
    finished = [g for g in games if g.result is not None]
    stats: dict[int, dict[str, Any]] = {p: {"player": p, "wins": 0, "points": 0, "games": 0}
                                        for p in order}
    for game in finished:
        for index, player in enumerate((game.first, game.second)):
            if player is None:
                continue
            stats[player]["games"] += 1
            stats[player]["points"] += game.points[index]
            stats[player]["wins"] += player in game.winners()
    alive = counted_in if counted_in is not None else {
        p for p in order if _is_in(p, finished, knockout)}
    for p in order:
        row = stats[p]
        row["in"] = p in alive
        row["out"] = None if row["in"] else (_out_round(p, finished, knockout)
                                             or _last_loss(p, finished))
        if option == "rounds":
            # (the final's loser above anyone out in the same game round: the finalist rule)
            final = int(ended and bool(finished) and p in games[-1].losers())
            row["key"] = (int(row["in"]), row["out"] or 0, final, row["wins"], row["points"])
        elif option == "cup":
            # §10 says +100000 while in; with the finalist's +5e8 that would rank the runner-up
            # above the winner, so the "in" bonus is 1e9 here too (same order otherwise).
            row["key"] = (row["games"] if row["wins"] else 0) + (IN if row["in"] else 0)
        else:
            row["key"] = (IN if row["in"] else 0) + WIN * row["wins"] + row["points"]
    if option in ("finalists", "top3", "cup") and ended and finished:
        last = games[-1]  # the last game in the list (the final)
        for loser in last.losers():
            stats[loser]["key"] += FINALIST
        if option == "top3":
            rest = [p for p in order if not stats[p]["in"] and p not in (last.first, last.second)]
            most = max((stats[p]["games"] for p in rest), default=None)
            for p in rest:
                if stats[p]["games"] == most:
                    stats[p]["key"] = THIRD
    if option in ("rounds", "wins"):
        rows = sorted((stats[p] for p in order), key=lambda r: r["key"], reverse=True)
    else:
        rows = sorted((stats[p] for p in order),
                      key=lambda r: (r["key"], r["wins"], r["points"]), reverse=True)
    for index, row in enumerate(rows):
        before = rows[index - 1] if index else None
        shares = (before is not None and not row["in"] and not before["in"]
                  and before["key"] == row["key"])
        row["place"] = before["place"] if before is not None and shares else index + 1
    return rows
