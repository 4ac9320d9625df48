"""`pilkku players add NAME [--club C]`: a player entered after the draw (a late entry). The
night does the work (host/tournament/night/entries.py)."""

from __future__ import annotations

import argparse

from host.i18n import _
from host.tournament.cli.console import current, run
from host.tournament.night.entries import add_late_player
from host.tournament.store import Store


def players_add(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    done = add_late_player(store, t["id"], args.name, args.club or "")
    print(_("%(player)s added to '%(name)s'.") % {"player": done["player"], "name": t["name"]})
    if done["removed"]:
        print(_("Games not started drawn again: %(gone)s gone; %(new)s new.")
              % {"gone": ", ".join(done["removed"]), "new": ", ".join(done["added"]) or _("none")})
    elif done["added"]:
        print(_("Their matches: %(matches)s.") % {"matches": ", ".join(done["added"])})
    elif store.matches.any(t["id"]):
        print(_("Their matches: add them with pilkku matches import FILE."))
    return 0


def add_command(actions, common) -> None:
    """`players add` on the `players` subcommand's actions."""
    add = actions.add_parser(
        "add", parents=[common(nested=True)], help=_("enter one player, also after the draw"),
        description=_("Add one player (seeded last). After the draw: a round robin gives them a "
                    "match against everyone (in the rounds' byes first); a hakukaavio draws "
                    "them into the games not started, until the first round-2 game starts "
                    "(late entries, as in KaisaKaavio); an imported list takes them (import "
                    "their matches); a bracket, a double or groups refuse (seeded once)."))
    add.add_argument("name", metavar="NAME", help=_("the player's name"))
    add.add_argument("--club", help=_("their club"))
    add.set_defaults(func=run(players_add))
