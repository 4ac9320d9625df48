"""Kaisa's flow of innings (seed 001 §5-§6): who is at the table and with ball in hand, each
inning's points and run, the innings left after time up (two final innings each, then the
penalty shootout), the end of the game and its recorded result, and the referee's
adjustments. rules_core/kaisa.py reads the shot and calls these."""

from rules_core import events
from rules_core.refusal import refuse

SHOOTOUT_INNINGS = 10


def inning(state, player):
    state.shooter = player
    state.inning += 1
    state.middle_run = False
    stats = state.stats[player]
    stats["innings"] += 1
    stats["run"] = 0
    left = state.left
    if left is not None:
        left[player] -= 1
    show_hand(state)
    state.notes.append("inning:%d" % player)


def show_hand(state):
    on = state.phase != "shootout" and state.in_hand[state.shooter]
    state.ball_in_hand = "behind_head" if on else None


def best(state):
    stats = state.stats[state.shooter]
    stats["best"] = max(stats["best"], stats["run"])


def end_inning(state):
    best(state)
    incoming = 1 - state.shooter
    left = state.left
    if state.phase == "final" and left[incoming] == 0:
        state.phase = "shootout"
        state.shooter = None
        state.ball_in_hand = None
        state.in_hand = [False, False]
        state.left = [SHOOTOUT_INNINGS, SHOOTOUT_INNINGS]
        state.notes.append("shootout")
        return
    if left is not None and left[incoming] == 0:
        score = state.score
        if score[0] != score[1]:
            finish(state, 0 if score[0] > score[1] else 1, True)
            return
        state.left = [1, 1]
        state.notes.append("tie_pair")
    inning(state, incoming)


def finish(state, winner, as_scored=False):
    if state.shooter is not None:
        best(state)
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


def first_of_inning(state):
    return state.last is None or state.last["inning"] != state.inning


def tally(state, gained, why):
    shooter = state.shooter
    state.score[shooter] += gained
    stats = state.stats[shooter]
    stats["points"] += gained
    stats["run"] += gained
    state.last = {"player": shooter, "inning": state.inning, "points": gained, "why": why}
    state.notes.append("points:%d" % gained)


# --- referee adjustments -------------------------------------------------------------------

def adjust(state, event):
    events.only(event, ("reason", "score", "shooter", "in_hand", "fouls_in_a_row", "left",
                        "winner"))
    events.text(event, "reason")
    score = events.pair_of_ints(event, "score", -999, 999)
    fouls = events.pair_of_ints(event, "fouls_in_a_row", 0, 999)
    left = events.pair_of_ints(event, "left", 0, SHOOTOUT_INNINGS)
    shooter = events.player(event, "shooter", False)
    winner = events.player(event, "winner", False)
    in_hand = event.get("in_hand")
    if in_hand is not None and (not isinstance(in_hand, list) or len(in_hand) != 2 or
                                [v for v in in_hand if not isinstance(v, bool)]):
        refuse("bad_field", "'in_hand': [true/false, true/false]")
    if len(event) == 2 + ("at" in event):
        refuse("bad_field", "an adjustment must change something")
    if shooter is not None and state.shooter is None or left is not None and state.left is None:
        refuse("no_game", "no inning or no innings count now")
    if left is not None and state.shooter is None and 0 in left:
        # Before the shootout's first inning both players have one to come (it counts down
        # from 'left' as it starts).
        refuse("bad_field", "'left': before the shootout starts each player has an inning left")
    if score is not None:
        state.score = score
    if fouls is not None:
        state.fouls_in_a_row = fouls
    if in_hand is not None:
        state.in_hand = list(in_hand)
    if left is not None:
        state.left = left
    if shooter is not None:
        state.shooter = shooter
    if state.shooter is not None:
        show_hand(state)
    state.notes.append("adjusted")
    if winner is not None:
        finish(state, winner)
