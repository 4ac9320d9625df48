"""The menu between matches: the next matches of the synced schedule first, then a free game.

    C       next choice          0-9  type the race of a free game (the last digits count)
    B       shot clock on/off    #    start the match

A free game's players are "PL 1" and "PL 2"; a scheduled match brings its players, race and
rules from the tournament laptop. `playable` says which scheduled matches the menu may offer.
The words show in the board's language (firmware/words.py).
"""

from firmware.words import w
from rules_core import games

ORDER = ("9ball", "8ball", "14.1", "kaisa")  # the menu's order, of the games the engine has
RACE_DEFAULT = {"9ball": 5, "8ball": 5, "14.1": 100, "kaisa": 60}
GAME_LABEL = {"9ball": "9BALL", "8ball": "8BALL", "14.1": "14.1", "kaisa": "KAISA"}


class Menu:
    def __init__(self, schedule=None):
        self.games = [name for name in ORDER if name in games.GAMES]
        self.schedule = None
        self.choice = 0
        self.shot_clock = False
        self.typed = ""
        self.race = 5
        self.set_schedule(schedule or [])

    def set_schedule(self, schedule):
        """The scheduled matches come first; the menu goes back to the first choice, or
        stays on the free game and race it was on (a free night often plays one game)."""
        game = race = None
        if self.schedule is not None and self.choice >= len(self.schedule):
            game, race = self._game(), self.race
        self.schedule = [m for m in schedule if isinstance(m, dict) and "settings" in m]
        self.choice = 0
        if game is not None and not self.schedule:
            self.choice = self.games.index(game)
        self._choice_changed()
        if game is not None and not self.schedule:
            self.race = race

    def _choices(self):
        return len(self.schedule) + len(self.games)

    def _game(self):
        return self.games[self.choice - len(self.schedule)]

    def _scheduled(self):
        return self.schedule[self.choice] if self.choice < len(self.schedule) else None

    def _choice_changed(self):
        self.typed = ""
        scheduled = self._scheduled()
        if scheduled is None:
            self.race = RACE_DEFAULT.get(self._game(), 5)

    def press(self, key):
        """(settings, meta) of the match to start, when the referee starts one."""
        if key == "C":
            self.choice = (self.choice + 1) % self._choices()
            self._choice_changed()
        elif key == "B":
            self.shot_clock = not self.shot_clock
        elif key in "0123456789" and self._scheduled() is None:
            self.typed = (self.typed + key)[-3:]
            self.race = int(self.typed) or self.race
        elif key == "#":
            self.typed = ""
            return self.selected()
        return None

    def selected(self):
        """(settings, meta) of the match # would start now (the journal makes its start
        ahead while the menu waits: firmware/journal.py `ahead`)."""
        scheduled = self._scheduled()
        if scheduled is not None:
            return scheduled["settings"], {"match_id": scheduled["match_id"]}
        return {"game": self._game(), "players": ["PL 1", "PL 2"], "race_to": self.race}, {}

    def frame(self):
        scheduled = self._scheduled()
        if scheduled is not None:
            settings = scheduled["settings"]
            names = settings.get("players", ["?", "?"])
            clock = "r%s" % settings.get("race_to", "")
            message = w("%s %s-%s GO") % (scheduled["match_id"], names[0][:6].upper(),
                                      names[1][:6].upper())
        else:
            name = self._game()
            clock = "r%d" % self.race
            message = w("%s GO") % w(GAME_LABEL.get(name, name))
        if self.shot_clock:
            clock += ":"  # the colon says the shot clock will run
        return ("PL 1", "PL 2", clock, message)


def playable(schedule, store, held):
    """The synced schedule less the matches the board holds a result for (from the journal
    `store`): a laptop that has not taken a result yet (or refused it) may send its match
    again, and a board must not have it played twice. `held` (result number -> match id,
    None for an abandoned match) is the App's, kept across calls so that each result's
    meta is read once per result and boot."""
    done = store.finished()
    for seq in list(held):
        if seq not in done:
            del held[seq]  # the laptop has it: its schedule is the truth again
    for seq in done:
        if seq not in held:
            try:
                meta = store.meta(seq)
            except Exception:  # a damaged result: sync reports it, the menu goes on
                meta = {}
            held[seq] = None if meta.get("abandoned") else meta.get("match_id")
    ids = list(held.values())
    return [m for m in schedule if isinstance(m, dict) and m.get("match_id") not in ids]
