"""The director's commands that read the night: `record` (a result entered by hand),
`results` and `standings` (the ranking, night/ranking.py; a single elimination also as
its bracket)."""

from __future__ import annotations

import argparse
import sys

from host.games import GAME_NAMES, POINT_GAMES
from host.hall.words import shown as said
from host.i18n import _
from host.tournament import night
from host.tournament.cli.cmd_bracket import ranking_table
from host.tournament.cli.cmd_corrections import history
from host.tournament.cli.cmd_hand import record_score
from host.tournament.cli.cmd_prepare import match_text
from host.tournament.cli.console import (
    asking,
    board_word,
    check_word,
    current,
    emit,
    render_table,
    say_problems,
    score_words,
)
from host.tournament.night import ranking
from host.tournament.night.imports import read_text
from host.tournament.store import Store, StoreError
from host.tournament.store.results import sign
from host.tournament.store.text import shown


def record(args: argparse.Namespace, store: Store) -> int:
    if args.score is not None:
        return record_score(args, store)
    if args.log is None:
        raise StoreError(_("give the result: a match log file (pilkku record %(match)s LOG), "
                           "or the score from the sheet (pilkku record %(match)s --score A:B "
                           "--reason TEXT)") % {"match": shown(args.match)})
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
        print(_("%(match)s has this result already; nothing changed.") % {"match": args.match})
        return 0
    print(_("%(match)s: %(player1)s %(score1)d : %(score2)d %(player2)s, %(winner)s wins "
            "(entered by hand, signed by the director).") % score_words(args.match, match))
    if match["table"] is not None:
        queue = store.tables.schedule(t["id"], match["table"])
        print(_("Table %(table)d: %(now)s.") % {
            "table": match["table"], "now": match_text(queue[0]) if queue else _("free")})
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
        for row in rows:
            row["check"] = check_word(row["verified"])
            row["board"] = board_word(row["board"])
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


RANKING_COLUMNS = ("place", "player", "played", "won", "lost", "for", "against", "difference",
                   "out", "withdrawn")


def standings(args: argparse.Namespace, store: Store) -> int:
    """The ranking (night/ranking.py: the same as `pilkku bracket` and the hall), under "final
    ranking" once the tournament has ended, "standings so far" before; a single elimination
    also as its bracket."""
    t = current(args, store)
    unit = "points" if t["game"] in POINT_GAMES else "racks"
    ranked = ranking.standings(store, t["id"])
    rows, not_counted = ranked["ranking"], ranked["not_counted"]
    problems = store.results.problems(t["id"])
    single = _bracket_rows(store, t) if t["format"] == "bracket" else None
    if not (args.json or args.csv):
        if single is not None:
            _print_bracket(t, *single)
        else:
            print(_("%(name)s: %(game)s, race to %(race)d") % {
                "name": t["name"], "game": _(GAME_NAMES[t["game"]]), "race": t["race_to"]})
        print("\n" + ranking_table(ranked["title"], rows, unit))
        _say_not_counted(not_counted)
        return say_problems(problems)
    document = {"tournament": t["name"], "format": t["format"] or "list", "unit": unit,
                "final": ranked["final"], "title": ranked["title"], "standings": rows,
                "not_counted": not_counted, "problems": problems}
    if single is not None:
        matches, last, champion = single
        document.update(winner=champion, rounds=[
            {"round": r, "stage": _round_name(r, last),
             "matches": [row for row in matches if row["round"] == r]}
            for r in range(1, last + 1)])
    emit(args, RANKING_COLUMNS, rows, document)  # (the columns: a header with no players)
    if args.csv:
        _say_not_counted(not_counted, sys.stderr)
    return say_problems(problems, sys.stderr)


def _say_not_counted(rows: list[dict], out=None) -> None:
    for row in rows:
        print(_("Not counted: %(match)s (from %(board)s), its result is %(check)s: `pilkku "
                "results` shows it; replace it with pilkku correct %(match)s --score A:B "
                "--reason TEXT") % {
                    "match": row["match"], "board": row["board"],
                    "check": check_word({"ok": True, "FAILED": False}.get(row["check"]))},
              file=out or sys.stdout)


def _round_name(number: int, last: int) -> str:
    names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return names.get(last - number, "Round %d" % number)


def _bracket_rows(store: Store, t: dict) -> tuple[list[dict], int, str | None]:
    """A single elimination's matches as its bracket shows them, its last round, champion."""
    matches = store.matches.all(t["id"])
    last = max((m["round"] for m in matches), default=0)
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
    final = [m for m in matches if m["round"] == last]
    return rows, last, final[0]["winner"] if final else None


def _slot_text(row: dict, i: int) -> str:
    if row["player%d" % i] is None:
        return _("winner of %(match)s") % {"match": row["from%d" % i]}
    return row["player%d" % i] + (" " + _("(bye)") if row["bye%d" % i] else "")


def _print_bracket(t: dict, rows: list[dict], last: int, champion: str | None) -> None:
    """A single elimination round by round, and its champion."""
    print(_("%(name)s: %(game)s, race to %(race)d, single elimination") % {
        "name": t["name"], "game": _(GAME_NAMES[t["game"]]), "race": t["race_to"]})
    for number in range(1, last + 1):
        print("\n%s" % said(_round_name(number, last)) + (
            "" if number == last else " " + _("(round %(number)d)") % {"number": number}))
        table = []
        for row in (r for r in rows if r["round"] == number):
            score = "" if row["winner"] is None else "%d:%d" % (row["score1"], row["score2"])
            where = _("(at table %(table)d)") % {"table": row["table"]} if row["table"] else ""
            table.append([row["match"], _slot_text(row, 1), score, _slot_text(row, 2),
                          row["winner"] or where])
        print(render_table(["match", "player1", "score", "player2", "winner"], table))
    print("\n" + (_("Champion: %(player)s") % {"player": champion} if champion
                  else _("Champion: to be decided")))

