"""Kaisa, the Finnish game (seed 001, RULES.md §5; docs/games/kaisa.md): two whites, two reds
and the kaisa; called pots score from the point table (kaisa_points), the game ends at race_to
(60) by the end rules; when time is up (a `time_up` event from the board's clock) two final
innings each, then the penalty shootout."""

from rules_core import events
from rules_core import kaisa_points as points
from rules_core.refusal import refuse
from rules_core.state import State as _State

NAME = "kaisa"
COUNT = {"white": 1, "red": 2, "kaisa": 1}  # object balls a shooter can pocket
POCKETS = ("corner", "middle")
WAYS = ("direct", "cushion", "kyyti", "off")
FIRST = ("none", "white", "red", "kaisa")
PENALTY = {"none": 2, "white": 2, "red": 3, "kaisa": 6}  # seed §7a, by first contact
# Referee-called kinds. jump, mankeli and frozen only void the pot (no foul); the rest are
# fouls; stop is the shootout's penalty for stopping a moving ball after a miss.
FOULS = ("cue_in", "cue_off", "touch", "hand", "push", "wrong_cue", "other", "jump", "mankeli",
         "frozen", "stop")
_NOT_FOULS = ("jump", "mankeli", "frozen")
_WORDS = {"cue_in": "cue ball pocketed", "cue_off": "cue ball off the table",
          "touch": "touched a ball", "hand": "ball-in-hand rule broken", "push": "push shot",
          "wrong_cue": "wrong cue ball", "other": "foul", "jump": "jump over a ball",
          "mankeli": "mankeli", "frozen": "frozen ball", "stop": "stopped a moving ball"}
_CUE_GONE = ("cue_in", "cue_off")
SHOOTOUT_INNINGS = 10
FINAL_INNINGS = 2
_SCORE_MAX = 999

OPTIONS = {
    # A club's point table (partial: entries replace the defaults), see kaisa_points.
    "points": (None, points.ANY_TABLE),
    # [choice] The winner's recorded points: race_to (60) or as scored. The loser's are
    # recorded at most race_to either way (seed §3).
    "winner_recorded": ("race_to", "scored"),
    # [choice] A second straight-middle kaisa in a row in one inning does not score; it ends
    # the inning (pass) or the inning goes on (continue).
    "middle_twice": ("pass", "continue"),
    # [choice] Who has ball in hand after a cue ball foul or a foul from hand: the incoming
    # opponent (the digest) or only the owner of a ball that left the table (seed §4a).
    "foul_hand": ("opponent", "owner"),
    # [choice] "Only 6" for a kaisa into the middle by kyyti (any) or off a ball via cushion,
    # or only when via cushion(s) for both (seed §2.1 reads either way).
    "middle_kaisa_limit": ("kyyti_or_off_cushion", "via_cushion"),
}


class State(_State):
    EXTRA = (
        "phase",  # "lag", "play", "final", "shootout": the phase the game is (was) in
        "in_hand",  # per player: his cue ball is in hand (behind the head line)
        "middle_run",  # the last pot of this inning was a straight-middle kaisa
        "final_left",  # final innings each player has still to start (phase final)
        "shootout_left",  # shootout innings each player has still to start
        "shootout_first",  # who shoots first in the shootout (and in each tie pair)
        "last",  # the last shot: {"player", "inning", "points", "why"}
        "to_spot",  # balls the last shot sent off the table, to respot (kaisa first)
        "result",  # recorded points [p0, p1] once finished (loser capped at race_to)
    )


def start(state, settings):
    race_to = settings["race_to"]
    if race_to < 10:
        refuse("bad_settings", "Kaisa's 'race_to' is the points that end a game (normally 60), "
               "at least 10")
    points.check(state.rules["points"])
    state.game = NAME
    state.players = list(settings["players"])
    state.race_to = race_to
    state.score = [0, 0]
    state.inning = 0
    state.rack = 0
    state.breaking = False
    state.fouls_in_a_row = [0, 0]
    state.warned = [False, False]
    state.finished = False
    state.stats = [_new_stats(), _new_stats()]
    state.notes = []
    state.phase = "lag"
    state.in_hand = [False, False]
    state.middle_run = False
    state.to_spot = []
    if settings["breaker"] is not None:
        _begin(state, settings["breaker"])


def _new_stats():
    return {"innings": 0, "fouls": 0, "best": 0, "per_inning": [],
            "pots": {"white": 0, "red": 0, "kaisa": 0}}


