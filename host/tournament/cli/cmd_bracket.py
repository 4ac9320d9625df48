"""`pilkku bracket`: a drawn format (double, groups, hakukaavio) as the players see it — every
round's games with their results or tables, who went out, who is still in, and the ranking
(the standings so far, then the final ranking: the same as `pilkku standings`). --json gives
the same as data (names, not numbers) for pages (host/tournament/night/bracket.py)."""

from __future__ import annotations

import argparse
import json
import sys

from host.games import GAME_NAMES, POINT_GAMES
from host.tournament.cli.console import current, render_table, say_problems
from host.tournament.night.bracket import view
from host.tournament.store import Store


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
    unit = "points" if t["game"] in POINT_GAMES else "racks"
    print("\n" + ranking_table(drawn["title"], drawn["placings"], unit))
    return say_problems(store.results.problems(t["id"]))


def ranking_table(title: str, rows: list[dict], unit: str) -> str:
    """The ranking as text, under its title ("final ranking" or "standings so far"); a
    shared place repeats its number, a withdrawn player is marked."""
    columns = ["place", "player", "played", "won", "lost", unit + " for", "against", "diff"]
    outs = any(r["out"] for r in rows)
    table = [[r["place"], r["player"] + (" (withdrawn)" if r["withdrawn"] else ""),
              r["played"], r["won"], r["lost"], r["for"], r["against"], r["difference"]]
             + ([r["out"] or ""] if outs else []) for r in rows]
    return "%s%s:\n%s" % (title[0].upper(), title[1:], render_table(
        columns + (["out"] if outs else []), table))


def _line(g: dict) -> list:
    if g["winner"] is not None:
        return [g["match"], g["player1"], "%d:%d" % (g["score1"], g["score2"]), g["player2"],
                "%s won" % g["winner"]]
    where = "at table %d" % g["table"] if g["table"] else "waiting"
    return [g["match"], g["player1"], "-", g["player2"], where]
