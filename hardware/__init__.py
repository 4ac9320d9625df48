"""Drivers for pilkku's parts: HT16K33 displays, referee keys, buzzer, and board pin maps.

Every driver takes its bus or pin objects as arguments; only the files in ``boards/`` import
``machine``. Time always comes in as integer milliseconds from the caller.
"""
