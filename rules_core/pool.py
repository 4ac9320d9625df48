"""What the pool games (8-ball, 9-ball, 14.1) share: lag, racks, turns, fouls in a row,
options, concessions, referee adjustments and the race to N racks (or points).

A game module supplies the rack (`RACK`), the ball that decides it (`GAME_BALL`, or None), its
options (`OPTIONS`), whether it has a three-foul rule (`THREE_FOULS`), hooks for a new match,
a new rack and the end (`on_new_match`, `on_new_rack`, `on_match_over`), and the handlers for a
shot and for its own option choices (`shot`, `choose`). Optional: `EVENTS` (its own event types,
name -> handler(state, event)), `CONCEDE` (the scopes a concession may have, the first the
default; ("rack", "match") if absent) and `SCORE_MIN` (the lowest score an adjustment may set;
0 if absent).
Everything here reads every field first and refuses before it changes anything; the match
also works on a copy, so a refusal can never leave a half-applied event.
"""

from rules_core import events
from rules_core.refusal import refuse
from rules_core.state import begin, new_stats

BREAK_RULES = ("winner", "alternate", "loser")
# The fouls a referee calls in pool (seed §4.1), plus the illegal break.
FOUL_KINDS = ("wrong_ball", "no_hit", "no_rail", "scratch", "cue_off", "ball_off", "touch",
              "feet", "moving", "frozen", "jump", "double_hit", "head_string", "bad_break")
BALL_IN_HAND = ("anywhere", "behind_head")


def first_ball(event, on_table, highest):
    """The `first` fact: 0 (nothing hit) or a ball that was on the table."""
    first = events.integer(event, "first", 0, highest)
    if first and first not in on_table:
        refuse("bad_ball", "ball %d is not on the table: it cannot be hit first" % first)
    return first


def start(state, settings):
    """Fill a fresh state for a new match; the first rack starts at once if the settings
    name the breaker, otherwise the match waits for the lag."""
    begin(state, settings)
    state.stats = [new_stats(), new_stats()]
    rules_of(state).on_new_match(state)
    if settings.get("breaker") is not None:
        start_rack(state, settings["breaker"])


def rules_of(state):
    # Imported late: the game modules import this one.
    from rules_core.games import get

    return get(state.game)


def apply(state, event):
    game = rules_of(state)
    t = events.kind(event)
    if state.finished:
        refuse("match_over", "the match is over: %s won" % state.players[state.winner])
    state.notes = []
    if t == "lag":
        _lag(state, event)
    elif t == "choose":
        _choose(state, event, game)
    elif t == "shot":
        _ready_to_shoot(state)
        game.shot(state, event)
    elif t == "warn":
        _warn(state, event, game)
    elif t == "concede":
        _concede(state, event, game)
    elif t == "adjust":
        _adjust(state, event, game)
    else:
        handler = getattr(game, "EVENTS", {}).get(t)
        if handler is None:
            refuse("bad_event", "%s has no '%s' event" % (state.game, t))
        else:
            handler(state, event)


# --- lag, racks, turns ---------------------------------------------------------------------

def _lag(state, event):
    events.only(event, ("winner",))
    winner = events.player(event, "winner")
    if state.rack or state.pending_option is not None:
        refuse("no_lag", "the lag is only before the first break")
    state.pending_option = {"player": winner, "choices": ["break"]}
    state.notes.append("lag:%d" % winner)


def start_rack(state, breaker, same_rack=False, fresh=True):
    """Rack the balls for `breaker`. `same_rack` re-racks without counting a new rack;
    `fresh` False (a 14.1 re-break in the middle of a match) keeps the turn count and the
    fouls in a row going."""
    if not same_rack:
        state.rack += 1
    if not same_rack or breaker != state.shooter:
        state.stats[breaker]["innings"] += 1
    state.shooter = breaker
    state.breaker = breaker
    state.breaking = True
    game = rules_of(state)
    state.on_table = list(game.RACK)
    if fresh:
        state.inning = 1
        state.fouls_in_a_row = [0, 0]
        state.warned = [False, False]
    state.ball_in_hand = None
    state.pending_option = None
    game.on_new_rack(state)
    state.notes.append("rack:%d:%d" % (state.rack, breaker))


def pass_turn(state, ball_in_hand=None):
    incoming = 1 - state.shooter
    state.shooter = incoming
    state.inning += 1
    state.stats[incoming]["innings"] += 1
    state.ball_in_hand = ball_in_hand
    state.notes.append("turn:%d" % incoming)


def win_rack(state, player, how):
    """Give the rack to `player`; end the match at race_to, else rack the next one."""
    state.score[player] += 1
    state.notes.append("rack_won:%d:%s" % (player, how))
    if how == "break":
        state.stats[player]["break_wins"] += 1
    elif how == "run" and player == state.breaker and state.inning == 1:
        state.stats[player]["break_and_runs"] += 1
    if state.score[player] >= state.race_to:
        finish(state, player)
        return
    rule = state.rules["break_rule"]
    if rule == "winner":
        breaker = player
    elif rule == "loser":
        breaker = 1 - player
    else:
        breaker = 1 - state.breaker
    start_rack(state, breaker)


def finish(state, winner):
    state.winner = winner
    state.finished = True
    state.pending_option = None
    state.ball_in_hand = None
    state.breaking = False
    rules_of(state).on_match_over(state)
    state.notes.append("match_won:%d" % winner)


