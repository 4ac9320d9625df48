"""Boot entry: `pilkku flash` installs this file as /main.py on the board."""

from firmware import room
from firmware.app import App
from firmware.config import Config
from firmware.journal import Journal
from hardware.boards import detect

JOURNAL = "journal"  # on the flash, relative to its root (the virtual board's folder on CPython)


def main():
    board = detect()
    app = App(board, Journal(JOURNAL), Config(""))
    room.hold()  # before a sync right after the boot loads its modules (firmware/room.py)
    try:
        app.run()
    except KeyboardInterrupt:
        # The REPL was asked for (docs/sync-protocol.md): it must not be reset under the
        # person or `pilkku flash` using it, and Ctrl-C works there again. Anything else that
        # ends the loop leaves the watchdog running: the board restarts into the scoreboard.
        board.watchdog_off()
        board.serial_interrupt(True)
        raise


if __name__ == "__main__":
    main()
