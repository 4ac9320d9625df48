"""Boot entry: `pilkku flash` installs this file as /main.py on the board."""

from firmware.app import App
from hardware.boards import detect


def main():
    App(detect()).run()


if __name__ == "__main__":
    main()
