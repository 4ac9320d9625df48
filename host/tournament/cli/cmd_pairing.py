"""`pilkku opponent MATCH NAME --instead-of PLAYER --reason TEXT [--yes]`: a hakukaavio game
not yet started given another opponent by the director. The night does the work and checks
the search's rules (host/tournament/night/pairing.py); `results --history` lists the pairings."""

from __future__ import annotations

import argparse

from host.tournament.cli.console import current, run
from host.tournament.night.pairing import pair_game, pairings
from host.tournament.store import Store


def opponent(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    done = pair_game(store, t["id"], args.match, args.name, args.instead_of, args.reason,
                     confirm=args.yes)
    names = {p["id"]: p["name"] for p in store.players.all(t["id"])}
    match = store.matches.get(t["id"], args.match)
    print("%s: %s vs %s (paired by the director instead of %s)."
          % (args.match, names[match["player1_id"]], names[match["player2_id"]],
             args.instead_of))
    for breach in done["overridden"]:
        print("  set aside: %s" % breach)
    if len(done["gone"]) > 1:
        print("%s's game %s is taken out." % (args.name, done["gone"][1]))
    print("The draw: %s." % ("%d new game(s)" % done["drawn"] if done["drawn"] else
                             "no new game yet: it pairs the players left without a game "
                             "when it can"))
    return 0


def pairing_rows(store: Store, tournament_id: int) -> list[dict]:
    """The director's pairings as `results --history --json` lists them after the results
    (kind "pairing"), oldest first."""
    names = {p["id"]: p["name"] for p in store.players.all(tournament_id)}
    return [{"kind": "pairing", "match": p["match"],
             "players": [names.get(pid, "?") for pid in p["players"]],
             "instead_of": p["instead_of"], "who": p["who"], "at": p["at"],
             "reason": p["reason"], "overridden": p["overridden"]}
            for p in pairings(store, tournament_id)]


def pairing_lines(store: Store, tournament_id: int) -> list[str]:
    """The history's lines for the director's pairings, oldest first."""
    names = {p["id"]: p["name"] for p in store.players.all(tournament_id)}
    return ["%s: %s paired by %s instead of %s, %s: %s%s" % (
        p["match"], " vs ".join(names.get(pid, "?") for pid in p["players"]), p["who"],
        p["instead_of"], p["at"], p["reason"],
        " (set aside: %s)" % "; ".join(p["overridden"]) if p["overridden"] else "")
        for p in pairings(store, tournament_id)]


def add_commands(sub, common) -> None:
    """Register `opponent`; `common(...)` makes --db/--tournament."""
    cmd = sub.add_parser(
        "opponent", parents=[common()], help="hakukaavio: give a game not started another "
        "opponent (a manual pairing)",
        description="NAME plays hakukaavio game MATCH (not started) instead of PLAYER. The "
                    "search's rules are checked first and every breach named: never a game "
                    "started or decided, or not the last drawn for each of its players, a "
                    "player who is out or is playing another game, or a player twice in a "
                    "round; a rematch, another round, own rounds more "
                    "than one apart or an earlier game of NAME still to play only with --yes. "
                    "NAME's own unstarted game in that round is taken out; the draw gives "
                    "PLAYER and NAME's old opponent their games by its rules. Kept with who, "
                    "why and when (pilkku results --history).")
    cmd.add_argument("match", help="the game's id, e.g. R3-02")
    cmd.add_argument("name", help="the player who plays it now")
    cmd.add_argument("--instead-of", required=True, metavar="PLAYER",
                     help="the player of MATCH whom NAME replaces")
    cmd.add_argument("--reason", required=True, help="why (kept with it)")
    cmd.add_argument("--yes", action="store_true",
                     help="pair them even though a rule the director may set aside says not "
                          "to (a rematch, say)")
    cmd.set_defaults(func=run(opponent))
