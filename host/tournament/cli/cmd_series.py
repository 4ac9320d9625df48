"""`pilkku series`: the club's ranking series (host/season/, docs/season.md): made, given its
nights, its table at any date (--csv, --json), closed, and its point table shown or changed."""

from __future__ import annotations

import argparse
import json

from host.arguments import whole
from host.games import GAME_NAMES
from host.i18n import N_, _
from host.season import points as point_rules
from host.season import series as season
from host.season.table import TIE_BREAKS, flat_rows
from host.tournament.cli.cmd_series_people import asking, person_picks, show
from host.tournament.cli.console import run
from host.tournament.store import Store, StoreError

TEXT = {  # (N_: said in the CLI's language where used)
    "made": N_("Series '%(series)s' (%(game)s), point table '%(table)s' version %(version)d. "
               "Next: pilkku series add '%(series)s' TOURNAMENT"),
    "added": N_("added to '%(series)s': %(tournaments)s"),
    "removed": N_("'%(tournament)s' taken out of '%(series)s'"),
    "closed": N_("'%(series)s' closed: its table is frozen as shown"),
    "version": N_("point table '%(table)s' version %(version)d: %(points)s"),
    "moved": N_("open series now counting by it: %(series)s"),
    "no_series": N_("no series yet: `pilkku series new NAME --game kaisa`"),
    "closed_note": N_(", closed %(day)s"),
    "until_note": N_(", nights until %(day)s"),
    "footer": N_("points: %(table)s v%(version)d: %(points)s; %(best)s; tie-breaks: %(keys)s"),
    "best_of": N_("best %(best)d nights count"),
    "every": N_("every night counts"),
    "not_counted": N_("(n) a night not counted"),
    "unlinked": N_("not linked to people yet, each on a row of his own: %(players)s in "
                   "'%(tournament)s' (pilkku people link --tournament '%(tournament)s')"),
    "numbers": N_("%(what)s takes whole numbers separated by commas, e.g. 5,3,1"),
}


def add_commands(sub, common) -> None:
    parser = sub.add_parser(
        "series", parents=[common(False, outputs=True)],
        help=_("the club's ranking series over its nights (docs/season.md)"),
        description=_("A ranking series over the store's tournaments (docs/season.md). "
                      "Without ACTION: the series kept."))
    parser.set_defaults(func=run(series_list))
    actions = parser.add_subparsers(dest="action", metavar=_("ACTION"))
    new = actions.add_parser("new", parents=[common(False, nested=True)], help=_("a new series"))
    new.add_argument("name", metavar=_("NAME"))
    new.add_argument("--game", required=True, choices=sorted(GAME_NAMES))
    new.add_argument("--from", dest="date_from", metavar=_("DATE"),
                     help=_("first day (25.2.2026)"))
    new.add_argument("--to", dest="date_to", metavar=_("DATE"), help=_("last day"))
    new.add_argument("--points", default=season.DEFAULT_POINTS, metavar=_("POINTS"),
                     help=_("the point table it counts by (default: 'default')"))
    new.add_argument("--best", type=whole(1, season.BEST_OF_MAX), metavar="N",
                     help=_("only each player's best N nights count"))
    new.add_argument("--tie-break", metavar=_("KEYS"),
                     help=_("after the points, in order: %(keys)s (default best,wins,places)")
                     % {"keys": "; ".join("%s: %s" % (k, _(v)) for k, v in TIE_BREAKS.items())})
    new.add_argument("--carry", metavar=_("SERIES"),
                     help=_("the previous series whose leaders carry points over"))
    new.add_argument("--carry-points", metavar="P1,P2,..",
                     help=_("what its 1st, 2nd, ... carry (default 3,2,1)"))
    new.set_defaults(func=run(series_new))
    add = actions.add_parser("add", parents=[common(False, nested=True)],
                             help=_("tournaments as the series' nights (links their players)"))
    add.add_argument("series", metavar=_("SERIES"))
    add.add_argument("tournaments", nargs="*", metavar=_("TOURNAMENT"))
    add.add_argument("--all", action="store_true",
                     help=_("every tournament of its game within its dates"))
    add.add_argument("--date", metavar=_("DATE"),
                     help=_("the night's date (default: the day the tournament was made)"))
    add.add_argument("--new", action="append", default=[], metavar=_("NAME"),
                     help=_("this player is a new person, though the name is known"))
    add.add_argument("--person", action="append", default=[], metavar=_("NAME=#ID"),
                     help=_("this player is that person (a name several people have)"))
    add.set_defaults(func=run(series_add))
    rem = actions.add_parser("remove", parents=[common(False, nested=True)],
                             help=_("take a night out of an open series"))
    rem.add_argument("series", metavar=_("SERIES"))
    rem.add_argument("tournament", metavar=_("TOURNAMENT"))
    rem.set_defaults(func=run(series_remove))
    tab = actions.add_parser("table", parents=[common(False, outputs=True, nested=True)],
                             help=_("the series' table (at a date)"))
    tab.add_argument("series", metavar=_("SERIES"))
    tab.add_argument("--date", metavar=_("DATE"), help=_("the table after the nights until DATE"))
    tab.set_defaults(func=run(series_table))
    clo = actions.add_parser("close", parents=[common(False, nested=True)],
                             help=_("close a finished series: its table frozen"))
    clo.add_argument("series", metavar=_("SERIES"))
    clo.set_defaults(func=run(series_close))
    pts = actions.add_parser("points", parents=[common(False, outputs=True, nested=True)],
                             help=_("the point tables; with a change: a new version, for "
                                    "the open series only"))
    pts.add_argument("table", nargs="?", metavar=_("POINTS"), help=_("the point table's name"))
    pts.add_argument("--win", metavar="N", help=_("points per won game"))
    pts.add_argument("--participation", metavar="N", help=_("points for playing the night"))
    pts.add_argument("--places", metavar="P1,..,P10", help=_("points for places 1 to 10"))
    pts.add_argument("--beat", metavar="B1,B2,B3",
                     help=_("bonus for beating the series' 1st, 2nd, 3rd"))
    pts.set_defaults(func=run(series_points))


