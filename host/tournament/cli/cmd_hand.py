"""The director's results without a board's log: `record MATCH --score A:B` (a score from a
paper sheet), `void MATCH` and `both-lose MATCH`. The night does the work
(host/tournament/night/hand.py); a match being played at its table is asked about
(console.asking)."""

from __future__ import annotations

import argparse

from host.i18n import _
from host.tournament.cli.console import asking, current, run
from host.tournament.night import hand
from host.tournament.night.plan_text import followed_said
from host.tournament.store import Store, StoreError


def record_score(args: argparse.Namespace, store: Store) -> int:
    """`pilkku record MATCH --score A:B [--winner NAME] --reason TEXT`."""
    t = current(args, store)
    if args.log is not None:
        raise StoreError(_("give the result either as a match log file or as --score A:B, "
                           "not both"))
    if not args.reason:
        raise StoreError(_("a score typed in needs --reason TEXT (e.g. \"the board broke, "
                           "from the score sheet\")"))
    new = None

    def decide(confirm: bool) -> int:
        nonlocal new
        new = hand.record_hand(store, t["id"], args.match, args.score, args.reason,
                               winner=args.winner, confirm_in_play=confirm)
        return 0

    code = asking(args, decide)
    if new is None:
        return code
    match = _match(store, t["id"], args.match)
    print(_("%(match)s: %(player1)s %(score1)d : %(score2)d %(player2)s, %(winner)s wins (typed "
            "in by the director, result #%(result)d, signed).")
          % {"match": args.match, "player1": match["player1"], "score1": match["score1"],
             "score2": match["score2"], "player2": match["player2"], "winner": match["winner"],
             "result": new["id"]})
    _say_table(store, t["id"], match)
    return 0


def void(args: argparse.Namespace, store: Store) -> int:
    return _no_winner(args, store, "void")


def both_lose(args: argparse.Namespace, store: Store) -> int:
    return _no_winner(args, store, "both_lose")


def _no_winner(args: argparse.Namespace, store: Store, outcome: str) -> int:
    t = current(args, store)
    new = None

    def decide(confirm: bool) -> int:
        nonlocal new
        new = hand.no_winner(store, t["id"], args.match, outcome, args.reason,
                             confirm_in_play=confirm, played=args.played)
        return 0

    code = asking(args, decide)
    if new is None:
        return code
    match = _match(store, t["id"], args.match)
    said = (_("%(match)s: %(player1)s vs %(player2)s is void (result #%(result)d, signed by the "
              "director): it does not count.") if outcome == "void" else
            _("%(match)s: %(player1)s vs %(player2)s is lost by both (result #%(result)d, signed "
              "by the director): a loss to each, no points."))
    print(said % {"match": args.match, "player1": match["player1"],
                  "player2": match["player2"], "result": new["id"]})
    if new.get("followed"):
        print(_("The draw: %(changes)s.") % {"changes": followed_said(new["followed"])})
    _say_table(store, t["id"], match)
    return 0


def _match(store: Store, tournament_id: int, code: str) -> dict:
    return next(m for m in store.matches.all(tournament_id) if m["code"] == code)


def _say_table(store: Store, tournament_id: int, match: dict) -> None:
    if match["table"] is not None:
        queue = store.tables.schedule(tournament_id, match["table"])
        print(_("Table %(table)d: %(now)s.") % {
            "table": match["table"], "now": _("%(match)s next") % {"match": queue[0]["match_id"]}
            if queue else _("free")})


def add_commands(sub, common) -> None:
    """Register `void` and `both-lose`; `common(...)` makes --db/--tournament."""
    for name, func, short, text in (
            ("void", void, _("the match does not count (no winner, no loser)"),
             _("MATCH is void: it did not count (played by the wrong players, under the wrong "
             "rules, ...); a match decided already has its result replaced (kept in the "
             "history). In a round robin it is left out of the table; in a hakukaavio the "
             "game is out of the draw and the draw runs again. A bracket or a double cannot "
             "have one (someone must go on): give the match by `pilkku walkover`.")),
            ("both-lose", both_lose, _("both players lose the match (neither came)"),
             _("Both players of MATCH lose it (neither came to the table; next to `pilkku "
             "walkover`, where one does). A round robin counts a loss to each, no points; a "
             "hakukaavio a loss to each. A bracket or a double cannot have one (someone must "
             "go on): give the match by `pilkku walkover`."))):
        cmd = sub.add_parser(name, parents=[common()], help=short, description=text + " " + _(
            "Signed by the director, with the reason; a match being played at its table is "
            "asked about first (--yes: decide it anyway)."))
        cmd.add_argument("match", metavar="MATCH", help=_("the match id, e.g. R1-02"))
        cmd.add_argument("--reason", required=True, help=_("why (kept with it)"))
        cmd.add_argument("--played", choices=("keep", "void"),
                         help=_("a hakukaavio game the draw went on from: the later games "
                              "already played stand (keep) or do not count (void)"))
        add_yes(cmd)
        cmd.set_defaults(func=run(func))


def add_yes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--yes", action="store_true",
                        help=_("decide it even while its table is playing it (the board's "
                             "result is then kept in the history, not counted)"))
