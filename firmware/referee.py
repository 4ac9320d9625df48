"""The referee panel for 8-ball and 9-ball: key presses on the 4x4 keypad turned into match
events (docs/referee.md has the keymap a referee reads).

    1-9       toggle a ball pocketed on this shot (8-ball: * then 0-5 for 10-15)
    A SHOT    record the shot with the balls toggled (none: a miss, the turn passes)
    # POT     9-ball with nothing toggled: the lowest ball went in (else the same as A)
    B FOUL    arm a foul; B again picks the kind; A or # records it
    C         9-ball: push out; 8-ball: safety, then "8 in the wrong pocket", then "8 not
              called" (the referee does not accept it)
    D         clear what is being entered; long press: undo the last event (with an entry
              pending the press clears the entry and the long press does nothing more)
    * then    1/2 concede the rack for player 1/2, # then 1/2 concede the match, B warn,
              C shot-clock extension, D redo, (8-ball) 0-5 balls 10-15, A correct a score:
              1/2 the player, digits, #
    With an option pending, digits pick the choice (and then the breaker: 1 or 2).
    With the foul OFF armed, the balls entered left the table (the 8 off: the rack is lost).

A key the panel does not take sets `why`, a short reason the app shows (`NO BALL 0`,
`KEY 1/2`); so does an entry the panel drops (`CLEARED`).

`Panel.press(key)` returns the event to apply (or "undo"/"redo"), or None while an entry is
being built; `entry_text()` is what the message display shows meanwhile. It never changes the
match: the app applies the event, and a refusal leaves the panel cleared.
"""

from firmware.screens import FOUL_SHORT
from firmware.words import w

FOUL_CYCLE = ("scratch", "wrong_ball", "no_rail", "cue_off", "ball_off", "touch",
              "double_hit", "jump", "moving", "feet", "frozen", "head_string", "bad_break",
              "no_hit")
UNDO = "undo"
REDO = "redo"
EXTEND = "extend"  # the shooter's shot-clock extension


