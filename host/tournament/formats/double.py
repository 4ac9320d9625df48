"""Double elimination, free of storage: a seeded winners' bracket, a losers' bracket fed by its
losers, and a grand final (with an optional bracket reset, the true final).

    draw = Double(players=6, reset=True)
    draw.pending()   -> [{"code": "W1-01", "stage", "round", "first", "second"}]  known now
    draw.record(a, b, winner)        -> the games that became known
    draw.finished(), draw.winner(), draw.placings(), draw.view()

Players are 1..N in seed order. The bracket is the next power of two; the missing seeds are
byes for the top seeds (formats.seed_order), and a bye is no game: the seed goes on, and the
"loser" of a bye is a bye in the losers' bracket too. Losers' round 2j takes the winners'
round j+1 losers in reverse order, so that two players do not meet again at once.
"""

from __future__ import annotations

from host.i18n import _
from host.tournament.formats.lists import bracket_size, seed_order

BYE = 0


class _Match:
    __slots__ = ("code", "stage", "round", "sources", "result")

    def __init__(self, code: str, stage: str, round_: int, sources: list):
        self.code = code
        self.stage = stage  # "winners", "losers", "final", "reset"
        self.round = round_
        self.sources = sources  # per slot: ("player", n) | ("winner", code) | ("loser", code)
        self.result: int | None = None  # the winner's number


