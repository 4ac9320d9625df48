"""The four games as the laptop names them to people (the director's tables, `pilkku replay`,
the hall's pages), keyed by the game's code in the match settings (rules_core/games.py). A
laptop-only table: on the board it would cost heap for words no display shows."""

from __future__ import annotations

GAME_NAMES = {"8ball": "8-ball", "9ball": "9-ball", "14.1": "14.1 continuous", "kaisa": "Kaisa"}

# The games scored in points (a frame's score is its points), not in racks won.
POINT_GAMES = ("14.1", "kaisa")
