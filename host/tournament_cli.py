"""The tournament director's commands: tournament, players, matches, tables, assign, record,
results and standings. Each opens the store (host/store.py), does one thing and prints it as
an aligned table, or --csv / --json where asked. Refusals go to stderr with exit code 2.

`add_commands(sub)` registers them on the `pilkku` parser (host/cli.py).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from host import tournament as formats
from host.store import ImportRefused, Store, StoreError

GAMES = {"8ball": "8-ball", "9ball": "9-ball", "14.1": "14.1 continuous", "kaisa": "Kaisa"}
PLAYER_COLUMNS = (("name",), ("club",))  # (required, optional)
MATCH_COLUMNS = (("id", "player1", "player2"), ("round", "table"))


# -- running a command -------------------------------------------------------------------

def _run(action: Callable[[argparse.Namespace, Store], int]):
    """Wrap a command: open the store, turn StoreError into a message and exit code 2."""

    def command(args: argparse.Namespace) -> int:
        name = " ".join(filter(None, (args.command, getattr(args, "action", None))))
        try:
            with Store.open(args.db) as store:
                return action(args, store)
        except ImportRefused as refused:
            source = getattr(args, "file", None) or getattr(args, "log", "the file")
            print("pilkku %s: %s refused, nothing was changed:" % (name, source),
                  file=sys.stderr)
            for problem in refused.problems:
                print("  " + problem, file=sys.stderr)
            return 2
        except StoreError as error:
            print("pilkku %s: %s" % (name, error.text), file=sys.stderr)
            return 2

    return command


def _current(args: argparse.Namespace, store: Store) -> dict:
    return store.tournament(getattr(args, "tournament", None))


# -- output ------------------------------------------------------------------------------

def render_table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Aligned text columns; numbers to the right."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [bool(rows) and all(isinstance(row[i], int) or row[i] in (None, "")
                                  for row in rows) for i in range(len(columns))]
    lines = []
    for row in [list(columns)] + cells:
        parts = [v.rjust(w) if num else v.ljust(w)
                 for v, w, num in zip(row, widths, numeric, strict=True)]
        lines.append("  ".join(parts).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def _emit(args: argparse.Namespace, columns: Sequence[str], rows: list[dict],
          document: object = None) -> None:
    """Rows as --json (`document`, or the rows), --csv, or a text table."""
    if getattr(args, "json", False):
        print(json.dumps(rows if document is None else document, indent=2,
                         ensure_ascii=False))
    elif getattr(args, "csv", False):
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else list(columns),
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        print(out.getvalue(), end="")
    else:
        print(render_table(columns, [[row[c] for c in columns] for row in rows]))


# -- CSV files ---------------------------------------------------------------------------

def read_csv(path: str, spec: tuple[tuple[str, ...], tuple[str, ...]]) -> list[tuple[int, dict]]:
    """(line, {column: text}) for each data row, the header checked against `spec`
    (required, optional columns). ImportRefused names the line of any malformed row."""
    required, optional = spec
    text = _read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    problems, rows = [], []
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        problem = _header_problem(header, required, optional)
        if problem:
            raise ImportRefused(["line 1: " + problem])
        for record in reader:
            if not any(cell.strip() for cell in record):
                continue  # blank lines are no rows
            if len(record) != len(header):
                problems.append("line %d: %d fields, the header has %d (%s)"
                                % (reader.line_num, len(record), len(header), ",".join(header)))
                continue
            cells = zip(header, record, strict=True)
            rows.append((reader.line_num, {h: c.strip() for h, c in cells}))
    except csv.Error as error:
        problems.append("line %d: not valid CSV (%s)" % (reader.line_num, error))
    if not rows and not problems:
        problems.append("line 2: no rows after the header")
    if problems:
        raise ImportRefused(problems)
    return rows


def _read_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise StoreError("cannot read %s: %s" % (path, error.strerror)) from None
    try:
        return data.decode("utf-8-sig")  # spreadsheets often save a BOM first
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ImportRefused(["line %d: not UTF-8 text (save the file as CSV UTF-8)" % line]
                            ) from None


def _header_problem(header: list[str], required: tuple, optional: tuple) -> str | None:
    expected = ",".join(required) + "".join("[,%s]" % o for o in optional)
    if not header:
        return "the file is empty; its first line must be the header %s" % expected
    missing = [c for c in required if c not in header]
    unknown = [c for c in header if c not in required + optional]
    if missing or unknown or len(set(header)) != len(header):
        return "the header must be %s (found %s)" % (expected, ",".join(header))
    return None


# -- tournament --------------------------------------------------------------------------

def _parse_rules(pairs: list[str]) -> dict:
    """NAME=VALUE options; a value that reads as JSON (3, true) is taken as that."""
    rules: dict = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise StoreError("--rule takes NAME=VALUE, e.g. --rule break_rule=alternate")
        try:
            rules[name.strip()] = json.loads(value)
        except ValueError:
            rules[name.strip()] = value.strip()
    return rules


def tournament_new(args: argparse.Namespace, store: Store) -> int:
    store.new_tournament(args.name, args.game, args.race, _parse_rules(args.rule or []))
    t = store.tournament(args.name.strip())
    print("Tournament '%s': %s, race to %d, in %s." % (t["name"], GAMES[t["game"]],
                                                       t["race_to"], store.path))
    print("Next: pilkku players import players.csv")
    return 0


def tournament_list(args: argparse.Namespace, store: Store) -> int:
    rows = store.tournaments()
    if not rows:
        print("No tournaments yet: pilkku tournament new NAME --game 9ball --race 5")
        return 0
    latest = rows[-1]["id"]
    table = [["*" if r["id"] == latest else "", r["name"], GAMES.get(r["game"], r["game"]),
              r["race_to"], (r["format"] or "-").replace("_", " "), r["players"], r["matches"],
              r["created"]] for r in rows]
    print(render_table(["", "tournament", "game", "race", "format", "players", "matches",
                        "created"], table))
    print("* the current tournament (the latest); others with --tournament NAME")
    return 0


# -- players -----------------------------------------------------------------------------

def players_import(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    rows = read_csv(args.file, PLAYER_COLUMNS)
    count = store.import_players(t["id"], [(line, r["name"], r.get("club", ""))
                                           for line, r in rows])
    print("%d players added to '%s' (%d in all)." % (count, t["name"],
                                                    len(store.players(t["id"]))))
    print("Next: pilkku matches generate --round-robin (or --bracket), or "
          "pilkku matches import matches.csv")
    return 0


def players_list(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    rows = store.players(t["id"])
    _emit(args, ["seed", "name", "club"], [{k: p[k] for k in ("seed", "name", "club")}
                                           for p in rows])
    return 0


# -- matches -----------------------------------------------------------------------------

def matches_import(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    rows = read_csv(args.file, MATCH_COLUMNS)
    count = store.import_matches(t["id"], rows)
    print("%d matches added to '%s'." % (count, t["name"]))
    _next_steps(store, t["id"])
    return 0


def matches_generate(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    if args.bracket:
        count = store.generate_bracket(t["id"])
        what = "single-elimination bracket (seeded by player order, top seeds get the byes)"
    else:
        count = store.generate_round_robin(t["id"])
        what = "round robin (everyone meets everyone once)"
    print("Drew a %s: %d matches." % (what, count))
    _next_steps(store, t["id"])
    return 0


def _next_steps(store: Store, tournament_id: int) -> None:
    if not store.table_numbers(tournament_id):
        print("Next: pilkku tables N, then pilkku assign --auto")


def matches_list(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    rows = [{"match": m["code"], "round": m["round"], "player1": slot1, "player2": slot2,
             "table": m["table"], "status": status}
            for m, slot1, slot2, status in _described(store.matches(t["id"]), store, t["id"])]
    _emit(args, ["match", "round", "player1", "player2", "table", "status"], rows)
    return 0


def _described(matches: list[dict], store: Store, tournament_id: int):
    """(match, player 1 text, player 2 text, status) with "winner of R1-01" for open slots."""
    feeders = {(m["next"], m["next_slot"]): m["code"] for m in matches if m["next"]}
    queues = {n: [s["match_id"] for s in store.table_schedule(tournament_id, n)]
              for n in store.table_numbers(tournament_id)}
    for m in matches:
        slots = [m["player%d" % i] or "winner of %s" % feeders.get((m["code"], i), "?")
                 for i in (1, 2)]
        yield m, slots[0], slots[1], _status(m, queues)


def _status(match: dict, queues: dict) -> str:
    if match["winner"] is not None:
        return "won by %s %d:%d" % (match["winner"], max(match["score1"], match["score2"]),
                                    min(match["score1"], match["score2"]))
    if match["table"] is not None:
        place = queues.get(match["table"], []).index(match["code"]) + 1
        return "playing" if place == 1 else "queued (%s)" % _ordinal(place)
    if None in (match["player1"], match["player2"]):
        return "waits for earlier matches"
    return "waiting"


def _ordinal(n: int) -> str:
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th"))


# -- tables and assignment -----------------------------------------------------------------

def tables(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    if args.count is not None:
        numbers = store.set_tables(t["id"], args.count)
        print("Tables: %s." % ", ".join(str(n) for n in numbers))
    rows = []
    for number in store.table_numbers(t["id"]):
        queue = store.table_schedule(t["id"], number)
        rows.append([number, _match_text(queue[0]) if queue else "free",
                     ", ".join(s["match_id"] for s in queue[1:])])
    if not rows:
        print("No tables yet: pilkku tables N makes tables 1 to N.")
        return 0
    print(render_table(["table", "now", "then"], rows))
    return 0


def _match_text(entry: dict) -> str:
    one, two = entry["settings"]["players"]
    return "%s %s vs %s" % (entry["match_id"], one, two)


def assign(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    if args.auto:
        if args.match or args.table:
            raise StoreError("give MATCH TABLE, or --auto alone")
        return _assign_auto(store, t["id"])
    if not args.match or args.table is None:
        raise StoreError("give MATCH TABLE (e.g. pilkku assign R1-02 3), or --auto")
    place = store.assign(t["id"], args.match, args.table)
    entry = store.table_schedule(t["id"], args.table)[place - 1]
    where = "plays now" if place == 1 else "is %s in the queue" % _ordinal(place)
    print("%s at table %d %s." % (_match_text(entry), args.table, where))
    return 0


def _assign_auto(store: Store, tournament_id: int) -> int:
    if not store.table_numbers(tournament_id):
        raise StoreError("no tables yet: pilkku tables N makes tables 1 to N")
    done = store.assign_free_tables(tournament_id)
    for _code, table in done:
        print("%s at table %d." % (_match_text(store.table_schedule(tournament_id, table)[0]),
                                   table))
    if not done:
        print("No table is free, or no waiting match can start (its players are playing, or "
              "it waits for earlier results).")
    return 0


# -- results -----------------------------------------------------------------------------

def record(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    text = _read_text(args.log)
    fresh = store.record_result(args.match, text, args.board, None, None, None,
                                tournament_id=t["id"])
    match = next(m for m in store.matches(t["id"]) if m["code"] == args.match)
    if not fresh:
        print("%s has this result already; nothing changed." % args.match)
        return 0
    print("%s: %s %d : %d %s, %s wins (unsigned: entered by hand)."
          % (args.match, match["player1"], match["score1"], match["score2"], match["player2"],
             match["winner"]))
    if match["table"] is not None:
        queue = store.table_schedule(t["id"], match["table"])
        print("Table %d: %s." % (match["table"], _match_text(queue[0]) if queue else "free"))
    return 0


def results(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    rows = store.results(t["id"])
    for row in rows:
        row["check"] = {True: "ok", False: "FAILED", None: "unsigned"}[row["verified"]]
    if not (args.json or args.csv):
        for row in rows:
            row["score"] = "%d:%d" % (row["score1"], row["score2"])
        _emit(args, ["match", "round", "table", "player1", "score", "player2", "winner",
                     "board", "check"], rows)
        if any(row["verified"] is False for row in rows):
            print("FAILED: the stored log or score was changed after the board signed it.")
        return 0
    for row in rows:
        del row["check"], row["result_id"]
    _emit(args, [], rows)
    return 0


def standings(args: argparse.Namespace, store: Store) -> int:
    t = _current(args, store)
    if t["format"] == "bracket":
        return _bracket_standings(args, store, t)
    unit = "points" if t["game"] in ("14.1", "kaisa") else "racks"
    players = store.players(t["id"])
    finished = [{"player1": m["player1_id"], "player2": m["player2_id"],
                 "score1": m["score1"], "score2": m["score2"], "winner": m["winner_id"]}
                for m in store.matches(t["id"]) if m["winner_id"] is not None]
    names = {p["id"]: p["name"] for p in players}
    rows = [{"rank": r.rank, "player": names[r.player], "played": r.played, "won": r.won,
             "lost": r.lost, "for": r.scored, "against": r.conceded,
             "difference": r.difference}
            for r in formats.league([p["id"] for p in players], finished)]
    if not (args.json or args.csv):
        print("%s: %s, race to %d" % (t["name"], GAMES[t["game"]], t["race_to"]))
        headings = {"for": unit + " for", "against": "against", "difference": "diff"}
        print(render_table([headings.get(c, c) for c in rows[0]] if rows else ["player"],
                           [list(r.values()) for r in rows]))
        return 0
    _emit(args, [], rows, {"tournament": t["name"], "format": t["format"] or "list",
                           "unit": unit, "standings": rows})
    return 0


def _round_name(number: int, last: int) -> str:
    names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return names.get(last - number, "Round %d" % number)


def _bracket_standings(args: argparse.Namespace, store: Store, t: dict) -> int:
    matches = store.matches(t["id"])
    last = max(m["round"] for m in matches)
    feeders = {(m["next"], m["next_slot"]): m["code"] for m in matches if m["next"]}
    rows = []
    for m in matches:
        row = {"round": m["round"], "stage": _round_name(m["round"], last), "match": m["code"]}
        for i in (1, 2):
            row["player%d" % i] = m["player%d" % i]
            row["from%d" % i] = feeders.get((m["code"], i))  # None in round 1 or after a bye
            row["bye%d" % i] = m["round"] > 1 and row["from%d" % i] is None
        row.update(score1=m["score1"], score2=m["score2"], winner=m["winner"],
                   table=m["table"])
        rows.append(row)
    champion = [m for m in matches if m["round"] == last][0]["winner"]
    if args.json:
        stages = [{"round": r, "stage": _round_name(r, last),
                   "matches": [row for row in rows if row["round"] == r]}
                  for r in range(1, last + 1)]
        _emit(args, [], rows, {"tournament": t["name"], "format": "bracket",
                               "rounds": stages, "winner": champion})
    elif args.csv:
        _emit(args, [], rows)
    else:
        _print_bracket(t, rows, last, champion)
    return 0


def _slot_text(row: dict, i: int) -> str:
    if row["player%d" % i] is None:
        return "winner of %s" % row["from%d" % i]
    return row["player%d" % i] + (" (bye)" if row["bye%d" % i] else "")


def _print_bracket(t: dict, rows: list[dict], last: int, champion: str | None) -> None:
    print("%s: %s, race to %d, single elimination" % (t["name"], GAMES[t["game"]],
                                                      t["race_to"]))
    for number in range(1, last + 1):
        print("\n%s" % _round_name(number, last) + ("" if number == last else
                                                     " (round %d)" % number))
        table = []
        for row in (r for r in rows if r["round"] == number):
            score = "" if row["winner"] is None else "%d:%d" % (row["score1"], row["score2"])
            where = "(at table %d)" % row["table"] if row["table"] else ""
            table.append([row["match"], _slot_text(row, 1), score, _slot_text(row, 2),
                          row["winner"] or where])
        print(render_table(["match", "player1", "score", "player2", "winner"], table))
    print("\nChampion: %s" % (champion or "to be decided"))


# -- the parser ----------------------------------------------------------------------------

def _common(with_tournament: bool = True, outputs: bool = False,
            nested: bool = False) -> argparse.ArgumentParser:
    """--db, --tournament (and --csv/--json) for a command. On an action under `players` or
    `matches` (nested) they default to SUPPRESS, so `pilkku players --db X import F` keeps the
    X given before the action instead of the action's own default."""
    default = argparse.SUPPRESS if nested else None
    flag = argparse.SUPPRESS if nested else False
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="PATH", default=default,
                        help="the tournament store (default: $PILKKU_DB, else ./pilkku.db)")
    if with_tournament:
        common.add_argument("--tournament", metavar="NAME", default=default,
                            help="act on this tournament (default: the latest created)")
    if outputs:
        form = common.add_mutually_exclusive_group()
        form.add_argument("--csv", action="store_true", default=flag, help="print CSV")
        form.add_argument("--json", action="store_true", default=flag, help="print JSON")
    return common


