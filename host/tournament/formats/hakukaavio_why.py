"""Why the hakukaavio's search drew a pair (issue 28, item 2: the director's desk shows it):
the same drawing pass as hakukaavio_search (HAKUKAAVIO.md §6-9), watched as it chooses, saying
which of its rules gave each pair. It adds no rule and changes no choice: the pairs come from
the search's own code; only what it looked at is noted.

    why(games, players, knockout) -> {(a, b): reason}   the pairs a draw now would add

A reason is a dict (players are numbers; the caller names them):
    {"how": "fast", "first": h, "games": g(h), "tie": True when others had as few games (the
     lower number goes first), "passed": [(c, "met" | "games" | "rest"), ...] the players
     ahead of the partner in (games, number) order and the test each failed (met before;
     their games this round more than one apart; the rest of the round could not be paired
     after it), "rematch": False}
    {"how": "exhaustive", "left": players still in, "scores": [((a, b), score), ...]
     in the order weighed, the lowest drawn}
    {"how": "stuck"}: the search found no pair with nothing unfinished (pilkku's rule,
     docs/formats.md); and, for every kind, "open": the games still unfinished whose every
     outcome gives this pair (0: none unfinished).
"""

from __future__ import annotations

from collections.abc import Sequence

from host.tournament.formats import hakukaavio_exhaustive as exhaustive
from host.tournament.formats.hakukaavio_search import (
    EXHAUSTIVE_PLAYERS,
    MAX_UNFINISHED,
    _Base,
    _pair,
    _Pass,
)


def why(games: Sequence, players: int, knockout: int | None) -> dict[tuple[int, int], dict]:
    """The reason for each pair the first drawing pass makes (the one with every unfinished
    game imagined won by its second player; the search adds a pair only when every pass
    makes it, so this pass's reason for it is one the search had)."""
    unfinished = [i for i, game in enumerate(games) if game.result is None]
    if len(unfinished) > MAX_UNFINISHED:
        return {}
    watched = _Watched(_Base(games, players, knockout), dict.fromkeys(unfinished, 2),
                       bool(unfinished))
    watched.run()
    for reason in watched.reasons.values():
        reason["open"] = len(unfinished)
    return watched.reasons


class _Watched(_Pass):
    """A drawing pass that notes, for each game it draws, which rule gave it."""

    def __init__(self, base: _Base, imagined: dict, is_open: bool):
        super().__init__(base, imagined, is_open)
        self.reasons: dict[tuple[int, int], dict] = {}
        self.stuck = False

    def _unstick(self):
        self.stuck = True
        return super()._unstick()

    def _next_game(self, has_new: bool):
        self.stuck = False
        c = dict(getattr(self, "c", {}))  # (as the search weighs them, before the game)
        found = super()._next_game(has_new)
        if found is not None:
            h, v, _all = found
            self.reasons[_pair(h, v)] = self._reason(h, v, c)
        return found

    def _reason(self, h: int, v: int, c: dict) -> dict:
        if self.stuck:
            return {"how": "stuck"}
        if len(self.active) <= EXHAUSTIVE_PLAYERS:
            return {"how": "exhaustive", "left": len(self.active),
                    "scores": exhaustive.scored(*self._exhaustive_inputs())}
        g = self.g
        order = sorted((p for p in self.active if p != h), key=lambda p: (g[p], p))
        passed = []
        for other in order[:order.index(v)] if v in order else ():
            if not self._meeting_ok(h, other):
                passed.append((other, "met"))
            elif abs(c.get(h, 0) - c.get(other, 0)) > 1:
                passed.append((other, "games"))
            else:
                passed.append((other, "rest"))
        return {"how": "fast", "first": h, "games": g[h],
                "tie": any(g[p] == g[h] for p in order), "passed": passed,
                "rematch": self._met(h, v)}
