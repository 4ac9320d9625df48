"""The director's subcommands on the `pilkku` parser: tournament, players, matches, tables,
assign, record, results and standings. Each opens the store, does one thing and prints it as an
aligned table, or --csv / --json where asked; refusals go to stderr with exit code 2. The
commands themselves are in cmd_prepare.py and cmd_results.py."""

from __future__ import annotations

import argparse

from host.arguments import store_options, whole
from host.games import GAME_NAMES
from host.i18n import _
from host.tournament.cli import (
    cmd_corrections,
    cmd_entries,
    cmd_hand,
    cmd_pairing,
    cmd_series,
    cmd_series_people,
    cmd_series_prize,
)
from host.tournament.cli.cmd_bracket import bracket
from host.tournament.cli.cmd_prepare import (
    assign,
    matches_generate,
    matches_import,
    matches_list,
    players_import,
    players_list,
    tables,
    tournament_list,
    tournament_new,
)
from host.tournament.cli.cmd_results import record, results, standings
from host.tournament.cli.cmd_series_prize import tournament_language
from host.tournament.cli.console import run
from host.tournament.formats import FORMATS
from host.tournament.formats.hakukaavio_places import DEFAULT, PLACINGS
from host.tournament.store.tournaments import BOARD_LANGUAGES


def _common(with_tournament: bool = True, outputs: bool = False,
            nested: bool = False) -> argparse.ArgumentParser:
    """The store options (host/arguments.py), and --csv/--json where the command prints rows."""
    common = store_options(with_tournament, nested)
    if outputs:
        flag = argparse.SUPPRESS if nested else False
        form = common.add_mutually_exclusive_group()
        form.add_argument("--csv", action="store_true", default=flag, help=_("print CSV"))
        form.add_argument("--json", action="store_true", default=flag, help=_("print JSON"))
    return common


def _format_options(new: argparse.ArgumentParser) -> None:
    """--format and each format's options (docs/formats.md)."""
    group = new.add_argument_group(_("format (docs/formats.md)"))
    group.add_argument("--format", choices=FORMATS, help=_("how the matches are drawn; "
                       "`pilkku matches generate` then draws it"))
    group.add_argument("--knockout-from", type=whole(2, 6), metavar="R",
                       help=_("hakukaavio: from round R (2-6) one loss eliminates "
                            "(default: two losses to the end)"))
    group.add_argument("--seeds", type=whole(0, 24), default=0, metavar="K",
                       help=_("hakukaavio: the first K players of the list are seeds "
                            "(1-8, or 24)"))
    group.add_argument("--placings", choices=PLACINGS, default=DEFAULT,
                       help=_("hakukaavio: how the final ranking places players (default "
                            "rounds: by the round a player went out, then wins, then points; "
                            "wins: the winner, then by wins and points; see docs/formats.md)"))
    group.add_argument("--no-reset", action="store_true",
                       help=_("double: one grand final, no bracket reset"))
    group.add_argument("--groups", type=whole(1, 26), default=2, metavar="G",
                       help=_("groups: how many groups (snake seeded)"))
    group.add_argument("--advance", type=whole(), default=2, metavar="K",
                       help=_("groups: the top K of each group go to the knockout"))


def add_commands(sub) -> None:
    """Register the tournament commands on the `pilkku` subparsers."""
    _add_tournament(sub)
    _add_players(sub)
    _add_matches(sub)
    _add_tables(sub)
    _add_results(sub)
    cmd_corrections.add_commands(sub, _common)
    cmd_hand.add_commands(sub, _common)
    cmd_pairing.add_commands(sub, _common)
    cmd_series_people.add_commands(sub, _common)  # people, series (the season's: issue 30)
    cmd_series.add_commands(sub, _common)
    cmd_series_prize.add_commands(sub, _common)  # prize, post