def apply(state, event):
    t = events.kind(event)
    if state.finished:
        refuse("match_over", "the game is over: %s won" % state.players[state.winner])
    state.notes = []
    if t == "shot":
        _ready(state)
        _shot(state, event)
    elif t == "lag":
        _lag(state, event)
    elif t == "choose":
        _choose(state, event)
    elif t == "time_up":
        _time_up(state, event)
    elif t == "adjust":
        _adjust(state, event)
    elif t == "concede":
        events.only(event, ("player",))
        player = events.player(event, "player")
        state.notes.append("conceded:%d" % player)
        _finish(state, 1 - player)
    else:
        refuse("bad_event", "kaisa has no '%s' event" % t)


# --- lag, start, innings, phases ------------------------------------------------------------

def _lag(state, event):
    events.only(event, ("winner",))
    winner = events.player(event, "winner")
    if state.shooter is not None or state.pending_option is not None or \
            state.phase not in ("lag", "shootout"):
        refuse("no_lag", "the lag is only before the game and before the shootout")
    choices = ["one_dot", "two_dot"] if state.phase == "lag" else ["first", "second"]
    state.pending_option = {"player": winner, "choices": choices}
    state.notes.append("lag:%d" % winner)


def _choose(state, event):
    option = state.pending_option
    if option is None:
        refuse("no_option", "there is no option to choose now")
    events.only(event, ("choice",))
    choice = events.one_of(event, "choice", option["choices"])
    if choice is None:
        refuse("bad_field", "'choice' must be one of: %s" % ", ".join(option["choices"]))
    player = option["player"]
    if choice in ("two_dot", "second"):
        player = 1 - player
    state.pending_option = None
    state.notes.append("chose:%s" % choice)
    if state.phase == "lag":
        _begin(state, player)
    else:
        state.shootout_first = player
        state.shootout_left = [SHOOTOUT_INNINGS, SHOOTOUT_INNINGS]
        _inning(state, player)


def _begin(state, one_dot):
    """The one-dot player opens the game (seed §1.2)."""
    state.phase = "play"
    state.rack = 1
    state.breaker = one_dot
    state.breaking = True
    _inning(state, one_dot)
    state.notes.append("one_dot:%d" % one_dot)


def _inning(state, player):
    state.shooter = player
    state.inning += 1
    state.middle_run = False
    stats = state.stats[player]
    stats["innings"] += 1
    stats["per_inning"].append(0)
    stats["best"] = max(stats["per_inning"])
    if state.shootout_left is not None:
        state.shootout_left[player] -= 1
    elif state.final_left is not None:
        state.final_left[player] -= 1
    _show_hand(state)
    state.notes.append("inning:%d" % player)


def _show_hand(state):
    on = state.phase != "shootout" and state.in_hand[state.shooter]
    state.ball_in_hand = "behind_head" if on else None


def _end_inning(state):
    incoming = 1 - state.shooter
    if state.phase == "final" and state.final_left[incoming] == 0:
        state.phase = "shootout"
        state.final_left = None
        state.shooter = None
        state.ball_in_hand = None
        state.in_hand = [False, False]
        state.notes.append("shootout")
        return
    left = state.shootout_left
    if left is not None and left[incoming] == 0:
        if state.score[0] != state.score[1]:
            _finish(state, 0 if state.score[0] > state.score[1] else 1, True)
            return
        state.shootout_left = [1, 1]
        state.notes.append("tie_pair")
    _inning(state, incoming)


def _time_up(state, event):
    events.only(event, ())
    if state.phase != "play" or state.shooter is None:
        refuse("no_time_up", "time is up once, during play")
    state.phase = "final"
    # Two innings each, the two-dot player last: the one-dot player's inning in progress is
    # his first final inning; the two-dot player's is not counted.
    state.final_left = [FINAL_INNINGS, FINAL_INNINGS]
    if state.shooter == state.breaker:
        state.final_left[state.shooter] -= 1
    state.notes.append("time_up")


def _ready(state):
    if state.pending_option is not None:
        option = state.pending_option
        refuse("option_pending", "%s must first choose: %s"
               % (state.players[option["player"]], ", ".join(option["choices"])))
    if state.shooter is None:
        refuse("need_lag", "lag first: who won the lag?")


def _finish(state, winner, as_scored=False):
    state.winner = winner
    state.finished = True
    state.pending_option = None
    state.ball_in_hand = None
    state.breaking = False
    result = list(state.score)
    if not as_scored:
        if state.rules["winner_recorded"] == "race_to":
            result[winner] = state.race_to
        result[1 - winner] = min(result[1 - winner], state.race_to)
    state.result = result
    state.notes.append("won:%d" % winner)


# --- the shot ------------------------------------------------------------------------------

_CALL_FIELDS = ("ball", "pocket", "way", "cushion")
_SHOT_FIELDS = ("call", "fell", "nakki", "first", "foul", "off", "as_called", "hand")


def _names(event, key):
    value = event.get(key, [])
    if not isinstance(value, list):
        refuse("bad_field", "'%s' must be a list of balls (white, red, kaisa)" % key)
    for ball in value:
        if ball not in COUNT:
            refuse("bad_field", "'%s' must be a list of balls (white, red, kaisa)" % key)
    return value


