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


def build_parser() -> argparse.ArgumentParser:
    from importlib import import_module

    parser = argparse.ArgumentParser(
        prog="pilkku", description="pilkku: the table-side billiards scoreboard, laptop side.")
    parser.add_argument("--version", action="version", version="pilkku " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        import_module(name).add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
