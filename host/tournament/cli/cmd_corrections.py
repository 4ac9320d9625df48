"""The director's corrections on the `pilkku` parser: `correct` (replace a result), `walkover`,
`withdraw`, `players rename`, `tables --remove/--release` (in cmd_prepare's `tables`) and
`results --history`. The store does the work (host/tournament/night/corrections.py)."""

from __future__ import annotations

import argparse
import json
import sys

from host import i18n
from host.arguments import whole
from host.i18n import N_, _, pgettext
from host.tournament import night
from host.tournament.cli import cmd_pairing
from host.tournament.cli.cmd_hand import add_yes
from host.tournament.cli.console import (
    YES,
    asking,
    board_word,
    check_word,
    current,
    emit,
    render_table,
    run,
    say_problems,
    score_words,
)
from host.tournament.night.consequences import choice_text
from host.tournament.night.follow import WITHDRAWN
from host.tournament.night.hand import board_result
from host.tournament.night.imports import read_text
from host.tournament.store import Store, StoreError

# How a result came (store.results' kinds), as the history's text table says it.
KINDS = {"board": N_("board"), "manual": N_("manual"), "correction": N_("correction"),
         "walkover": N_("walkover"), "hand": N_("hand"), "void": N_("void"),
         "both_lose": N_("lost by both")}


def correct(args: argparse.Namespace, store: Store) -> int:
    """The plan shown first (what the correction does to the draw and the tables), then
    applied: when it changes more than the match, asked at a terminal (without one: refused
    naming --yes), at once with --yes; --dry-run and --json only show it (--json --yes
    applies it too). --json is data: the plan's words in English, whatever the CLI's language
    (its refusals too: a script reads them)."""
    if args.json and i18n.language() != "en":
        with i18n.use("en"):
            return correct(args, store)
    t = current(args, store)
    given = _corrected(args, store, t["id"])
    revision = store.db.revision()
    plan = night.correction_plan(store, t["id"], args.match, played=args.played, **given)
    # Applied as shown while nothing is written meanwhile (else planned again, and refused if
    # the plan changed): the plan of a big hakukaavio replays its draw.
    planned = (revision, plan) if store.db.revision() == revision else None
    shown = plan.as_dict()
    if args.json:
        print(json.dumps(dict(shown, applied=bool(args.yes and not args.dry_run
                                                   and not plan.choice_needed)),
                         indent=2, ensure_ascii=False))
    else:
        print(plan.text())
    if args.dry_run or (args.json and not args.yes):
        return 0
    if plan.choice_needed:
        raise StoreError(choice_text(plan))
    if not args.yes and _changes_the_draw(plan):
        if not sys.stdin.isatty():
            raise StoreError(_("nothing was changed: add --yes to apply this correction "
                               "(no terminal to ask at)"))
        print(_("Apply?") + " " + _("[y/N]") + " ", end="", flush=True)
        if sys.stdin.readline().strip().lower() not in YES:
            print(_("Nothing was changed."))
            return 1
    new = night.correct(store, t["id"], args.match, args.reason, played=args.played,
                        shown=shown, planned=planned, **given)
    if args.json:
        return 0
    match = _match(store, t["id"], args.match)
    print(_("%(match)s corrected: %(player1)s %(score1)d : %(score2)d %(player2)s, %(winner)s "
            "wins (result #%(result)d, signed by the director; the old one is kept: pilkku "
            "results --history).") % dict(score_words(args.match, match), result=new["id"]))
    return 0


def _changes_the_draw(plan) -> bool:
    """More than the match itself changes (a correction that changes nothing else is made
    without asking, as before)."""
    return bool(plan.redrawn or plan.depends or plan.new or plan.queues)


def _corrected(args: argparse.Namespace, store: Store, tournament_id: int) -> dict:
    """The corrected result as night.correct takes it."""
    if not args.use_board_result and (args.log is None) == (args.score is None):
        raise StoreError(_("give the corrected result: --score A:B (player 1's first), or "
                           "--log FILE (a corrected match log)"))
    if args.use_board_result:  # a board's result kept aside, not counted (it came late)
        return {"log_text": board_result(store, tournament_id, args.match)}
    if args.log is not None:
        return {"log_text": read_text(args.log), "damaged": args.damaged}
    return {"score": args.score, "winner": args.winner, "damaged": args.damaged}


