"""`pilkku bracket`: a drawn format (double, groups, hakukaavio) as the players see it — every
round's games with their results or tables, who went out, who is still in, and the ranking
(the standings so far, then the final ranking: the same as `pilkku standings`). --json gives
the same as data (names, not numbers) for pages (host/tournament/night/bracket.py)."""

from __future__ import annotations

import argparse
import json
import sys

from host.games import GAME_NAMES, POINT_GAMES
from host.hall.words import shown as said
from host.i18n import _, pgettext
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
    print(_("%(name)s: %(game)s, race to %(race)d, %(format)s") % {
        "name": t["name"], "game": _(GAME_NAMES[t["game"]]), "race": t["race_to"],
        "format": said(drawn["description"])})
    for group in drawn["groups"]:
        print("\n" + _("Group %(name)s") % {"name": group["name"]})
        print(render_table(["rank", "player", "won", "lost", "diff"],
                           [[r["rank"], r["player"], r["won"], r["lost"], r["difference"]]
                            for r in group["standings"]]))
    for stage in drawn["rounds"]:
        print("\n" + str(said(stage["stage"])))
        print(render_table(["match", "player1", "score", "player2",
                            pgettext("a game's outcome", "result")],
                           [_line(g) for g in stage["games"]]))
        if stage["out"]:
            print(_("out: %(players)s") % {"players": ", ".join(stage["out"])})
    if drawn["in"] and not drawn["finished"]:
        print("\n" + _("Still in: %(players)s") % {"players": ", ".join(drawn["in"])})
    unit = "points" if t["game"] in POINT_GAMES else "racks"
    print("\n" + ranking_table(drawn["title"], drawn["placings"], unit))
    return say_problems(store.results.problems(t["id"]))


def ranking_table(title: str, rows: list[dict], unit: str) -> str:
    """The ranking as text, under its title ("final ranking" or "standings so far"); a
    shared place repeats its number, a withdrawn player is marked."""
    columns = ["place", "player", "played", "won", "lost", unit + " for", "against", "diff"]
    outs = any(r["out"] for r in rows)
    table = [[r["place"], r["player"] + (" " + _("(withdrawn)") if r["withdrawn"] else ""),
              r["played"], r["won"], r["lost"], r["for"], r["against"], r["difference"]]
             + ([str(said(r["out"])) if r["out"] else ""] if outs else []) for r in rows]
    title = str(said(title))
    return "%s%s:\n%s" % (title[0].upper(), title[1:], render_table(
        columns + (["out"] if outs else []), table))


def _line(g: dict) -> list:
    if g["winner"] is not None:
        return [g["match"], g["player1"], "%d:%d" % (g["score1"], g["score2"]), g["player2"],
                _("%(player)s won") % {"player": g["winner"]}]
    where = (_("at table %(table)d") % {"table": g["table"]} if g["table"]
             else pgettext("match", "waiting"))
    return [g["match"], g["player1"], "-", g["player2"], where]
