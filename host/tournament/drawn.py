"""The formats an engine draws as results arrive — double elimination, groups into a knockout,
the hakukaavio (docs/formats.md) — kept in the store: the plan chosen at `tournament new`, the
opening drawn from the players, and after every result the engine rebuilt from the stored
matches and its new games stored (then the free tables take them as usual).

    store.plan_format(tournament_id, format, options)   # at `pilkku tournament new --format`
    store.format_plan(tournament_id) -> {"format": ..., options..., "numbers": {...}}
    store.generate_drawn(tournament_id) -> int          # the opening, format set
    store.drawn(tournament_id) -> (engine, {player id: number})   # for `pilkku bracket`
"""

from __future__ import annotations

import json
import random
from typing import Any

from host.tournament.corrections import Corrections
from host.tournament.double import Double
from host.tournament.groups import Groups
from host.tournament.hakukaavio import Hakukaavio, OpeningFailed
from host.tournament.hakukaavio_places import numbering
from host.tournament.schema import StoreError, dicts

ENGINES = ("double", "groups", "hakukaavio")
FORMATS = ("round_robin", "single") + ENGINES


def make_engine(name: str, count: int, options: dict) -> Any:
    """The engine of `name` for `count` players; ValueError says what is wrong."""
    if name == "double":
        return Double(count, reset=options.get("reset", True))
    if name == "groups":
        return Groups(count, options.get("groups", 2), options.get("advance", 2))
    return Hakukaavio(count, options.get("knockout_from"), options.get("seeds", 0),
                      options.get("placings", "default"))


