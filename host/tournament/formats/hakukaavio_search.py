"""The hakukaavio's draw after a result (HAKUKAAVIO.md §5-8): the imagined outcomes of the
unfinished games, one drawing pass per outcome, the fast search with its Feasible test, and the
pairs every pass agrees on.

    draw(games, players, knockout) -> [(a, b), ...]   the pairs to create now, in order

`games` is the real game list in its sorted order, each with .first, .second (None: walkover),
.rounds (the two own rounds) and .result (None unfinished, 1 first won, 2 second won, 0 both
lost). The caller creates the games (§1); nothing here changes the list.
"""

from __future__ import annotations

from collections.abc import Sequence

from host.tournament.formats import hakukaavio_exhaustive as exhaustive

MAX_UNFINISHED = 8
EXHAUSTIVE_PLAYERS = 4
# A closed draw the search leaves stuck (_unstick): the exhaustive search decides up to this
# many players in (newer releases of the spec's software search up to 7; in Python 7 can take
# minutes, 6 took up to 19 s on a loaded laptop), a plain rule above.
STUCK_EXHAUSTIVE_PLAYERS = 6
NEVER = 1 << 30  # R for "double elimination to the end"


def draw(games: Sequence, players: int, knockout: int | None) -> list[tuple[int, int]]:
    """§5: the pairs to add now (unordered pairs, as (lower, higher))."""
    unfinished = [i for i, game in enumerate(games) if game.result is None]
    if len(unfinished) > MAX_UNFINISHED:
        return []
    base = _Base(games, players, knockout)
    if not unfinished:
        return [_pair(a, b) for a, b in _Pass(base, {}, False).run()]
    common: list[tuple[int, int]] = []
    for m in range(1 << len(unfinished)):
        imagined = {index: (1 if m >> bit & 1 else 2) for bit, index in enumerate(unfinished)}
        # After the first pass only the pairs still common matter: a pass may stop once it has
        # decided each of them (drawn, or one of its players drawn with someone else).
        pairs = [_pair(a, b) for a, b in _Pass(base, imagined, True).run(common if m else None)]
        common = pairs if m == 0 else [p for p in common if p in pairs]
        if not common:
            break  # no pair can be in every pass any more
    return common


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _meeting_key(a: int, b: int) -> int:
    return (a << 16) | b if a < b else (b << 16) | a


class _Base:
    """What every pass of one draw shares: the real list as W rows, g (which does not depend
    on results), the finished games' losses and where each pair first met."""

    def __init__(self, games: Sequence, players: int, knockout: int | None):
        self.knockout = knockout if knockout is not None else NEVER
        self.players = range(1, players + 1)
        # W rows: [first, second, first's own round, second's own round, result]
        self.w = [[g.first, g.second, g.rounds[0], g.rounds[1], g.result] for g in games]
        self.g = dict.fromkeys(self.players, 0)
        self.earliest: dict[int, int] = {}
        for index, (first, second, *_rest) in enumerate(self.w):
            self.g[first] += 1
            if second is not None:
                self.g[second] += 1
                self.earliest.setdefault(_meeting_key(first, second), index)


