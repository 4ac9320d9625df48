"""The hakukaavio, the Kaisa search draw (docs/formats.md, ../shared/HAKUKAAVIO.md): every
player plays until two losses (or one loss from round R on); each new game is drawn as soon as
every possible outcome of the games still being played agrees on it.

    draw = Hakukaavio(players=20, knockout_from=None, seeds=0, placing="rounds")
    draw.pending()            -> the unfinished games, list order: {"round", "first", "second",
                                 "rounds": (own round of first, of second), "ready"}
    draw.start(a, b)          -> marks the game started (late entries stop at round 2)
    draw.record(a, b, winner, points=(0, 0)) -> the games this result let the draw add
                                 (winner: a, b, or 0 when both lose)
    draw.record_many([(a, b, winner), ...])  -> several at once, entered in list order
    draw.add_players(count)   -> late entries take the next numbers; unstarted games redrawn
    draw.finished(), draw.winner(), draw.placings(), draw.view()

Players are the numbers 1..N of the number draw (hakukaavio_places.numbering makes it). The
engine holds no storage: the store replays the recorded results into a fresh engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from host.i18n import _
from host.tournament.formats import hakukaavio_places as places
from host.tournament.formats.hakukaavio_search import NEVER, draw


class Game:
    """One game of the list: first and second player (second None: a walkover), their own
    rounds, the result (None unfinished, 1 first won, 2 second won, 0 both lost)."""

    __slots__ = ("first", "second", "rounds", "result", "started", "points")

    def __init__(self, first: int, second: int | None, rounds: tuple[int, int]):
        self.first = first
        self.second = second
        self.rounds = rounds
        self.result: int | None = None
        self.started = False
        self.points = (0, 0)

    @property
    def round(self) -> int:
        return max(self.rounds)

    def key(self) -> tuple[int, int, int, int]:
        return (self.round, self.rounds[0], self.first, self.second or 0)

    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def losers(self) -> tuple[int, ...]:
        if self.result == 1:
            return () if self.second is None else (self.second,)
        if self.result == 2:
            return (self.first,)
        if self.result == 0:
            return self.players()
        return ()

    def winners(self) -> tuple[int, ...]:
        return {1: (self.first,), 2: (self.second,)}.get(self.result or 0, ())  # type: ignore

    def own_round(self, player: int) -> int:
        return self.rounds[0] if player == self.first else self.rounds[1]

    def as_dict(self) -> dict:
        return {"round": self.round, "first": self.first, "second": self.second,
                "rounds": self.rounds, "result": self.result, "points": self.points,
                "walkover": self.second is None}


class OpeningFailed(ValueError):
    """Round 2 left a player with no partner he has not met (only with 24 seeds' walkovers)."""


class Hakukaavio:
    """The draw of one hakukaavio. knockout_from: None (two losses to the end) or R in 2..6,
    from which one loss eliminates. seeds: 0, 1..8 or 24 (HAKUKAAVIO.md §11)."""

    def __init__(self, players: int, knockout_from: int | None = None, seeds: int = 0,
                 placing: str | None = None):
        if players < 4:
            raise ValueError(_("a hakukaavio needs at least 4 players"))
        if knockout_from is not None and not 2 <= knockout_from <= 6:
            raise ValueError(_("--knockout-from takes a round from 2 to 6"))
        self.count = players
        self.knockout = knockout_from
        self.seeds = seeds
        self.placing = places.option_of(placing)  # ValueError for an unknown option
        self.seeded = places.seed_numbers(players, seeds)  # checks the seed count
        self.games: list[Game] = []
        self._opening()

    # -- the list (§1) -------------------------------------------------------------------

    def _g(self, player: int) -> int:
        return sum(1 for game in self.games if player in game.players())

    def _create(self, a: int, b: int | None) -> Game:
        """A new game by §1: the lower own round (then the lower number) listed first."""
        if b is None:
            game = Game(a, None, (self._g(a) + 1, 0))
            game.result = 1
        else:
            own_a, own_b = self._g(a) + 1, self._g(b) + 1
            if (own_b, b) < (own_a, a):
                a, b, own_a, own_b = b, a, own_b, own_a
            game = Game(a, b, (own_a, own_b))
        keys = [g.key() for g in self.games]
        at = next((i for i, k in enumerate(keys) if k > game.key()), len(keys))
        self.games.insert(at, game)
        return game

    # -- rounds 1 and 2 (§3) -------------------------------------------------------------

    def _opening(self) -> None:
        if self.seeds == 24:
            for seed, number in enumerate(self.seeded, 1):
                if not any(g.second is None and g.first == number for g in self.games):
                    for _walkover in range(2 if seed <= 12 else 1):
                        self._create(number, None)
        without = [p for p in range(1, self.count + 1) if self._g(p) == 0]
        for a, b in zip(without[::2], without[1::2], strict=False):
            self._create(a, b)
        n = self.count
        # "Nobody seeded" read as "no 24-seed walkovers": without the two fixed games a field
        # of N = 2 (mod 4) fails round 2 (1-8 seeds only move numbers). docs/formats.md.
        if n % 4 == 2 and self.seeds != 24:
            self._create(n - 4, n - 1)
            self._create(n - 2, n)
        while True:
            short = sorted((p for p in range(1, n + 1) if self._g(p) < 2),
                           key=lambda p: (self._g(p), p))
            if len(short) < 2:
                return
            first = short[0]
            partner = next((p for p in short[1:] if not self._met(first, p)), None)
            if partner is None:
                raise OpeningFailed(_("round 2 leaves player %(number)d no partner he has not "
                                      "met; draw the numbers again") % {"number": first})
            self._create(first, partner)

    def _met(self, a: int, b: int) -> bool:
        return any(g.second is not None and {a, b} == {g.first, g.second} for g in self.games)

    # -- results -------------------------------------------------------------------------

    def _game(self, a: int, b: int) -> Game:
        for game in self.games:
            if game.result is None and {a, b} == {game.first, game.second}:
                return game
        raise ValueError("no unfinished game between %d and %d" % (a, b))

    def start(self, a: int, b: int) -> None:
        self._game(a, b).started = True

    def record(self, a: int, b: int, winner: int, points: Sequence[int] = (0, 0)) -> list[dict]:
        """Enter a result (winner a, b, or 0: both lose); run the draw. Returns the new games."""
        game = self._game(a, b)
        if winner not in (a, b, 0):
            raise ValueError("the winner is %d, %d or 0 (both lose)" % (a, b))
        game.result = 0 if winner == 0 else (1 if winner == game.first else 2)
        game.started = True
        game.points = (points[0], points[1]) if game.first == a else (points[1], points[0])
        return [g.as_dict() for g in self.run_draw()]

    def record_many(self, results: Sequence[tuple[int, int, int]]) -> list[dict]:
        """Several tables finishing at once: the results are entered in list order (the draw
        runs after each, §5), so the order they arrived in cannot change the draw."""
        position = {}
        for a, b, _winner in results:
            game = self._game(a, b)
            position[(a, b)] = self.games.index(game)
        new: list[dict] = []
        for a, b, winner in sorted(results, key=lambda r: position[(r[0], r[1])]):
            new += self.record(a, b, winner)
        return new

    def load(self, games: Sequence[tuple]) -> None:
        """Restore a stored tournament without rerunning its draws: `games` are (first,
        second, round, winner or None, points) in the order they were created; the opening's
        games are matched, the later ones created again (their own rounds follow from the
        order). ValueError when a game does not land as stored."""
        for first, second, round_, winner, points in games:
            game = next((g for g in self.games if g.result is None and g.round == round_
                         and (g.first, g.second) == (first, second)), None)
            if game is None:
                game = self._create(first, second)
                if (game.first, game.second, game.round) != (first, second, round_):
                    raise ValueError("stored game %d-%d (round %d) does not follow the draw"
                                     % (first, second, round_))
            if winner is not None:
                game.result = 0 if winner == 0 else (1 if winner == first else 2)
                game.started = True
                game.points = tuple(points)  # type: ignore[assignment]

    def run_draw(self) -> list[Game]:
        """§5: create the pairs every imagined outcome agrees on."""
        return [self._create(a, b) for a, b in draw(self.games, self.count, self.knockout)]

    def add_players(self, count: int) -> list[int]:
        """Late entries (§2): the next numbers; unstarted games dropped and §3 rerun. Refused
        once a round-2 game has started."""
        if any(g.round >= 2 and g.second is not None and (g.started or g.result is not None)
               for g in self.games):
            raise ValueError(_("a round-2 game has started: late entries are closed"))
        if count < 1:
            raise ValueError("add at least one player")
        added = list(range(self.count + 1, self.count + count + 1))
        kept = [g for g in self.games if g.started or g.result is not None]
        self.count += count
        self.games = kept
        self._opening()
        return added

    # -- who is in -----------------------------------------------------------------------

    def is_in(self, player: int) -> bool:
        """The tournament view (§4)."""
        return places._is_in(player, self.games, self.knockout)

    def drawable(self, player: int) -> bool:
        """The draw view (§4): the game round, not the own round, is compared with R."""
        knockout = self.knockout if self.knockout is not None else NEVER
        losses = [g for g in self.games if player in g.losers()]
        return len(losses) < 2 and not any(g.round >= knockout for g in losses)

    def players_in(self) -> list[int]:
        out: set[int] = set()
        losses = dict.fromkeys(range(1, self.count + 1), 0)
        knockout = self.knockout if self.knockout is not None else NEVER
        for game in self.games:
            for loser in game.losers():
                losses[loser] += 1
                if losses[loser] >= 2 or game.own_round(loser) >= knockout:
                    out.add(loser)
        return [p for p in losses if p not in out]

    def finished(self) -> bool:
        """One player in; or nothing left to play and fewer than two the draw can still draw
        (a player the draw stopped drawing, §4, can leave two 'in' with no game possible; both
        losing the final leaves none). Two drawable with nothing unfinished is a draw still to
        run, not an end: the draw always adds a game then (hakukaavio_search._unstick)."""
        if len(self.players_in()) == 1:
            return True
        if any(g.result is None for g in self.games):
            return False
        return sum(1 for p in range(1, self.count + 1) if self.drawable(p)) < 2

    def winner(self) -> int | None:
        if not self.finished():
            return None
        alive = self.players_in()
        if len(alive) == 1:
            return alive[0]
        drawn = [p for p in alive if self.drawable(p)]
        return drawn[0] if len(drawn) == 1 else None

    def placings(self, option: str | None = None,
                 registered: Sequence[int] | None = None) -> list[dict]:
        ended = self.finished()
        counted = None
        if ended and len(self.players_in()) > 1:
            counted = {self.winner()} - {None}
        return places.placings(self.games, self.count, self.knockout, option or self.placing,
                               registered, ended, counted)

    def pending(self) -> list[dict]:
        """The unfinished games in list order; "ready": it may start now (§12: from round 3,
        and in round 2 when R = 2, only once the players' earlier games are finished)."""
        rows = []
        for index, game in enumerate(self.games):
            if game.result is None:
                row = game.as_dict()
                row["ready"] = self._may_start(index)
                rows.append(row)
        return rows

    def _may_start(self, index: int) -> bool:
        game = self.games[index]
        if game.round < 3 and not (self.knockout == 2 and game.round == 2):
            return True
        return not any(g.result is None and set(g.players()) & set(game.players())
                       for g in self.games[:index])

    def view(self) -> dict:
        """A plain view for pages and printing: rounds with their games and who went out."""
        out_in: dict[int, list[int]] = {}
        for p in range(1, self.count + 1):
            if not self.is_in(p):
                last = [g for g in self.games if p in g.losers()][-1]
                out_in.setdefault(last.round, []).append(p)
        rounds = []
        for number in sorted({g.round for g in self.games}):
            rounds.append({"round": number,
                           "games": [g.as_dict() for g in self.games if g.round == number],
                           "out": sorted(out_in.get(number, []))})
        return {"format": "hakukaavio", "players": self.count, "knockout_from": self.knockout,
                "rounds": rounds, "in": self.players_in(), "finished": self.finished(),
                "winner": self.winner()}
