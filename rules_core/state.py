"""The derived state of a match: what the scoreboard shows and the rules need next.

A `State` is a plain object whose fields are named in `FIELDS`; games add theirs in `EXTRA`.
It is rebuilt by replaying the log, copied before an event is tried (so a refused event
changes nothing), and turned into a dict for JSON, replay and tests.
"""

from rules_core import canon

# Fields every game has. Per player values are lists indexed by player (0 or 1).
FIELDS = (
    "game",  # "8ball", "9ball", "14.1", "kaisa"
    "players",  # two names
    "race_to",  # racks (8/9-ball) or points (14.1, Kaisa) to win the match
    "rules",  # the ruleset options in force
    "score",  # racks or points per player
    "shooter",  # player at the table, None before the lag is decided
    "inning",  # the current turn at the table, from 1 at the start of a rack
    "rack",  # rack number, from 1 (0 before the first break)
    "breaker",  # who breaks (broke) the current rack
    "breaking",  # the next shot is a break
    "fouls_in_a_row",  # consecutive fouls per player
    "warned",  # per player: warned at two fouls in a row
    "ball_in_hand",  # None, "anywhere" or "behind_head"
    "pending_option",  # None or {"player": p, "choices": [...]}
    "winner",  # None or the player who won the match
    "finished",  # the match is over
    "on_table",  # object balls on the table, sorted
    "stats",  # per player counts, see PLAYER_STATS
    "notes",  # what the last event did, as short tokens for the board and replay
)

PLAYER_STATS = ("innings", "fouls", "break_wins", "break_and_runs")

# Fields fixed for the whole match (set by `begin` and the Match, never changed in place):
# every copy shares them, so the undo snapshots and the trial copy of each event do not
# hold copies of the names and the ruleset.
SHARED = ("players", "rules")


class State:
    EXTRA = ()  # type: tuple[str, ...]

    def __init__(self):
        for name in FIELDS + self.EXTRA:
            setattr(self, name, None)

    def copy(self):
        twin = self.__class__()
        for name in FIELDS + self.EXTRA:
            value = getattr(self, name)
            setattr(twin, name, value if name in SHARED else canon.copy(value))
        return twin

    def to_dict(self):
        out = {}
        for name in FIELDS + self.EXTRA:
            out[name] = canon.copy(getattr(self, name))
        return out


def begin(state, settings):
    """The fields every game starts a match with: who plays, to what, nothing scored yet."""
    state.game = settings["game"]
    state.players = list(settings["players"])
    state.race_to = settings["race_to"]
    state.score = [0, 0]
    state.inning = 0
    state.rack = 0
    state.breaking = False
    state.fouls_in_a_row = [0, 0]
    state.warned = [False, False]
    state.finished = False
    state.on_table = []
    state.notes = []


def new_stats():
    stats = {}
    for name in PLAYER_STATS:
        stats[name] = 0
    return stats
