"""The director's commands that prepare the night: `tournament new|list`, `players`,
`matches` (import, draw, list), `tables` and `assign`."""

from __future__ import annotations

import argparse
import sys

from host.games import GAME_NAMES
from host.i18n import _, language, ngettext
from host.tournament import night
from host.tournament.cli.cmd_corrections import table_changes
from host.tournament.cli.console import current, emit, render_table, say_problems
from host.tournament.formats import ENGINES
from host.tournament.formats.hakukaavio_places import SEED_COUNTS
from host.tournament.night.imports import MATCH_COLUMNS, read_csv
from host.tournament.night.players_file import read_players
from host.tournament.night.status import format_word, match_status, ordinal
from host.tournament.store import Store, StoreError
from rules_core import bounded


def _parse_rules(pairs: list[str]) -> dict:
    """NAME=VALUE options; a value that reads as JSON (3, true) is taken as that."""
    rules: dict = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise StoreError(_("--rule takes NAME=VALUE, e.g. --rule break_rule=alternate"))
        try:
            rules[name.strip()] = bounded.loads(value, 4096, 8)
        except bounded.Malformed:
            rules[name.strip()] = value.strip()
    return rules


def tournament_new(args: argparse.Namespace, store: Store) -> int:
    options = _format_plan(args)
    tid = night.new_tournament(store, args.name, args.game, args.race,
                               _parse_rules(args.rule or []))
    if options:
        night.plan_format(store, tid, options.pop("format"), options)
    if getattr(args, "board_lang", None):
        store.tournaments.set_board_language(tid, args.board_lang)
    t = store.tournaments.get(args.name.strip())
    print(_("Tournament '%(name)s': %(game)s, race to %(race)d, in %(store)s.") % {
        "name": t["name"], "game": _(GAME_NAMES[t["game"]]), "race": t["race_to"],
        "store": store.path})
    print(_("Next: pilkku players import players.csv"))
    return 0


def _format_plan(args: argparse.Namespace) -> dict:
    """The --format and its options, checked before anything is stored."""
    name = getattr(args, "format", None)
    if name is None:
        return {}
    options: dict = {"format": name}
    if name == "hakukaavio":
        options.update(knockout_from=args.knockout_from, seeds=args.seeds,
                       placings=args.placings)
        if args.knockout_from is not None and not 2 <= args.knockout_from <= 6:
            raise StoreError(_("--knockout-from takes a round from 2 to 6"))
        if args.seeds not in SEED_COUNTS:
            raise StoreError(_("--seeds takes 1 to 8, or 24"))
    elif name == "double":
        options["reset"] = not args.no_reset
    elif name == "groups":
        if args.groups < 1 or args.advance < 1:
            raise StoreError(_("--groups and --advance take 1 or more"))
        options.update(groups=args.groups, advance=args.advance)
    return options


def tournament_list(args: argparse.Namespace, store: Store) -> int:
    rows = store.tournaments.all()
    if not rows:
        print(_("No tournaments yet: pilkku tournament new NAME --game 9ball --race 5"))
        return 0
    latest = rows[-1]["id"]
    table = [["*" if r["id"] == latest else "", r["name"],
              _(GAME_NAMES[r["game"]]) if r["game"] in GAME_NAMES else r["game"],
              r["race_to"], format_word(r["format"]) if r["format"] else "-",
              r["players"], r["matches"], r["created"]] for r in rows]
    print(render_table(["", "tournament", "game", "race", "format", "players", "matches",
                        "created"], table))
    print(_("* the current tournament (the latest); others with --tournament NAME"))
    return 0


# -- players -----------------------------------------------------------------------------

