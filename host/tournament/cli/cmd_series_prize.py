"""`pilkku prize` (a tournament's prize money: host/season/prize.py) and `pilkku post` (its
invitation or results as text to paste: host/season/post.py)."""

from __future__ import annotations

import argparse
import json

from host.arguments import whole
from host.i18n import N_, _
from host.season import post, prize
from host.tournament.cli.cmd_series_people import show
from host.tournament.cli.console import current, run
from host.tournament.night.ranking import standings
from host.tournament.store import Store, StoreError

TEXT = {  # (N_: said in the CLI's language where used)
    "pot": N_("Pot: %(players)d x %(fee)s = %(pot)s"),
    "federation": N_("Federation %(percent)d %%: %(amount)s"),
    "organiser": N_("Organiser %(percent)d %%: %(amount)s, and the rounding's remainder "
                    "%(remainder)s: %(total)s in all"),
    "rule": N_("(each amount rounded down to %(unit)s; players sharing a place share its "
               "places' sums; what the rounding leaves goes to the organiser)"),
    "so_far": N_("(by the standings so far: the tournament has not ended)"),
    "saved": N_("Kept with the tournament."),
    "saved_printed": N_("Kept with the tournament; the final ranking's printout shows it."),
    "print_alone": N_("--print puts the prize money kept with the tournament on its printout: "
                      "give --save too"),
}


def add_commands(sub, common) -> None:
    pri = sub.add_parser(
        "prize", parents=[common(outputs=True)],
        help=_("the prize money of a tournament: pot, shares, places paid, rounded to cash"),
        description=_("Share out the entry fees by the final ranking: the pot (fee x "
                      "players), the federation's and the organiser's percentages, the places "
                      "paid, amounts rounded down to the cash unit (the remainder to the "
                      "organiser), players sharing a place sharing its sums."))
    pri.add_argument("--fee", required=True, metavar=_("EUR"), help=_("the entry fee, e.g. 10"))
    pri.add_argument("--players", type=whole(1, 9999), metavar="N",
                     help=_("players who paid (default: the tournament's players)"))
    pri.add_argument("--federation", default="0", metavar=_("PCT"),
                     help=_("the federation's percentage of the pot"))
    pri.add_argument("--organiser", default="0", metavar=_("PCT"),
                     help=_("the organiser's percentage of the pot"))
    pri.add_argument("--paid", default="50,30,20", metavar="P1,P2,..",
                     help=_("the places paid: their percentages of the prize money (adding "
                            "up to 100; default 50,30,20)"))
    pri.add_argument("--round", default="1", metavar=_("EUR"),
                     help=_("the cash unit amounts are rounded down to (default 1: whole "
                            "euros)"))
    pri.add_argument("--save", action="store_true",
                     help=_("keep it with the tournament (pilkku post results shows it)"))
    pri.add_argument("--print", action="store_true",
                     help=_("with --save: show it on the final ranking's printout"))
    pri.set_defaults(func=run(prize_command))
    pos = sub.add_parser("post", parents=[common()],
                         help=_("the invitation or the results as text to paste"),
                         description=_("Plain text for the federation's forum or an email, in "
                                       "the tournament's language (pilkku tournament "
                                       "language)."))
    kind = pos.add_subparsers(dest="action", metavar=_("WHAT"), required=True)
    inv = kind.add_parser("invitation", parents=[common(nested=True)],
                          help=_("the invitation to the tournament"))
    for option, helped in (("--date", _("the day, e.g. 25.2.2026")),
                           ("--time", _("e.g. 18:00")), ("--place", _("the venue")),
                           ("--fee", _("the entry fee, e.g. 10")),
                           ("--registration", _("how and by when to enter")),
                           ("--contact", _("who to ask")), ("--note", _("anything else")),
                           ("--series", _("the ranking series the night counts for"))):
        inv.add_argument(option, help=helped)
    inv.set_defaults(func=run(post_invitation))
    res = kind.add_parser("results", parents=[common(nested=True)],
                          help=_("the final placings, the games and their scores"))
    res.add_argument("--link", metavar=_("URL"),
                     help=_("where the hall's export is (pilkku hall --export)"))
    res.add_argument("--series", metavar=_("NAME"),
                     help=_("the series' table after the night follows (its top 10)"))
    res.set_defaults(func=run(post_results))


def prize_command(args: argparse.Namespace, store: Store) -> int:
    if args.print and not args.save:
        raise StoreError(_(TEXT["print_alone"]))
    t = current(args, store)
    ranked = standings(store, t["id"])
    players = args.players or len(store.players.all(t["id"]))
    settings = prize.settings_from(args.fee, players, args.federation, args.organiser,
                                   args.paid, args.round)
    shared = prize.split(settings, ranked["ranking"])
    if args.save:
        store.series.save_prize(t["id"], settings, args.print)
    rows = [{"place": p["place"], "player": p["player"], "amount": prize.money(p["amount"]),
             "cents": p["amount"]} for p in shared["prizes"]]
    if args.json:
        print(json.dumps(shared, indent=2, ensure_ascii=False))
        return 0
    if args.csv:
        show(args, ["place", "player", "amount", "cents"], rows)
        return 0
    m = prize.money
    print(_(TEXT["pot"]) % {"players": shared["players"], "fee": m(shared["fee"]),
                            "pot": m(shared["pot"])})
    print(_(TEXT["federation"]) % {"percent": shared["federation_percent"],
                                   "amount": m(shared["federation"])})
    print(_(TEXT["organiser"]) % {"percent": shared["organiser_percent"],
                                  "amount": m(shared["organiser"]),
                                  "remainder": m(shared["remainder"]),
                                  "total": m(shared["organiser_total"])})
    show(args, ["place", "player", "amount"], rows)
    print(_(TEXT["rule"]) % {"unit": m(shared["unit"])})
    if not ranked["final"]:
        print(_(TEXT["so_far"]))
    if args.save:
        print(_(TEXT["saved_printed"] if args.print else TEXT["saved"]))
    return 0


def post_invitation(args: argparse.Namespace, store: Store) -> int:
    details = {k: getattr(args, k) for k in ("date", "time", "place", "fee", "registration",
                                             "contact", "note", "series")}
    print(post.invitation(store, getattr(args, "tournament", None), details), end="")
    return 0


def post_results(args: argparse.Namespace, store: Store) -> int:
    print(post.results(store, getattr(args, "tournament", None), args.link, args.series),
          end="")
    return 0


def tournament_language(args: argparse.Namespace, store: Store) -> int:
    """`pilkku tournament language [LANG]` (registered with `pilkku tournament`'s actions):
    the tournament's language, its boards' (sent at their next sync) and its texts to post
    (host/season/post.py), shown or changed."""
    t = current(args, store)
    if args.lang is not None:
        store.tournaments.set_board_language(t["id"], args.lang)
        print(_("'%(tournament)s' speaks %(lang)s now: its boards from their next sync, its "
                "texts to post at once.") % {"tournament": t["name"], "lang": args.lang})
    elif post.BOARD_LANG in store.tournaments.plan(t["id"]):
        print(store.tournaments.board_language(t["id"]))
    else:
        print(_("not set: its boards speak English, its texts to post the language of the one "
                "asking (pilkku tournament language fi|sv|en sets it)"))
    return 0
