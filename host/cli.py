"""The `pilkku` command on the laptop."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rules_core import matchlog


def _read_log(path: str) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise SystemExit("pilkku: cannot read %s: %s" % (path, error.strerror)) from None
    try:
        return json.loads(text)
    except ValueError as error:
        raise SystemExit("pilkku: %s is not JSON (%s); is it a pilkku match log?"
                         % (path, error)) from None


def cmd_replay(args: argparse.Namespace) -> int:
    from host import replay

    doc = _read_log(args.log)
    try:
        if args.json:
            print(json.dumps(replay.final_state(doc), indent=2, sort_keys=True,
                             ensure_ascii=False))
        else:
            lines = list(replay.render(doc))
            print("\n".join(lines))
    except matchlog.BadLog as bad:
        print("pilkku replay: %s: %s" % (args.log, bad.text), file=sys.stderr)
        return 2
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    from host import board_service

    if args.action == "start":
        return board_service.start(Path(args.dir), update=args.update, show=args.show)
    return board_service.stop(Path(args.dir))


def cmd_sim(args: argparse.Namespace) -> int:
    from host import sim

    return sim.main(args.script, args.dir)


def cmd_flash(args: argparse.Namespace) -> int:
    from host import flash

    return flash.main(args.port)


def cmd_bench(args: argparse.Namespace) -> int:
    from host import bench

    return bench.run(bench.QUICK if args.quick else bench.FULL, args.json)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pilkku", description="pilkku: the table-side billiards scoreboard, laptop side.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    replay = sub.add_parser(
        "replay", help="read a match log back, rack by rack",
        description="Replay a match log (format pilkku.match/1) and print it as a referee "
                    "reads it, or its final state as JSON. A log the rules refuse exits 2 "
                    "naming the event.")
    replay.add_argument("log", help="the match log file (.json)")
    replay.add_argument("--json", action="store_true", help="print the final state as JSON")
    replay.set_defaults(func=cmd_replay)

    board = sub.add_parser(
        "board", help="run a virtual board (the firmware in MicroPython on a pty)",
        description="Start or stop a virtual board: the real firmware in the MicroPython unix "
                    "port, its flash in DIR/flash.img, its USB serial on a pseudo-terminal "
                    "that mpremote, `pilkku flash` and `pilkku sync` use as a real port.")
    board.add_argument("action", choices=("start", "stop"))
    board.add_argument("dir", help="the board's folder (its flash image lives there)")
    board.add_argument("--update", action="store_true",
                       help="install the current firmware first (a fresh DIR gets it anyway)")
    board.add_argument("--show", action="store_true", help="print the displays as they change")
    board.set_defaults(func=cmd_board)

    sim = sub.add_parser(
        "sim", help="the scoreboard in the terminal, keyboard as the referee's keypad",
        description="Start a virtual board and draw its displays in the terminal; the "
                    "keyboard is the referee's keypad (see docs/referee.md). With --script, "
                    "or without a terminal, play key presses and print each changed frame.")
    sim.add_argument("--script", help="a file of key presses (see examples/sim-demo.txt)")
    sim.add_argument("--dir", help="keep the board's flash in this folder (default: temporary)")
    sim.set_defaults(func=cmd_sim)

    flash = sub.add_parser(
        "flash", help="install the firmware on a board over USB serial",
        description="Compile the firmware for the board's MicroPython and copy what changed "
                    "(files under rules_core/, hardware/, firmware/, main.py); the board's "
                    "data stays. Then soft-reset, check the version and run the firmware.")
    flash.add_argument("--port", required=True,
                       help="the board's serial port (/dev/ttyACM0; a virtual board's pty)")
    flash.set_defaults(func=cmd_flash)

    bench = sub.add_parser(
        "bench", help="measure speed, memory, flash and bytes on the real firmware",
        description="Benchmarks on the MicroPython unix port and virtual boards: replay, "
                    "undo, key to display, heap, compiled size, I2C, flash, sync, journal "
                    "(docs/performance.md). Progress on stderr.")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--quick", action="store_true", help="tiny sizes: the plumbing only")
    bench.set_defaults(func=cmd_bench)

    from host import sync_cli, tournament_cli  # tournament, players, matches, ..., sync, pair

    tournament_cli.add_commands(sub)
    sync_cli.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
