"""The referee panel for Kaisa (docs/referee.md has the keymap a referee reads). Loaded only
when a Kaisa match starts. The keys are laid out by column: white, red, kaisa.

    1 2 3     the called ball went into a CORNER as called (white, red, kaisa): records the
              pot, with what was entered before it. One press for a plain pot.
    4 5 6     the same into a MIDDLE pocket
    7 8 9     nakki on white / red / kaisa (8 twice: both reds), entered before the pot;
              with a foul armed: the cue ball's first contact, and the foul is recorded
    C         the call's way: CUSH, KYYT, KYYT+C, OFFB (off a ball), OFFB+C, UNCALLED (in
              the called pocket, but not as called), then back to direct
    0         the next ball key is another ball that fell there (+); 0 0: a ball off the
              table (OUT), by its column
    A or #    record as entered, without a call: nothing entered is a miss
    B         arm a foul, B again the next kind (SCR cue ball in, HAND, COFF cue ball off,
              TCH, PUSH, JUMP, MANK, FRZN, WCUE, OTHR; STOP in the shootout); A records it
              (a cue ball foul with no contact); with a foul armed 1-6 are balls down
    D         clear the entry; long press: undo
    * then    1/2 concede (player 1/2), A correct a score (1/2, digits, C minus, #),
              B ball in hand for the shooter on/off, 0 the other player to the table,
              3 innings left (1/2, digits, #), # time is up, C a break (1/2 whose; during
              a break C ends it), D redo
    Lag: 1/2 who won it, then 1 one-dot / 2 two-dot (the shootout: 1 first / 2 second).

`Panel.press(key)` returns an event, "undo"/"redo", a ("clock", ...) action for the game
clock (firmware/kaisa_face.py), or None while an entry is being built.
"""

from firmware.referee import REDO
from firmware.referee import Panel as _Panel
from firmware.screens import player_tag
from firmware.words import w
from rules_core.kaisa import BALLS as COLUMN
from rules_core.kaisa import COUNT
from rules_core.kaisa_points import POCKETS as POCKET
from rules_core.kaisa_points import nakki_key

# The module's tables are tuples, not dicts: loaded with a Kaisa match, at the heap's fullest
# moment, where each dict costs its object and a hash table (docs/performance.md, issue 31).
# The balls (rules_core.kaisa BALLS, COUNT: the engine's own) are white, red, kaisa: the
# columns of the keys; their letter and short name by the same index.
LETTER = "WRK"
BALL_SHORT = ("WHT", "RED", "KAISA")
# The way cycle (C), by index: the way, its text on the message row; the ways via cushion
# and the one not as called are the cycle's places in VIA_CUSHION and NOT_AS_CALLED.
WAY = ("direct", "cushion", "kyyti", "kyyti", "off", "off", "direct")
WAY_SHORT = ("", "CUSH", "KYYT", "KYYT+C", "OFFB", "OFFB+C", "UNCALLED")
VIA_CUSHION = (3, 5)
NOT_AS_CALLED = 6
# The foul cycle (B), most common first, and each one's text by the same index; HAND only
# with ball in hand or on the opening shot, STOP only in the shootout.
FOULS = ("cue_in", "hand", "stop", "cue_off", "touch", "push", "jump", "mankeli", "frozen",
         "wrong_cue", "other")
FOUL_SHORT = ("SCR", "HAND", "STOP", "COFF", "TCH", "PUSH", "JUMP", "MANK", "FRZN", "WCUE",
              "OTHR")
VOID = ("jump", "mankeli", "frozen")  # no foul: the pot does not score, the turn passes
CUE_GONE = ("cue_in", "cue_off")
BREAK = "break"  # ("clock", BREAK, player): the player's break starts
RESUME = "resume"  # ("clock", RESUME): the break ends