def _read_call(event):
    call = event.get("call")
    if call is None:
        return None
    if not isinstance(call, dict) or [k for k in call if k not in _CALL_FIELDS]:
        refuse("bad_call", "'call' must be {ball, pocket, way, cushion}")
    ball = events.one_of(call, "ball", ("white", "red", "kaisa"))
    pocket = events.one_of(call, "pocket", POCKETS)
    way = events.one_of(call, "way", WAYS, "direct")
    cushion = events.flag(call, "cushion")
    if ball is None or pocket is None:
        refuse("bad_call", "a call names the ball and the pocket (corner or middle)")
    if cushion and way not in ("kyyti", "off"):
        refuse("bad_call", "'cushion' goes with a kyyti or off-a-ball call; else way 'cushion'")
    return (ball, pocket, way, cushion)


def _read_fell(event):
    fell = event.get("fell", [])
    if not isinstance(fell, list):
        refuse("bad_field", "'fell' must be a list of [ball, pocket]")
    for item in fell:
        if not isinstance(item, list) or len(item) != 2 or item[0] not in COUNT \
                or item[1] not in POCKETS:
            refuse("bad_field", "'fell' must be a list of [ball, pocket], e.g. [\"red\", "
                   "\"corner\"]")
    return fell


def _count(balls, ball):
    return len([b for b in balls if b == ball])


def _shot(state, event):
    events.only(event, _SHOT_FIELDS)
    call = _read_call(event)
    fell = _read_fell(event)
    off = _names(event, "off")
    nakki = _names(event, "nakki")
    first = events.one_of(event, "first", FIRST)
    foul = events.one_of(event, "foul", FOULS)
    as_called = event.get("as_called", True)
    if not isinstance(as_called, bool):
        refuse("bad_field", "'as_called' must be true or false")
    hand = event.get("hand")
    if hand is not None and not isinstance(hand, bool):
        refuse("bad_field", "'hand' must be true or false")
    shooter = state.shooter
    shootout = state.phase == "shootout"
    from_hand = state.in_hand[shooter] and not shootout
    down = [item[0] for item in fell]
    for ball in COUNT:
        if _count(down, ball) + _count(off, ball) > COUNT[ball]:
            refuse("bad_ball", "there are only %d %s object balls to go down or off"
                   % (COUNT[ball], ball))
    called_down = call is not None and [call[0], call[1]] in fell
    if nakki and not called_down:
        refuse("bad_field", "nakki are the cue ball's contacts after the called ball fell")
    for ball in COUNT:
        if _count(nakki, ball) + (call is not None and call[0] == ball) > COUNT[ball]:
            refuse("bad_ball", "no %s left for that many nakki" % ball)
    if called_down and first == "none":
        refuse("bad_field", "the cue ball hit nothing: no ball was pocketed by it")
    if foul in _CUE_GONE and first is None:
        refuse("bad_field", "'first' (none, white, red, kaisa) sets the penalty for '%s'" % foul)
    if hand is not None and hand != from_hand:
        refuse("bad_hand", "%s's cue ball is %sin hand (adjust if that is wrong)"
               % (state.players[shooter], "" if from_hand else "not "))
    if shootout:
        if (call is not None and call[0] != "kaisa") or nakki or \
                len([b for b in down if b != "kaisa"]):
            refuse("bad_call", "the shootout pots the kaisa only, without nakki")
        if foul == "hand":
            refuse("bad_foul", "no ball in hand in the shootout")
        if call is not None and call[1] != "corner" and _first_of_inning(state):
            refuse("bad_call", "a shootout inning starts with the kaisa into a corner")
    elif foul == "stop":
        refuse("bad_foul", "'stop' is the shootout's penalty for stopping a ball after a miss")
    elif foul == "hand" and not (from_hand or state.breaking):
        refuse("bad_foul", "no ball-in-hand foul: the cue ball is not in hand")

    opponent = 1 - shooter
    opening = state.breaking
    state.breaking = False
    spot = []
    for ball in ("kaisa", "red"):
        spot += [ball] * (_count(down, ball) + _count(off, ball))
    state.to_spot = spot
    if not shootout:
        state.in_hand[shooter] = False
        if "white" in down or "white" in off:
            state.in_hand[opponent] = True
    if foul is not None:
        _foul(state, foul, first, opening, shootout)
    elif not (called_down and as_called):
        _tally(state, 0, "no pot as called" if fell else "no pot")
        state.fouls_in_a_row[shooter] = 0
        _end_inning(state)
    else:
        state.fouls_in_a_row[shooter] = 0
        _pot(state, call, fell, nakki, off, from_hand or opening, shootout)


def _first_of_inning(state):
    return state.last is None or state.last["inning"] != state.inning


