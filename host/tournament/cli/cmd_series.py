"""`pilkku series`: the club's ranking series (host/season/, docs/season.md): made, given its
nights, its table at any date (--csv, --json), closed, and its point table shown or changed."""

from __future__ import annotations

import argparse
import json

from host.arguments import whole
from host.games import GAME_NAMES
from host.season import points as point_rules
from host.season import series as season
from host.season.table import TIE_BREAKS, flat_rows
from host.tournament.cli.cmd_series_people import asking, person_picks
from host.tournament.cli.console import emit, render_table, run
from host.tournament.store import Store, StoreError

TEXT = {
    "help": "the club's ranking series over its nights (docs/season.md)",
    "made": "Series '%s' (%s), point table '%s' version %d. Next: pilkku series add '%s' "
            "TOURNAMENT",
    "added": "added to '%s': %s",
    "removed": "'%s' taken out of '%s'",
    "closed": "'%s' closed: its table is frozen as shown",
    "version": "point table '%s' version %d: %s",
    "moved": "open series now counting by it: %s",
    "no_series": "no series yet: `pilkku series new NAME --game kaisa`",
    "title": "%s (%s)%s%s",
    "closed_note": ", closed %s",
    "until_note": ", nights until %s",
    "footer": "points: %s; %s; tie-breaks: %s",
    "best_of": "best %d nights count",
    "every": "every night counts",
    "not_counted": "(n) a night not counted",
    "unlinked": "not linked to people yet, each on a row of his own: %s in '%s' "
                "(pilkku people link --tournament '%s')",
    "numbers": "%s takes whole numbers separated by commas, e.g. 5,3,1",
}


