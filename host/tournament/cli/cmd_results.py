"""The director's commands that read the night: `record` (a result entered by hand),
`results` and `standings` (a league table or a bracket)."""

from __future__ import annotations

import argparse
import sys

from host.games import GAME_NAMES
from host.tournament import night
from host.tournament.cli.cmd_corrections import history
from host.tournament.cli.cmd_hand import record_score
from host.tournament.cli.cmd_prepare import match_text
from host.tournament.cli.console import asking, current, emit, render_table, say_problems
from host.tournament.formats import lists
from host.tournament.night.imports import read_text
from host.tournament.store import Store, StoreError
from host.tournament.store.results import sign


def record(args: argparse.Namespace, store: Store) -> int:
    if args.score is not None:
        return record_score(args, store)
    if args.log is None:
        raise StoreError("give the result: a match log file (pilkku record %s LOG), or the "
                         "score from the sheet (pilkku record %s --score A:B --reason TEXT)"
                         % (args.match, args.match))
    t = current(args, store)
    text = read_text(args.log)
    # The director vouches for a log entered by hand: it is signed with the tournament's key.
    mac = sign(store.tournaments.key(t["id"]), text.encode("utf-8"))
    taken: list = []

    def go(confirm: bool) -> int:
        taken.append(night.record_result(store, args.match, text, args.board, mac, None, None,
                                         tournament_id=t["id"], kind="manual",
                                         confirm_in_play=confirm))
        return 0

    done = asking(args, go)
    if done:
        return done
    fresh = taken[0]
    match = next(m for m in store.matches.all(t["id"]) if m["code"] == args.match)
    if not fresh:
        print("%s has this result already; nothing changed." % args.match)
        return 0
    print("%s: %s %d : %d %s, %s wins (entered by hand, signed by the director)."
          % (args.match, match["player1"], match["score1"], match["score2"], match["player2"],
             match["winner"]))
    if match["table"] is not None:
        queue = store.tables.schedule(t["id"], match["table"])
        print("Table %d: %s." % (match["table"], match_text(queue[0]) if queue else "free"))
    return 0


def results(args: argparse.Namespace, store: Store) -> int:
    if args.history:
        return history(args, store)
    t = current(args, store)
    rows = store.results.all(t["id"])
    problems = store.results.problems(t["id"], rows)
    for row in rows:
        row["check"] = {True: "ok", False: "FAILED", None: "unsigned"}[row["verified"]]
    if not (args.json or args.csv):
        for row in rows:  # (a result the store file moved onto an unplayed match: no score)
            row["score"] = ("" if None in (row["score1"], row["score2"])
                            else "%d:%d" % (row["score1"], row["score2"]))
        emit(args, ["match", "round", "table", "player1", "score", "player2", "winner",
                     "board", "check"], rows)
        return say_problems(problems)
    for row in rows:
        del row["check"], row["result_id"]
    emit(args, [], rows)
    return say_problems(problems, sys.stderr)


def standings(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    if t["format"] == "bracket":
        return _bracket_standings(args, store, t)
    unit = "points" if t["game"] in ("14.1", "kaisa") else "racks"
    players = store.players.all(t["id"])
    counted, not_counted = _checked(store, t["id"])
    problems = store.results.problems(t["id"])
    finished = [{"player1": m["player1_id"], "player2": m["player2_id"],
                 "score1": m["score1"], "score2": m["score2"], "winner": m["winner_id"]}
                for m in store.matches.all(t["id"]) if m["code"] in counted]
    names = {p["id"]: p["name"] for p in players}
    rows = [{"rank": r.rank, "player": names[r.player], "played": r.played, "won": r.won,
             "lost": r.lost, "for": r.scored, "against": r.conceded,
             "difference": r.difference}
            for r in lists.league([p["id"] for p in players], finished)]
    if not (args.json or args.csv):
        print("%s: %s, race to %d" % (t["name"], GAME_NAMES[t["game"]], t["race_to"]))
        headings = {"for": unit + " for", "against": "against", "difference": "diff"}
        print(render_table([headings.get(c, c) for c in rows[0]] if rows else ["player"],
                           [list(r.values()) for r in rows]))
        _say_not_counted(not_counted)
        return say_problems(problems)
    emit(args, [], rows, {"tournament": t["name"], "format": t["format"] or "list",
                           "unit": unit, "standings": rows, "not_counted": not_counted,
                           "problems": problems})
    if args.csv:
        _say_not_counted(not_counted, sys.stderr)
    return say_problems(problems, sys.stderr)


def _checked(store: Store, tournament_id: int) -> tuple[set, list[dict]]:
    """The matches whose result verifies, and the results that do not (not counted)."""
    counted, not_counted = set(), []
    for row in store.results.all(tournament_id):
        if row["verified"]:
            counted.add(row["match"])
        else:
            not_counted.append({"match": row["match"], "board": row["board"],
                                "check": "FAILED" if row["verified"] is False else "unsigned"})
    return counted, not_counted


def _say_not_counted(rows: list[dict], out=None) -> None:
    for row in rows:
        print("Not counted: %s (from %s), its result is %s: `pilkku results` shows it; replace it "
              "with pilkku correct %s --score A:B --reason TEXT"
              % (row["match"], row["board"], row["check"], row["match"]), file=out or sys.stdout)


def _round_name(number: int, last: int) -> str:
    names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return names.get(last - number, "Round %d" % number)


def _bracket_standings(args: argparse.Namespace, store: Store, t: dict) -> int:
    matches = store.matches.all(t["id"])
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
    problems = store.results.problems(t["id"])
    if args.json:
        stages = [{"round": r, "stage": _round_name(r, last),
                   "matches": [row for row in rows if row["round"] == r]}
                  for r in range(1, last + 1)]
        emit(args, [], rows, {"tournament": t["name"], "format": "bracket",
                               "rounds": stages, "winner": champion, "problems": problems})
    elif args.csv:
        emit(args, [], rows)
    else:
        _print_bracket(t, rows, last, champion)
        _say_not_counted(_checked(store, t["id"])[1])
        return say_problems(problems)
    return say_problems(problems, sys.stderr)


def _slot_text(row: dict, i: int) -> str:
    if row["player%d" % i] is None:
        return "winner of %s" % row["from%d" % i]
    return row["player%d" % i] + (" (bye)" if row["bye%d" % i] else "")


def _print_bracket(t: dict, rows: list[dict], last: int, champion: str | None) -> None:
    print("%s: %s, race to %d, single elimination" % (t["name"], GAME_NAMES[t["game"]],
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
