"""What each display shows: a pure function of the match state, the referee's entry in
progress and the clocks. The app writes these texts to the displays; the drivers turn them
into segments and send only what changed.

Displays (hardware/panel.py): two 4-digit scores, a 4-digit clock and an 8-character message
row. Texts are at most 4 / 4 / 5 (with the colon) cells; a message longer than its 8 cells
scrolls. The shooter's score display carries a mark (``marked``).

The words are English here and shown in the board's language (firmware/words.py: `w`).
"""

from firmware.words import w

FOUL_SHORT = {
    "scratch": "SCR", "wrong_ball": "WRNG", "no_hit": "MISS", "no_rail": "RAIL",
    "cue_off": "CUE", "ball_off": "OFF", "touch": "TCH", "feet": "FEET", "moving": "MOVE",
    "frozen": "FRZN", "jump": "JUMP", "double_hit": "DBL", "head_string": "HEAD",
    "bad_break": "BRK",
}



class _Short:
    """A table of English texts read in the board's language: `get(code)` (the app reads
    REFUSAL_SHORT.get(refusal.code))."""

    def __init__(self, texts):
        self.texts = texts

    def get(self, code, default=None):
        text = self.texts.get(code)
        return default if text is None else w(text)


# What the message row says when the engine refuses an event (8 characters); other refusals
# scroll their full reason.
REFUSAL_SHORT = _Short({
    "need_lag": "LAG 1ST", "need_breaker": "WHO BRK?", "option_pending": "CHOOSE",
    "no_option": "NO OPTN", "no_push": "NO PUSH", "bad_ball": "BAD BALL",
    "bad_call": "BAD CALL", "no_warning": "NO WARN", "no_three_fouls": "NO WARN",
    "match_over": "GAME END", "nothing_to_undo": "NO UNDO", "nothing_to_redo": "NO REDO",
    "bad_foul": "BAD FOUL", "no_rack": "NO RACK", "rack_due": "RACK 1ST",
})

GROUP_SHORT = {"solids": " SOL", "stripes": " STR"}

CHOICE_SHORT = {
    "play": "PLAY", "pass": "PASS", "accept": "ACPT", "bih": "BIH", "rerack": "RRCK",
    "break": "BRK", "rebreak": "RBRK",
    "one_dot": "1DOT", "two_dot": "2DOT", "first": "1ST", "second": "2ND",  # Kaisa
}

# 14.1's continuation rack: the keys for where the 15th ball or the cue ball lies (index =
# rules_core.straight.PLACES: elsewhere, rack area, head spot, behind the head string), and
# where the engine's `placement` sends them.
PLACE_SHORT = ("ELSE", "RACK", "HEAD", "BHND")
PLACE_KEYS = "1 RACK 2 HEAD 3 BHND # ELSE"
SPOT_TEXT = {"head_spot": "HEAD SPOT", "centre_spot": "CENTRE SPOT", "behind_head": "BEHIND"}


def score(state, player):
    value = state.score[player]
    if value > 9999:
        value = 9999
    if value < -999:
        value = -999
    return "%d" % value


def marked(state):
    """The player whose score display is marked: the one at the table. Nobody during the lag
    or a choice of who breaks, and nobody once the match is over: the mark means "shooting",
    and the message row names the winner."""
    return None if state.finished else state.shooter


def clock(state, shot_clock_s=None):
    """The clock display: the shot clock when it runs, else the race (14.1: the balls
    left)."""
    if state.game == "kaisa":
        return _kaisa_clock(state, shot_clock_s)
    if shot_clock_s is not None:
        return "%d" % shot_clock_s
    if state.game == "14.1" and state.rack:
        return "b%3d" % len(state.on_table)  # 14.1: the balls left on the table
    return "r%d" % state.rack if state.rack else "-%d" % state.race_to


_tags = [None, None]  # [the players, their short names]: made once a match, not per frame


def player_tag(state, player):
    """The player's short name on the message row, never the same as the other player's:
    the first four letters of the name ("PL 1", "ANNA"); when both read alike, the first
    name and the surname's first letters ("ANNA A" / "ANNA B"), else more of the name;
    "P1"/"P2" for no name."""
    if _tags[0] != state.players:
        _tags[0] = list(state.players)
        _tags[1] = _short_names([name.upper().strip() for name in state.players])
    return _tags[1][player]


def _short_names(names):
    tags = [names[0][:4].rstrip() or "P1", names[1][:4].rstrip() or "P2"]
    words = (names[0].split(), names[1].split())
    for n in range(1, 9):
        if tags[0] != tags[1]:
            return tags
        if len(words[0]) > 1 and len(words[1]) > 1 and n < 4:
            tags = [w[0][:4] + " " + w[-1][:n] for w in words]
        else:
            tags = [names[0][:n + 4], names[1][:n + 4]]
    return [tags[0][:4] + " 1", tags[1][:4] + " 2"]


