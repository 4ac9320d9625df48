"""A match: its settings and the append-only log of referee events; the state is derived.

    m = Match({"game": "9ball", "players": ["Anna", "Ben"], "race_to": 5})
    m.apply({"t": "lag", "winner": 0})      # raises Refused, changing nothing, if not allowed
    m.state.shooter, m.state.score, m.undo(), m.redo()
    m.prepare()                             # between keys: the next event's copy made now
    m.shed()                                # a board short of heap: the copies let go

An event is tried on a copy of the state, so a refused one changes nothing. On a board that
copy is most of an event's work (6 ms of 13 on the Pico, docs/pico.md), so the board makes
it ahead, in a quiet moment (`prepare`); a state, once it is the match's, is never changed
in place, so the copy stays right until the state is replaced.

Undo drops the last event and rebuilds the state from the nearest snapshot, so its cost stays
flat however long the match has run. Snapshots are taken every `snapshot_every` events and only
the most recent few are kept: an undo deeper than that replays from the start.
"""

from rules_core import games, rulesets
from rules_core.refusal import refuse

# The match log's format name (rules_core/matchlog.py writes and reads the documents): here,
# so the board's journal names it without loading the document code it never runs.
FORMAT = "pilkku.match/1"
_SETTINGS = ("game", "players", "race_to", "breaker", "rules")
_NAME_MAX = 40
_RACE_MAX = 1000


def check_settings(settings):
    """The settings, checked and completed with the ruleset's defaults."""
    if not isinstance(settings, dict):
        refuse("bad_settings", "settings must be an object")
    for key in settings:
        if key not in _SETTINGS:
            refuse("bad_settings", "unknown setting '%s'" % key)
    game = games.get(settings.get("game"))
    if game is None:
        refuse("bad_settings", "'game' must be one of: %s" % ", ".join(sorted(games.GAMES)))
    players = settings.get("players")
    if not isinstance(players, list) or len(players) != 2:
        refuse("bad_settings", "'players' must be a list of two names")
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > _NAME_MAX:
            refuse("bad_settings", "a player's name must be 1 to %d characters" % _NAME_MAX)
    race_to = settings.get("race_to")
    if not isinstance(race_to, int) or isinstance(race_to, bool) or not 1 <= race_to <= _RACE_MAX:
        refuse("bad_settings", "'race_to' must be a whole number from 1 to %d" % _RACE_MAX)
    breaker = settings.get("breaker")
    if breaker is not None and (not isinstance(breaker, int) or isinstance(breaker, bool)
                                or breaker not in (0, 1)):
        refuse("bad_settings", "'breaker' must be 0, 1 or null (decided by the lag)")
    return {
        "game": game.NAME,
        "players": [players[0], players[1]],
        "race_to": race_to,
        "breaker": breaker,
        "rules": rulesets.resolve(game.OPTIONS, settings.get("rules")),
    }


class Match:
    def __init__(self, settings, snapshot_every=32, snapshots_kept=4, log=None, start=None):
        """`log` may be any list-like store of events (the board passes its journal's);
        by default the events are kept packed in RAM. `start` is (count, state): the state
        after the log's first `count` events, so that only the rest are replayed (the
        board's journal keeps one on flash). A log with `keep_snapshot(count, state)` is
        given every snapshot taken."""
        self.settings = check_settings(settings)
        self.game = games.get(self.settings["game"])
        if log is None:  # the board passes its journal's log: it never loads this one
            from rules_core.eventlog import PackedLog

            log = PackedLog()
        self.log = log
        self._redo = []
        self._spare = None  # (state, a copy of it) made by prepare for the next event
        # The state before the last event, while that event is the last: its undo takes it
        # back with no replay (states are never changed once the match's).
        self._before = None
        self._every = snapshot_every
        self._kept = snapshots_kept
        # Events applied -> the state after them, every `snapshot_every`; the state before
        # the first event is not kept (made again from the settings when a replay needs it):
        # on a board it is one state less held for the whole match (Kaisa's is ~670 bytes
        # on a Pico, its match up at the heap's fullest: docs/performance.md, issue 31).
        self._snapshots = {}
        first = 0
        if start is not None:
            first = start[0]
            if first:
                self._snapshots[first] = start[1]
            self.state = start[1].copy()
        else:
            self.state = self._initial()
        for index in range(first, len(self.log)):
            self.game.apply(self.state, self.log[index])

    def _initial(self):
        state = self.game.State()
        state.rules = self.settings["rules"]
        self.game.start(state, self.settings)
        return state

    def prepare(self):
        """Copy the state for the next event now rather than in apply (see above)."""
        if self._spare is None or self._spare[0] is not self.state:
            self._spare = (self.state, self.state.copy())

    def shed(self):
        """Let go of what only makes the next event and its undo faster: the copy made
        ahead (prepare) and the state before the last event. A board short of heap holds
        one state between keys (a Kaisa state is ~750 bytes on a Pico); its next key makes
        its own copy and an undo replays from the last snapshot."""
        self._spare = None
        self._before = None

    def apply(self, event):
        """Validate `event` against the current state and append it; Refused if not allowed."""
        spare, self._spare = self._spare, None  # taken: a refused event may have changed it
        self._before = None  # let go first: never a third state held while the trial is made
        if spare is not None and spare[0] is self.state:
            trial = spare[1]
        else:
            trial = self.state.copy()
        self.game.apply(trial, event)
        self.log.append(event)
        self._before = self.state
        self.state = trial
        self._redo = []
        self._keep_snapshot()

    def undo(self):
        if not self.log:
            refuse("nothing_to_undo", "nothing to undo")
        before, self._before = self._before, None
        self._redo.append(self.log.pop())
        if before is None:
            self._rebuild()  # from the last snapshot, its events applied again
            return
        count = len(self.log)  # the last event undone: the state before it, kept
        for stale in [k for k in self._snapshots if k > count]:
            del self._snapshots[stale]
        self.state = before

    def redo(self):
        if not self._redo:
            refuse("nothing_to_redo", "nothing to redo")
        event = self._redo.pop()
        redo = self._redo
        self.apply(event)
        self._redo = redo

    def can_redo(self):
        return len(self._redo) > 0

    def _keep_snapshot(self):
        count = len(self.log)
        if count % self._every:
            return
        self._snapshots[count] = self.state  # (never changed once the match's: no copy)
        if len(self._snapshots) > self._kept:
            del self._snapshots[min(self._snapshots)]
        keep = getattr(self.log, "keep_snapshot", None)
        if keep is not None:
            keep(count, self.state)

    def _rebuild(self):
        count = len(self.log)
        for stale in [k for k in self._snapshots if k > count]:
            del self._snapshots[stale]
        base = max([k for k in self._snapshots] or [0])
        state = self._snapshots[base].copy() if base else self._initial()
        for index in range(base, count):
            self.game.apply(state, self.log[index])
        self.state = state

