"""The referee panel for 14.1 continuous (straight pool): the 8/9-ball panel's keys and
conventions (firmware/referee.py), with 14.1's shots (docs/referee.md has the keymap).

    #         the called ball went in: 1 point, the shooter continues (after a digit: that
              many balls went in, all score); on the break: a called break, made
    A         as entered; nothing entered: a miss, the turn passes (after a digit: balls fell
              but not the called one; they are spotted); on the break: a legal safety break
    1-9       how many balls fell on this shot (0 clears it)
    B FOUL    arm a foul (-1); B again: the next kind; A or # records it. On the break:
              FAIL (a failed break, -2) first, then each kind on a legal break and on a
              failed one (FSCR, FAIL FSCR, FCUE, ...)
    C         a safety; on the break: a called break (then A: the called ball missed)
    D         clear what is being entered; long press: undo the last event
    The rack due (the 14th ball down): the 15th ball's place, then the cue ball's:
              1 rack area, 2 head spot, 3 behind the head string, 0 elsewhere;
              # (or A): the rest elsewhere. One press (#) when neither is in the way.
    * then    1/2 concede the match for player 1/2, B warn, C shot-clock extension, D redo,
              A correct a score: 1/2 the player, digits (C: minus), #
    With an option pending: 1 accept, 2 rebreak (after the lag: 1/2 who breaks).

The panel records no ball numbers, only how many fell: it names the lowest balls on the
table. A pot is sent without a `call` (the engine's "no call entered: the referee accepted
the shot", which scores); where the engine needs a called ball (a called break, a miss with
balls down) the panel names one: the lowest pocketed ball for a made called break, the
lowest ball left standing for a missed one. A legal break with balls that score no point
is recorded as `cushions: 2, cue_cushion: true` (the least a legal break needs), a failed
one as `foul: "bad_break"` (with another foul: `cushions: 0, cue_cushion: false`).
"""

from firmware.referee import Panel as _Panel
from firmware.referee import _short_foul
from firmware.screens import PLACE_KEYS, PLACE_SHORT
from rules_core.straight import PLACES

FOULS = ("scratch", "no_rail", "cue_off", "ball_off", "touch", "double_hit", "jump", "moving",
         "feet", "frozen", "head_string", "no_hit")
# On the break: FAIL alone, then each of these on a legal break and on a failed one.
BREAK_FOULS = ("scratch", "cue_off", "ball_off", "touch", "double_hit", "jump", "moving",
               "feet", "frozen", "head_string")


class Panel(_Panel):
    def clear(self):
        _Panel.clear(self)
        self.count = 0  # balls that fell on the shot
        self.failed = False  # the break failed
        self.ball15 = None  # the rack due: the 15th ball's place (an index of PLACES)

    def busy(self):
        return bool(_Panel.busy(self) or self.count or self.failed or self.ball15 is not None)

    # --- keys ------------------------------------------------------------------------

    def press(self, key):
        state = self.match.state
        if (self.shift or key == "*" or key == "D" or state.finished or self.adjusting
                is not None or self.conceding or state.pending_option is not None
                or state.shooter is None):
            return _Panel.press(self, key)  # shift, clear, correction, concession, options
        if len(state.on_table) < 2:
            return self._rack(key, state)
        if key in "0123456789":
            if int(key) <= len(state.on_table):
                self.count = int(key)
            return None
        if key == "B":
            if state.breaking:
                self._next_break_foul()
            else:
                self.foul = FOULS[(FOULS.index(self.foul) + 1) % len(FOULS)] if self.foul \
                    else FOULS[0]
            return None
        if key == "C":
            self.modifier = None if self.modifier else (
                "called" if state.breaking else "safety")
            return None
        if key == "A" or key == "#":
            return self._shot(state, key == "#")
        return None

    def _shifted(self, key, state):
        if key in "0123456789":
            if key in "12" and state.shooter is not None and not state.finished:
                return {"t": "concede", "player": int(key) - 1}  # 14.1 concedes the match
            return None
        return _Panel._shifted(self, key, state)

    def _adjust(self, key, state):
        player, digits = self.adjusting
        if player is not None and key == "C":  # a score below zero
            self.adjusting = [player, digits[1:] if digits[:1] == "-" else "-" + digits]
            return None
        if key == "#" and digits == "-":
            return None
        if key in "0123456789" and digits[:1] == "-":
            self.adjusting = [player, "-" + (digits[1:] + key)[-3:]]
            return None
        return _Panel._adjust(self, key, state)

    def _next_break_foul(self):
        # Steps: 0 FAIL; 1 + 2k kind k on a legal break; 2 + 2k kind k on a failed break.
        if self.foul is None:
            step = 0 if self.failed else -1
        else:
            step = 1 + 2 * BREAK_FOULS.index(self.foul) + (1 if self.failed else 0)
        step = (step + 1) % (1 + 2 * len(BREAK_FOULS))
        self.failed = step == 0 or step % 2 == 0
        self.foul = BREAK_FOULS[(step - 1) // 2] if step else None

    def _rack(self, key, state):
        """Where the 15th ball (if it is still on the table) and the cue ball lie."""
        if key == "A" or key == "#":
            place = 0
        elif key in "0123":
            place = int(key)
        else:
            return None
        if self.ball15 is None and state.on_table and key in "0123":
            self.ball15 = place
            return None
        event = {"t": "rack", "cue": PLACES[place]}
        if state.on_table:
            event["ball15"] = PLACES[self.ball15 or 0]
        self.clear()
        return event

    # --- a shot ----------------------------------------------------------------------

    def _shot(self, state, pot):
        table = state.on_table
        count = self.count or (1 if pot else 0)
        event = {"t": "shot"}
        if count:
            event["pocketed"] = table[:count]
        foul = self.foul or ("bad_break" if self.failed else None)
        if foul is not None:
            event["foul"] = foul
        if state.breaking:
            called = pot or self.modifier == "called"
            event["break"] = "called" if called else "safety"
            if called:
                _call(event, table, 0 if pot else count)
            if self.failed and self.foul is not None:
                event["cushions"] = 0
                event["cue_cushion"] = False
            elif not self.failed and not pot:
                event["cushions"] = 2
                event["cue_cushion"] = True
        elif self.modifier == "safety":
            event["safety"] = True
        elif count and not pot and foul is None:
            _call(event, table, count)  # balls fell, the called ball not among them
        self.clear()
        return event

    # --- what the message display shows while entering ------------------------------

    def entry_text(self):
        if self.ball15 is not None:
            return "15 %s, CUE? %s" % (PLACE_SHORT[self.ball15], PLACE_KEYS)
        if (self.shift or self.choice or self.adjusting is not None or self.conceding
                or not self.busy()):
            return _Panel.entry_text(self)
        parts = []
        if self.failed:
            parts.append("FAIL")
        if self.foul:
            parts.append("F" + _short_foul(self.foul))
        if self.modifier:
            parts.append("CALL" if self.modifier == "called" else "SAFE")
        if self.count:
            parts.append("%d" % self.count if parts else "IN %d" % self.count)
        return " ".join(parts)


def _call(event, table, index):
    """Name a called ball: table[index] (the first ball not pocketed when index is the count);
    when every ball on the table fell, the called one fell in another pocket."""
    if index < len(table):
        event["call"] = {"ball": table[index]}
    else:
        event["call"] = {"ball": table[0]}
        event["wrong_pocket"] = True
