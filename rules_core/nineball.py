"""9-ball (seed 000 §9): lowest ball first, the 9 wins the rack, push out after the break,
three fouls in a row lose the rack."""

from rules_core import events, pool
from rules_core.refusal import refuse
from rules_core.state import State as _State

NAME = "9ball"
RACK = (1, 2, 3, 4, 5, 6, 7, 8, 9)
GAME_BALL = 9  # always on the table until the rack is decided
THREE_FOULS = True

start = pool.start
apply = pool.apply

OPTIONS = {
    # The seed asks the break to hit the 1 and drive one ball to a pocket or a cushion;
    # WPA asks for four object balls to cushions.
    "break_cushions": (1, 2, 3, 4),
    # The seed: the winner of a rack breaks the next one.
    "break_rule": pool.BREAK_RULES,
    # Without a warning at two fouls in a row, a third foul counts only as the second.
    "warning_required": (True, False),
}



class State(_State):
    EXTRA = ("push_out_allowed",)


_SHOT_FIELDS = ("pocketed", "first", "foul", "push", "off", "rail", "cushions")


def on_new_match(state):
    state.push_out_allowed = False


def on_new_rack(state):
    state.push_out_allowed = False


def on_match_over(state):
    state.push_out_allowed = False


def shot(state, event):
    events.only(event, _SHOT_FIELDS)
    pocketed = events.balls(event, "pocketed", state.on_table)
    off = events.balls(event, "off", state.on_table)
    for ball in off:
        if ball in pocketed:
            refuse("bad_ball", "ball %d cannot be both pocketed and off the table" % ball)
    first = pool.first_ball(event, state.on_table, 9)
    foul = events.one_of(event, "foul", pool.FOUL_KINDS)
    push = events.flag(event, "push")
    rail = event.get("rail", True)
    if not isinstance(rail, bool):
        refuse("bad_field", "'rail' must be true or false")
    cushions = events.integer(event, "cushions", 0, 9)
    if cushions is not None and not state.breaking:
        refuse("bad_field", "'cushions' is only counted on the break")
    if push and not state.push_out_allowed:
        refuse("no_push", "a push out is only allowed on the first shot after a legal break")
    if foul is not None:
        _check_foul_kind(state, foul, push)

    lowest = state.on_table[0]
    if foul is None:
        foul = _derived_foul(state, lowest, first, pocketed, off, push, rail, cushions)
    breaking = state.breaking
    state.breaking = False
    state.push_out_allowed = False
    for ball in pocketed + off:
        state.on_table.remove(ball)
    nine_down = 9 in pocketed or 9 in off

    if foul is not None:
        if nine_down:
            _spot_nine(state)
        _after_foul(state, foul)
    elif push:
        if nine_down:
            _spot_nine(state)
        pool.legal_shot(state)
        state.notes.append("push")
        pool.pass_turn(state)
        pool.offer(state, state.shooter, ("play", "pass"))
    else:
        pool.legal_shot(state)
        if nine_down:
            pool.win_rack(state, state.shooter, "break" if breaking else "run")
        elif pocketed:
            state.ball_in_hand = None
            state.notes.append("continue")
            state.push_out_allowed = breaking
        else:
            pool.pass_turn(state)
            state.push_out_allowed = breaking


def _derived_foul(state, lowest, first, pocketed, off, push, rail, cushions):
    """Fouls the engine can see in the facts the referee entered."""
    if off:
        return "ball_off"
    if push:
        return None
    if first is not None:
        if first == 0:
            return "no_hit"
        if first != lowest:
            return "wrong_ball"
    if state.breaking and not pocketed and cushions is not None:
        if cushions < state.rules["break_cushions"]:
            return "bad_break"
    if not rail and not pocketed:
        return "no_rail"
    return None


# A push out needs no contact and no cushion (seed §9.3), so these are no fouls on a push.
_NOT_ON_PUSH = ("wrong_ball", "no_hit", "no_rail")


def _check_foul_kind(state, kind, push):
    """Refuse a called foul that cannot happen now: in 9-ball ball in hand is anywhere, so
    the head string foul (seed §4.1 item 14) needs ball in hand behind it, set by an
    adjustment; a failed break only happens on the break."""
    if kind == "head_string" and state.ball_in_hand != "behind_head":
        refuse("bad_foul", "no head string foul: ball in hand is not behind the head string")
    if kind == "bad_break" and not state.breaking:
        refuse("bad_foul", "a failed break is only called on the break")
    if push and kind in _NOT_ON_PUSH:
        refuse("bad_foul", "a push out needs no contact and no cushion: '%s' is no foul" % kind)


def _after_foul(state, kind):
    count = pool.foul(state, kind)
    if count >= 3:
        # The penalty is paid with the rack; the count starts again.
        state.fouls_in_a_row[state.shooter] = 0
        state.notes.append("three_fouls")
        pool.win_rack(state, 1 - state.shooter, "three_fouls")
        return
    pool.pass_turn(state, "anywhere")


def _spot_nine(state):
    state.on_table.append(9)
    state.on_table.sort()
    state.notes.append("spot:9")


def choose(state, choice, breaker):
    # After a push out the incoming player plays on, or passes the shot back to the pusher.
    if choice == "pass":
        pool.pass_turn(state)

