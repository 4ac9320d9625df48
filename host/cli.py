"""The `pilkku` command on the laptop: its entry point and its table of subcommands. Each
package registers its own (`add_commands`); what a subcommand does lives there."""

from __future__ import annotations

import argparse
import sys

from host import __version__

# The packages that add subcommands, in the order `pilkku --help` lists them.
COMMANDS = (
    "host.replay.command",     # replay
    "host.board.commands",     # board, sim, flash
    "host.bench.command",      # bench
    "host.tournament.commands",  # tournament, players, matches, tables, assign, record, ...
    "host.sync.commands",      # sync, pair
)

GLOBAL_OPTIONS = ("db", "tournament")


def build_parser() -> argparse.ArgumentParser:
    from importlib import import_module

    parser = argparse.ArgumentParser(
        prog="pilkku", description="pilkku: the table-side billiards scoreboard, laptop side.")
    parser.add_argument("--version", action="version", version="pilkku " + __version__)
    parser.add_argument("--db", metavar="PATH",
                        help="the tournament store (default: $PILKKU_DB, else ./pilkku.db)")
    parser.add_argument("--tournament", metavar="NAME",
                        help="act on this tournament (default: the latest created)")
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
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
