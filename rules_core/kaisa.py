"""Kaisa, the Finnish game (seed 001, RULES.md §5, docs/games/kaisa.md): two whites, two reds
and the kaisa; called pots score from the point table (kaisa_points); the game ends at race_to
(60) by the end rules; after a `time_up` event (from the board's clock) two final innings each,
then the penalty shootout. Kept small: on the board it shares a 64 KB heap with the match."""

from rules_core import events, rulesets
from rules_core import kaisa_innings as innings
from rules_core import kaisa_points as points
from rules_core.refusal import refuse
from rules_core.state import State as _State
from rules_core.state import begin

NAME = "kaisa"
BALLS = ("white", "red", "kaisa")  # white: the opponent's cue ball, an object ball for him
COUNT = {"white": 1, "red": 2, "kaisa": 1}
POCKETS = points.POCKETS
WAYS = ("direct", "cushion", "kyyti", "off")
FIRST = ("none", "white", "red", "kaisa")
PENALTY = {"none": 2, "white": 2, "red": 3, "kaisa": 6}  # seed §7a, by first contact
# What the referee calls. jump, mankeli and frozen only void the pot (no foul); the others
# are fouls; stop is the shootout's penalty for stopping a moving ball after a miss.
FOULS = ("cue_in", "cue_off", "touch", "hand", "push", "wrong_cue", "other", "jump", "mankeli",
         "frozen", "stop")
_NOT_FOULS = ("jump", "mankeli", "frozen")
_CUE_GONE = ("cue_in", "cue_off")
_SHOT = ("call", "pocket", "way", "cushion", "corner", "middle", "nakki", "off", "first", "foul",
         "as_called", "hand")

OPTIONS = {
    # A club's point table (entries replace the defaults), see kaisa_points.
    "points": (None, rulesets.Shape(dict, "a point table (object)")),
    # [choice] The winner's recorded points: race_to (60) or as scored. The loser's are
    # recorded at most race_to either way (seed §3).
    "winner_recorded": ("race_to", "scored"),
    # [choice] A second straight-middle kaisa in a row in one inning scores nothing and ends
    # the inning (pass), or the inning goes on (continue).
    "middle_twice": ("pass", "continue"),
    # [choice] Ball in hand after a cue ball foul or a foul from hand: for the incoming
    # opponent (the digest), or only for the owner of a ball that left the table (seed §4a).
    "foul_hand": ("opponent", "owner"),
    # [choice] "Only 6" for a kaisa into the middle by kyyti, or off a ball via cushion; or
    # by kyyti or off a ball only when via cushion (seed §2.1 reads either way).
    "middle_kaisa_limit": ("kyyti_or_off_cushion", "via_cushion"),
}


class State(_State):
    EXTRA = (
        "phase",  # "lag", "play", "final", "shootout": the phase the game is (was decided) in
        "in_hand",  # per player: his cue ball is in hand (behind the head line)
        "middle_run",  # the last pot of this inning was a straight-middle kaisa
        "left",  # per player, innings still to start: final innings (phase final) or
        # shootout innings (phase shootout); None in play
        "last",  # the last shot: {"player", "inning", "points", "why"}
        "to_spot",  # object balls the last shot sent off the table, kaisa first
        "result",  # the recorded points once finished (loser at most race_to)
    )


def start(state, settings):
    if settings["race_to"] < 10:
        refuse("bad_settings", "Kaisa's race_to: 10 or more (normally 60)")
    if state.rules["points"] is not None:
        from rules_core import kaisa_table

        kaisa_table.check(state.rules["points"])
    begin(state, settings)
    state.stats = [None, None]
    for p in (0, 1):
        state.stats[p] = {"innings": 0, "points": 0, "run": 0, "best": 0, "fouls": 0,
                          "white": 0, "red": 0, "kaisa": 0}
    state.phase = "lag"
    state.in_hand = [False, False]
    state.middle_run = False
    state.to_spot = []
    if settings["breaker"] is not None:
        _begin(state, settings["breaker"])


