"""The hakukaavio's exhaustive search (HAKUKAAVIO.md §9): when at most four players are still in
(or, when the fast search leaves a draw with nothing unfinished stuck, five or six:
hakukaavio_search._unstick), every remaining path of the tournament is played out in the head
and the pairing with the lowest penalty is drawn.

    best(players, games, losses, met, knockout) -> ((searcher, partner), score) or None
    scored(players, games, losses, met, knockout) -> [((searcher, partner), score), ...]

`games` and `losses` map a player to his g and L, `met` maps frozenset({a, b}) to how often
they have met; `knockout` is R (None for double elimination to the end). Nothing here knows
about the game list: the caller (hakukaavio_search) counts those from W.
"""

from __future__ import annotations

from collections.abc import Sequence

CAP = 1023  # a round error, and the cap of every score
REMATCH = 100
THIRD_MEETING = 500
AHEAD_OF_WAITING = 20  # drawing ahead of a waiting player; also the limit while the draw is open
SKIPPED_SEARCHER = 1


class _State:
    """g, L and meeting counts of the look-ahead; `play` returns the state after one game."""

    __slots__ = ("games", "losses", "met", "knockout")

    def __init__(self, games: dict, losses: dict, met: dict, knockout: int | None):
        self.games = games
        self.losses = losses
        self.met = met
        self.knockout = knockout

    def meetings(self, a: int, b: int) -> int:
        return self.met.get(frozenset((a, b)), 0)

    def play(self, winner: int, loser: int) -> _State:
        games = dict(self.games)
        games[winner] += 1
        games[loser] += 1
        losses = dict(self.losses)
        losses[loser] += 1
        met = dict(self.met)
        pair = frozenset((winner, loser))
        met[pair] = met.get(pair, 0) + 1
        return _State(games, losses, met, self.knockout)

    def drops(self, loser: int) -> bool:
        """After losing, he drops out: two losses, or the loss came at g >= R."""
        return self.losses[loser] >= 2 or (
            self.knockout is not None and self.games[loser] >= self.knockout)


def best(players: Sequence[int], games: dict, losses: dict, met: dict,
         knockout: int | None) -> tuple[tuple[int, int], int] | None:
    """Best(A): the pair to draw and its score, or None when nobody could be scored."""
    return _Search(knockout).best(list(players), _State(dict(games), dict(losses), dict(met),
                                                       knockout))


def scored(players: Sequence[int], games: dict, losses: dict, met: dict,
           knockout: int | None) -> list[tuple[tuple[int, int], int]]:
    """Every (pair, score) Best(A) weighed at the top, in the order it weighed them (the
    worked example of §13 quotes these)."""
    trace: list[tuple[tuple[int, int], int]] = []
    _Search(knockout).best(list(players), _State(dict(games), dict(losses), dict(met),
                                                 knockout), trace)
    return trace


class _Search:
    """One search's Best, Pen and Tally. Best is remembered for each exact state it met (the
    players, their g and L, how often each two have met): the same state reached by another
    path of the look-ahead gives the same answer. The spec's software keys it more coarsely,
    which can change its choice; this key cannot (§9: 'compute Best exactly')."""

    def __init__(self, knockout: int | None):
        self.knockout = knockout
        self.memo: dict[tuple, tuple[tuple[int, int], int] | None] = {}

    def best(self, players: list[int], state: _State,
             trace: list | None = None) -> tuple[tuple[int, int], int] | None:
        order = sorted(players, key=lambda p: (state.games[p], p))
        if trace is None:
            key = (tuple((p, state.games[p], state.losses[p]) for p in order),
                   tuple(state.meetings(a, b) for i, a in enumerate(order)
                         for b in order[i + 1:]))
            if key in self.memo:
                return self.memo[key]
            found = self._best(order, state, None)
            self.memo[key] = found
            return found
        return self._best(order, state, trace)

    def _best(self, order: list[int], state: _State,
              trace: list | None) -> tuple[tuple[int, int], int] | None:
        low = state.games[order[0]]
        searchers = 1 if len(order) == 2 else 2
        found: tuple[tuple[int, int], int] | None = None
        for i in range(searchers):
            if found is not None and found[1] <= 0:
                continue  # a perfect pairing is already found: skip this searcher
            h = order[i]
            if state.games[h] > low + 1:
                break
            for v in order[i + 1:]:
                if state.games[v] > low + 1:
                    break
                if not state.games[h] <= state.games[v] <= state.games[h] + 1:
                    continue
                score = min(CAP, self.penalty(order, h, v, state) + SKIPPED_SEARCHER * i)
                if trace is not None:
                    trace.append(((h, v), score))
                if found is None or score < found[1]:
                    found = ((h, v), score)
                if score <= 0:
                    break
        return found

    def penalty(self, players: list[int], h: int, v: int, state: _State) -> int:
        """Pen(P, h, v): the local penalty of h-v plus the worse of its two outcomes' futures."""
        if abs(state.games[h] - state.games[v]) > 1:
            return CAP
        size = len(players)
        if size < 3:
            return 0
        q = 0
        meetings = state.meetings(h, v)
        if meetings == 1:
            q += REMATCH + 10 * (size - 3)
        elif meetings == 2:
            q += THIRD_MEETING + 10 * (size - 3)
        smaller = min(state.games[h], state.games[v])
        if state.games[h] != state.games[v] and any(
                state.games[p] == smaller for p in players if p not in (h, v)):
            q += AHEAD_OF_WAITING + 2 * (size - 3)
        worst = 0
        for winner, loser in ((h, v), (v, h)):  # case one: v loses; case two: h loses
            after = state.play(winner, loser)
            left = [p for p in players if p != loser or not after.drops(loser)]
            score = self.tally(left, after, q)
            if winner == h and score >= CAP:
                return score
            worst = max(worst, score)
        return worst

    def tally(self, players: list[int], state: _State, q: int) -> int:
        if len(players) == 2:
            return min(CAP, q + self.penalty(players, players[0], players[1], state))
        if len(players) < 2:
            return min(CAP, q)
        found = self.best(players, state)
        if found is None:
            return CAP
        # q is counted twice on this path, as the established software does.
        return min(CAP, q + min(CAP, found[1] + q))