class Panel(_Panel):
    def __init__(self, match, face=None):
        self.face = face  # the game clock (firmware/kaisa_face.py), for the break keys
        _Panel.__init__(self, match)

    def clear(self):
        _Panel.clear(self)
        self.nakki = []
        self.way = 0  # an index of WAY (the way cycle)
        self.fell = []  # (pocket, ball) of other balls down (with a foul: all balls down)
        self.out = []  # balls off the table
        self.prefix = 0  # the next ball key: 0 the call, 1 a ball down, 2 a ball off
        self.pausing = False  # * C: whose break?
        self.innings = None  # an innings-left correction: [player or None, digits]

    def busy(self):
        return bool(_Panel.busy(self) or self.nakki or self.way or self.fell or self.out or
                    self.prefix or self.pausing or self.innings is not None)

    def _on_break(self):
        return self.face is not None and self.face.on_break() is not None

    # --- keys ------------------------------------------------------------------------

    def press(self, key):
        state = self.match.state
        if self.face is not None:
            self.face.pressed()
        if self.pausing:
            self.clear()
            return ("clock", BREAK, int(key) - 1) if key in "12" else None
        if self.innings is not None:
            return self._innings(key)
        if key == "C" and self._on_break() and not self.shift:
            return ("clock", RESUME)
        if (self.shift or key == "*" or key == "D" or state.finished or self.adjusting
                is not None or state.pending_option is not None or state.shooter is None):
            return _Panel.press(self, key)  # shift, clear, correction, lag and options
        if key in "123456789":
            index = int(key) - 1
            ball = COLUMN[index % 3]
            if self.prefix == 2:
                _add(self.out, ball, ball)
            elif index > 5:
                if self.foul is not None:
                    return self._shot(None, None, ball)  # the cue ball's first contact
                _add(self.nakki, ball, ball)
            elif self.prefix or self.foul is not None:
                _add(self.fell, (POCKET[index // 3], ball), ball)
            else:
                return self._shot(ball, POCKET[index // 3], None)
            self.prefix = 0
            return None
        if key == "0":
            self.prefix = (self.prefix + 1) % 3
        elif key == "C":
            self.way = (self.way + 1) % len(WAY)
        elif key == "B":
            self._next_foul(state)
        elif key in "A#":
            return self._shot(None, None, None)
        return None

    def _next_foul(self, state):
        cycle = [None]
        for kind in FOULS:
            if (kind != "hand" or state.ball_in_hand or state.breaking) and (
                    kind != "stop" or state.phase == "shootout"):
                cycle.append(kind)
        at = cycle.index(self.foul) if self.foul in cycle else 0
        self.foul = cycle[(at + 1) % len(cycle)]

    def _shifted(self, key, state):
        if key == "D":
            return REDO
        if key == "C" and self._on_break():
            return ("clock", RESUME)
        if state.finished:
            return None
        if key == "C":
            self.pausing = True
            return None
        if key == "A":
            self.adjusting = [None, ""]
            return None
        if key == "#":
            return {"t": "time_up"}
        shooter = state.shooter
        if shooter is None:
            return None
        if key in "12":
            return {"t": "concede", "player": int(key) - 1}
        if key == "0":
            return {"t": "adjust", "reason": "shooter corrected on the panel",
                    "shooter": 1 - shooter}
        if key == "B":
            hand = list(state.in_hand)
            hand[shooter] = not hand[shooter]
            return {"t": "adjust", "reason": "ball in hand corrected on the panel",
                    "in_hand": hand}
        if key == "3" and state.left is not None:
            self.innings = [None, ""]
        return None

    def _adjust(self, key, state):
        """A score correction: the player (1/2), the digits (C: a minus), then #."""
        player, digits = self.adjusting
        if player is None:
            if key in "12":
                self.adjusting = [int(key) - 1, ""]
            return None
        minus = digits[:1] == "-"
        number = digits[1:] if minus else digits
        if key in "0123456789":
            number = (number + key)[-3:]
        elif key == "C":
            minus = not minus
        elif key == "#" and number:
            score = list(state.score)
            score[player] = -int(number) if minus else int(number)
            self.clear()
            return {"t": "adjust", "reason": "score corrected on the panel", "score": score}
        self.adjusting = [player, ("-" if minus else "") + number]
        return None

    def _innings(self, key):
        """The final or shootout innings left: the player (1/2), the count, then #."""
        player, digits = self.innings
        if key == "D":
            self.clear()
        elif player is None:
            if key in "12":
                self.innings = [int(key) - 1, ""]
        elif key in "0123456789":
            self.innings = [player, (digits + key)[-2:]]
        elif key == "#" and digits:
            left = list(self.match.state.left)
            left[player] = int(digits)
            self.clear()
            return {"t": "adjust", "reason": "innings left corrected on the panel",
                    "left": left}
        return None

    # --- the shot --------------------------------------------------------------------

    def _shot(self, called, pocket, first):
        event = {"t": "shot"}
        corner = [item[1] for item in self.fell if item[0] == "corner"]
        middle = [item[1] for item in self.fell if item[0] == "middle"]
        way = WAY[self.way]
        if called is not None:
            event["call"] = called
            event["pocket"] = pocket
            (corner if pocket == "corner" else middle).insert(0, called)
        if self.way:  # without a call the engine refuses the way: the referee sees why
            if way != "direct":
                event["way"] = way
            if self.way in VIA_CUSHION:
                event["cushion"] = True
            if self.way == NOT_AS_CALLED:
                event["as_called"] = False
        if corner:
            event["corner"] = corner
        if middle:
            event["middle"] = middle
        if self.nakki:
            event["nakki"] = list(self.nakki)
        if self.out:
            event["off"] = list(self.out)
        if self.foul is not None:
            event["foul"] = self.foul
            if first is None and self.foul in CUE_GONE:
                first = "none"  # A: the cue ball touched nothing
        if first is not None:
            event["first"] = first
        self.clear()
        return event

    # --- what the message display shows while entering ------------------------------

    def entry_text(self):
        if self.pausing:
            return w("BREAK 1/2?")
        if self.innings is not None:
            player, digits = self.innings
            return "LEFT P?" if player is None else "LEFT P%d %s" % (player + 1, digits)
        if self.shift or self.choice or self.adjusting is not None:
            return _Panel.entry_text(self)
        if not self.busy():
            face = self.face
            player = face.on_break() if face is not None else None
            if player is not None:
                return w("%s BREAK") % player_tag(self.match.state, player)
            return None
        parts = []
        if self.foul is not None:
            parts.append(_foul_text(self.foul))
        if self.way:
            parts.append(WAY_SHORT[self.way])
        if self.nakki:
            parts.append("NK " + nakki_key(self.nakki).upper())
        for item in self.fell:
            parts.append("+" + _letter(item[1]) + item[0][0].upper())
        if self.out:
            parts.append("OUT " + "".join([_letter(ball) for ball in self.out]))
        if self.prefix:
            parts.append("+?" if self.prefix == 1 else "OUT?")
        return " ".join(parts)


def _add(items, item, ball):
    """Add `item` (a ball, or (pocket, ball)) up to the number of such balls; one more takes
    them all out again."""
    same = [x for x in items if x == ball or isinstance(x, tuple) and x[1] == ball]
    if len(same) < COUNT[ball]:
        items.append(item)
    else:
        for x in same:
            items.remove(x)


def _letter(ball):
    return LETTER[COLUMN.index(ball)]


def _foul_text(foul):
    """A foul as the message row says it: F and its text ("FSCR"); a void pot its text alone."""
    return ("" if foul in VOID else "F") + FOUL_SHORT[FOULS.index(foul)]


def flash(event, state):
    """What the message row says for a moment after a shot: the points and why, e.g.
    "RED+K 9", "KAISA M 6", "FSCR -3", "JUMP 0"; a pot that scored nothing says the
    engine's reason. None for a shot without a call or a foul (a miss)."""
    last = state.last
    if last is None or event.get("t") != "shot":
        return None
    points = last["points"]
    foul = event.get("foul")
    if foul is not None:
        return "%s %d" % (_foul_text(foul), points)
    called = event.get("call")
    if called is None:
        return None
    if points == 0:
        return last["why"].upper()
    label = w(BALL_SHORT[COLUMN.index(called)])
    if event.get("pocket") == "middle":
        label += " M"
    nakki = event.get("nakki")
    if nakki and event.get("way") not in ("kyyti", "off"):
        label += "+" + nakki_key(nakki).upper()
    return "%s %d" % (label, points)
