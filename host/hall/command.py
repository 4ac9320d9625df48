"""`pilkku hall` (the tournament on a screen, served or exported) and `pilkku stats` (each
player's figures from the match logs, as a table, CSV or JSON)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from host.arguments import listen_options, store_options
from host.errors import os_reason
from host.i18n import N_, _
from host.tournament.store import Store, StoreError
from host.tournament.store.text import shown

# The text table's headings of `pilkku stats` (its --csv and --json keep the English keys).
STATS_HEADINGS = {"player": N_("player"), "matches": N_("matches"), "won": N_("won"),
                  "innings": N_("innings"), "high_run": N_("high_run"),
                  "average": N_("average"), "break_and_runs": N_("break_and_runs"),
                  "break_wins": N_("break_wins"), "fouls": N_("fouls"),
                  "safeties": N_("safeties"), "extensions": N_("extensions")}

def cmd_hall(args: argparse.Namespace) -> int:
    from host.hall import data

    try:
        with Store.open(args.db) as store:
            t = data.tournament(store, args.tournament)
            if args.export:
                from host.hall.export import export

                written = export(store, t, Path(args.export))
                print(_("wrote %(count)d files of '%(tournament)s' to %(folder)s (open "
                        "%(page)s)") % {"count": len(written), "tournament": t["name"],
                                        "folder": args.export,
                                        "page": Path(args.export) / "index.html"})
                return 0
    except StoreError as error:
        print("pilkku hall: %s" % error.text, file=sys.stderr)
        return 2
    except OSError as error:
        print("pilkku hall: " + _("cannot write %(folder)s: %(reason)s") % {
            "folder": args.export, "reason": os_reason(error)}, file=sys.stderr)
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
        print("pilkku hall: " + _("cannot listen on %(host)s:%(port)d: %(reason)s (give another "
                                  "--port or --host)") % {
                                      "host": host, "port": port,
                                      "reason": listen_reason(error)}, file=sys.stderr)
        return 2
    hall = Hall(db, follow)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print(_("the hall of '%(tournament)s': http://%(host)s:%(port)d/   (TV: /tv.html, "
            "overlays: /overlay/N.html)\ndirector (keep it to yourself; it lets a browser "
            "assign matches): http://%(host)s:%(port)d/director?token=%(token)s\nstop with "
            "Ctrl-C") % {"tournament": tournament, "host": shown, "port": port,
                         "token": hall.token}, flush=True)
    server(hall, host, port).run()
    print(_("the hall stopped"), flush=True)
    return 0


def listen_reason(error: OSError) -> str:
    """Why the address cannot be listened on (the port taken, mostly), in the CLI's language."""
    import errno

    if error.errno == errno.EADDRINUSE:
        return _("Address already in use")
    if error.errno == errno.EADDRNOTAVAIL:
        return _("Cannot assign requested address")
    if error.errno in (errno.EACCES, errno.EPERM):
        return os_reason(error)
    return os.strerror(error.errno) if error.errno else str(error)


def cmd_stats(args: argparse.Namespace) -> int:
    from host.hall import data, pages
    from host.tournament.cli.console import render_table

    try:
        with Store.open(args.db) as store:
            t = data.tournament(store, args.tournament)
            if args.match:
                found = [m for m in store.matches.all(t["id"]) if m["code"] == args.match]
                if not found:
                    raise StoreError(_("no match '%(match)s': `pilkku matches` lists them")
                                     % {"match": shown(args.match)})
                report = data.report(store, t, str(found[0]["id"])) or {}  # (a page's id)
                rows = [dict(p, player=p.pop("name")) for p in report.get("players", [])]
                if not rows:
                    raise StoreError(_("match %(match)s has no result yet")
                                     % {"match": shown(args.match)})
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
    unit = _(t["unit"])  # points or racks (host/hall/words.py)
    print(_("%(tournament)s: %(unit)s from the match logs, match %(match)s") % {
        "tournament": t["name"], "unit": unit, "match": args.match} if args.match else
        _("%(tournament)s: %(unit)s from the match logs") % {"tournament": t["name"],
                                                             "unit": unit})
    names = [{"avg_x100": "average", "score": t["unit"]}.get(c, c) for c in columns]
    print(render_table([unit if c == t["unit"] else _(STATS_HEADINGS[c])
                        if c in STATS_HEADINGS else c for c in names], cells))
    return 0


def add_commands(sub) -> None:
    common = store_options()
    hall = sub.add_parser(
        "hall", parents=[common, listen_options()],
        help=N_("show the tournament on screens: tables, standings, ..."),
        description=_("Serve the tournament as web pages: every table live (with `pilkku sync "
                      "--watch` running), the standings or bracket, the schedule, results with "
                      "match reports and statistics, a TV page and an overlay per table for "
                      "streaming. Read-only for everyone but the director, whose link (with a "
                      "token) is printed at start. Or write the pages as static HTML "
                      "(--export)."))
    hall.add_argument("--export", metavar=_("DIR"),
                      help=_("write the pages as static HTML into DIR instead of serving them"))
    hall.set_defaults(func=cmd_hall)
    stats = sub.add_parser(
        "stats", parents=[common], help=N_("players' statistics from the match logs"),
        description=_("Each player's figures over the tournament (or in one match), computed "
                      "by the rules engine from the stored match logs: innings, racks or "
                      "points, high run, average per inning, break-and-runs, racks won on the "
                      "break, fouls, safeties."))
    stats.add_argument("--match", metavar="ID", help=_("one match's figures (e.g. R1-02)"))
    form = stats.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help=_("print CSV"))
    form.add_argument("--json", action="store_true", help=_("print JSON"))
    stats.set_defaults(func=cmd_stats)