def add_commands(sub, common) -> None:
    parser = sub.add_parser("series", parents=[common(False, outputs=True)], help=TEXT["help"],
                            description="A ranking series over the store's tournaments "
                                        "(docs/season.md). Without ACTION: the series kept.")
    parser.set_defaults(func=run(series_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    new = actions.add_parser("new", parents=[common(False, nested=True)], help="a new series")
    new.add_argument("name")
    new.add_argument("--game", required=True, choices=sorted(GAME_NAMES))
    new.add_argument("--from", dest="date_from", metavar="DATE", help="first day (25.2.2026)")
    new.add_argument("--to", dest="date_to", metavar="DATE", help="last day")
    new.add_argument("--points", default=season.DEFAULT_POINTS, metavar="TABLE",
                     help="the point table it counts by (default: 'default')")
    new.add_argument("--best", type=whole(1, season.BEST_OF_MAX), metavar="N",
                     help="only each player's best N nights count")
    new.add_argument("--tie-break", metavar="KEYS",
                     help="after the points, in order: " + "; ".join(
                         "%s: %s" % kv for kv in TIE_BREAKS.items()) + " (default best,wins,"
                     "places)")
    new.add_argument("--carry", metavar="SERIES",
                     help="the previous series whose leaders carry points over")
    new.add_argument("--carry-points", metavar="P1,P2,..",
                     help="what its 1st, 2nd, ... carry (default 3,2,1)")
    new.set_defaults(func=run(series_new))
    add = actions.add_parser("add", parents=[common(False, nested=True)],
                             help="tournaments as the series' nights (links their players)")
    add.add_argument("series")
    add.add_argument("tournaments", nargs="*", metavar="TOURNAMENT")
    add.add_argument("--all", action="store_true",
                     help="every tournament of its game within its dates")
    add.add_argument("--date", metavar="DATE",
                     help="the night's date (default: the day the tournament was made)")
    add.add_argument("--new", action="append", default=[], metavar="NAME",
                     help="this player is a new person, though the name is known")
    add.add_argument("--person", action="append", default=[], metavar="NAME=#ID",
                     help="this player is that person (a name several people have)")
    add.set_defaults(func=run(series_add))
    rem = actions.add_parser("remove", parents=[common(False, nested=True)],
                             help="take a night out of an open series")
    rem.add_argument("series")
    rem.add_argument("tournament")
    rem.set_defaults(func=run(series_remove))
    tab = actions.add_parser("table", parents=[common(False, outputs=True, nested=True)],
                             help="the series' table (at a date)")
    tab.add_argument("series")
    tab.add_argument("--date", metavar="DATE", help="the table after the nights until DATE")
    tab.set_defaults(func=run(series_table))
    clo = actions.add_parser("close", parents=[common(False, nested=True)],
                             help="close a finished series: its table frozen")
    clo.add_argument("series")
    clo.set_defaults(func=run(series_close))
    pts = actions.add_parser("points", parents=[common(False, outputs=True, nested=True)],
                             help="the point tables; with a change: a new version, for the "
                                  "open series only")
    pts.add_argument("table", nargs="?", help="the point table's name")
    pts.add_argument("--win", metavar="N", help="points per won game")
    pts.add_argument("--participation", metavar="N", help="points for playing the night")
    pts.add_argument("--places", metavar="P1,..,P10", help="points for places 1 to 10")
    pts.add_argument("--beat", metavar="B1,B2,B3",
                     help="bonus for beating the series' 1st, 2nd, 3rd")
    pts.set_defaults(func=run(series_points))


def _numbers(text: str | None, what: str) -> list[int] | None:
    if text is None:
        return None
    words = [w.strip() for w in text.split(",")]
    if not all(w.isascii() and w.isdigit() and len(w) <= 4 for w in words):
        raise StoreError(TEXT["numbers"] % what)
    return [int(w) for w in words]


def series_list(args: argparse.Namespace, store: Store) -> int:
    rows = [{"name": s["name"], "game": s["game"],
             "from": season.shown_date(s["date_from"]), "to": season.shown_date(s["date_to"]),
             "points": "%s v%d" % (s["points_name"], s["points_version"]),
             "best": s["best_of"], "nights": len(store.series.nights(s["id"])),
             "closed": (s["closed"] or "")[:10]} for s in store.series.all()]
    if not rows and not (args.json or args.csv):
        print(TEXT["no_series"])
        return 0
    emit(args, list(rows[0]) if rows else ["name"], rows)
    return 0


def series_new(args: argparse.Namespace, store: Store) -> int:
    keys = None if args.tie_break is None else [k.strip() for k in args.tie_break.split(",")
                                                if k.strip()]
    season.new_series(store, args.name, args.game, date_from=args.date_from,
                      date_to=args.date_to, points_name=args.points, best_of=args.best,
                      tie_break=keys, carry_from=args.carry,
                      carry_points=_numbers(args.carry_points, "--carry-points"))
    made = store.series.get(args.name.strip())
    print(TEXT["made"] % (made["name"], GAME_NAMES[made["game"]], made["points_name"],
                          made["points_version"], made["name"]))
    return 0


def series_add(args: argparse.Namespace, store: Store) -> int:
    names = None if args.all and not args.tournaments else args.tournaments
    added = asking(lambda picks, new: season.add_nights(store, args.series, names, args.date,
                                                        picks, new),
                   person_picks(args), [n.strip() for n in args.new])
    if added is None:
        return 1
    print(TEXT["added"] % (args.series, ", ".join(added)))
    return 0


def series_remove(args: argparse.Namespace, store: Store) -> int:
    season.remove_night(store, args.series, args.tournament)
    print(TEXT["removed"] % (args.tournament, args.series))
    return 0


def series_table(args: argparse.Namespace, store: Store) -> int:
    document = season.table_of(store, args.series, args.date)
    if args.json:
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return 0
    flat = flat_rows(document)
    if args.csv:
        emit(args, list(flat[0]) if flat else ["place"], flat)
        return 0
    if not any(row["carried"] for row in document["rows"]):  # nothing carried: no column
        flat = [{k: v for k, v in row.items() if k != "carried"} for row in flat]
    print(title(document))
    print(render_table(list(flat[0]) if flat else ["place", "name", "points"],
                      [list(r.values()) for r in flat]))
    print(footer(document))
    for night in document["unlinked"]:
        print(TEXT["unlinked"] % (", ".join(night["players"]), night["tournament"],
                                  night["tournament"]))
    return 0


def title(document: dict) -> str:
    return TEXT["title"] % (document["series"], GAME_NAMES.get(document["game"], ""),
                            TEXT["closed_note"] % document["closed"][:10]
                            if document["closed"] else "",
                            TEXT["until_note"] % season.shown_date(document["until"])
                            if document["until"] else "")


def footer(document: dict) -> str:
    best = (TEXT["best_of"] % document["best_of"] if document["best_of"] else TEXT["every"])
    return "%s\n%s" % (TEXT["footer"] % ("%s v%d: %s" % (document["points_name"],
                                                          document["version"],
                                                          point_rules.shown(document["points"])),
                                         best, ",".join(document["tie_break"])),
                       TEXT["not_counted"])


def series_close(args: argparse.Namespace, store: Store) -> int:
    season.close(store, args.series)
    print(TEXT["closed"] % args.series)
    return series_table(argparse.Namespace(series=args.series, date=None, json=False,
                                           csv=False), store)


def series_points(args: argparse.Namespace, store: Store) -> int:
    changes = {"win": args.win, "participation": args.participation, "places": args.places,
               "beat": args.beat}
    if args.table is not None and any(v is not None for v in changes.values()):
        version, moved = season.change_points(store, args.table, **changes)
        table = store.series.points(args.table.strip(), version)
        print(TEXT["version"] % (table["name"], version, point_rules.shown(table["points"])))
        if moved:
            print(TEXT["moved"] % ", ".join(moved))
        return 0
    rows = [{"table": t["name"], "version": t["version"], "created": t["created"][:10],
             "points": point_rules.shown(t["points"])} for t in store.series.point_tables()
            if args.table is None or t["name"] == args.table]
    if args.table is not None and not rows:
        store.series.points(args.table)  # says there is none
    emit(args, ["table", "version", "created", "points"], rows)
    return 0
