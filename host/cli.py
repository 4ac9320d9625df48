"""The `pilkku` command on the laptop: its entry point and its table of subcommands. Each
package registers its own (`add_commands`); what a subcommand does lives there."""

from __future__ import annotations

import argparse
import os
import sys

from host import __version__
from host.arguments import store_options
from host.errors import UserError

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


class Parser(argparse.ArgumentParser):
    """A wrong command line gets one line saying what is wrong and where the help is (the
    subcommands' parsers are made of this class too)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, "%s: %s (see: %s --help)\n" % (self.prog, message, self.prog))


def build_parser() -> argparse.ArgumentParser:
    from importlib import import_module

    parser = Parser(
        prog="pilkku", description="pilkku: the table-side billiards scoreboard, laptop side.",
        parents=[store_options()])
    parser.add_argument("--version", action="version", version="pilkku " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        import_module(name).add_commands(sub)
    _global_options_anywhere(parser)
    return parser


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
    for word in words:
        if not _is_text(word):
            print("pilkku: the argument %s is not UTF-8 text: type it again (or set a UTF-8 "
                  "locale)" % ascii(word)[:60], file=sys.stderr)
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
        print("%s: internal error (%s: %s): nothing more was done; please report it with the "
              "command line" % (name, type(error).__name__, str(error)[:200]), file=sys.stderr)
        return 2


def _is_text(word: str) -> bool:
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:  # bytes that were not UTF-8 come in as lone surrogates
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
