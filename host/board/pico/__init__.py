"""The emulated Raspberry Pi Pico (docs/pico.md): a stock MicroPython UF2 on rp2040js, as a
kind of board. board.py is the chip (flash image, USB CDC on a pty, I2C displays, keypad,
clock, power cuts); service.py puts it behind `pilkku board start DIR --pico`; bridge.mjs is
the node side. rp2040js is pinned by package-lock.json and installed by `make venv`."""