class _Pass:
    """One drawing pass (§6) on W = the finished games plus the imagined results."""

    def __init__(self, base: _Base, imagined: dict, is_open: bool):
        self.knockout = base.knockout
        self.is_open = is_open
        self.players = base.players
        self.w = [row if index not in imagined else row[:4] + [imagined[index]]
                  for index, row in enumerate(base.w)]
        self.g = dict(base.g)
        self.earliest = dict(base.earliest)
        self.losses = dict.fromkeys(self.players, 0)
        out = set()
        for first, second, r1, r2, result in self.w:
            for loser in _losers(first, second, result):
                self.losses[loser] += 1
                if self.losses[loser] >= 2 or max(r1, r2) >= self.knockout:
                    out.add(loser)  # the draw view: the game round against R
        self.active = [p for p in self.players if p not in out]
        self.new: dict[int, list] = {}  # player -> his new game in this pass

    def run(self, wanted: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
        if len(self.active) < 2:
            return []
        low = min(self.g[p] for p in self.active)
        waiting = sum(1 for p in self.active if self.g[p] == low) == 1
        self.target = max(3, low + (2 if waiting else 1))
        self._count_for_feasible()
        drawn: list[tuple[int, int]] = []
        while True:
            found = self._next_game(bool(drawn))
            if found is None:
                break
            h, v, searched_all = found
            if h in self.new or v in self.new:
                break  # thrown away
            own = (self.g[h] + 1, self.g[v] + 1)
            game = [h, v, own[0], own[1], None]
            self.earliest.setdefault(_meeting_key(h, v), len(self.w))
            self.w.append(game)
            self.g[h] += 1
            self.g[v] += 1
            if max(own) <= self.target:
                self.c[h] += 1
                self.c[v] += 1
            self.new[h] = self.new[v] = game
            drawn.append((h, v))
            if own[0] != own[1] or max(own) > self.target or searched_all:
                break
            if wanted is not None and all(a in self.new or b in self.new for a, b in wanted):
                break
        return drawn

    # -- §7 ------------------------------------------------------------------------------

    def _next_game(self, has_new: bool) -> tuple[int, int, bool] | None:
        active = self.active
        if len(active) <= EXHAUSTIVE_PLAYERS:
            if has_new:
                return None
            found = self._exhaustive()
            if found is None:
                return self._unstick()
            (h, v), score = found
            if self.is_open and score >= exhaustive.AHEAD_OF_WAITING:
                return None
            searched_all = True
        else:
            pair = self._fast_search()
            if pair is None:
                return None if has_new else self._unstick()
            h, v = pair
            searched_all = False
        if (len(active) > 2 and self.is_open and self._met(h, v)
                and any(p != h and not self._met(h, p) for p in active)):
            return None  # the rematch gate
        if abs(self.g[h] - self.g[v]) > 1 and self.is_open:
            return None
        return h, v, searched_all

    def _exhaustive(self) -> tuple[tuple[int, int], int] | None:
        """§9's Best(A), counted from W (called only before this pass has a new game)."""
        return exhaustive.best(*self._exhaustive_inputs())

    def _exhaustive_inputs(self) -> tuple:
        """What §9's exhaustive search weighs: the players left, their games and losses, how
        often each pair met (from W), the knockout round (None: never)."""
        met: dict[frozenset, int] = {}
        for first, second, *_rest in self.w:
            if second is not None:
                both = frozenset((first, second))
                met[both] = met.get(both, 0) + 1
        knockout = None if self.knockout == NEVER else self.knockout
        return self.active, self.g, self.losses, met, knockout

    def _unstick(self) -> tuple[int, int, bool] | None:
        """The search found no first game. While the draw is open a result may change that;
        with nothing unfinished nothing would, and the spec's draw ends there with two or more
        still in (issue 32: the fast search never draws a pair that has met, and its Feasible
        fails every partner when the round cannot be paired without a rematch, or when its
        last two searchers have met). pilkku then draws one game (docs/formats.md): the
        exhaustive search's pair when few are in and it scores one, else the lowest (g,
        number) player against the first other in (g, number) order, preferring one within a
        game of him, then one he has met least often. The pass goes on by §6's rules."""
        if self.is_open:
            return None
        if EXHAUSTIVE_PLAYERS < len(self.active) <= STUCK_EXHAUSTIVE_PLAYERS:
            found = self._exhaustive()
            if found is not None:
                return found[0][0], found[0][1], True
        g = self.g
        h = min(self.active, key=lambda p: (g[p], p))
        v = min((p for p in self.active if p != h),
                key=lambda p: (abs(g[p] - g[h]) > 1, self._meetings(h, p), g[p], p))
        return h, v, False

    def _meetings(self, a: int, b: int) -> int:
        return sum(1 for first, second, *_rest in self.w if {first, second} == {a, b})

    def _met(self, a: int, b: int) -> bool:
        return _meeting_key(a, b) in self.earliest

    def _surely_in(self, player: int) -> bool:
        game = self.new.get(player)
        if game is None:
            return self.losses[player] <= 1
        own = game[2] if game[0] == player else game[3]
        return own < self.knockout and self.losses[player] == 0

    # -- §8 ------------------------------------------------------------------------------

    def _fast_search(self) -> tuple[int, int] | None:
        def order(p: int) -> tuple[int, int]:
            return (self.g[p], p)

        searchers = sorted((p for p in self.active if self.g[p] < self.target), key=order)
        if not searchers:
            return None
        h = searchers[0]
        if not self._surely_in(h):
            return None
        others = sorted((p for p in self.active if p != h), key=order)
        if len(others) == 1:
            v = others[0]
        else:
            self.searchers, self.others = searchers, others
            self.used = {h}
            self.memo: dict[tuple, bool] = {}
            found = next((c for c in others
                          if self._feasible(len(searchers), h, c)), None)
            if found is None:
                return None
            v = found
        return (h, v) if self._surely_in(v) else None

    def _count_for_feasible(self) -> None:
        """c(p) and the meeting test's losses, over the games of W up to the target round
        (kept up to date as the pass appends its new games)."""
        self.c = dict.fromkeys(self.players, 0)
        self.tl = dict.fromkeys(self.players, 0)
        for first, second, r1, r2, result in self.w:
            if max(r1, r2) > self.target:
                continue
            for player in (first, second):
                if player is not None:
                    self.c[player] += 1
            weight = 2 if max(r1, r2) >= self.knockout else 1
            for loser in _losers(first, second, result):
                self.tl[loser] += weight

    def _meeting_ok(self, x: int, y: int) -> bool:
        index = self.earliest.get(_meeting_key(x, y))
        if index is None:
            return True
        game = self.w[index]
        if game[4] is not None:
            return False
        if game[2] >= self.knockout and game[3] >= self.knockout:
            return True
        return self.tl[x] >= 1 and self.tl[y] >= 1

    def _feasible(self, searching: int, h: int, v: int) -> bool:
        """Feasible(S, C, h, v) of §8. S and C are the top call's lists less self.used (the
        players paired on this branch, and h); `searching` is len(S) at this level."""
        c = self.c
        if not self._meeting_ok(h, v) or abs(c[h] - c[v]) > 1:
            return False
        used = self.used
        if searching == 2:
            pair = [p for p in self.searchers if p == h or p not in used]
            if not self._meeting_ok(pair[0], pair[1]):
                return False
        k = max(c[h], c[v])
        c[h] += 1
        c[v] += 1
        used.add(v)
        h2 = next((p for p in self.searchers if p not in used), None)
        try:
            if h2 is None:
                return True
            used.add(h2)
            left = searching - 1 - (v in self.searchers)
            if left == 1 and all(p in used for p in self.others):
                return True  # the lone player rests
            # Whether the rest can be paired depends only on who is paired (c follows from
            # it), so it is remembered: the same players paired in another order ask again.
            key = (frozenset(used), h2)
            rest = self.memo.get(key)
            if rest is None:
                rest = any(candidate not in used and self._feasible(left, h2, candidate)
                           for candidate in self.others)  # C' in order
                self.memo[key] = rest
            if rest:
                return True
            return all(c[p] > k for p in self.active)
        finally:
            c[h] -= 1
            c[v] -= 1
            used.discard(v)
            if h2 is not None:
                used.discard(h2)


def _losers(first: int, second: int | None, result: int | None) -> tuple:
    if result == 1:
        return (second,) if second is not None else ()
    if result == 2:
        return (first,)
    if result == 0:
        return (first, second) if second is not None else (first,)
    return ()