def _numbers(text: str | None, what: str) -> list[int] | None:
    if text is None:
        return None
    words = [w.strip() for w in text.split(",")]
    if not all(w.isascii() and w.isdigit() and len(w) <= 4 for w in words):
        raise StoreError(_(TEXT["numbers"]) % {"what": what})
    return [int(w) for w in words]


def series_list(args: argparse.Namespace, store: Store) -> int:
    rows = [{"name": s["name"], "game": s["game"],
             "from": season.shown_date(s["date_from"]), "to": season.shown_date(s["date_to"]),
             "points": "%s v%d" % (s["points_name"], s["points_version"]),
             "best": s["best_of"], "nights": len(store.series.nights(s["id"])),
             "closed": (s["closed"] or "")[:10]} for s in store.series.all()]
    if not rows and not (args.json or args.csv):
        print(_(TEXT["no_series"]))
        return 0
    show(args, list(rows[0]) if rows else ["name"], rows)
    return 0


def series_new(args: argparse.Namespace, store: Store) -> int:
    keys = None if args.tie_break is None else [k.strip() for k in args.tie_break.split(",")
                                                if k.strip()]
    season.new_series(store, args.name, args.game, date_from=args.date_from,
                      date_to=args.date_to, points_name=args.points, best_of=args.best,
                      tie_break=keys, carry_from=args.carry,
                      carry_points=_numbers(args.carry_points, "--carry-points"))
    made = store.series.get(args.name.strip())
    print(_(TEXT["made"]) % {"series": made["name"], "game": _(GAME_NAMES[made["game"]]),
                             "table": made["points_name"], "version": made["points_version"]})
    return 0


def series_add(args: argparse.Namespace, store: Store) -> int:
    names = None if args.all and not args.tournaments else args.tournaments
    added = asking(lambda picks, new: season.add_nights(store, args.series, names, args.date,
                                                        picks, new),
                   person_picks(args), [n.strip() for n in args.new])
    if added is None:
        return 1
    print(_(TEXT["added"]) % {"series": args.series, "tournaments": ", ".join(added)})
    return 0


def series_remove(args: argparse.Namespace, store: Store) -> int:
    season.remove_night(store, args.series, args.tournament)
    print(_(TEXT["removed"]) % {"tournament": args.tournament, "series": args.series})
    return 0


def series_table(args: argparse.Namespace, store: Store) -> int:
    document = season.table_of(store, args.series, args.date)
    if args.json:
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return 0
    flat = flat_rows(document)
    if args.csv:
        show(args, list(flat[0]) if flat else ["place"], flat)
        return 0
    if not any(row["carried"] for row in document["rows"]):  # nothing carried: no column
        flat = [{k: v for k, v in row.items() if k != "carried"} for row in flat]
    print(title(document))
    show(args, list(flat[0]) if flat else ["place", "name", "points"], flat)
    print(footer(document))
    for night in document["unlinked"]:
        print(_(TEXT["unlinked"]) % {"players": ", ".join(night["players"]),
                                     "tournament": night["tournament"]})
    return 0


def title(document: dict) -> str:
    game = GAME_NAMES.get(document["game"], "")
    return "%s (%s)%s%s" % (document["series"], _(game) if game else "",
                            _(TEXT["closed_note"]) % {"day": season.shown_date(
                                document["closed"][:10])} if document["closed"] else "",
                            _(TEXT["until_note"]) % {"day": season.shown_date(
                                document["until"])} if document["until"] else "")


def footer(document: dict) -> str:
    best = (_(TEXT["best_of"]) % {"best": document["best_of"]} if document["best_of"]
            else _(TEXT["every"]))
    return "%s\n%s" % (_(TEXT["footer"]) % {
        "table": document["points_name"], "version": document["version"],
        "points": point_rules.shown(document["points"]), "best": best,
        "keys": ",".join(document["tie_break"])}, _(TEXT["not_counted"]))


def series_close(args: argparse.Namespace, store: Store) -> int:
    season.close(store, args.series)
    print(_(TEXT["closed"]) % {"series": args.series})
    return series_table(argparse.Namespace(series=args.series, date=None, json=False,
                                           csv=False), store)


def series_points(args: argparse.Namespace, store: Store) -> int:
    changes = {"win": args.win, "participation": args.participation, "places": args.places,
               "beat": args.beat}
    if args.table is not None and any(v is not None for v in changes.values()):
        version, moved = season.change_points(store, args.table, **changes)
        table = store.series.points(args.table.strip(), version)
        print(_(TEXT["version"]) % {"table": table["name"], "version": version,
                                    "points": point_rules.shown(table["points"])})
        if moved:
            print(_(TEXT["moved"]) % {"series": ", ".join(moved)})
        return 0
    rows = [{"table": t["name"], "version": t["version"], "created": t["created"][:10],
             "points": point_rules.shown(t["points"])} for t in store.series.point_tables()
            if args.table is None or t["name"] == args.table]
    if args.table is not None and not rows:
        store.series.points(args.table)  # says there is none
    show(args, ["table", "version", "created", "points"], rows)
    return 0
