"""Kaisa's game clock (seed §6) as pure logic fed with integer milliseconds.

60 minutes of play; each player may take one break of at most 5 minutes, which is added to the
game time (so at most 70 minutes in all); a signal when 5 minutes of game time are left; a
signal when time is up. The clock stays out of the match log: on `time_up` the board appends
the event {"t": "time_up"} to the match, and the rules (kaisa.py) take over — two final innings
each, the two-dot player last, then the penalty shootout, which has no clock.

    clock = Clock(); clock.start(now)
    clock.poll(now) -> ["five_left"], later ["time_up"]   (each signal once)
    clock.take_break(player, now) ... clock.end_break(now)

`now` is a monotonic count of milliseconds (the board unwraps time.ticks_ms with ticks_diff).
`to_dict`/`from_dict` let the board journal the clock across a power cut.
"""

from rules_core.refusal import refuse

GAME_MS = 60 * 60 * 1000
BREAK_MS = 5 * 60 * 1000
WARN_MS = 5 * 60 * 1000

FIVE_LEFT = "five_left"  # the referee announces 5 minutes left
TIME_UP = "time_up"  # append {"t": "time_up"} to the match
BREAK_OVER = "break_over"  # the player on break has used his 5 minutes: the clock runs again

_KEYS = ("game_ms", "break_ms", "warn_ms", "started", "credited", "breaks", "on_break",
         "break_from", "said")


class Clock:
    def __init__(self, game_ms=GAME_MS, break_ms=BREAK_MS, warn_ms=WARN_MS):
        self.game_ms = game_ms
        self.break_ms = break_ms
        self.warn_ms = warn_ms
        self.started = None  # ms at the start of play
        self.credited = 0  # break time of finished breaks added to the game time
        self.breaks = [False, False]  # each player has taken his break
        self.on_break = None  # the player on break, or None
        self.break_from = 0
        self.said = []  # signals given so far

    def start(self, now):
        if self.started is not None:
            refuse("clock_started", "the game clock is already running")
        self.started = now

    def _break_credit(self, now):
        if self.on_break is None:
            return 0
        return min(now - self.break_from, self.break_ms)

    def played(self, now):
        """Game time played (ms): breaks up to their 5 minutes do not count."""
        if self.started is None:
            return 0
        return now - self.started - self.credited - self._break_credit(now)

    def left(self, now):
        """Game time left (ms), never below 0."""
        return max(0, self.game_ms - self.played(now))

    def break_left(self, now):
        """Break time left (ms) for the player on break, 0 when nobody is."""
        if self.on_break is None:
            return 0
        return self.break_ms - self._break_credit(now)

    def take_break(self, player, now):
        if not isinstance(player, int) or isinstance(player, bool) or player not in (0, 1):
            refuse("bad_player", "'player' must be player 0 or 1")
        if self.started is None or TIME_UP in self.said or self.left(now) == 0:
            refuse("no_break", "a break is taken during the game time")
        if self.on_break is not None:
            refuse("no_break", "a break is already on")
        if self.breaks[player]:
            refuse("no_break", "each player has one break")
        self.breaks[player] = True
        self.on_break = player
        self.break_from = now

    def end_break(self, now):
        if self.on_break is None:
            refuse("no_break", "nobody is on a break")
        self.credited += self._break_credit(now)
        self.on_break = None

    def poll(self, now):
        """The signals due at `now` and not given before, in order."""
        due = []  # type: list[str]
        if self.started is None:
            return due
        if self.on_break is not None and self.break_left(now) == 0:
            due.append("%s:%d" % (BREAK_OVER, self.on_break))
        left = self.left(now)
        if left <= self.warn_ms:
            due.append(FIVE_LEFT)
        if left == 0:
            due.append(TIME_UP)
        fresh = [signal for signal in due if signal not in self.said]
        self.said += fresh
        return fresh

    def to_dict(self):
        out = {}
        for key in _KEYS:
            value = getattr(self, key)
            out[key] = list(value) if isinstance(value, list) else value
        return out

    @classmethod
    def from_dict(cls, saved):
        clock = cls()
        for key in _KEYS:
            value = saved[key]
            setattr(clock, key, list(value) if isinstance(value, list) else value)
        return clock
