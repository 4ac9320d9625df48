"""The menu between matches: choose the game and the race, then start.

    C       next game            0-9  type the race (the last digits count)
    B       shot clock on/off    #    start the match

Players are "PL 1" and "PL 2" unless the match comes from the synced schedule.
"""

from rules_core import games

ORDER = ("9ball", "8ball", "14.1", "kaisa")  # the menu's order, of the games the engine has
RACE_DEFAULT = {"9ball": 5, "8ball": 5, "14.1": 100, "kaisa": 60}
GAME_LABEL = {"9ball": "9BALL", "8ball": "8BALL", "14.1": "14.1", "kaisa": "KAISA"}


class Menu:
    def __init__(self):
        self.games = [name for name in ORDER if name in games.GAMES]
        self.game = self.games.index("9ball") if "9ball" in self.games else 0
        self.race = RACE_DEFAULT.get(self.games[self.game], 5)
        self.typed = ""
        self.shot_clock = False

    def press(self, key):
        """The settings of the match to start, when the referee starts one."""
        name = self.games[self.game]
        if key == "C":
            self.game = (self.game + 1) % len(self.games)
            self.race = RACE_DEFAULT.get(self.games[self.game], 5)
            self.typed = ""
        elif key == "B":
            self.shot_clock = not self.shot_clock
        elif key in "0123456789":
            self.typed = (self.typed + key)[-3:]
            self.race = int(self.typed) or self.race
        elif key == "#":
            self.typed = ""
            return {"game": name, "players": ["PL 1", "PL 2"], "race_to": self.race}
        return None

    def frame(self):
        name = self.games[self.game]
        clock = "r%d" % self.race
        if self.shot_clock:
            clock += ":"  # the colon says the shot clock will run
        return ("PL 1", "PL 2", clock, "%s GO" % GAME_LABEL.get(name, name))
