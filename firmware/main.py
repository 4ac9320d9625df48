"""Boot entry: `pilkku flash` installs this file as /main.py on the board."""

from firmware.app import App
from firmware.config import Config
from firmware.journal import Journal
from hardware.boards import detect

JOURNAL = "journal"  # on the flash, relative to its root (the virtual board's folder on CPython)


def main():
    App(detect(), Journal(JOURNAL), Config("")).run()


if __name__ == "__main__":
    main()
