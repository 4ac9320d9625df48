"""8-ball (seed 000 §8): solids 1-7 and stripes 9-15, called shots, the 8 last into the called
pocket; the break options after a failed or fouled break."""

from rules_core import events, pool
from rules_core.refusal import refuse
from rules_core.state import State as _State

NAME = "8ball"
RACK = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GAME_BALL = 8  # always on the table until the rack is decided
THREE_FOULS = False
SOLIDS = (1, 2, 3, 4, 5, 6, 7)
STRIPES = (9, 10, 11, 12, 13, 14, 15)
GROUPS = ("solids", "stripes")
POCKETS = 6
_CUE_GONE = ("scratch", "cue_off")

start = pool.start
apply = pool.apply

OPTIONS = {
    # The break must pocket a ball or drive this many object balls to cushions.
    "break_cushions": (4, 1, 2, 3),
    # Who breaks the next rack: the seed is silent for 8-ball; the 9-ball rule is the default.
    "break_rule": pool.BREAK_RULES,
    # [choice] False: the table stays open after the break and the first legally called and
    # pocketed ball decides the groups (WPA). True: the seed's other reading, where balls of
    # only one group pocketed on the break give the breaker that group.
    "break_decides_group": (False, True),
}

_SHOT_FIELDS = ("pocketed", "first", "foul", "call", "into", "wrong_pocket", "safety", "off",
                "rail", "cushions")


class State(_State):
    EXTRA = ("groups",)


def on_new_match(state):
    state.groups = [None, None]


def on_new_rack(state):
    state.groups = [None, None]


def on_match_over(state):
    pass  # the groups of the last rack stay on show


def group_balls(group):
    return SOLIDS if group == "solids" else STRIPES


def group_of(ball):
    if ball in SOLIDS:
        return "solids"
    if ball in STRIPES:
        return "stripes"
    return None


def shot(state, event):
    if "push" in event:
        refuse("no_push", "8-ball has no push out")
    events.only(event, _SHOT_FIELDS)
    facts = _read(state, event)
    for ball in facts["pocketed"] + facts["off"]:
        state.on_table.remove(ball)
    breaking = state.breaking
    state.breaking = False
    if breaking:
        _break(state, facts)
    else:
        _play(state, facts)


def _read(state, event):
    """All the shot's facts, checked, before anything changes."""
    pocketed = events.balls(event, "pocketed", state.on_table)
    off = events.balls(event, "off", state.on_table)
    for ball in off:
        if ball in pocketed:
            refuse("bad_ball", "ball %d cannot be both pocketed and off the table" % ball)
    rail = event.get("rail", True)
    if not isinstance(rail, bool):
        refuse("bad_field", "'rail' must be true or false")
    facts = {
        "pocketed": pocketed,
        "off": off,
        "first": pool.first_ball(event, state.on_table, 15),
        "foul": events.one_of(event, "foul", pool.FOUL_KINDS),
        "safety": events.flag(event, "safety"),
        "rail": rail,
        "cushions": events.integer(event, "cushions", 0, 15),
        "call": _call(state, event, pocketed),
        "into": events.integer(event, "into", 1, POCKETS),
        "wrong_pocket": events.flag(event, "wrong_pocket"),
    }
    if state.breaking:
        if facts["call"] is not None or facts["safety"]:
            refuse("bad_field", "the break is neither called nor a safety")
    elif facts["cushions"] is not None:
        refuse("bad_field", "'cushions' is only counted on the break")
    if facts["into"] is not None or facts["wrong_pocket"]:
        if facts["call"] is None or facts["call"][0] not in pocketed:
            refuse("bad_field", "'into' and 'wrong_pocket' say where the called ball fell")
    return facts


def _call(state, event, pocketed):
    call = events.call(event, state.on_table)
    if call is None or state.breaking:
        return call  # (a call on the break is refused after, whatever its shape)
    if call[1] is None and (call[0] != 8 or "pocket" in event["call"]):
        # docs/match-log.md: a call is a ball and a pocket. The one call without a pocket
        # number is the 8 from a panel without pocket keys (firmware/referee.py), whose
        # `wrong_pocket` says whether it fell elsewhere; any other is refused.
        refuse("bad_field", "'call' is {\"ball\": b, \"pocket\": 1-6} (only the 8 may be "
               "called without a pocket, by a panel without pocket keys)")
    if _may_play(state, call[0], state.on_table):
        return call
    if call[0] == 8 and 8 in pocketed:
        # The seed §8.3: the 8 pocketed before its turn loses the rack whatever was called
        # (the digest lists no call); the referee records the call he heard, and the rack
        # is scored as lost (`eight_early`).
        return call
    refuse("bad_call", "%s cannot call the %d now" % (state.players[state.shooter], call[0]))


# --- the break -----------------------------------------------------------------------------

