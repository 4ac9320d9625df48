"""The board subcommands: `pilkku board start|stop`, `pilkku sim` and `pilkku flash`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from host.i18n import N_, _


def cmd_board(args: argparse.Namespace) -> int:
    from host.board import service as board_service

    if args.action == "start":
        return board_service.start(Path(args.dir), update=args.update, show=args.show,
                                   pico=args.pico, uf2=args.uf2)
    return board_service.stop(Path(args.dir))


def cmd_sim(args: argparse.Namespace) -> int:
    from host.board import sim

    return sim.main(args.script, args.dir, args.pico)


def cmd_flash(args: argparse.Namespace) -> int:
    from host.board import flash
    from host.board.registry import check_port
    from host.sync import door

    try:
        check_port(args.port)
    except ValueError as bad:
        print("pilkku flash: %s" % bad, file=sys.stderr)
        return 2
    try:  # a running watcher (pilkku sync --watch, pilkku desk) syncs the board, lends its port
        with door.borrowed_from_every_watcher(args.port, sync=True,
                                              heard=lambda text: print(text, flush=True)):
            return flash.main(args.port)
    except door.DoorError as error:
        print("pilkku flash: %s" % error, file=sys.stderr)
        return 2


def add_commands(sub) -> None:
    """Register `pilkku board`, `pilkku sim` and `pilkku flash`."""
    board = sub.add_parser(
        "board", help=N_("run a virtual board (the firmware in MicroPython on a pty)"),
        description=_("Start or stop a virtual board: the real firmware in the MicroPython "
                      "unix port, its flash in DIR/flash.img, its USB serial on a "
                      "pseudo-terminal that mpremote, `pilkku flash` and `pilkku sync` use as a "
                      "real port."))
    board.add_argument("action", choices=("start", "stop"))
    board.add_argument("dir",
                       help=_("the board's folder (its flash image lives there)"))
    board.add_argument("--update", action="store_true",
                       help=_("install the current firmware first (a fresh DIR gets it anyway)"))
    board.add_argument("--show", action="store_true",
                       help=_("print the displays as they change"))
    board.add_argument("--pico", action="store_true",
                       help=_("an emulated Raspberry Pi Pico running a MicroPython UF2 instead "
                              "(rp2040js; see docs/pico.md)"))
    board.add_argument("--uf2", metavar="UF2",
                       help=_("with --pico: the firmware for a blank chip (default: "
                              "$PILKKU_PICO_UF2)"))
    board.set_defaults(func=cmd_board)

    sim = sub.add_parser(
        "sim", help=N_("the scoreboard in the terminal, keyboard as the referee's keypad"),
        description=_("Start a virtual board and draw its displays in the terminal; the "
                      "keyboard is the referee's keypad (see docs/referee.md). With --script, "
                      "or without a terminal, play key presses and print each changed frame."))
    sim.add_argument("--script", metavar=_("SCRIPT"),
                     help=_("a file of key presses (see examples/sim-demo.txt)"))
    sim.add_argument("--dir", metavar=_("DIR"),
                     help=_("keep the board's flash in this folder (default: temporary)"))
    sim.add_argument("--pico", action="store_true",
                     help=_("on an emulated Raspberry Pi Pico running the stock MicroPython UF2 "
                            "($PILKKU_PICO_ROMFS_UF2; rp2040js; see docs/pico.md)"))
    sim.set_defaults(func=cmd_sim)

    flash = sub.add_parser(
        "flash", help=N_("install the firmware on a board over USB serial"),
        description=_("Compile the firmware for the board's MicroPython and bring the board "
                      "up to date: into its ROM partition as one ROMFS image where its "
                      "MicroPython has one (the code then runs from flash, not RAM), else as "
                      "files under rules_core/, hardware/, firmware/ and main.py; only what "
                      "changed is sent, and the board's data stays. Then soft-reset, check the "
                      "version and where it runs from, and run the firmware. While pilkku desk "
                      "or pilkku sync --watch runs, it syncs the board first and lends its "
                      "port for the flash. See docs/firmware-build.md."))
    flash.add_argument("--port", required=True, metavar="PORT",
                       help=_("the board's serial port (/dev/ttyACM0; a virtual board's pty)"))
    flash.set_defaults(func=cmd_flash)