def message(state, entry=None):
    """The message row for the state, or for the referee's entry in progress."""
    if entry:
        return entry
    if state.game == "kaisa":
        return _kaisa(state)
    if state.finished:
        return w("%s WON") % player_tag(state, state.winner)
    option = state.pending_option
    if option is not None:
        who = option["player"]
        if state.shooter is None:
            return w("%s BRK?") % player_tag(state, who)
        # The digit keys pick the choices: "PL 1 1 PLAY 2 PASS" (it scrolls).
        parts = [player_tag(state, who)]
        for number in range(len(option["choices"])):
            choice = option["choices"][number]
            short = CHOICE_SHORT.get(choice)
            parts.append("%d %s" % (number + 1, choice[:4].upper() if short is None
                                    else w(short)))
        return " ".join(parts)
    if state.shooter is None:
        return w("LAG 1/2?")
    shooter = state.shooter
    tag = player_tag(state, shooter)
    if state.breaking:
        return w("%s BRK") % tag
    if state.game == "14.1":
        text = _straight(state)
        if text is not None:
            return text
    if state.fouls_in_a_row[shooter] == 2 and not state.warned[shooter] and _three_fouls(state):
        return w("%s WARN") % tag
    if state.game == "8ball" and state.groups[shooter] is not None:
        tag += GROUP_SHORT[state.groups[shooter]]  # 8-ball: the shooter's group, once decided
    if state.ball_in_hand:
        return w("%s BIH") % tag
    if state.fouls_in_a_row[shooter]:
        return "%s %dF" % (tag, state.fouls_in_a_row[shooter])
    if state.game == "14.1" and state.runs[shooter]["current"]:
        return "%s %d" % (tag, state.runs[shooter]["current"])  # 14.1: the run in progress
    return tag


def _straight(state):
    """14.1: the rack is due (where do the 15th ball and the cue ball lie?), or what the
    referee does with the balls after it: "RACK 14, 15 HEAD SPOT, CUE BEHIND" (it scrolls)."""
    if len(state.on_table) < 2:
        return "RACK DUE %s? %s" % ("15" if state.on_table else "CUE", PLACE_KEYS)
    placement = state.placement
    if placement is None:
        return None
    text = "RACK %d" % placement["racked"]
    if placement["ball15"] is not None:
        text += ", 15 " + SPOT_TEXT[placement["ball15"]]
    if placement["cue"] is not None:
        text += ", CUE " + SPOT_TEXT[placement["cue"]]
    return text


def _kaisa(state):
    """Kaisa: the lag and the cue ball chosen; the shooter with his cue ball (1D one-dot, 2D
    two-dot), BIH (ball in hand) or SO (the shootout); the result as recorded (the loser at
    most the race): "PL 1 WON 60-41" (it scrolls)."""
    if state.finished:
        result = state.result
        return w("%s WON %d-%d") % (player_tag(state, state.winner), result[0], result[1])
    option = state.pending_option
    if option is not None:
        choices = option["choices"]
        return "%s 1 %s 2 %s" % (player_tag(state, option["player"]),
                                 w(CHOICE_SHORT[choices[0]]), w(CHOICE_SHORT[choices[1]]))
    shooter = state.shooter
    if shooter is None:
        return w("SHOOTOUT LAG 1/2?") if state.phase == "shootout" else w("LAG 1/2?")
    tag = player_tag(state, shooter)
    if state.phase == "shootout":
        return w("%s SO") % tag
    if state.ball_in_hand:
        return w("%s BIH") % tag
    return (w("%s 1D") if shooter == state.breaker else w("%s 2D")) % tag


def _kaisa_clock(state, game_clock):
    """Kaisa's clock display: the innings left after time up, player 1's then player 2's
    (final innings F2-1, the shootout 9-10); else the game clock (59:59; a break b4:59);
    without one the race."""
    left = state.left
    if left is not None:
        text = ("F%d-%d" if state.phase == "final" else "%d-%d") % (left[0], left[1])
        return text if len(text) <= 4 else "%d%d" % (left[0], left[1])
    if game_clock is not None:
        return game_clock
    return "-%d" % state.race_to


def _three_fouls(state):
    """Does a warning at two fouls in a row matter in this match?"""
    return state.game in ("9ball", "14.1") and state.rules.get("warning_required", True)


def frame(state, entry=None, shot_clock_s=None):
    """All four display texts for one moment."""
    return (score(state, 0), score(state, 1), clock(state, shot_clock_s), message(state, entry))