def _break(state, facts):
    pocketed = facts["pocketed"]
    foul = facts["foul"]
    if foul is None and facts["off"]:
        foul = "ball_off"
    if foul is None and not pocketed and facts["cushions"] is not None:
        if facts["cushions"] < state.rules["break_cushions"]:
            foul = "bad_break"
    # Only a pocketed 8 has the seed's own break rules (§8.2). An 8 off the table on the break
    # is no loss (§8.3); like any jumped ball it is spotted and the break is fouled (§6.1),
    # so the incoming player has the usual break options below.
    eight_down = 8 in pocketed
    if eight_down and foul is not None:
        # The 8 on a fouled break: the incoming player chooses who breaks a new rack.
        pool.foul(state, foul)
        pool.pass_turn(state)
        pool.offer(state, state.shooter, ("break",))
        return
    if pocketed == [8]:
        state.notes.append("rebreak")
        pool.start_rack(state, state.shooter, same_rack=True)
        return
    if eight_down:
        _spot(state, [8])
        pocketed = [b for b in pocketed if b != 8]
    if foul is not None:
        # Seed §4: balls pocketed on a foul are spotted, except the opponent's in 8-ball;
        # on the break no ball is anyone's yet, so all of them come back.
        _spot(state, pocketed + facts["off"])
        pool.foul(state, foul)
        pool.pass_turn(state)
        choices = ("bih", "rerack") if foul in _CUE_GONE else ("accept", "bih", "rerack")
        pool.offer(state, state.shooter, choices)
        return
    pool.legal_shot(state)
    if pocketed:
        if state.rules["break_decides_group"]:
            _group_from_break(state, pocketed)
        state.notes.append("continue")
    else:
        pool.pass_turn(state)


def _group_from_break(state, pocketed):
    groups = []
    for ball in pocketed:
        group = group_of(ball)
        if group not in groups:
            groups.append(group)
    if len(groups) == 1:
        _assign(state, groups[0])


def choose(state, choice, breaker):
    if choice == "bih":
        state.ball_in_hand = "behind_head"
    elif choice == "rerack":
        pool.start_rack(state, breaker, same_rack=True)
    # "accept": the incoming player plays the table as it lies.


# --- a shot after the break ----------------------------------------------------------------

def _play(state, facts):
    pocketed = facts["pocketed"]
    off = facts["off"]
    shooter = state.shooter
    group = state.groups[shooter]
    before = state.on_table + pocketed + off  # the table as it was before the shot
    cleared = group is not None and _none_of(group_balls(group), before)
    foul = facts["foul"] or _derived_foul(state, facts, before)
    call = facts["call"] or _implied_call(state, pocketed, before)

    if 8 in pocketed or 8 in off:
        _eight_down(state, facts, foul, call, cleared)
        return
    if foul is not None:
        # At an open table no ball is the opponent's yet: all pocketed balls are spotted,
        # as on a safety.
        own = [b for b in pocketed if group is None or group_of(b) == group]
        _spot(state, own + off)
        pool.foul(state, foul)
        pool.pass_turn(state, "anywhere")
        return
    pool.legal_shot(state)
    legal_pot = call is not None and call[0] in pocketed and _as_called(facts, call)
    if facts["safety"]:
        _spot(state, [b for b in pocketed if group is None or group_of(b) == group])
        state.notes.append("safety")
        pool.pass_turn(state)
    elif legal_pot:
        if group is None:
            _assign(state, group_of(call[0]))
        state.ball_in_hand = None
        state.notes.append("continue")
    else:
        pool.pass_turn(state)


def _as_called(facts, call):
    """Did the called ball fall in the called pocket (by what the referee entered)?"""
    if facts["wrong_pocket"]:
        return False
    into = facts["into"]
    return into is None or call[1] is None or into == call[1]


def _derived_foul(state, facts, before):
    if facts["off"]:
        return "ball_off"
    first = facts["first"]
    if first is not None:
        if first == 0:
            return "no_hit"
        if first not in before or not _may_play(state, first, before):
            return "wrong_ball"
    if not facts["rail"] and not facts["pocketed"]:
        return "no_rail"
    return None


def _may_play(state, ball, before):
    """May the shooter hit first (and call) this ball, on the table as it was before the shot?"""
    group = state.groups[state.shooter]
    if group is None:
        return ball != 8
    if _none_of(group_balls(group), before):
        return ball == 8
    return ball in group_balls(group)


def _implied_call(state, pocketed, before):
    # With no call entered, the referee accepted an obvious shot: the first pocketed ball the
    # shooter may play counts as called. The 8 is never implied: it must be called.
    for ball in pocketed:
        if ball != 8 and _may_play(state, ball, before):
            return (ball, None)
    return None


def _eight_down(state, facts, foul, call, cleared):
    shooter = state.shooter
    if foul is not None:
        pool.foul(state, foul)
    if 8 in facts["off"]:
        reason = "eight_off"
    elif foul is not None:
        reason = "eight_on_foul"
    elif not cleared:
        reason = "eight_early"
    elif call is None or call[0] != 8:
        reason = "eight_uncalled"
    elif not _as_called(facts, call):
        reason = "eight_wrong_pocket"
    else:
        pool.legal_shot(state)
        pool.win_rack(state, shooter, "run")
        return
    state.notes.append(reason)
    pool.win_rack(state, 1 - shooter, reason)


def _none_of(balls, table):
    for ball in balls:
        if ball in table:
            return False
    return True


def _assign(state, group):
    other = GROUPS[1] if group == GROUPS[0] else GROUPS[0]
    state.groups[state.shooter] = group
    state.groups[1 - state.shooter] = other
    state.notes.append("groups:%d:%s" % (state.shooter, group))


def _spot(state, balls):
    for ball in balls:
        state.on_table.append(ball)
        state.notes.append("spot:%d" % ball)
    state.on_table.sort()
