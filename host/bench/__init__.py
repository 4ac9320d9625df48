"""`pilkku bench`: speed, memory, flash and bytes measured on the real firmware. command.py
(the subcommand, budgets, the table), logs.py (match logs made by the engine), unix.py with
driver.py and firmware.py (run inside the MicroPython unix port), board.py (virtual boards).
May import host.board, host.sync and rules_core."""
