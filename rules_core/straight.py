"""14.1 continuous, straight pool (seed 000 §10): every ball called, a point a ball, a race to
N points; the opening break (safety or called), fouls -1, three in a row -1 -15, and the
continuation racks with the special places of the 15th ball and the cue ball."""

from rules_core import events, pool
from rules_core.refusal import refuse
from rules_core.state import State as _State

NAME = "14.1"
RACK = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GAME_BALL = None  # no ball decides anything
THREE_FOULS = True
CONCEDE = ("match",)  # no racks to concede: points are the score
SCORE_MIN = -9999  # penalties may take a score below zero
# Where the referee sees the 15th ball or the cue ball when the 14th has fallen.
PLACES = ("elsewhere", "rack", "head_spot", "behind_head")
_CUE_GONE = ("scratch", "cue_off")

start = pool.start
apply = pool.apply

OPTIONS = {
    # [gap] A foul on the opening break other than the failed break itself (a scratch, the
    # cue ball off): "seed" -1, outside the three-foul rule, and on top of the -2 of a failed
    # break; "wpa" a standard foul that counts in a row, and a failed break's -2 only.
    "break_scratch": ("seed", "wpa"),
    # Without a warning at two fouls in a row, a third foul counts only as the second.
    "warning_required": (True, False),
    # [gap] What clears the fouls in a row: any legal shot (seed §4.2, WPA), or only a
    # legally called and pocketed ball.
    "fouls_cleared_by": ("legal_shot", "pot"),
    # [choice] Points lost on the third foul in a row beside its own point: the seed's
    # "15 penalty points" as extra (WPA: -16 in all), or as the whole (-15).
    "three_foul_extra": (15, 14),
    # [gap] After a foul: "wpa" the cue ball stays where it lies, in hand behind the head
    # string after a scratch or the cue ball off; "anywhere" the general pool rule (§4.4).
    "ball_in_hand": ("wpa", "anywhere"),
}

_SHOT = ("pocketed", "off", "first", "foul", "call", "into", "wrong_pocket", "safety", "rail",
         "break", "cushions", "cue_cushion")


class State(_State):
    EXTRA = ("runs", "placement")


def on_new_match(state):
    state.runs = [{"current": 0, "high": 0}, {"current": 0, "high": 0}]
    state.placement = None
    for stats in state.stats:
        del stats["break_wins"]
        del stats["break_and_runs"]
        stats["balls"] = 0
        stats["penalty"] = 0


def on_new_rack(state):
    state.placement = None


def on_match_over(state):
    state.placement = None


# --- a shot ------------------------------------------------------------------------------

def shot(state, event):
    """Read every fact and refuse before anything changes; then the outcome: a legal pot
    scores and continues; a miss or safety passes the turn; a foul (or a failed break) costs
    points and passes the turn, with the accept/rebreak option where the rules give one."""
    events.only(event, _SHOT)
    table = state.on_table
    if len(table) < 2:
        refuse("rack_due", "rack first: where are the 15th ball and the cue ball?")
    breaking = state.breaking
    pocketed = events.balls(event, "pocketed", table)
    off = events.balls(event, "off", table)
    for ball in off:
        if ball in pocketed:
            refuse("bad_ball", "ball %d both pocketed and off" % ball)
    first = pool.first_ball(event, table, 15)
    foul = events.one_of(event, "foul", pool.FOUL_KINDS)
    call = events.call(event, table)
    into = events.integer(event, "into", 1, 6)
    wrong = events.flag(event, "wrong_pocket")
    safety = events.flag(event, "safety")
    kind = events.one_of(event, "break", ("safety", "called"))
    cushions = events.integer(event, "cushions", 0, 15)
    cue_cushion = events.flag(event, "cue_cushion")
    rail = events.flag(event, "rail") if "rail" in event else True
    if (into is not None or wrong) and (call is None or call[0] not in pocketed):
        refuse("bad_field", "'into', 'wrong_pocket': the called ball did not fall")
    if foul == "wrong_ball":
        refuse("bad_foul", "any ball may be hit first")
    if foul == "head_string" and not breaking and state.ball_in_hand != "behind_head":
        refuse("bad_foul", "no ball in hand behind the head string")
    if call is None:
        # No call entered: the referee accepted an obvious shot (never a safety).
        legal = len(pocketed) > 0 and not safety and kind != "safety"
    else:
        legal = call[0] in pocketed and not wrong and (
            into is None or call[1] is None or into == call[1])
    if foul is None and off:
        foul = "ball_off"
    failed = False
    if breaking:
        if kind is None or (kind == "called") != (call is not None) or safety or "rail" in event:
            refuse("bad_field", "a break is 'safety' or 'called' (with its 'call'); no 'rail', "
                   "'safety'")
        failed = foul == "bad_break" or first == 0
        if not legal and not failed:
            if cushions is None or "cue_cushion" not in event:
                refuse("bad_field", "break: enter 'cushions' and 'cue_cushion'")
            failed = cushions < 2 or not cue_cushion
        if foul == "bad_break":
            foul = None
    else:
        for key in ("break", "cushions", "cue_cushion"):
            if key in event:
                refuse("bad_field", "'%s' is for the opening break" % key)
        if foul == "bad_break":
            refuse("bad_foul", "not a break")
        if safety and call is not None:
            refuse("bad_field", "a safety calls no ball")
        if foul is None and first == 0:
            foul = "no_hit"
        if foul is None and not rail and not pocketed:
            foul = "no_rail"

    for ball in pocketed + off:
        table.remove(ball)
    state.placement = None
    state.breaking = False
    if foul is None and not failed:
        if legal:
            _score(state, pocketed)
            return
        # A miss, a safety, the called ball missed, or a legal break that pocketed nothing
        # called: what fell is spotted and scores nothing.
        _spot(state, pocketed)
        if state.rules["fouls_cleared_by"] == "legal_shot":
            pool.legal_shot(state)
        if safety:
            state.notes.append("safety")
        _end_turn(state, None)
        return
    _spot(state, pocketed + off)
    player = state.shooter
    wpa = state.rules["break_scratch"] == "wpa"
    count = 0
    if failed:
        pool.foul(state, "bad_break", False)  # break fouls are outside the three-foul rule
        _lose(state, 2)
    if foul is not None and not (failed and wpa):
        count = pool.foul(state, foul, not breaking or (wpa and not failed))
        _lose(state, 1)
    cue = None
    if not breaking and state.rules["ball_in_hand"] == "anywhere":
        cue = "anywhere"
    elif foul in _CUE_GONE:
        cue = "behind_head"
    if count >= 3:
        # The extra penalty; the count starts again; the incoming player decides whether
        # the offender breaks a new rack.
        state.fouls_in_a_row[player] = 0
        state.warned[player] = False
        state.notes.append("three_fouls")
        _lose(state, state.rules["three_foul_extra"])
    _end_turn(state, cue)
    if failed or count >= 3:
        pool.offer(state, state.shooter, ("accept", "rebreak"))