class Panel:
    def __init__(self, match):
        self.match = match
        self.why = None  # why the last key was not taken (or the entry dropped): the app shows it
        self.dropped = False  # a D press cleared an entry: its long press must not undo too
        self.before_shift = None
        self.clear()

    def clear(self):
        self.conceding = False  # * #: whose concession of the match?
        self.balls = []
        self.foul = None
        self.modifier = None  # "push", "safety", "wrong_pocket"
        self.shift = False
        self.choice = None  # an option choice waiting for its breaker
        self.adjusting = None  # a score correction: [player or None, digits typed]

    def busy(self):
        return bool(self.balls or self.foul or self.modifier or self.shift or self.choice
                    or self.adjusting or self.conceding)

    def _no(self, why):
        self.why = why
        return None

    # --- keys ------------------------------------------------------------------------

    def press(self, key):
        state = self.match.state
        self.why = None
        self.dropped = False
        if self.shift:
            self.shift = False
            action = self._shifted(key, state)
            if action is None and self.why is None and self.entry_text() == self.before_shift:
                self.why = "NO *" + key
            return action
        if key == "*":
            self.before_shift = self.entry_text()
            self.shift = True
            return None
        if key == "D":
            if self.busy():
                self.clear()
                self.dropped = True
            return None
        if state.finished:
            return self._no("# = MENU")
        if self.conceding:
            self.conceding = False  # a shot half entered stays: the app clears it, saying so
            if key not in "12":
                return self._no(w("KEY 1/2"))
            return {"t": "concede", "player": int(key) - 1, "scope": "match"}
        if self.adjusting is not None:
            return self._adjust(key, state)
        if state.pending_option is not None or state.shooter is None:
            return self._option(key, state)
        if key in "0123456789":
            self._toggle(int(key), state)
            return None
        if key == "B":
            self._next_foul()
            return None
        if key == "C":
            self._next_modifier(state)
            return None
        if key == "A":
            return self._shot(state)
        if key == "#":
            if not self.busy() and state.game == "9ball":
                self.balls = [state.on_table[0]]
            return self._shot(state)
        return None

    def long_press(self, key):
        if key == "D":
            if self.dropped:  # the press cleared an entry: that was all the referee meant
                self.dropped = False
                return self._no(w("CLEARED"))
            self.clear()
            return UNDO
        return None

    def _shifted(self, key, state):
        if key == "D":
            return REDO
        if key == "C":
            return EXTEND
        if state.finished:
            return self._no("# = MENU")
        if key == "A":
            self.adjusting = [None, ""]
            return None
        if key in "12#" and state.shooter is None:
            return self._no("NO RACK")
        if key in "12":
            return {"t": "concede", "player": int(key) - 1, "scope": "rack"}
        if key == "#":
            self.conceding = True
            return None
        if key == "B":
            for player in (0, 1):
                if state.fouls_in_a_row[player] == 2 and not state.warned[player]:
                    return {"t": "warn", "player": player}
            return self._no("NO WARN")
        if key in "012345" and state.game == "8ball" and state.shooter is not None:
            self._toggle(10 + int(key), state)
        return None

    def _option(self, key, state):
        option = state.pending_option
        if key not in "123456789":
            return self._no(w("KEY 1/2") if option is None or self.choice is not None
                            or option["choices"] == ["break"]
                            else "KEY 1-%d" % len(option["choices"]))
        number = int(key)
        if option is None:  # the lag: who won it
            return {"t": "lag", "winner": number - 1} if number <= 2 else self._no(w("KEY 1/2"))
        choices = option["choices"]
        if self.choice is not None or choices == ["break"]:
            if number > 2:
                return self._no(w("KEY 1/2"))
            choice = self.choice or "break"
            self.choice = None
            return {"t": "choose", "choice": choice, "breaker": number - 1}
        if number > len(choices):
            return self._no("KEY 1-%d" % len(choices))
        choice = choices[number - 1]
        if choice in ("break", "rerack"):
            self.choice = choice
            return None
        return {"t": "choose", "choice": choice}

    def _adjust(self, key, state):
        """A score correction: the player (1/2), the new score's digits, then #."""
        player, digits = self.adjusting
        if player is None:
            if key in "12":
                self.adjusting = [int(key) - 1, ""]
                return None
            return self._no(w("KEY 1/2"))
        if key in "0123456789":
            self.adjusting = [player, (digits + key)[-4:]]
            return None
        if key == "#" and digits:
            score = list(state.score)
            score[player] = int(digits)
            self.clear()
            return {"t": "adjust", "reason": "score corrected on the panel", "score": score}
        return self._no("DIGITS #")

    # --- building a shot ------------------------------------------------------------

    def _toggle(self, ball, state):
        if ball in self.balls:
            self.balls.remove(ball)
        elif ball not in state.on_table:
            self._no(w("NO BALL"))
        else:
            self.balls.append(ball)
            self.balls.sort()

    def _next_foul(self):
        if self.foul is None:
            self.foul = FOUL_CYCLE[0]
        else:
            self.foul = FOUL_CYCLE[(FOUL_CYCLE.index(self.foul) + 1) % len(FOUL_CYCLE)]

    def _next_modifier(self, state):
        cycle = (None, "push") if state.game == "9ball" else (
            None, "safety", "wrong_pocket", "uncalled")
        self.modifier = cycle[(cycle.index(self.modifier) + 1) % len(cycle)]

    def _shot(self, state):
        event = {"t": "shot"}
        if self.balls:
            # With the foul OFF armed the balls entered left the table (and are spotted, or
            # lose the rack: the 8); a ball off and others pocketed on one shot is rare
            # enough to enter as the foul the referee calls.
            event["off" if self.foul == "ball_off" else "pocketed"] = list(self.balls)
        if self.foul:
            event["foul"] = self.foul
        if self.modifier == "push":
            event["push"] = True
        elif self.modifier == "safety":
            event["safety"] = True
        if (state.game == "8ball" and 8 in event.get("pocketed", ()) and not state.breaking
                and self.modifier != "uncalled"):
            event["call"] = {"ball": 8}
            if self.modifier == "wrong_pocket":
                event["wrong_pocket"] = True
        self.clear()
        return event

    # --- what the message display shows while entering ------------------------------

    def entry_text(self):
        if self.shift:
            return "*"
        if self.choice:
            return "%s 1/2?" % ("BRK" if self.choice == "break" else "RRCK")
        if self.adjusting is not None:
            player, digits = self.adjusting
            return "SET P?" if player is None else "SET P%d %s" % (player + 1, digits)
        if self.conceding:
            return w("GIVE UP 1/2?")
        if not self.busy():
            return None
        parts = []
        if self.foul:
            parts.append("F" + _short_foul(self.foul))
        if self.modifier:
            parts.append({"push": "PUSH", "safety": "SAFE", "wrong_pocket": "8WRG",
                          "uncalled": "8UNC"}[self.modifier])
        if self.balls:
            balls = " ".join(["%d" % b for b in self.balls])
            if self.foul == "ball_off":  # the balls left the table
                parts[0] = "OUT"
            parts.append(balls if parts else "IN " + balls)
        return " ".join(parts)


def _short_foul(kind):
    return FOUL_SHORT.get(kind, kind[:4].upper())