def _add_tournament(sub) -> None:
    parser = sub.add_parser("tournament", help=_("start a tournament, or list them"),
                            description=_("A store holds several tournaments; the commands act "
                                        "on the latest unless given --tournament NAME."))
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser(
        "new", parents=[_common(False)], help=_("start a tournament (it becomes the current one)"),
        description=_("Start a tournament: its game, the race and any ruleset options every "
                    "match plays by. A random pairing key is made for its boards."))
    new.add_argument("name", metavar="NAME",
                     help=_("the tournament's name, e.g. 'Club Night 2025-03'"))
    new.add_argument("--game", required=True, choices=sorted(GAME_NAMES), help=_("the game played"))
    new.add_argument("--race", required=True, type=whole(), metavar="N",
                     help=_("racks (8/9-ball) or points (14.1, Kaisa) to win a match"))
    new.add_argument("--rule", action="append", metavar="NAME=VALUE",
                     help=_("a ruleset option (docs/match-log.md), e.g. break_rule=alternate; "
                          "repeat for more"))
    new.add_argument("--board-lang", choices=BOARD_LANGUAGES,
                     help=_("the language of the boards' displays (default en)"))
    _format_options(new)
    new.set_defaults(func=run(tournament_new))
    listing = actions.add_parser("list", parents=[_common(False)],
                                 help=_("the tournaments in the store"))
    listing.set_defaults(func=run(tournament_list))
    lang = actions.add_parser(
        "language", parents=[_common()],
        help=_("the tournament's language: its boards' displays and its texts to post"),
        description=_("The language of the tournament's boards (sent at the next sync) and of "
                      "its invitation and results (pilkku post). Without LANG: which it is."))
    lang.add_argument("lang", nargs="?", choices=BOARD_LANGUAGES, metavar="LANG",
                      help=_("en, fi or sv"))
    lang.set_defaults(func=run(tournament_language))


