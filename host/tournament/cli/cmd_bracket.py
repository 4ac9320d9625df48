"""`pilkku bracket`: a drawn format (double, groups, hakukaavio) as the players see it — every
round's games with their results or tables, who went out, who is still in, and the placings
once it has ended. --json gives the same as data (names, not numbers) for pages."""

from __future__ import annotations

import argparse
import json
import sys

from host.games import GAME_NAMES
from host.tournament import night
from host.tournament.cli.console import current, render_table, say_problems
from host.tournament.formats import ENGINES
from host.tournament.formats.groups import Groups
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.store import Store, StoreError

STAGES = {"W": "Winners' round %s", "L": "Losers' round %s", "K": "Knockout round %s"}


def _stage(fmt: str, match: dict) -> str:
    code = match["code"]
    if fmt == "hakukaavio":
        return "Round %d" % match["round"]
    if code.startswith("F-"):
        return "Grand final" if code == "F-1" else "Grand final, bracket reset"
    if code[0] in STAGES and (fmt == "double" or code[0] == "K"):
        return STAGES[code[0]] % code[1:].split("-")[0]
    return "Group %s, round %s" % (code[0], code.split("-")[1])


def _describe(fmt: str, engine, names: dict) -> str:
    if fmt == "hakukaavio":
        kind = ("one loss out from round %d" % engine.knockout if engine.knockout
                else "two losses out, to the end")
        return "hakukaavio (%s), %d players" % (kind, engine.count)
    if fmt == "double":
        return "double elimination%s, %d players" % (
            "" if engine.reset else " (no bracket reset)", engine.count)
    return "%d groups, top %d to the knockout, %d players" % (
        len(engine.groups), engine.advance, engine.count)


def view(store: Store, t: dict) -> dict:
    """The draw as data, names not numbers (`pilkku bracket --json`, the hall's pages)."""
    if t["format"] not in ENGINES:
        raise StoreError("`pilkku bracket` shows a double, groups or hakukaavio draw; this "
                         "tournament is %s: see `pilkku standings`"
                         % (t["format"] or "not drawn yet").replace("_", " "))
    engine, numbers = night.engine_of(store, t["id"])
    names = {numbers[p["id"]]: p["name"] for p in store.players.all(t["id"]) if p["id"] in numbers}
    stages: dict[str, list[dict]] = {}
    for m in store.matches.all(t["id"]):
        stages.setdefault(_stage(t["format"], m), []).append(m)
    outs = _outs(t["format"], engine, names)
    finished = engine.finished()
    placings = [{"place": r["place"], "player": names[r["player"]]}
                for r in engine.placings()] if finished else []
    alive = [names[p] for p in engine.players_in()] if isinstance(engine, Hakukaavio) else []
    return {"tournament": t["name"], "format": t["format"],
            "description": _describe(t["format"], engine, names),
            "rounds": [{"stage": stage, "games": [_game(m) for m in games],
                        "out": outs.get(stage, [])} for stage, games in stages.items()],
            "in": alive, "finished": finished,
            "winner": names.get(engine.winner()) if finished else None,
            "placings": placings, "groups": _groups(engine, names)}


def bracket(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    drawn = view(store, t)
    if args.json:
        del drawn["description"]
        print(json.dumps(drawn, indent=2, ensure_ascii=False))
        return say_problems(store.results.problems(t["id"]), sys.stderr)
    print("%s: %s, race to %d, %s" % (t["name"], GAME_NAMES[t["game"]], t["race_to"],
                                       drawn["description"]))
    for group in drawn["groups"]:
        print("\nGroup %s" % group["name"])
        print(render_table(["rank", "player", "won", "lost", "diff"],
                           [[r["rank"], r["player"], r["won"], r["lost"], r["difference"]]
                            for r in group["standings"]]))
    for stage in drawn["rounds"]:
        print("\n" + stage["stage"])
        print(render_table(["match", "player1", "score", "player2", "result"],
                           [_line(g) for g in stage["games"]]))
        if stage["out"]:
            print("out: " + ", ".join(stage["out"]))
    if drawn["in"] and not drawn["finished"]:
        print("\nStill in: " + ", ".join(drawn["in"]))
    if drawn["placings"]:
        print("\nPlacings")
        print(render_table(["place", "player"],
                           [[r["place"], r["player"]] for r in drawn["placings"]]))
    return say_problems(store.results.problems(t["id"]))


def _game(m: dict) -> dict:
    return {"match": m["code"], "round": m["round"], "player1": m["player1"],
            "player2": m["player2"], "score1": m["score1"], "score2": m["score2"],
            "winner": m["winner"], "table": m["table"]}


def _line(g: dict) -> list:
    if g["winner"] is not None:
        return [g["match"], g["player1"], "%d:%d" % (g["score1"], g["score2"]), g["player2"],
                "%s won" % g["winner"]]
    where = "at table %d" % g["table"] if g["table"] else "waiting"
    return [g["match"], g["player1"], "-", g["player2"], where]


def _outs(fmt: str, engine, names: dict) -> dict[str, list[str]]:
    """Stage name -> the players who went out in it."""
    outs: dict[str, list[str]] = {}
    if isinstance(engine, Hakukaavio):
        for r in engine.view()["rounds"]:
            if r["out"]:
                outs["Round %d" % r["round"]] = [names[p] for p in r["out"]]
    elif fmt == "double":
        for row in engine.placings():
            if row["out"] and row["out"][0] == "losers":
                outs.setdefault(STAGES["L"] % row["out"][1], []).append(names[row["player"]])
    return outs


def _groups(engine, names: dict) -> list[dict]:
    if not isinstance(engine, Groups):
        return []
    view = engine.view()["groups"]
    return [{"name": g["name"], "standings": [dict(r, player=names[r["player"]])
                                               for r in g["standings"]]} for g in view]