def _score(state, balls):
    player = state.shooter
    points = len(balls)
    state.score[player] += points
    state.stats[player]["balls"] += points
    run = state.runs[player]
    run["current"] += points
    if run["current"] > run["high"]:
        run["high"] = run["current"]
    pool.legal_shot(state)
    state.ball_in_hand = None
    state.notes.append("points:%d:%d" % (player, points))
    if state.score[player] >= state.race_to:
        pool.finish(state, player)
        return
    state.notes.append("continue")
    if len(state.on_table) < 2:
        state.notes.append("rack_due")


def _lose(state, points):
    player = state.shooter
    state.score[player] -= points
    state.stats[player]["penalty"] += points
    state.notes.append("penalty:%d:%d" % (player, points))


def _end_turn(state, cue):
    state.runs[state.shooter]["current"] = 0
    pool.pass_turn(state, cue)


def _spot(state, balls):
    for ball in balls:
        state.on_table.append(ball)
        state.notes.append("spot:%d" % ball)
    state.on_table.sort()


def choose(state, choice, breaker):
    # "accept": the incoming player plays the table as it lies. "rebreak": all 15 are racked
    # and the offender breaks again under the opening-break rules; the turn given back is no
    # inning of the player who demanded it.
    if choice == "rebreak":
        chooser = state.shooter
        state.stats[chooser]["innings"] -= 1
        state.notes.append("rebreak")
        pool.start_rack(state, 1 - chooser, same_rack=True, fresh=False)


# --- continuation racks ------------------------------------------------------------------

def _rack(state, event):
    """The 14th ball (or the last two) fell: the referee says where the 15th ball and the
    cue ball lie; the engine says what is racked and where they go (seed §10.4)."""
    events.only(event, ("ball15", "cue"))
    left = len(state.on_table)
    if state.shooter is None or state.pending_option is not None or left > 1:
        refuse("no_rack", "no rack due: the 14th ball is not down")
    ball15 = events.one_of(event, "ball15", PLACES, "elsewhere")
    cue = events.one_of(event, "cue", PLACES, "elsewhere")
    if left == 0 and "ball15" in event:
        refuse("bad_field", "the 15th ball is down too: 'cue' only")
    if ball15 == "head_spot" and cue == "head_spot":
        refuse("bad_field", "both on the head spot?")
    racked = 15 - left
    to15 = None  # None: the ball stays where it lies
    to_cue = None
    if ball15 == "rack" and cue == "rack":
        racked = 15
        to_cue = "behind_head"
    elif ball15 == "rack":
        to15 = "centre_spot" if cue == "head_spot" else "head_spot"
    elif cue == "rack":
        if ball15 == "behind_head":
            to_cue = "head_spot"
        elif ball15 == "head_spot":
            to_cue = "centre_spot"
        else:
            to_cue = "behind_head"
    state.rack += 1
    state.on_table = list(RACK)
    state.ball_in_hand = "behind_head" if to_cue == "behind_head" else None
    state.placement = {"racked": racked, "ball15": to15, "cue": to_cue}
    state.notes.append("racked:%d:%d" % (state.rack, racked))


EVENTS = {"rack": _rack}