def apply(state, event):
    t = events.kind(event)
    if state.finished:
        refuse("match_over", "the game is over")
    state.notes = []
    if t == "shot":
        option = state.pending_option
        if option is not None:
            refuse("option_pending", "%s must first choose: %s"
                   % (state.players[option["player"]], ", ".join(option["choices"])))
        if state.shooter is None:
            refuse("need_lag", "lag first: who won the lag?")
        _shot(state, event)
    elif t in ("lag", "choose"):
        _lag_choose(state, event, t)
    elif t == "time_up":
        events.only(event, ())
        if state.phase != "play" or state.shooter is None:
            refuse("no_time_up", "time is up once, during play")
        # Two final innings each, the two-dot player last: the one-dot player's inning in
        # progress is his first final inning; the two-dot player's is not counted.
        state.phase = "final"
        state.left = [2, 2]
        if state.shooter == state.breaker:
            state.left[state.shooter] = 1
        state.notes.append("time_up")
    elif t == "adjust":
        innings.adjust(state, event)
    elif t == "concede":
        events.only(event, ("player",))
        innings.finish(state, 1 - events.player(event, "player"))
    else:
        refuse("bad_event", "kaisa has no '%s' event" % t)


# --- lag, innings, phases, the end ----------------------------------------------------------

def _lag_choose(state, event, t):
    option = state.pending_option
    if t == "lag":
        events.only(event, ("winner",))
        winner = events.player(event, "winner")
        if state.shooter is not None or option is not None or state.phase not in (
                "lag", "shootout"):
            refuse("no_lag", "the lag is before the game or the shootout")
        choices = ["one_dot", "two_dot"] if state.phase == "lag" else ["first", "second"]
        state.pending_option = {"player": winner, "choices": choices}
        state.notes.append("lag:%d" % winner)
        return
    if option is None:
        refuse("no_option", "there is no option to choose")
    events.only(event, ("choice",))
    choice = events.one_of(event, "choice", option["choices"])
    if choice is None:
        refuse("bad_field", "'choice' must be one of: %s" % ", ".join(option["choices"]))
    player = option["player"]
    if choice in ("two_dot", "second"):
        player = 1 - player
    state.pending_option = None
    state.notes.append("chose:" + choice)
    if state.phase == "lag":
        _begin(state, player)
    else:
        innings.inning(state, player)


def _begin(state, one_dot):
    """The one-dot player opens the game (seed §1.2)."""
    state.phase = "play"
    state.rack = 1
    state.breaker = one_dot
    state.breaking = True
    innings.inning(state, one_dot)


# --- the shot ------------------------------------------------------------------------------

def _balls(event, key):
    """A list of balls: white (the opponent's), red, kaisa."""
    value = event.get(key, [])
    ok = isinstance(value, list)
    for ball in value if ok else ():
        ok = ok and ball in BALLS
    if not ok:
        refuse("bad_field", "'%s' is a list of balls: white, red, kaisa" % key)
    return value