def _foul(state, foul, first, opening, shootout):
    shooter = state.shooter
    lost = 0
    if foul in _CUE_GONE:
        lost = PENALTY[first]
        if shootout:
            lost = 6 if first == "kaisa" else 2
        else:
            state.in_hand[shooter] = True
            if state.rules["foul_hand"] == "opponent":
                state.in_hand[1 - shooter] = True
    elif foul == "stop":
        lost = 6
    elif foul == "hand" and not opening:
        owner = shooter if state.rules["foul_hand"] == "owner" else 1 - shooter
        state.in_hand[owner] = True
    why = _WORDS[foul]
    if foul in _NOT_FOULS or (foul == "hand" and opening):
        why += ": no score"
        state.fouls_in_a_row[shooter] = 0
    else:
        why = "FOUL " + why
        state.stats[shooter]["fouls"] += 1
        state.fouls_in_a_row[shooter] += 1
        state.notes.append("foul:%s" % foul)
    if first is not None and foul in _CUE_GONE:
        why += ", first contact " + first
    _tally(state, -lost, why)
    _end_inning(state)


def _tally(state, gained, why):
    shooter = state.shooter
    state.score[shooter] += gained
    stats = state.stats[shooter]
    stats["per_inning"][-1] += gained
    stats["best"] = max(stats["per_inning"])
    state.last = {"player": shooter, "inning": state.inning, "points": gained, "why": why}
    state.notes.append("points:%d" % gained)


def _pot(state, call, fell, nakki, off, hand_rules, shootout):
    shooter = state.shooter
    ball, pocket, way, cushion = call
    via_cushion = way == "cushion" or cushion
    straight_middle = ball == "kaisa" and pocket == "middle" and way == "direct"
    if hand_rules and pocket == "middle" and not via_cushion:
        _tally(state, 0, "%s middle from hand: only corners or via cushion score" % ball)
        _end_inning(state)
        return
    if straight_middle and state.middle_run:
        _tally(state, 0, "kaisa straight middle twice in a row: no score")
        if state.rules["middle_twice"] == "pass":
            _end_inning(state)
        return
    table = state.rules["points"]
    if shootout:
        gained = 6 if _first_of_inning(state) else points.value(table, pocket, "kaisa", "-")
        why = "kaisa %s" % pocket
    else:
        gained, why = points.pot(table, call, fell, nakki, state.rules["middle_kaisa_limit"])
    before = state.score[shooter]
    race_to = state.race_to
    passes = len(off) > 0  # seed §8g: a nakki, kara or kyyti ball off: the pot counts
    if ball == "white" and not shootout and (way in ("kyyti", "off") or not nakki):
        # A white needs a nakki to end the game, or by kyyti another object ball (seed §3).
        if way == "kyyti" and [b for b in fell if b[0] != "white"]:
            ends = before + gained >= race_to or before >= race_to - 5
        elif before >= race_to - 1:
            gained, why, ends, passes = 2, "white without nakki on %d: +2" % before, False, True
        else:
            ends = False
    else:
        ends = before + gained >= race_to
    pots = state.stats[shooter]["pots"]
    for item in fell:
        pots[item[0]] += 1
    _tally(state, gained, why)
    state.middle_run = straight_middle
    if ends:
        _finish(state, shooter)
    elif passes:
        _end_inning(state)
    else:
        state.notes.append("continue")
        _show_hand(state)


# --- referee adjustments -------------------------------------------------------------------

def _adjust(state, event):
    events.only(event, ("reason", "score", "shooter", "in_hand", "fouls_in_a_row", "winner"))
    events.text(event, "reason")
    score = events.pair_of_ints(event, "score", -_SCORE_MAX, _SCORE_MAX)
    fouls = events.pair_of_ints(event, "fouls_in_a_row", 0, _SCORE_MAX)
    shooter = events.player(event, "shooter", required=False)
    winner = events.player(event, "winner", required=False)
    in_hand = event.get("in_hand")
    if in_hand is not None and (not isinstance(in_hand, list) or len(in_hand) != 2 or
                                [v for v in in_hand if not isinstance(v, bool)]):
        refuse("bad_field", "'in_hand' must be two true/false values, one per player")
    if len([key for key in event if key not in ("t", "at", "reason")]) == 0:
        refuse("bad_field", "an adjustment must change something")
    if shooter is not None and state.shooter is None:
        refuse("no_game", "no inning is being played")
    if score is not None:
        state.score = score
    if fouls is not None:
        state.fouls_in_a_row = fouls
    if in_hand is not None:
        state.in_hand = [in_hand[0], in_hand[1]]
    if shooter is not None:
        state.shooter = shooter
    if state.shooter is not None:
        _show_hand(state)
    state.notes.append("adjusted")
    if winner is not None:
        _finish(state, winner)