def add_commands(sub) -> None:
    """Register the tournament commands on the `pilkku` subparsers."""
    _add_tournament(sub)
    _add_players(sub)
    _add_matches(sub)
    _add_tables(sub)
    _add_results(sub)


def _add_tournament(sub) -> None:
    parser = sub.add_parser("tournament", help="start a tournament, or list them",
                            description="A store holds several tournaments; the commands act "
                                        "on the latest unless given --tournament NAME.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser(
        "new", parents=[_common(False)], help="start a tournament (it becomes the current one)",
        description="Start a tournament: its game, the race and any ruleset options every "
                    "match plays by. A random pairing key is made for its boards.")
    new.add_argument("name", help="the tournament's name, e.g. 'Club Night 2025-03'")
    new.add_argument("--game", required=True, choices=sorted(GAMES), help="the game played")
    new.add_argument("--race", required=True, type=int, metavar="N",
                     help="racks (8/9-ball) or points (14.1, Kaisa) to win a match")
    new.add_argument("--rule", action="append", metavar="NAME=VALUE",
                     help="a ruleset option (docs/match-log.md), e.g. break_rule=alternate; "
                          "repeat for more")
    new.set_defaults(func=_run(tournament_new))
    listing = actions.add_parser("list", parents=[_common(False)],
                                 help="the tournaments in the store")
    listing.set_defaults(func=_run(tournament_list))


