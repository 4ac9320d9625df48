"""`pilkku hall` (the tournament on a screen, served or exported) and `pilkku stats` (each
player's figures from the match logs, as a table, CSV or JSON)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from host.arguments import listen_options, store_options
from host.tournament.store import Store, StoreError
from host.tournament.store.text import shown


def cmd_hall(args: argparse.Namespace) -> int:
    from host.hall import data

    try:
        with Store.open(args.db) as store:
            t = data.tournament(store, args.tournament)
            if args.export:
                from host.hall.export import export

                written = export(store, t, Path(args.export))
                print("wrote %d files of '%s' to %s (open %s)" % (
                    len(written), t["name"], args.export, Path(args.export) / "index.html"))
                return 0
    except StoreError as error:
        print("pilkku hall: %s" % error.text, file=sys.stderr)
        return 2
    except OSError as error:
        print("pilkku hall: cannot write %s: %s" % (args.export, error.strerror),
              file=sys.stderr)
        return 2
    return serve(args.db, t["name"], args.host, args.port, follow=args.tournament)


def serve(db: str | None, tournament: str, host: str, port: int,
          follow: str | None = None) -> int:
    """Serve the hall of tournament `follow` (None: the newest, a newer one shown as soon as
    it is made; `tournament`: the name to print)."""
    import socket

    from host.hall.app import Hall, server

    try:  # uvicorn would log a bind error and exit; say it plainly instead
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        print("pilkku hall: cannot listen on %s:%d: %s (give another --port or --host)"
              % (host, port, os.strerror(error.errno) if error.errno else error),
              file=sys.stderr)
        return 2
    hall = Hall(db, follow)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print("the hall of '%s': http://%s:%d/   (TV: /tv.html, overlays: /overlay/N.html)\n"
          "director (keep it to yourself; it lets a browser assign matches): "
          "http://%s:%d/director?token=%s\nstop with Ctrl-C" % (
              tournament, shown, port, shown, port, hall.token), flush=True)
    server(hall, host, port).run()
    print("the hall stopped", flush=True)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from host.hall import data, pages
    from host.tournament.cli.console import render_table

    try:
        with Store.open(args.db) as store:
            t = data.tournament(store, args.tournament)
            if args.match:
                found = [m for m in store.matches.all(t["id"]) if m["code"] == args.match]
                if not found:
                    raise StoreError("no match '%s': `pilkku matches` lists them"
                                     % shown(args.match))
                report = data.report(store, t, found[0]["id"]) or {}
                rows = [dict(p, player=p.pop("name")) for p in report.get("players", [])]
                if not rows:
                    raise StoreError("match %s has no result yet" % args.match)
            else:
                rows = data.player_stats(store, t)
            csv_text = pages.stats_csv(store, t) if args.csv and not args.match else None
    except StoreError as error:
        print("pilkku stats: %s" % error.text, file=sys.stderr)
        return 2
    columns = [c for c in ("player", "matches", "won", "innings", "score", "high_run",
                           "avg_x100", "break_and_runs", "break_wins", "fouls", "safeties",
                           "extensions") if any(c in r for r in rows)]
    if args.json:
        print(json.dumps({"tournament": t["name"], "unit": t["unit"], "players": rows},
                         ensure_ascii=False, indent=2))
        return 0
    cells = [[pages.ENV.filters["average"](r.get(c)) if c == "avg_x100" else
              ("" if r.get(c) is None else r.get(c)) for c in columns] for r in rows]
    if args.csv:
        if csv_text is not None:
            sys.stdout.write(csv_text)
        else:
            import csv

            writer = csv.writer(sys.stdout, lineterminator="\n")
            writer.writerow([c if c != "avg_x100" else "average" for c in columns])
            writer.writerows(cells)
        return 0
    print("%s: %s from the match logs%s" % (t["name"], t["unit"],
                                            ", match " + args.match if args.match else ""))
    print(render_table([{"avg_x100": "average", "score": t["unit"]}.get(c, c) for c in columns],
                       cells))
    return 0


def add_commands(sub) -> None:
    common = store_options()
    hall = sub.add_parser(
        "hall", parents=[common, listen_options()],
        help="show the tournament on screens: tables, standings, ...",
        description="Serve the tournament as web pages: every table live (with `pilkku sync "
                    "--watch` running), the standings or bracket, the schedule, results with "
                    "match reports and statistics, a TV page and an overlay per table for "
                    "streaming. Read-only for everyone but the director, whose link (with a "
                    "token) is printed at start. Or write the pages as static HTML (--export).")
    hall.add_argument("--export", metavar="DIR",
                      help="write the pages as static HTML into DIR instead of serving them")
    hall.set_defaults(func=cmd_hall)
    stats = sub.add_parser(
        "stats", parents=[common], help="players' statistics from the match logs",
        description="Each player's figures over the tournament (or in one match), computed by "
                    "the rules engine from the stored match logs: innings, racks or points, "
                    "high run, average per inning, break-and-runs, racks won on the break, "
                    "fouls, safeties.")
    stats.add_argument("--match", metavar="ID", help="one match's figures (e.g. R1-02)")
    form = stats.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="print CSV")
    form.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(func=cmd_stats)