def _match(store: Store, tournament_id: int, code: str) -> dict:
    return next(m for m in store.matches.all(tournament_id) if m["code"] == code)


def walkover(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)

    def go(confirm: bool) -> int:
        night.walkover(store, t["id"], args.match, args.winner, args.reason,
                       confirm_in_play=confirm)
        return 0

    done = asking(args, go)
    if done:
        return done
    match = _match(store, t["id"], args.match)
    print(_("%(match)s: %(winner)s wins by walkover (%(score1)d : %(score2)d), signed by the "
            "director.") % score_words(args.match, match))
    return 0


def withdraw(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    decided: list[str] = []

    def go(confirm: bool) -> int:
        decided.extend(night.withdraw(store, t["id"], args.player, args.reason,
                                      confirm_in_play=confirm))
        return 0

    done = asking(args, go)
    if done:
        return done
    print(_("%(player)s has withdrawn.") % {"player": args.player} + " " + (
        _("Walkovers: %(matches)s.") % {"matches": ", ".join(decided)} if decided else
        _("No match is decided by it now (a bracket match waiting for its players is decided "
          "when they are known).")))
    return 0


def players_rename(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    night.rename_player(store, t["id"], args.old, args.new)
    print(_("'%(old)s' is now '%(new)s'; the boards show the new name from their next sync.")
          % {"old": args.old, "new": args.new.strip()})
    return 0


def history(args: argparse.Namespace, store: Store) -> int:
    t = current(args, store)
    rows = store.results.history(t["id"])
    for row in rows:
        row["check"] = {True: "ok", False: "FAILED", None: "unsigned"}[row["verified"]]
        row["status"] = ("not counted (#%d first)" % row["replaced_by"] if row["set_aside"]
                         else "replaced by #%d" % row["replaced_by"] if row["replaced_by"]
                         else "current")
    if args.json or args.csv:
        for row in rows:
            del row["check"], row["status"]
        if args.json:  # (the director's pairings too, as the text lists them: DC's)
            rows += cmd_pairing.pairing_rows(store, t["id"])
        emit(args, [], rows)
        return say_problems(store.results.problems(t["id"]), sys.stderr)
    for row in rows:  # the text table in the CLI's language
        row["check"] = check_word(row["verified"])
        row["status"] = (_("not counted (#%(result)d first)") if row["set_aside"]
                         else _("replaced by #%(result)d") if row["replaced_by"]
                         else _("current")) % {"result": row["replaced_by"] or 0}
        row["kind"] = _(KINDS[row["kind"]]) if row["kind"] in KINDS else row["kind"]
        row["board"] = board_word(row["board"])
        if row["reason"] == WITHDRAWN:  # (the walkovers a withdrawal gave: the store's word)
            row["reason"] = _("withdrawn")
    table = [["#%d" % r["result"], r["match"], r["kind"], r["board"],
              "" if r["score1"] is None else "%d:%d" % (r["score1"], r["score2"]),
              r["winner"] or "", r["status"], r["check"], r["reason"]] for r in rows]
    # (the result's number, beside its score: a heading of its own in Finnish and Swedish)
    print(render_table([pgettext("result's number", "result"), "match", "kind", "board",
                        "score", "winner", "status", "check", "reason"], table))
    for line in cmd_pairing.pairing_lines(store, t["id"]):  # (night/pairing.py)
        print(line)
    return say_problems(store.results.problems(t["id"]))


def table_changes(args: argparse.Namespace, store: Store, tournament_id: int) -> None:
    """`pilkku tables --remove N` / `--release N`."""
    if args.remove is not None:
        moved = night.remove_table(store, tournament_id, args.remove)
        if moved:
            print(_("Table %(table)d removed; its queue (%(matches)s) goes to the other tables.")
                  % {"table": args.remove, "matches": ", ".join(moved)})
        else:
            print(_("Table %(table)d removed.") % {"table": args.remove})
    if args.release is not None:
        holder = night.release_table(store, tournament_id, args.release)
        print((_("Table %(table)d released from board %(board)s: the next board synced with "
                 "--table %(table)d takes it.") if holder else
               _("Table %(table)d released (no board held it): the next board synced with "
                 "--table %(table)d takes it.")) % {"table": args.release, "board": holder})


def add_commands(sub, common) -> None:
    """Register `correct`, `walkover` and `withdraw`; `common(...)` makes --db/--tournament."""
    cor = sub.add_parser(
        "correct", parents=[common()], help=_("replace a match's result (the old one is kept)"),
        description=_("Replace the result of a finished match: with --score A:B (player 1's "
                    "score first; --winner NAME if the score is level) or with --log FILE, a "
                    "corrected match log. The new result is signed by the director; the old "
                    "one stays in `pilkku results --history`. A match whose result came "
                    "damaged from its board is entered the same way. What it changes in the "
                    "draw is shown first: later matches that stand, those redrawn (not "
                    "started), those played or in play that were drawn from the old result "
                    "(--played keep or void), the tables whose queue changes; then asked "
                    "(--yes: at once)."))
    cor.add_argument("match", metavar="MATCH", help=_("the match id, e.g. R1-02"))
    how = cor.add_mutually_exclusive_group()
    how.add_argument("--score", metavar="A:B", help=_("the corrected score, player 1's first"))
    how.add_argument("--log", metavar="FILE", help=_("a corrected match log (pilkku.match/1)"))
    how.add_argument("--use-board-result", action="store_true",
                     help=_("count the board's result that came after the match was decided "
                          "(kept aside, not counted: pilkku results --history)"))
    cor.add_argument("--winner", metavar="NAME", help=_("the winner, if the score does not say"))
    cor.add_argument("--damaged", type=whole(1, 1 << 40), metavar="ID",
                     help=_("the damaged result (as pilkku results names it) this match is"))
    cor.add_argument("--reason", required=True, help=_("why (kept with the result)"))
    cor.add_argument("--played", choices=("keep", "void"),
                     help=_("matches drawn from the old result that are played or in play: "
                          "keep them as played (the hakukaavio), or void them"))
    cor.add_argument("--yes", action="store_true", help=_("apply it without asking"))
    cor.add_argument("--dry-run", action="store_true", help=_("show what it would change, only"))
    cor.add_argument("--json", action="store_true",
                     help=_("print what it changes as JSON (applied only with --yes)"))
    cor.set_defaults(func=run(correct))
    wo = sub.add_parser(
        "walkover", parents=[common()], help=_("a match won without being played"),
        description=_("Record that WINNER wins MATCH by walkover (the opponent did not come): "
                    "the winner is credited with the race, the opponent with 0; signed by "
                    "the director."))
    wo.add_argument("match", metavar="MATCH", help=_("the match id"))
    wo.add_argument("winner", metavar="WINNER", help=_("the player who wins it"))
    wo.add_argument("--reason", required=True, help=_("why (kept with the result)"))
    add_yes(wo)
    wo.set_defaults(func=run(walkover))
    wd = sub.add_parser(
        "withdraw", parents=[common()], help=_("a player leaves the tournament"),
        description=_("PLAYER plays no more. Their results so far stand; what becomes of their "
                    "remaining matches follows the format (docs/tournament.md): in a round "
                    "robin and a bracket each is a walkover for the opponent."))
    wd.add_argument("player", metavar="PLAYER", help=_("the player's name"))
    wd.add_argument("--reason", required=True, help=_("why (kept with the walkovers)"))
    add_yes(wd)
    wd.set_defaults(func=run(withdraw))


def add_rename(actions, common) -> None:
    ren = actions.add_parser(
        "rename", parents=[common(nested=True)], help=_("correct a player's name"),
        description=_("Rename a player. Logs naming the old name (a board still holding the "
                    "match) are still taken as theirs."))
    ren.add_argument("old", metavar="OLD", help=_("the name now"))
    ren.add_argument("new", metavar="NEW", help=_("the corrected name"))
    ren.set_defaults(func=run(players_rename))