def _ready_to_shoot(state):
    if state.shooter is None:
        if state.pending_option is None:
            refuse("need_lag", "lag first: who won the lag?")
        refuse("need_breaker", "the lag winner must first choose who breaks")
    option = state.pending_option
    if option is not None:
        refuse("option_pending", "%s must first choose: %s"
               % (state.players[option["player"]], ", ".join(option["choices"])))


# --- options -----------------------------------------------------------------------------

def offer(state, player, choices):
    state.pending_option = {"player": player, "choices": list(choices)}
    state.notes.append("option:%d:%s" % (player, "/".join(choices)))


def _choose(state, event, game):
    option = state.pending_option
    if option is None:
        refuse("no_option", "there is no option to choose now")
    events.only(event, ("choice", "breaker"))
    choice = events.one_of(event, "choice", option["choices"])
    if choice is None:
        refuse("bad_field", "'choice' must be one of: %s" % ", ".join(option["choices"]))
    breaker = events.player(event, "breaker", required=choice in ("break", "rerack"))
    if breaker is not None and choice not in ("break", "rerack"):
        refuse("bad_field", "only 'break' and 'rerack' name a breaker")
    state.pending_option = None
    state.notes.append("chose:%s" % choice)
    if choice == "break":
        start_rack(state, breaker, same_rack=state.rack > 0)
    else:
        game.choose(state, choice, breaker)


# --- fouls in a row ----------------------------------------------------------------------

def foul(state, kind, in_a_row=True):
    """Record a foul by the shooter; return the count of fouls in a row after it.

    Where a warning is required, an unwarned third foul counts only as a second one.
    `in_a_row` False: a foul the three-foul rule does not count (14.1's break fouls).
    """
    player = state.shooter
    state.stats[player]["fouls"] += 1
    if not in_a_row:
        state.notes.append("foul:%s" % kind)
        return state.fouls_in_a_row[player]
    count = state.fouls_in_a_row[player] + 1
    if count == 3 and not state.warned[player] and _warning_needed(state):
        count = 2
        state.notes.append("unwarned")
    state.fouls_in_a_row[player] = count
    state.notes.append("foul:%s" % kind)
    return count


def legal_shot(state):
    """A legal shot clears the shooter's fouls in a row."""
    state.fouls_in_a_row[state.shooter] = 0
    state.warned[state.shooter] = False


def _warning_needed(state):
    return state.rules.get("warning_required", False)


def _warn(state, event, game):
    events.only(event, ("player",))
    player = events.player(event, "player")
    if not game.THREE_FOULS:
        refuse("no_three_fouls", "%s has no three-foul rule to warn about" % state.game)
    if state.fouls_in_a_row[player] != 2 or state.warned[player]:
        refuse("no_warning", "a warning is given to a player on two fouls in a row, once")
    state.warned[player] = True
    state.notes.append("warned:%d" % player)


# --- concessions and referee adjustments -------------------------------------------------

def _concede(state, event, game):
    events.only(event, ("player", "scope"))
    player = events.player(event, "player")
    scopes = getattr(game, "CONCEDE", ("rack", "match"))
    scope = events.one_of(event, "scope", scopes, scopes[0])
    if scope == "match":
        state.notes.append("conceded:%d" % player)
        finish(state, 1 - player)
        return
    if state.shooter is None:
        refuse("no_rack", "no rack is being played yet")
    win_rack(state, 1 - player, "concede")


def _adjust(state, event, game):
    events.only(event, ("reason", "score", "shooter", "fouls_in_a_row", "on_table",
                        "ball_in_hand"))
    events.text(event, "reason")
    score = events.pair_of_ints(event, "score", getattr(game, "SCORE_MIN", 0), state.race_to)
    fouls = events.pair_of_ints(event, "fouls_in_a_row", 0, 2)
    shooter = events.player(event, "shooter", required=False)
    on_table = events.balls(event, "on_table", game.RACK) if "on_table" in event else None
    if "ball_in_hand" in event and event["ball_in_hand"] is not None:
        events.one_of(event, "ball_in_hand", BALL_IN_HAND)
    changes = [key for key in event if key not in ("t", "at", "reason")]
    if not changes:
        refuse("bad_field", "an adjustment must change something")
    if state.shooter is None and (shooter is not None or on_table is not None):
        refuse("no_rack", "no rack is being played yet")
    if on_table is not None and game.GAME_BALL is not None and game.GAME_BALL not in on_table:
        refuse("bad_ball", "the %d stays on the table until the rack is decided"
               % game.GAME_BALL)
    if score is not None and min(score) >= state.race_to:
        refuse("bad_field", "only one player can reach race_to")
    if score is not None:
        state.score = score
    if fouls is not None:
        state.fouls_in_a_row = fouls
        for p in (0, 1):
            if fouls[p] < 2:
                state.warned[p] = False
    if shooter is not None:
        state.shooter = shooter
    if on_table is not None:
        state.on_table = sorted(on_table)
    if "ball_in_hand" in event:
        state.ball_in_hand = event["ball_in_hand"]
    state.notes.append("adjusted")
    for p in (0, 1):
        if state.score[p] >= state.race_to:
            finish(state, p)
            return