class Double:
    """Double elimination for `players` (3 or more) seeded 1..N; `reset`: a second final when
    the losers' bracket winner wins the first (the true final)."""

    def __init__(self, players: int, reset: bool = True):
        if players < 3:
            raise ValueError(_("double elimination needs at least 3 players"))
        self.count = players
        self.reset = reset
        size = bracket_size(players)
        self.matches: dict[str, _Match] = {}
        self.order: list[str] = []
        levels = size.bit_length() - 1  # winners' rounds
        seeds = seed_order(size)
        for i in range(size // 2):
            self._add("W1-%02d" % (i + 1), "winners", 1, [
                ("player", s if s <= players else BYE) for s in seeds[2 * i:2 * i + 2]])
        for r in range(2, levels + 1):
            for i in range(size >> r):
                self._add("W%d-%02d" % (r, i + 1), "winners", r,
                          [("winner", "W%d-%02d" % (r - 1, 2 * i + j + 1)) for j in (0, 1)])
        last = None
        for r in range(1, 2 * (levels - 1) + 1):
            count = size >> (r // 2 + 2 if r % 2 else r // 2 + 1)
            for i in range(count):
                if r == 1:
                    sources = [("loser", "W1-%02d" % (2 * i + j + 1)) for j in (0, 1)]
                elif r % 2 == 0:
                    feeding = r // 2 + 1
                    sources = [("winner", "L%d-%02d" % (r - 1, i + 1)),
                               ("loser", "W%d-%02d" % (feeding, count - i))]
                else:
                    sources = [("winner", "L%d-%02d" % (r - 1, 2 * i + j + 1)) for j in (0, 1)]
                last = self._add("L%d-%02d" % (r, i + 1), "losers", r, sources)
        top = "W%d-01" % levels
        self.losers_final = last
        self._add("F-1", "final", 1, [("winner", top), ("winner", last)])
        if reset:
            self._add("F-2", "reset", 2, [("winner", "F-1"), ("loser", "F-1")])

    def _add(self, code: str, stage: str, round_: int, sources: list) -> str:
        self.matches[code] = _Match(code, stage, round_, sources)
        self.order.append(code)
        return code

    # -- who plays ------------------------------------------------------------------------

    def _slot(self, source: tuple) -> int | None:
        """A slot's player, BYE, or None while it waits for a result."""
        kind, value = source
        if kind == "player":
            return value
        outcome = self._outcome(self.matches[value])
        if outcome is None:
            return None
        return outcome[0] if kind == "winner" else outcome[1]

    def players_of(self, code: str) -> tuple[int | None, int | None]:
        match = self.matches[code]
        return self._slot(match.sources[0]), self._slot(match.sources[1])

    def _outcome(self, match: _Match) -> tuple[int, int] | None:
        """(winner, loser) once decided; a bye decides by itself. The reset final is no game
        (both BYE) when the winners' bracket champion won the first final."""
        if match.stage == "reset":
            first = self._outcome(self.matches["F-1"])
            if first is not None and first[0] == self._slot(self.matches["F-1"].sources[0]):
                return (BYE, BYE)
        a, b = self.players_of(match.code)
        if a is None or b is None:
            return None
        if BYE in (a, b):
            return (b, a) if a == BYE else (a, b)
        if match.result is None:
            return None
        return (match.result, b if match.result == a else a)

    def _is_game(self, code: str) -> bool:
        a, b = self.players_of(code)
        outcome = self._outcome(self.matches[code]) if a is not None and b is not None else None
        return a not in (None, BYE) and b not in (None, BYE) and outcome != (BYE, BYE)

    def _row(self, code: str) -> dict:
        match = self.matches[code]
        a, b = self.players_of(code)
        return {"code": code, "stage": match.stage, "round": match.round, "first": a,
                "second": b, "winner": match.result}

    def games(self) -> list[dict]:
        """Every game known so far (both players known, no bye), in order of the bracket."""
        return [self._row(c) for c in self.order if self._is_game(c)]

    def pending(self) -> list[dict]:
        return [row for row in self.games() if row["winner"] is None]

    def record(self, a: int, b: int, winner: int) -> list[dict]:
        """Enter a result; returns the games that became known by it."""
        if winner not in (a, b):
            raise ValueError("the winner is %d or %d" % (a, b))
        known = {row["code"] for row in self.games()}
        row = next((r for r in self.pending() if {r["first"], r["second"]} == {a, b}), None)
        if row is None:
            raise ValueError("no game between %d and %d is waiting for a result" % (a, b))
        self.matches[row["code"]].result = winner
        return [r for r in self.games() if r["code"] not in known]

    # -- the end --------------------------------------------------------------------------

    def winner(self) -> int | None:
        final = self._outcome(self.matches["F-1"])
        if final is None:
            return None
        first_final_won_by_top = final[0] == self._slot(self.matches["F-1"].sources[0])
        if first_final_won_by_top or not self.reset:
            return final[0]
        second = self._outcome(self.matches["F-2"])
        return second[0] if second else None

    def finished(self) -> bool:
        return self.winner() is not None

    def placings(self) -> list[dict]:
        """1 the champion, then by the bracket position of each player's last loss outside the
        winners' bracket (later is better); those out in the same losers' round share a place.
        While it runs, the players still in come first and share a place (out None)."""
        champion = self.winner()
        last_loss: dict[int, int] = {}
        for position, code in enumerate(self.order):
            match = self.matches[code]
            outcome = self._outcome(match) if match.stage != "winners" else None
            if outcome and outcome[1] != BYE:
                last_loss[outcome[1]] = position
        alive = [p for p in range(1, self.count + 1) if p not in last_loss or p == champion]
        ranked = sorted(alive, key=lambda p: (p != champion, p)) + sorted(
            (p for p in last_loss if p != champion), key=lambda p: (-last_loss[p], p))
        rows: list[dict] = []
        for index, player in enumerate(ranked):
            lost = self.order[last_loss[player]] if player in last_loss else None
            out = (self.matches[lost].stage, self.matches[lost].round) if lost else None
            before = rows[-1] if rows else None
            shares = (before is not None and player != champion and before["out"] == out
                      and (out is None or out[0] == "losers") and before["player"] != champion)
            rows.append({"place": before["place"] if before is not None and shares
                         else index + 1, "player": player, "out": out})
        return rows

    def view(self) -> dict:
        stages = []
        for stage in ("winners", "losers", "final", "reset"):
            for number in sorted({m.round for m in self.matches.values() if m.stage == stage}):
                codes = [c for c in self.order if self.matches[c].stage == stage
                         and self.matches[c].round == number]
                stages.append({"stage": stage, "round": number,
                               "games": [self._row(c) for c in codes if self._is_game(c)
                                         or self.players_of(c).count(None)]})
        return {"format": "double", "players": self.count, "reset": self.reset,
                "rounds": stages, "finished": self.finished(), "winner": self.winner()}