class Drawn(Corrections):
    # Store (store.py) defines these two; declared here for the type checker.
    def _players_for_draw(self, tournament_id: int, what: str) -> list[int]:
        raise NotImplementedError

    def _insert_match(self, tournament_id: int, match: dict) -> int:
        raise NotImplementedError

    def plan_format(self, tournament_id: int, name: str, options: dict) -> None:
        if name not in FORMATS:
            raise StoreError("--format: one of %s" % ", ".join(FORMATS))
        with self.transaction():
            self.conn.execute("UPDATE tournaments SET format_options = ? WHERE id = ?",
                              (json.dumps(dict(options, format=name)), tournament_id))

    def format_plan(self, tournament_id: int) -> dict:
        row = self.conn.execute("SELECT format_options FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        return json.loads(row[0]) if row else {}

    def generate_drawn(self, tournament_id: int) -> int:
        """Draw the opening of the planned engine format from the players (seed order)."""
        plan = self.format_plan(tournament_id)
        name = plan.get("format")
        if name not in ENGINES:
            raise StoreError("this tournament has no double, groups or hakukaavio plan: "
                             "start it with `pilkku tournament new NAME --format ...`")
        with self.transaction():
            players = self._players_for_draw(tournament_id, name)
            try:
                engine = make_engine(name, len(players), plan)
            except OpeningFailed as failed:
                raise StoreError("the 24-seed opening fails for %d players (%s); seed 1 to 8 "
                                 "players instead (--seeds N)" % (len(players), failed)) from None
            except ValueError as bad:
                raise StoreError("%s: %s" % (name, bad)) from None
            order = list(range(1, len(players) + 1))
            if name == "hakukaavio":  # the number draw (§2, §11): seeds placed, others random
                order = numbering(len(players), plan.get("seeds", 0), random.SystemRandom())
            plan["numbers"] = {str(pid): n for pid, n in zip(players, order, strict=True)}
            self.conn.execute("UPDATE tournaments SET format_options = ?, format = ? WHERE "
                              "id = ?", (json.dumps(plan), name, tournament_id))
            return self._store_new_games(tournament_id, engine, plan)

    def drawn(self, tournament_id: int) -> tuple[Any, dict[int, int]]:
        """The engine as the stored matches and results leave it, and player id -> number."""
        plan = self.format_plan(tournament_id)
        numbers = {int(k): v for k, v in plan.get("numbers", {}).items()}
        engine = make_engine(plan["format"], len(numbers), plan)
        rows = dicts(self.conn.execute(
            "SELECT code, round, player1_id, player2_id, winner_id, score1, score2 FROM "
            "matches WHERE tournament_id = ? ORDER BY seq", (tournament_id,)))
        try:
            if isinstance(engine, Hakukaavio):
                engine.load([(numbers[r["player1_id"]], numbers[r["player2_id"]], r["round"],
                              numbers.get(r["winner_id"]), (r["score1"] or 0, r["score2"] or 0))
                             for r in rows])
            else:
                for r in rows:
                    if r["winner_id"] is not None:
                        a, b = numbers[r["player1_id"]], numbers[r["player2_id"]]
                        if isinstance(engine, Groups):
                            engine.record(a, b, numbers[r["winner_id"]],
                                          (r["score1"] or 0, r["score2"] or 0))
                        else:
                            engine.record(a, b, numbers[r["winner_id"]])
        except (ValueError, KeyError) as bad:
            raise StoreError("the stored matches do not follow the %s draw (%s): was a result "
                             "changed after later games were drawn?" % (plan["format"], bad)) \
                from None
        return engine, numbers

    def _refuse_if_next_played(self, match: dict, slot: int) -> None:
        """A corrected result the draw has gone on from cannot be undone here: a changed winner
        once a later game of either player is drawn, a group score once the knockout is."""
        super()._refuse_if_next_played(match, slot)
        name = self.format_plan(match["tournament_id"]).get("format")
        if name not in ENGINES or not self.format_plan(match["tournament_id"]).get("numbers"):
            return
        later = self._one(
            "SELECT code FROM matches WHERE tournament_id = ? AND seq > ? AND (player1_id IN "
            "(?, ?) OR player2_id IN (?, ?)) ORDER BY seq LIMIT 1", match["tournament_id"],
            match["seq"], match["player1_id"], match["player2_id"], match["player1_id"],
            match["player2_id"])
        knockout = name == "groups" and not match["code"].startswith("K") and self._one(
            "SELECT code FROM matches WHERE tournament_id = ? AND code LIKE 'K%' LIMIT 1",
            match["tournament_id"])
        changed = match["player%d_id" % slot] != match["winner_id"]
        blocking = knockout or (later if changed else None)
        if blocking:
            raise StoreError("the %s was drawn on from %s's result (%s came after it); it "
                             "cannot be changed now" % (name, match["code"], blocking["code"]))

    def _after_result(self, tournament_id: int) -> None:
        super()._after_result(tournament_id)
        plan = self.format_plan(tournament_id)
        if plan.get("format") in ENGINES and plan.get("numbers"):
            engine, _numbers = self.drawn(tournament_id)
            if isinstance(engine, Hakukaavio):
                engine.run_draw()  # §5: the draw runs after every result
            if self._store_new_games(tournament_id, engine, plan):
                # A new game may be between players who have withdrawn (a double's walkover
                # losers meet in the losers' bracket): decided now, not left at a table.
                super()._after_result(tournament_id)

    def _store_new_games(self, tournament_id: int, engine: Any, plan: dict) -> int:
        """Insert the engine's games the store does not hold yet; returns how many."""
        ids = {n: int(pid) for pid, n in plan["numbers"].items()}
        stored = dicts(self.conn.execute(
            "SELECT code, round, player1_id, player2_id FROM matches WHERE tournament_id = ?",
            (tournament_id,)))
        known = {(r["round"], r["player1_id"], r["player2_id"]) for r in stored}
        codes = {r["code"] for r in stored}
        added = 0
        for game in _engine_games(engine):
            row = (game["round"], ids[game["first"]], ids[game["second"]])
            if game.get("code") in codes or ("code" not in game and row in known):
                continue
            code = game.get("code") or _next_code(codes, game["round"])
            codes.add(code)
            self._insert_match(tournament_id, {"code": code, "round": game["round"],
                                               "player1": row[1], "player2": row[2]})
            added += 1
        return added


def _engine_games(engine: Any) -> list[dict]:
    """Every game both of whose players are known, in the engine's creation order."""
    if isinstance(engine, Hakukaavio):
        return [g.as_dict() for g in engine.games if g.second is not None]
    if isinstance(engine, Double):
        return engine.games()
    return [dict(g) for g in engine.games]


def _next_code(codes: set, round_: int) -> str:
    number = 1
    while "R%d-%02d" % (round_, number) in codes:
        number += 1
    return "R%d-%02d" % (round_, number)