def _add_players(sub) -> None:
    parser = sub.add_parser(
        "players", parents=[_common(outputs=True)], help=_("import or list the players"),
        description=_("List the players (seed order), or import them from a CSV file."))
    parser.set_defaults(func=run(players_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    imp = actions.add_parser(
        "import", parents=[_common(nested=True)],
        help=_("add players from a CSV file (all or none)"),
        description=_("Add players from a CSV file with the header name,club (club optional). "
                    "Names are unique within a tournament; the file order is the seeding. "
                    "A bad line refuses the whole file (exit 2), naming the line."))
    imp.add_argument("file", metavar="FILE", help=_("the CSV file"))
    imp.set_defaults(func=run(players_import))
    actions.add_parser("list", parents=[_common(outputs=True, nested=True)],
                       help=_("list the players"))
    cmd_corrections.add_rename(actions, _common)
    cmd_entries.add_command(actions, _common)


def _add_matches(sub) -> None:
    parser = sub.add_parser(
        "matches", parents=[_common(outputs=True)],
        help=_("import, draw (round robin / bracket) or list the matches"),
        description=_("List the matches in order of play with their table and status, or "
                    "import them from CSV, or draw them from the players."))
    parser.set_defaults(func=run(matches_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    imp = actions.add_parser(
        "import", parents=[_common(nested=True)],
        help=_("add matches from a CSV file (all or none)"),
        description=_("Add matches from a CSV file with the header id,player1,player2 and "
                    "optionally round and table. Ids are unique; players must be imported "
                    "first; a table queues the match there. A bad line refuses the whole file "
                    "(exit 2), naming the line."))
    imp.add_argument("file", metavar="FILE", help=_("the CSV file"))
    imp.set_defaults(func=run(matches_import))
    gen = actions.add_parser(
        "generate", parents=[_common(nested=True)], help=_("draw a round robin or a bracket"),
        description=_("Draw the matches from the players: a round robin (everyone meets once), "
                    "or a single-elimination bracket seeded by player order, byes to the top "
                    "seeds, winners advancing as results arrive. Only on a tournament with no "
                    "matches yet."))
    kind = gen.add_mutually_exclusive_group()
    kind.add_argument("--round-robin", action="store_true", help=_("everyone meets everyone"))
    kind.add_argument("--bracket", action="store_true", help=_("single elimination"))
    gen.epilog = _("Without --round-robin or --bracket: the format chosen at `pilkku "
                   "tournament new --format` (double, groups, hakukaavio: the opening; later "
                   "games are drawn as results arrive).")
    gen.set_defaults(func=run(matches_generate))
    actions.add_parser("list", parents=[_common(outputs=True, nested=True)],
                       help=_("list the matches"))


def _add_tables(sub) -> None:
    tab = sub.add_parser(
        "tables", parents=[_common()], help=_("set up the tables, or show what each plays"),
        description=_("With N, make tables 1 to N (more can be added later). Always shows each "
                    "table's current match and its queue."))
    tab.add_argument("count", nargs="?", type=whole(), metavar="N", help=_("the number of tables"))
    tab.add_argument("--remove", type=whole(), metavar="N",
                     help=_("take table N out of use: its queue goes to the other tables"))
    tab.add_argument("--release", type=whole(), metavar="N",
                     help=_("forget which board holds table N (a board replaced)"))
    tab.set_defaults(func=run(tables))
    asg = sub.add_parser(
        "assign", parents=[_common()], help=_("send a match to a table (or --auto)"),
        description=_("Queue MATCH at TABLE (moving it if it was queued elsewhere). With --auto, "
                    "give every free table the next waiting match whose players are free. "
                    "After each result the table that finished, then any other free table, "
                    "gets its next match by itself."))
    asg.add_argument("match", nargs="?", metavar="MATCH", help=_("the match id, e.g. R1-02"))
    asg.add_argument("table", nargs="?", type=whole(), metavar="TABLE", help=_("the table number"))
    asg.add_argument("--auto", action="store_true", help=_("fill every free table"))
    asg.set_defaults(func=run(assign))


def _add_results(sub) -> None:
    rec = sub.add_parser(
        "record", parents=[_common()], help=_("enter a result from a match log file by hand"),
        description=_("Enter the result of MATCH from its match log (a board's log copied by "
                    "hand). The log must replay and name the match's players; it is stored "
                    "signed by the director. Results from boards arrive with `pilkku sync`."))
    rec.add_argument("match", metavar="MATCH", help=_("the match id"))
    rec.add_argument("log", nargs="?", metavar="LOG",
                     help=_("the match log file (.json, format pilkku.match/1)"))
    rec.add_argument("--board", default="manual", help=_("the board it came from"))
    rec.add_argument("--score", metavar="A:B",
                     help=_("instead of a log: the score from the score sheet, player 1's "
                          "first (5:3); a 'v' after the winner's score marks a game decided "
                          "otherwise than at the race: 45v:35 or 35-45v"))
    rec.add_argument("--winner", metavar="NAME", help=_("with --score: the winner, if the "
                                                      "score does not say"))
    rec.add_argument("--reason", help=_("with --score: why it is typed in (kept with it)"))
    cmd_hand.add_yes(rec)
    rec.set_defaults(func=run(record))
    res = sub.add_parser(
        "results", parents=[_common(outputs=True)], help=_("the results so far"),
        description=_("Finished matches with score, winner and board. check: ok (the "
                    "signature holds), FAILED (the stored log or score was edited), unsigned "
                    "(from an older pilkku). --history: every result ever taken, the replaced "
                    "ones too."))
    res.add_argument("--history", action="store_true",
                     help=_("every result, the replaced ones too, with who entered it and why"))
    res.set_defaults(func=run(results))
    sta = sub.add_parser(
        "standings", parents=[_common(outputs=True)],
        help=_("the ranking: the standings so far, then the final ranking"),
        description=_("The tournament's one ranking, the same as `pilkku bracket` and the hall "
                    "show (docs/formats.md, 'The final ranking'): place, played, won, lost, "
                    "racks or points for and against, where a player went out. A round robin "
                    "(or an imported list) by wins, then difference, then head-to-head; a "
                    "knockout by the round a player went out in; players level share a "
                    "place. A single elimination also as its bracket."))
    sta.set_defaults(func=run(standings))
    bra = sub.add_parser(
        "bracket", parents=[_common(outputs=False)],
        help=_("the draw as the players see it (double, groups, hakukaavio)"),
        description=_("Every round: who meets whom, the results, who went out; then the "
                    "ranking (the standings so far, the final ranking once it has ended: the "
                    "same as `pilkku standings`). --json gives the same as data."))
    bra.add_argument("--json", action="store_true", help=_("print JSON"))
    bra.set_defaults(func=run(bracket))