def _add_players(sub) -> None:
    parser = sub.add_parser(
        "players", parents=[_common(outputs=True)], help="import or list the players",
        description="List the players (seed order), or import them from a CSV file.")
    parser.set_defaults(func=_run(players_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    imp = actions.add_parser(
        "import", parents=[_common(nested=True)],
        help="add players from a CSV file (all or none)",
        description="Add players from a CSV file with the header name,club (club optional). "
                    "Names are unique within a tournament; the file order is the seeding. "
                    "A bad line refuses the whole file (exit 2), naming the line.")
    imp.add_argument("file", help="the CSV file")
    imp.set_defaults(func=_run(players_import))
    actions.add_parser("list", parents=[_common(outputs=True, nested=True)],
                       help="list the players")


def _add_matches(sub) -> None:
    parser = sub.add_parser(
        "matches", parents=[_common(outputs=True)],
        help="import, draw (round robin / bracket) or list the matches",
        description="List the matches in order of play with their table and status, or "
                    "import them from CSV, or draw them from the players.")
    parser.set_defaults(func=_run(matches_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    imp = actions.add_parser(
        "import", parents=[_common(nested=True)],
        help="add matches from a CSV file (all or none)",
        description="Add matches from a CSV file with the header id,player1,player2 and "
                    "optionally round and table. Ids are unique; players must be imported "
                    "first; a table queues the match there. A bad line refuses the whole file "
                    "(exit 2), naming the line.")
    imp.add_argument("file", help="the CSV file")
    imp.set_defaults(func=_run(matches_import))
    gen = actions.add_parser(
        "generate", parents=[_common(nested=True)], help="draw a round robin or a bracket",
        description="Draw the matches from the players: a round robin (everyone meets once), "
                    "or a single-elimination bracket seeded by player order, byes to the top "
                    "seeds, winners advancing as results arrive. Only on a tournament with no "
                    "matches yet.")
    kind = gen.add_mutually_exclusive_group(required=True)
    kind.add_argument("--round-robin", action="store_true", help="everyone meets everyone")
    kind.add_argument("--bracket", action="store_true", help="single elimination")
    gen.set_defaults(func=_run(matches_generate))
    actions.add_parser("list", parents=[_common(outputs=True, nested=True)],
                       help="list the matches")


def _add_tables(sub) -> None:
    tab = sub.add_parser(
        "tables", parents=[_common()], help="set up the tables, or show what each plays",
        description="With N, make tables 1 to N (more can be added later). Always shows each "
                    "table's current match and its queue.")
    tab.add_argument("count", nargs="?", type=int, metavar="N", help="the number of tables")
    tab.set_defaults(func=_run(tables))
    asg = sub.add_parser(
        "assign", parents=[_common()], help="send a match to a table (or --auto)",
        description="Queue MATCH at TABLE (moving it if it was queued elsewhere). With --auto, "
                    "give every free table the next waiting match whose players are free. "
                    "After each result the table that finished, then any other free table, "
                    "gets its next match by itself.")
    asg.add_argument("match", nargs="?", help="the match id, e.g. R1-02")
    asg.add_argument("table", nargs="?", type=int, help="the table number")
    asg.add_argument("--auto", action="store_true", help="fill every free table")
    asg.set_defaults(func=_run(assign))


def _add_results(sub) -> None:
    rec = sub.add_parser(
        "record", parents=[_common()], help="enter a result from a match log file by hand",
        description="Enter the result of MATCH from its match log (a board's log copied by "
                    "hand). The log must replay and name the match's players; it is stored "
                    "unsigned. Results from boards arrive with `pilkku sync`.")
    rec.add_argument("match", help="the match id")
    rec.add_argument("log", help="the match log file (.json, format pilkku.match/1)")
    rec.add_argument("--board", default="manual", help="the board it came from")
    rec.set_defaults(func=_run(record))
    res = sub.add_parser(
        "results", parents=[_common(outputs=True)], help="the results so far",
        description="Finished matches with score, winner and board. check: ok (the board's "
                    "signature holds), FAILED (the stored log or score was edited), unsigned "
                    "(entered by hand).")
    res.set_defaults(func=_run(results))
    sta = sub.add_parser(
        "standings", parents=[_common(outputs=True)], help="the league table or the bracket",
        description="A round robin (or an imported list): played, won, lost, racks or points "
                    "for and against, ranked by wins, then difference, then head-to-head. A "
                    "bracket: every round's matches, and the champion.")
    sta.set_defaults(func=_run(standings))
