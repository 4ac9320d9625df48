"""The shot clock: seconds for each shot, a warning, extensions, fed with milliseconds.

WPA settings are the default: 35 s a shot, a warning at 10 s left, one 25 s extension per
player per rack, 60 s for the first shot after the break. A club changes them in `PROFILES`
or turns the clock off in the menu.
"""

from hardware.compat import ticks_add, ticks_diff

PROFILES = {
    "wpa": {"shot_s": 35, "warn_s": 10, "extension_s": 25, "after_break_s": 60},
    "club": {"shot_s": 45, "warn_s": 10, "extension_s": 30, "after_break_s": 60},
}

NONE = 0
WARN = 1  # the warning moment has come (once a shot)
TIME_UP = 2  # the time is up (once a shot)


class ShotClock:
    def __init__(self, profile="wpa"):
        self.settings = PROFILES[profile]
        self.running = False
        self._deadline = 0
        self._warned = False
        self._up = False
        self.extensions = [1, 1]  # per player, per rack

    def start(self, now, after_break=False):
        """A new shot begins now."""
        seconds = self.settings["after_break_s" if after_break else "shot_s"]
        self._deadline = ticks_add(now, seconds * 1000)
        self.running = True
        self._warned = False
        self._up = False

    def stop(self):
        self.running = False

    def new_rack(self):
        self.extensions = [1, 1]

    def extend(self, player, now):
        """Use the player's extension for this rack; False if it is already used."""
        if not self.running or self.extensions[player] < 1:
            return False
        self.extensions[player] -= 1
        self._deadline = ticks_add(self._deadline, self.settings["extension_s"] * 1000)
        if self.left_ms(now) > self.settings["warn_s"] * 1000:
            self._warned = False
        return True

    def left_ms(self, now):
        return max(0, ticks_diff(self._deadline, now)) if self.running else 0

    def seconds(self, now):
        """Whole seconds left, rounded up as a clock shows them."""
        return (self.left_ms(now) + 999) // 1000

    def tick(self, now):
        """NONE, WARN or TIME_UP: each signal comes once per shot."""
        if not self.running:
            return NONE
        left = self.left_ms(now)
        if left == 0 and not self._up:
            self._up = True
            return TIME_UP
        if left <= self.settings["warn_s"] * 1000 and not self._warned:
            self._warned = True
            return WARN
        return NONE
