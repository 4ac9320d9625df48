"""`pilkku opponent MATCH NAME --instead-of PLAYER --reason TEXT [--yes]`: a hakukaavio game
not yet started given another opponent by the director. The night does the work and checks
the search's rules (host/tournament/night/pairing.py); `results --history` lists the pairings."""

from __future__ import annotations

import argparse

from host.i18n import N_, _, ngettext
from host.tournament.cli.console import current, run
from host.tournament.night.pairing import pair_game, pairings
from host.tournament.store import Store

WHO = {"the director": N_("the director")}  # who paired them, as written (night/pairing.py)


def opponent(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    done = pair_game(store, t["id"], args.match, args.name, args.instead_of, args.reason,
                     confirm=args.yes)
    names = {p["id"]: p["name"] for p in store.players.all(t["id"])}
    match = store.matches.get(t["id"], args.match)
    print(_("%(match)s: %(player1)s vs %(player2)s (paired by the director instead of "
            "%(player)s).") % {"match": args.match, "player1": names[match["player1_id"]],
                               "player2": names[match["player2_id"]], "player": args.instead_of})
    for breach in done.get("overridden_said", done["overridden"]):
        print("  " + _("set aside: %(rules)s") % {"rules": breach})
    if len(done["gone"]) > 1:
        print(_("%(player)s's game %(match)s is taken out.") % {"player": args.name,
                                                               "match": done["gone"][1]})
    print(_("The draw: %(changes)s.") % {"changes": ngettext(
        "%(num)d new game", "%(num)d new games", done["drawn"]) % {"num": done["drawn"]}
        if done["drawn"] else _("no new game yet: it pairs the players left without a game "
                                "when it can")})
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
    return [_("%(match)s: %(players)s paired by %(who)s instead of %(player)s, %(when)s: "
              "%(reason)s") % {
        "match": p["match"], "players": (" " + _("vs") + " ").join(
            names.get(pid, "?") for pid in p["players"]), "who": _(WHO.get(p["who"], p["who"])),
        "player": p["instead_of"], "when": p["at"], "reason": p["reason"]}
        + (" (" + _("set aside: %(rules)s") % {"rules": "; ".join(p["overridden"])} + ")"
           if p["overridden"] else "")
        for p in pairings(store, tournament_id)]


def add_commands(sub, common) -> None:
    """Register `opponent`; `common(...)` makes --db/--tournament."""
    cmd = sub.add_parser(
        "opponent", parents=[common()], help=_("hakukaavio: give a game not started another "
        "opponent (a manual pairing)"),
        description=_("NAME plays hakukaavio game MATCH (not started) instead of PLAYER. The "
                    "search's rules are checked first and every breach named: never a game "
                    "started or decided, or not the last drawn for each of its players, a "
                    "player who is out or is playing another game, or a player twice in a "
                    "round; a rematch, another round, own rounds more "
                    "than one apart or an earlier game of NAME still to play only with --yes. "
                    "NAME's own unstarted game in that round is taken out; the draw gives "
                    "PLAYER and NAME's old opponent their games by its rules. Kept with who, "
                    "why and when (pilkku results --history)."))
    cmd.add_argument("match", metavar="MATCH", help=_("the game's id, e.g. R3-02"))
    cmd.add_argument("name", metavar="NAME", help=_("the player who plays it now"))
    cmd.add_argument("--instead-of", required=True, metavar="PLAYER",
                     help=_("the player of MATCH whom NAME replaces"))
    cmd.add_argument("--reason", required=True, help=_("why (kept with it)"))
    cmd.add_argument("--yes", action="store_true",
                     help=_("pair them even though a rule the director may set aside says not "
                          "to (a rematch, say)"))
    cmd.set_defaults(func=run(opponent))
