"""`pilkku bench`: speed, memory, flash and bytes measured on the real firmware. command.py
(the subcommand, budgets, the table), logs.py (match logs made by the engine), unix.py with
driver.py and firmware.py (run inside the MicroPython unix port), board.py and syncing.py
(virtual boards), rom.py (the code in ROM, resume), hall.py (the hall).
May import host.board, host.sync, host.tournament (the store), host.hall and rules_core."""
