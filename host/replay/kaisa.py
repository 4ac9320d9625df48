"""`pilkku replay` for Kaisa: the game inning by inning, each shot with its points and why
("red corner + nakki kaisa = 9"), the time-up, final innings and shootout, the result as
recorded, and each player's statistics."""

from __future__ import annotations

import json
from collections.abc import Iterator

from rules_core import matchlog

FOULS = {
    "cue_in": "cue ball pocketed", "cue_off": "cue ball off the table",
    "touch": "touched a ball", "hand": "ball-in-hand rule broken", "push": "push shot",
    "wrong_cue": "wrong cue ball", "other": "foul (referee may restore)",
    "jump": "jump over a ball", "mankeli": "mankeli", "frozen": "frozen ball",
    "stop": "stopped a moving ball after a miss",
}
CHOICES = {
    "one_dot": "takes the one-dot ball", "two_dot": "takes the two-dot ball",
    "first": "shoots first", "second": "lets the opponent shoot first",
}


def render(doc: dict) -> Iterator[str]:
    match = None
    shootout = [0, 0]  # shootout innings started per player
    for match, before, event in matchlog.steps(doc):
        state = match.state
        if event is None:
            rules = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(state.rules.items()))
            yield "Kaisa: %s vs %s, to %d points" % (state.players[0], state.players[1],
                                                    state.race_to)
            yield "rules: " + rules
        else:
            yield from _event(event, before, state)
        yield from _phase_lines(state, shootout)
    if match is not None:
        yield from _footer(match.state)


def _name(state, player) -> str:
    return state.players[player]


def _score(state) -> str:
    return "%s %d : %d %s" % (state.players[0], state.score[0], state.score[1],
                              state.players[1])


def _why(why: str) -> str:
    for token, words in FOULS.items():
        if why.startswith("FOUL " + token) or why.startswith(token + ":"):
            return why.replace(token, words, 1).replace(" first none", ", no contact").replace(
                " first ", ", first contact ")
    return why


def _event(event: dict, before, after) -> Iterator[str]:
    kind = event["t"]
    if kind == "shot":
        last = after.last
        text = "  %s = %d" % (_why(last["why"]), last["points"])
        tail = []
        if "continue" in after.notes:
            tail.append("continues")
        if after.to_spot:
            tail.append("respot " + ", ".join(after.to_spot))
        if tail:
            text += " (%s)" % "; ".join(tail)
        yield text
    elif kind == "lag":
        yield "Lag won by %s" % _name(after, event["winner"])
    elif kind == "choose":
        who = before.pending_option["player"]
        yield "%s %s" % (_name(after, who), CHOICES.get(event["choice"], event["choice"]))
    elif kind == "time_up":
        yield "TIME UP (%s): two final innings each, the two-dot player %s last" % (
            _score(after), _name(after, 1 - after.breaker))
    elif kind == "adjust":
        changed = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(event.items())
                            if k not in ("t", "at", "reason"))
        yield "  Referee adjustment (%s): %s" % (event["reason"], changed)
    elif kind == "concede":
        yield "%s concedes" % _name(after, event["player"])
    else:
        yield "  " + kind


def _phase_lines(state, shootout: list[int]) -> Iterator[str]:
    for note in state.notes:
        head, _, rest = note.partition(":")
        if head == "inning":
            player = int(rest)
            said = []
            if state.breaking:
                said.append("one-dot ball, opening shot")
            if state.phase == "final":
                said.append("final inning %d of 2" % (2 - state.left[player]))
            elif state.phase == "shootout":
                shootout[player] += 1
                said.append("shootout inning %d" % shootout[player])
            if state.ball_in_hand:
                said.append("ball in hand")
            yield "Inning %d: %s%s (%s)" % (state.inning, _name(state, player),
                                            " [%s]" % ", ".join(said) if said else "",
                                            _score(state))
        elif head == "shootout":
            yield "PENALTY SHOOTOUT (%s): 10 innings each, the kaisa from the centre spot" \
                  % _score(state)
        elif head == "tie_pair":
            yield "Tied after the shootout innings: another pair (%s)" % _score(state)


def _footer(state) -> Iterator[str]:
    if state.finished:
        winner = state.winner
        yield "Result: %s, %s wins (recorded %d : %d, decided in %s)" % (
            _score(state), _name(state, winner), state.result[0], state.result[1],
            {"play": "play", "final": "the final innings",
             "shootout": "the shootout"}.get(state.phase, state.phase))
    else:
        at = " at the table: %s" % _name(state, state.shooter) if state.shooter is not None \
            else " waiting for the lag"
        yield "In progress (%s): %s;%s" % (state.phase, _score(state), at)
    for player in (0, 1):
        stats = state.stats[player]
        innings = stats["innings"]
        average = "%.1f" % (stats["points"] / innings) if innings else "-"
        yield "%s: %d innings, %d points from shots (%s per inning), best inning %d, " \
              "%d fouls, pots: white %d, red %d, kaisa %d" % (
                  _name(state, player), innings, stats["points"], average, stats["best"],
                  stats["fouls"], stats["white"], stats["red"], stats["kaisa"])