def players_import(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    rows, how = read_players(args.file)
    count = night.import_players(store, t["id"], rows)
    print("%s: %s." % (args.file, how))
    print(ngettext("%(num)d player added to '%(name)s' (%(all)d in all).",
                   "%(num)d players added to '%(name)s' (%(all)d in all).", count)
          % {"num": count, "name": t["name"], "all": len(store.players.all(t["id"]))})
    if store.tournaments.plan(t["id"]).get("format"):
        print(_("Next: pilkku matches generate (draws the %(format)s)")
              % {"format": format_word(store.tournaments.plan(t["id"])["format"])})
    else:
        print(_("Next: pilkku matches generate --round-robin (or --bracket), or "
                "pilkku matches import matches.csv"))
    return 0


def players_list(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    rows = store.players.all(t["id"])
    emit(args, ["seed", "name", "club"], [{k: p[k] for k in ("seed", "name", "club")}
                                           for p in rows])
    return 0


# -- matches -----------------------------------------------------------------------------

def matches_import(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    rows = read_csv(args.file, MATCH_COLUMNS)
    count = night.import_matches(store, t["id"], rows)
    print(ngettext("%(num)d match added to '%(name)s'.", "%(num)d matches added to '%(name)s'.",
                   count) % {"num": count, "name": t["name"]})
    _next_steps(store, t["id"])
    return 0


def matches_generate(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    plan = store.tournaments.plan(t["id"]).get("format")
    if not (args.bracket or args.round_robin) and plan in ENGINES:
        count = night.draw_opening(store, t["id"])
        print(_("Drew the opening of the %(format)s: %(count)d matches; the next are drawn as "
                "results arrive.") % {"format": format_word(plan), "count": count})
        _next_steps(store, t["id"])
        return 0
    if not (args.bracket or args.round_robin) and plan is None:
        raise StoreError(_("give --round-robin or --bracket, or start the tournament with "
                           "--format"))
    if args.bracket or plan == "single":
        count = night.draw_bracket(store, t["id"])
        what = _("single-elimination bracket (seeded by player order, top seeds get the "
                 "byes)")
    else:
        count = night.draw_round_robin(store, t["id"])
        what = _("round robin (everyone meets everyone once)")
    print(_("Drew a %(what)s: %(count)d matches.") % {"what": what, "count": count})
    _next_steps(store, t["id"])
    return 0


def _next_steps(store: Store, tournament_id: int) -> None:
    if not store.tables.numbers(tournament_id):
        print(_("Next: pilkku tables N, then pilkku assign --auto"))


def matches_list(args: argparse.Namespace, store: Store) -> int:
    """The matches in order of play. A status shows a win only when its result counts: a won
    match without a current result that verifies says so, and the store's problems follow
    (store.results.problems, as every command that shows results), exit 1."""
    t = current(args, store)
    said = not (args.json or args.csv)  # the text table in the CLI's language, data English
    results = store.results.all(t["id"])
    counted = {row["match"] for row in results if row["verified"]}
    rows = [{"match": m["code"], "round": m["round"], "player1": slot1, "player2": slot2,
             "table": m["table"],
             "status": status if m["winner"] is None or m["code"] in counted
             else status + " " + (_("(FAILED: not counted)") if said
                                  else "(FAILED: not counted)")}
            for m, slot1, slot2, status in _described(store.matches.all(t["id"]), store, t["id"],
                                                      said)]
    emit(args, ["match", "round", "player1", "player2", "table", "status"], rows)
    problems = store.results.problems(t["id"], results)
    return say_problems(problems, sys.stderr if args.json or args.csv else None)


def _described(matches: list[dict], store: Store, tournament_id: int, said: bool):
    """(match, player 1 text, player 2 text, status) with "winner of R1-01" for open slots."""
    feeders = {(m["next"], m["next_slot"]): m["code"] for m in matches if m["next"]}
    queues = {n: [s["match_id"] for s in store.tables.schedule(tournament_id, n)]
              for n in store.tables.numbers(tournament_id)}
    started = store.live.started(tournament_id)
    for m in matches:
        slots = [m["player%d" % i] or (_("winner of %(match)s") if said else "winner of %(match)s")
                 % {"match": feeders.get((m["code"], i), "?")} for i in (1, 2)]
        yield m, slots[0], slots[1], match_status(m, queues, started, said)


# -- tables and assignment -----------------------------------------------------------------

def tables(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    table_changes(args, store, t["id"])
    if args.count is not None:
        numbers = night.set_tables(store, t["id"], args.count)
        print(_("Tables: %(tables)s.") % {"tables": ", ".join(str(n) for n in numbers)})
    rows = []
    for number in store.tables.numbers(t["id"]):
        queue = store.tables.schedule(t["id"], number)
        rows.append([number, match_text(queue[0]) if queue else _("free"),
                     ", ".join(s["match_id"] for s in queue[1:])])
    if not rows:
        print(_("No tables yet: pilkku tables N makes tables 1 to N."))
        return 0
    print(render_table(["table", "now", "then"], rows))
    return 0


def match_text(entry: dict) -> str:
    one, two = entry["settings"]["players"]
    return _("%(match)s %(player1)s vs %(player2)s") % {"match": entry["match_id"],
                                                         "player1": one, "player2": two}


def assign(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    if args.auto:
        if args.match or args.table:
            raise StoreError(_("give MATCH TABLE, or --auto alone"))
        return _assign_auto(store, t["id"])
    if not args.match or args.table is None:
        raise StoreError(_("give MATCH TABLE (e.g. pilkku assign R1-02 3), or --auto"))
    place = night.assign(store, t["id"], args.match, args.table)
    entry = store.tables.schedule(t["id"], args.table)[place - 1]
    if place == 1:
        said = _("%(match)s at table %(table)d plays now.")
    else:
        said = _("%(match)s at table %(table)d is %(place)s in the queue.")
    print(said % {"match": match_text(entry), "table": args.table,
                  "place": ordinal(place, language())})
    return 0


def _assign_auto(store: Store, tournament_id: int) -> int:
    if not store.tables.numbers(tournament_id):
        raise StoreError(_("no tables yet: pilkku tables N makes tables 1 to N"))
    done = night.assign_free_tables(store, tournament_id)
    for _code, table in done:
        print(_("%(match)s at table %(table)d.") % {
            "match": match_text(store.tables.schedule(tournament_id, table)[0]),
            "table": table})
    if not done:
        print(_("No table is free, or no waiting match can start (its players are playing, "
                "or it waits for earlier results)."))
    return 0


# -- results -----------------------------------------------------------------------------
