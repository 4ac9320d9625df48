"""The draw replayed from the stored results (night/consequences.py): a fresh engine of the
tournament's format is fed the results, one of them changed, and the games it draws are read
off in the order it makes them. A replay of the unchanged results draws what the store holds.

    replay(name, engine, stored, numbers, forced) -> Replay

The hakukaavio's draw depends on which games are unfinished when each result is entered
(docs/formats.md), so its results are entered in the order the store took them (the first
result of each match); a result whose game the replay has not drawn (yet) waits, and the
earliest result that can be entered always goes next. A game `forced` in (a played game the
director keeps) is made when the result after which it was drawn is entered. The double and
groups are determined by their results: a result is entered into the game of the same code and
players, in the order of play, until none more can be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.i18n import _
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.formats.hakukaavio_search import NEVER
from host.tournament.night.how import way

Force = tuple  # (the stored id of the result it came after | None, {player id: games before})


@dataclass
class Stored:
    """A stored match as the plan reads it; `outcome` is the one the replay enters:
    ("win", winner's id, (score1, score2)), ("both_lose",) or None (not decided)."""

    id: int
    code: str
    round: int | None
    seq: int
    players: tuple[int, int]
    outcome: tuple | None
    table: int | None
    entered: int | None  # the id of the match's first result: the order results came in
    playing: str | None = None  # why its board is playing it, when it is

    @property
    def started(self) -> bool:
        return self.outcome is not None or self.playing is not None


@dataclass
class Replayed:
    """A game of the replay: its players as the engine lists them, its round and code (the
    engine's, or None for the hakukaavio), the stored match it is (None: a new game), and
    the number of results entered before it was drawn (0: the opening)."""

    first: int
    second: int
    round: int
    code: str | None
    stored: int | None
    after: int
    forced: bool = False


@dataclass
class Replay:
    games: list[Replayed] = field(default_factory=list)  # in the order they were drawn
    entered: list[int] = field(default_factory=list)  # stored ids, in the order entered
    engine: Any = None
    made: list[tuple[Any, Replayed]] = field(default_factory=list)  # hakukaavio: its games

    def of(self, stored_id: int) -> Replayed | None:
        return next((g for g in self.games if g.stored == stored_id), None)


def replay(engine: Any, stored: list[Stored], numbers: dict[int, int],
           forced: dict[int, Force], manual: dict | None = None) -> Replay:
    """The games `engine` (fresh) draws from `stored`'s outcomes. `forced`: stored id ->
    (the stored id of the result after which its game is made, None: at the opening; the
    games each of its players had before it, or None), made at that result or as soon as the
    draw would give one of its players that game's place, whichever comes first.
    `manual`: the director's pairings (night/pairing.py), stored id -> (that result's stored
    id, the [player id, player id, round] of the games it replaced): made after that
    result's draw, as they were, the draw run again after each."""
    if isinstance(engine, Hakukaavio):
        return _Hakukaavio(engine, stored, numbers, forced, manual or {}).run()
    return _by_code(engine, stored, numbers)


def _entry_order(stored: Stored) -> tuple:
    return (stored.entered is None, stored.entered or 0, stored.seq)


class _Hakukaavio:
    def __init__(self, engine: Hakukaavio, stored: list[Stored], numbers: dict[int, int],
                 forced: dict[int, Force], manual: dict) -> None:
        self.engine, self.numbers = engine, numbers
        self.ids = {n: pid for pid, n in numbers.items()}
        self.by_id = {s.id: s for s in stored}
        self.stored = stored
        self.forced = dict(forced)
        self.manual = dict(manual)
        self.out = Replay(engine=engine)
        self.made = self.out.made  # (engine game, its row)
        for game in engine.games:
            if game.second is not None:
                self._made(game, 0)

    def _made(self, game: Any, after: int, stored: int | None = None,
              forced: bool = False) -> None:
        row = Replayed(self.ids[game.first], self.ids[game.second], game.round, None, stored,
                       after, forced)
        self.made.append((game, row))
        self.out.games.append(row)

    def run(self) -> Replay:
        self._force(None)
        self._pair(None)
        todo = sorted((s for s in self.stored if s.outcome is not None), key=_entry_order)
        while True:
            found = next(((s, g) for s in todo for g in [self._game_of(s)] if g is not None),
                         None)
            if found is not None:
                todo.remove(found[0])
                self._enter(found[0], found[1])
                continue
            if not self.forced and not self.manual:
                break
            for stored_id in list(self.forced):  # their drawing result never came
                self._create(stored_id)
            for stored_id in list(self.manual):
                if stored_id in self.manual:
                    self._pair(self.manual[stored_id][0])
        self._pair_the_rest()
        return self.out

    def _game_of(self, stored: Stored) -> Any:
        """The unfinished game the stored match is: the one made for it, else the first
        drawn between its players that no stored match is yet."""
        pair = {self.numbers[p] for p in stored.players}
        for game, row in self.made:
            if row.stored == stored.id:
                return game if game.result is None and self._in_order(game) else None
        for game, row in self.made:
            if row.stored is None and game.result is None and {game.first, game.second} == pair:
                return game if self._in_order(game) else None
        return None

    def _in_order(self, game: Any) -> bool:
        """Neither player has an earlier game (by his own rounds) still to play: a result is
        not entered past a game the replay drew before it."""
        return not any(g is not game and g.result is None and p in g.players()
                       and g.own_round(p) < game.own_round(p)
                       for p in game.players() for g in self.engine.games)

    def _enter(self, stored: Stored, game: Any) -> None:
        row = next(r for g, r in self.made if g is game)
        row.stored = stored.id
        outcome = stored.outcome or ()
        if outcome[0] == "both_lose":
            game.result = 0
        else:
            game.result = 1 if self.numbers[outcome[1]] == game.first else 2
            one, two = outcome[2]
            flipped = self.numbers[stored.players[0]] != game.first
            game.points = (two, one) if flipped else (one, two)
        game.started = True
        self.out.entered.append(stored.id)
        self._force(stored.id)
        self._draw()
        self._pair(stored.id)

    def _pair(self, trigger: int | None) -> None:
        """The director's pairings made after `trigger`'s result and draw: the games they
        replaced taken out, the pair made, the draw run again (as pair_game did)."""
        for stored_id, (after, replaced) in list(self.manual.items()):
            if after != trigger:
                continue
            del self.manual[stored_id]
            found = [next(((g, r) for g, r in self.made if r.stored is None and g.result is None
                           and g.round == round_ and {g.first, g.second} == {
                               self.numbers[a], self.numbers[b]}), None)
                     for a, b, round_ in replaced]
            if None in found:  # the draw made other games here: the pairing is not made
                continue
            a, b = (self.numbers[p] for p in self.by_id[stored_id].players)
            gone = [game for game, _row in found]  # type: ignore[misc]
            own = [1 + sum(1 for g in self.engine.games if p in g.players() and g not in gone)
                   for p in (a, b)]
            if max(own) != self.by_id[stored_id].round or not all(
                    self.engine.drawable(p) for p in (a, b)):
                continue  # (not as it was made: another round, or a player out by now)
            for game, row in found:  # type: ignore[misc]
                self.engine.games.remove(game)
                self.made.remove((game, row))
                self.out.games.remove(row)
            self._made(self.engine._create(a, b), len(self.out.entered), stored_id, True)
            for new in self.engine.run_draw():
                self._made(new, len(self.out.entered))

    def _draw(self) -> None:
        """The draw run after a result. A kept game comes in when the draw would give one of
        its players his game in its place (the own round it had): the draw is taken back,
        the kept game made, and the draw run again."""
        while True:
            before = list(self.engine.games)
            new = self.engine.run_draw()
            due = [stored_id for stored_id, (_after, needs) in self.forced.items()
                   if needs and any(self.ids[p] in needs and g.own_round(p) == needs[
                       self.ids[p]] + 1 for g in new for p in g.players())]
            if not due:
                break
            self.engine.games = before
            for stored_id in due:
                self._create(stored_id)
        for game in new:
            self._made(game, len(self.out.entered))

    def _force(self, trigger: int | None) -> None:
        for stored_id, (after, _needs) in list(self.forced.items()):
            if after == trigger:
                self._create(stored_id)

    def _create(self, stored_id: int) -> None:
        del self.forced[stored_id]
        a, b = (self.numbers[p] for p in self.by_id[stored_id].players)
        self._made(self.engine._create(a, b), len(self.out.entered), stored_id, True)

    def _pair_the_rest(self) -> None:
        """Stored matches with no result take the first free game of their pair (one with a
        result that could not be entered is not in the draw: it is played out of order)."""
        for stored in sorted(self.stored, key=lambda s: s.seq):
            if stored.outcome is not None or any(r.stored == stored.id for r in self.out.games):
                continue
            pair = set(stored.players)
            row = next((r for r in self.out.games if r.stored is None
                        and {r.first, r.second} == pair), None)
            if row is not None:
                row.stored = stored.id
        for game, row in self.made:  # the round as drawn (a forced game moves own rounds)
            row.round = game.round


def _by_code(engine: Any, stored: list[Stored], numbers: dict[int, int]) -> Replay:
    """A double or groups: results entered into the game of the same code and players."""
    ids = {n: pid for pid, n in numbers.items()}
    out = Replay(engine=engine)
    seen: set[str] = set()

    def note(after: int) -> None:
        for game in _games(engine):
            if game["code"] not in seen:
                seen.add(game["code"])
                out.games.append(Replayed(ids[game["first"]], ids[game["second"]],
                                          game["round"], game["code"], None, after))

    note(0)
    by_code = {s.code: s for s in stored}
    todo = sorted((s for s in stored if s.outcome and s.outcome[0] == "win"),
                  key=lambda s: s.seq)
    progress = True
    while progress:
        progress = False
        for game in [g for g in _games(engine) if g["winner"] is None]:
            s = by_code.get(game["code"])
            if s is None or s not in todo or {ids[game["first"]], ids[game["second"]]} != set(
                    s.players):
                continue
            todo.remove(s)
            a, b = (numbers[p] for p in s.players)
            winner = numbers[s.outcome[1]]  # type: ignore[index]
            if hasattr(engine, "standings"):  # groups: the score feeds the tie-breaks
                engine.record(a, b, winner, s.outcome[2])  # type: ignore[index]
            else:
                engine.record(a, b, winner)
            out.entered.append(s.id)
            note(len(out.entered))
            progress = True
            break
    for row in out.games:
        s = by_code.get(row.code or "")
        if s is not None and set(s.players) == {row.first, row.second}:
            row.stored = s.id
    return out


def _games(engine: Any) -> list[dict]:
    games = engine.games() if callable(engine.games) else engine.games
    return [g for g in games if g["second"] is not None]


def keep_problem(run: Replay, stored: dict[int, Stored], names: dict[int, str]) -> str | None:
    """Why the hakukaavio replayed with kept games is not a valid draw (a player plays on
    after going out: a kept game after his second loss, or a loss in it that is his third),
    or None (night/how.py's way out where voiding them is named)."""
    engine = run.engine
    knockout = engine.knockout if engine.knockout is not None else NEVER
    code = {id(game): stored[row.stored].code if row.stored is not None else _("a new game")
            for game, row in run.made}
    for game, row in run.made:
        for number in game.players():
            player = names.get(row.first if number == game.first else row.second)
            out = _out_before(engine, number, game, knockout)
            if out is not None:
                return _("keeping them would have %(player)s play %(match)s after going out "
                         "in %(out)s; void them (%(how)s)") % {
                    "player": player, "match": code[id(game)],
                    "out": code.get(id(out), _("a walkover")), "how": way("void_played")}
            kept = row.forced and row.stored is not None and stored[row.stored].outcome
            if game.result is not None or kept:
                unplayed = _unplayed_before(engine, number, game)
                if unplayed is not None:
                    return _("keeping them would leave %(player)s's %(unplayed)s, not played, "
                             "before %(match)s, which was; void them (%(how)s)") % {
                        "player": player, "unplayed": code.get(id(unplayed), _("game")),
                        "match": code[id(game)], "how": way("void_played")}
    return None


def _unplayed_before(engine: Any, number: int, game: Any) -> Any:
    return next((g for g in engine.games if g.result is None and number in g.players()
                 and g.own_round(number) < game.own_round(number)), None)


def _out_before(engine: Any, number: int, game: Any, knockout: int) -> Any:
    """The game that put `number` out before his own round in `game`, or None."""
    losses = 0
    for earlier in sorted((g for g in engine.games if number in g.players()),
                          key=lambda g: g.own_round(number)):
        if earlier.own_round(number) >= game.own_round(number):
            return None
        if number in earlier.losers():
            losses += 1
            if losses >= 2 or earlier.own_round(number) >= knockout:
                return earlier
    return None