def _shot(state, event):
    events.only(event, _SHOT)
    called = events.one_of(event, "call", BALLS)
    pocket = events.one_of(event, "pocket", POCKETS)
    way = events.one_of(event, "way", WAYS, "direct")
    cushion = events.flag(event, "cushion")
    if (called is None) != (pocket is None) or called is None and "way" in event:
        refuse("bad_call", "a call names ball and pocket (and way)")
    if cushion and way not in ("kyyti", "off"):
        refuse("bad_call", "'cushion' goes with kyyti or off")
    corner = _balls(event, "corner")
    middle = _balls(event, "middle")
    off = _balls(event, "off")
    nakki = _balls(event, "nakki")
    first = events.one_of(event, "first", FIRST)
    foul = events.one_of(event, "foul", FOULS)
    as_called = event.get("as_called", True)
    hand = event.get("hand", None)
    if not isinstance(as_called, bool) or not isinstance(hand, (bool, type(None))):
        refuse("bad_field", "'as_called' and 'hand' are true or false")
    shooter = state.shooter
    shootout = state.phase == "shootout"
    from_hand = state.in_hand[shooter] and not shootout
    down = corner + middle
    called_down = called is not None and called in event.get(pocket, ())
    for ball in COUNT:
        if down.count(ball) + off.count(ball) > COUNT[ball] or \
                nakki.count(ball) + (called == ball) > COUNT[ball]:
            refuse("bad_ball", "too many %s balls down, off or touched" % ball)
    if nakki and not called_down:
        refuse("bad_field", "nakki count only after the called ball fell")
    if called_down and first == "none":
        refuse("bad_field", "the cue ball hit nothing, so pocketed nothing")
    if foul in _CUE_GONE and first is None:
        refuse("bad_field", "a cue ball foul needs 'first' for its penalty")
    if not shootout and state.in_hand[1 - shooter] and (
            "white" in down or "white" in off or "white" in nakki or "white" in (first, called)):
        refuse("bad_ball", "the opponent's white is in hand, off the table")
    if hand is not None and hand != from_hand:
        refuse("bad_hand", "the cue ball is %sin hand" % ("" if from_hand else "not "))
    if shootout:
        if called not in (None, "kaisa") or nakki or down.count("kaisa") < len(down):
            refuse("bad_call", "the shootout pots the kaisa only")
        if pocket == "middle" and innings.first_of_inning(state):
            refuse("bad_call", "a shootout inning starts into a corner")
    if foul == "stop" and not shootout or foul == "hand" and not (from_hand or state.breaking):
        refuse("bad_foul", "no '%s' foul now: stop is the shootout's, hand needs ball in hand"
               % foul)

    opponent = 1 - shooter
    opening = state.breaking
    state.breaking = False
    state.to_spot = ["kaisa"] * (down.count("kaisa") + off.count("kaisa")) + ["red"] * (
        down.count("red") + off.count("red"))
    if not shootout:
        state.in_hand[shooter] = False
        if "white" in down or "white" in off:
            state.in_hand[opponent] = True
    if foul is None:
        state.fouls_in_a_row[shooter] = 0
        if called_down and as_called:
            _pot(state, (called, pocket, way, cushion), corner, middle, nakki, off,
                 from_hand or opening, shootout)
        else:
            innings.tally(state, 0, "no pot as called" if down else "no pot")
            innings.end_inning(state)
        return
    lost = 0
    why = foul
    if foul in _CUE_GONE:
        why += " first " + first
        lost = PENALTY[first]
        if shootout:
            lost = 6 if first == "kaisa" else 2
        else:
            state.in_hand[shooter] = True
            if state.rules["foul_hand"] == "opponent":
                state.in_hand[opponent] = True
    elif foul == "stop":
        lost = 6
    elif foul == "hand" and not opening:
        state.in_hand[shooter if state.rules["foul_hand"] == "owner" else opponent] = True
    if foul in _NOT_FOULS or foul == "hand" and opening:
        why += ": no score"
        state.fouls_in_a_row[shooter] = 0
    else:
        why = "FOUL " + why
        state.stats[shooter]["fouls"] += 1
        state.fouls_in_a_row[shooter] += 1
        state.notes.append("foul:" + foul)
    innings.tally(state, -lost, why)
    innings.end_inning(state)


def _pot(state, call, corner, middle, nakki, off, hand_rules, shootout):
    shooter = state.shooter
    ball, pocket, way, cushion = call
    straight_middle = ball == "kaisa" and pocket == "middle" and way == "direct"
    if hand_rules and pocket == "middle" and way != "cushion" and not cushion:
        innings.tally(state, 0, "from hand: middle needs cushion")
        innings.end_inning(state)
        return
    if straight_middle and state.middle_run:
        innings.tally(state, 0, "kaisa middle twice in a row")
        if state.rules["middle_twice"] == "pass":
            innings.end_inning(state)
        return
    table = state.rules["points"]
    if shootout:
        gained = 6 if innings.first_of_inning(state) else points.value(table, pocket, "kaisa", "-")
        why = "kaisa " + pocket
    else:
        gained, why = points.pot(table, call, corner, middle, nakki,
                                 state.rules["middle_kaisa_limit"])
    before = state.score[shooter]
    race_to = state.race_to
    passes = len(off) > 0  # seed §8g: a nakki, kara or kyyti ball off: the pot counts
    ends = before + gained >= race_to
    if ball == "white" and not shootout and (way in ("kyyti", "off") or not nakki):
        # A white needs a nakki to end the game, or by kyyti another object ball (seed §3).
        if way == "kyyti" and (corner + middle).count("white") < len(corner) + len(middle):
            ends = ends or before >= race_to - 5
        elif before >= race_to - 1:
            gained, why, ends, passes = 2, "white without nakki on %d: +2" % before, False, True
        else:
            ends = False
    stats = state.stats[shooter]
    for item in corner + middle:
        stats[item] += 1
    innings.tally(state, gained, why)
    state.middle_run = straight_middle
    if ends:
        innings.finish(state, shooter)
    elif passes:
        innings.end_inning(state)
    else:
        state.notes.append("continue")
        innings.show_hand(state)
