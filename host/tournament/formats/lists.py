"""Tournament formats, free of storage: who meets whom, where a bracket's winners go, which
waiting match a free table takes, and how a league table is ranked.

Players are whatever the caller passes (names or ids); the store turns these plans into rows.

    round_robin(["A", "B", "C"])      -> [[("A", "C")], [("B", "A")], [("C", "B")]]  (one per round)
    bracket(["A", "B", "C"])          -> BracketMatch list, byes left out (the top seeds skip
                                         round 1), each naming where its winner goes
    pick_next(waiting, busy, last=)   -> of the waiting matches whose players are both free,
                                         the one whose players have waited longest
    fill(tables, waiting, busy, last=) -> each free table given pick_next's match in turn
    league(players, finished)         -> standings rows ranked by wins, difference, head-to-head
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from host.i18n import _

P = TypeVar("P", bound=Hashable)


def round_robin(players: Sequence[P]) -> list[list[tuple[P, P]]]:
    """Every player meets every other once (the circle method). With an odd count one player
    sits out each round; every round has len(players) // 2 matches."""
    seats: list[P | None] = list(players)
    if len(seats) % 2:
        seats.append(None)  # the seat that "plays" the resting player
    count = len(seats)
    rounds = []
    for number in range(count - 1):
        pairs = []
        for i in range(count // 2):
            a, b = seats[i], seats[count - 1 - i]
            if a is None or b is None:
                continue
            # Alternate who is named first so nobody is always player 1 (the scoreboard's left).
            pairs.append((a, b) if (number + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        seats = [seats[0], seats[-1]] + seats[1:-1]  # the first seat stays, the rest rotate
    return rounds


def seed_order(size: int) -> list[int]:
    """Seeds 1..size in bracket order, so that seed 1 and 2 can meet only in the final:
    size 8 -> [1, 8, 4, 5, 2, 7, 3, 6] (pairs 1-8, 4-5, 2-7, 3-6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


@dataclass
class BracketMatch:
    """One match of a single-elimination bracket. A slot is a player, or None while it waits
    for the winner of an earlier match. `next` indexes the match the winner goes to."""

    code: str
    round: int
    player1: Any
    player2: Any
    next: int | None = None
    next_slot: int | None = None  # 1 or 2: the slot the winner takes in `next`


def bracket_size(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def bracket(players: Sequence[Any]) -> list[BracketMatch]:
    """A single-elimination bracket seeded by the players' order. The bracket is the next power
    of two; the missing seeds are byes, given to the top seeds, and a bye is no match: the
    seed starts in round 2. Always len(players) - 1 matches, listed round by round."""
    if len(players) < 2:
        raise ValueError(_("a bracket needs at least two players"))
    size = bracket_size(len(players))
    order = seed_order(size)
    # Slot contents of the current round: a player (by seed) or the index of a match.
    slots: list[tuple[str, Any]] = [
        ("player", players[seed - 1]) if seed <= len(players) else ("bye", None)
        for seed in order]
    matches: list[BracketMatch] = []
    number = 1
    while len(slots) > 1:
        advanced: list[tuple[str, Any]] = []
        in_round = 0
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            if b[0] == "bye" or a[0] == "bye":
                advanced.append(a if b[0] == "bye" else b)  # the seed walks into the next round
                continue
            in_round += 1
            match = BracketMatch("R%d-%02d" % (number, in_round), number, None, None)
            for slot, (kind, value) in enumerate((a, b), 1):
                if kind == "player":
                    setattr(match, "player%d" % slot, value)
                else:
                    matches[value].next = len(matches)
                    matches[value].next_slot = slot
            matches.append(match)
            advanced.append(("match", len(matches) - 1))
        slots = advanced
        number += 1
    return matches


def pick_next(waiting: Iterable[dict], busy: set, in_order: bool = False,
              last: Mapping | None = None) -> dict | None:
    """The waiting match to start now: of those that can (both players known, neither
    playing or queued at a table; in_order: a player's matches are played in the order given,
    a drawn format's later game waits for his earlier one), the one whose players have waited
    longest. `last`: each player's last game as a number growing with time (when it
    finished); a player not in it has not played yet and has waited since the draw. A match
    waits since the later of its two players' last games; a tie goes to the order given."""
    last = last or {}
    blocked = set(busy)
    best, best_since = None, 0
    for match in waiting:
        players = (match["player1"], match["player2"])
        if None not in players and not blocked.intersection(players):
            since = max(last.get(players[0], 0), last.get(players[1], 0))
            if best is None or since < best_since:
                best, best_since = match, since
            if not last:
                break  # (nobody has played: the first in order)
        if in_order:
            blocked.update(p for p in players if p is not None)
    return best


def fill(tables: Iterable[int], waiting: Iterable[dict], busy: set, in_order: bool = False,
         last: Mapping | None = None) -> list[tuple[dict, int]]:
    """Each free table in turn (the order given) given the match pick_next chooses, its
    players busy for the next: [(match, table)], until no match can start."""
    left, busy = list(waiting), set(busy)
    given = []
    for table in tables:
        match = pick_next(left, busy, in_order, last)
        if match is None:
            break
        given.append((match, table))
        left.remove(match)
        busy.update((match["player1"], match["player2"]))
    return given


@dataclass
class Row:
    """A player's line in a league table."""

    player: Any
    played: int = 0
    won: int = 0
    lost: int = 0
    scored: int = 0  # racks (8/9-ball) or points (14.1, Kaisa) for
    conceded: int = 0  # ... and against
    rank: int = 0
    head_to_head: int = 0  # wins among the players level with him on wins and difference

    @property
    def difference(self) -> int:
        return self.scored - self.conceded


def league(players: Sequence[Any], finished: Iterable[dict]) -> list[Row]:
    """The league table: ranked by wins, then racks/points difference, then head-to-head wins
    among the players still level, then racks/points for, then the players' order.
    `finished` holds dicts with player1, player2, score1, score2, winner (None: lost by
    both, a loss to each)."""
    rows = {player: Row(player) for player in players}
    games = list(finished)
    for game in games:
        for me, mine, theirs in (("player1", "score1", "score2"),
                                 ("player2", "score2", "score1")):
            row = rows[game[me]]
            row.played += 1
            row.scored += game[mine]
            row.conceded += game[theirs]
            if game["winner"] == game[me]:
                row.won += 1
            else:
                row.lost += 1
    order = {player: i for i, player in enumerate(players)}
    ranked = sorted(rows.values(), key=lambda r: (-r.won, -r.difference))
    result: list[Row] = []
    for level in _levels(ranked, lambda r: (r.won, r.difference)):
        h2h = _head_to_head({r.player for r in level}, games)
        for row in level:
            row.head_to_head = h2h[row.player]
        result += sorted(level, key=lambda r: (-h2h[r.player], -r.scored, order[r.player]))
    for rank, row in enumerate(result, 1):
        row.rank = rank
    return result


def _levels(rows: list[Row], key) -> list[list[Row]]:
    """Runs of rows with the same key (the rows come sorted by it)."""
    levels: list[list[Row]] = []
    for row in rows:
        if levels and key(levels[-1][0]) == key(row):
            levels[-1].append(row)
        else:
            levels.append([row])
    return levels


def _head_to_head(group: set, games: list[dict]) -> dict:
    """Wins in the matches played among the players of `group` only."""
    wins = {player: 0 for player in group}
    for game in games:
        if game["player1"] in group and game["player2"] in group and game["winner"] in group:
            wins[game["winner"]] += 1
    return wins
