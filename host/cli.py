"""The `pilkku` command on the laptop: its entry point and its table of subcommands. Each
package registers its own (`add_commands`); what a subcommand does lives there.

The command speaks the language of --lang (anywhere on the line), else of the environment
(LC_ALL, LC_MESSAGES, LANG): host/i18n. The language is chosen before the parser is built,
as the help texts are read when it is; argparse's own words come from its catalogue."""

from __future__ import annotations

import argparse
import os
import sys

from host import __version__, i18n
from host.arguments import store_options
from host.errors import UserError
from host.i18n import N_, _, choose

# The packages that add subcommands, in the order `pilkku --help` lists them.
COMMANDS = (
    "host.replay.command",     # replay
    "host.board.commands",     # board, sim, flash
    "host.bench.command",      # bench
    "host.tournament.cli.commands",  # tournament, players, matches, tables, assign, record, ...
    "host.sync.commands",      # sync, pair
    "host.hall.command",       # hall, stats
    "host.desk.command",       # desk
)

GLOBAL_OPTIONS = ("db", "tournament")

# The one-line help of each subcommand as `pilkku --help` lists them, written in the packages
# above in English and translated here when the list is shown (phase 2 of issue 29 marks them
# where they are written; tests/i18n checks this list is the parser's).
COMMAND_HELP = (
    N_("read a match log back, rack by rack"),
    N_("run a virtual board (the firmware in MicroPython on a pty)"),
    N_("the scoreboard in the terminal, keyboard as the referee's keypad"),
    N_("install the firmware on a board over USB serial"),
    N_("measure speed, memory, flash and bytes on the real firmware"),
    N_("start a tournament, or list them"),
    N_("import or list the players"),
    N_("import, draw (round robin / bracket) or list the matches"),
    N_("set up the tables, or show what each plays"),
    N_("send a match to a table (or --auto)"),
    N_("enter a result from a match log file by hand"),
    N_("the results so far"),
    N_("the ranking: the standings so far, then the final ranking"),
    N_("the draw as the players see it (double, groups, hakukaavio)"),
    N_("replace a match's result (the old one is kept)"),
    N_("a match won without being played"),
    N_("a player leaves the tournament"),
    N_("the match does not count (no winner, no loser)"),
    N_("both players lose the match (neither came)"),
    N_("hakukaavio: give a game not started another opponent (a manual pairing)"),
    N_("the people known across the tournaments (a series follows them)"),
    N_("pull results from the boards, push what they play next"),
    N_("give a board the tournament's pairing key"),
    N_("show the tournament on screens: tables, standings, ..."),
    N_("players' statistics from the match logs"),
    N_("run the night from a browser: the hall, the director's desk and the boards' sync in "
       "one"),
    N_("the club's ranking series over its nights (docs/season.md)"),
    N_("the invitation or the results as text to paste"),
    N_("the prize money of a tournament: pot, shares, places paid, rounded to cash"),
)


class Parser(argparse.ArgumentParser):
    """A wrong command line gets one line saying what is wrong and where the help is (the
    subcommands' parsers are made of this class too)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, _("%(prog)s: %(message)s (see: %(prog)s --help)") % {
            "prog": self.prog, "message": message} + "\n")


def build_parser() -> argparse.ArgumentParser:
    from importlib import import_module

    parser = Parser(
        prog="pilkku", description=_("pilkku: the table-side billiards scoreboard, laptop side."),
        parents=[store_options()])
    parser.add_argument("--version", action="version", version="pilkku " + __version__,
                        help=_("show the version of pilkku and exit"))
    parser.add_argument("--lang", choices=i18n.LANGUAGES, default=argparse.SUPPRESS,
                        help=_("the language pilkku speaks: en, fi (suomi) or sv (svenska); "
                               "also after the command (default: from LC_ALL, LC_MESSAGES or "
                               "LANG, else English)"))
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    sub.required = True
    for name in COMMANDS:
        import_module(name).add_commands(sub)
    for shown in sub._choices_actions:  # the list in `pilkku --help`: see COMMAND_HELP
        if shown.help:
            shown.help = _(shown.help)
    _global_options_anywhere(parser)
    return parser


def language_of(words: list[str]) -> tuple[str | None, list[str]]:
    """The --lang given on the line (its value, or "" when it is missing) and the line without
    it; it may stand anywhere before a `--`."""
    given, rest = None, []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            rest.extend(words[index:])
            break
        if word == "--lang":
            given = words[index + 1] if index + 1 < len(words) else ""
            index += 2
            continue
        if word.startswith("--lang="):
            given = word[len("--lang="):]
        else:
            rest.append(word)
        index += 1
    return given, rest


def _global_options_anywhere(parser: argparse.ArgumentParser) -> None:
    """--db and --tournament may come before the subcommand or after it: the subcommands' own
    copies leave the value alone unless given (a subparser's default would overwrite it)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                for option in child._actions:
                    if option.dest in GLOBAL_OPTIONS:
                        option.default = argparse.SUPPRESS
                _global_options_anywhere(child)


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    given, words = language_of(words)
    # The command's whole run, its threads too (a test's call only).
    with i18n.use_everywhere(choose.for_cli(given)):
        return _run(given, words)


def _run(given: str | None, words: list[str]) -> int:
    i18n.install_argparse()
    if given is not None and given not in i18n.LANGUAGES:
        print(_("pilkku: --lang: '%(given)s' is not a language pilkku speaks (en, fi, sv)")
              % {"given": given[:20]}, file=sys.stderr)
        return 2
    for word in words:
        if not _is_text(word):
            print(_("pilkku: the argument %(argument)s is not UTF-8 text: type it again (or "
                    "set a UTF-8 locale)") % {"argument": ascii(word)[:60]}, file=sys.stderr)
            return 2
    args = build_parser().parse_args(words)
    name = " ".join(filter(None, ("pilkku", args.command, getattr(args, "action", None))))
    try:
        return args.func(args)
    except UserError as error:
        print("%s: %s" % (name, error.text), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `pilkku results | head`: the reader has gone, say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as error:  # noqa: BLE001 (the last resort: no traceback for a user)
        # Every bad input has its own message where it is read (tests/host/test_cli_matrix.py
        # fails on this line); this is for what nobody foresaw.
        print(_("%(command)s: internal error (%(kind)s: %(error)s): nothing more was done; "
                "please report it with the command line") % {
                    "command": name, "kind": type(error).__name__, "error": str(error)[:200]},
              file=sys.stderr)
        return 2


def _is_text(word: str) -> bool:
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:  # bytes that were not UTF-8 come in as lone surrogates
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
