"""`pilkku replay` for Kaisa: the game inning by inning, each shot with its points and why
("red corner + nakki kaisa = 9"), the time-up, final innings and shootout, the result as
recorded, and each player's statistics."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from host.i18n import N_, _, language, pgettext
from host.replay import words
from rules_core import matchlog

FOULS = {
    "cue_in": N_("cue ball pocketed"), "cue_off": N_("cue ball off the table"),
    "touch": N_("touched a ball"), "hand": N_("ball-in-hand rule broken"),
    "push": N_("push shot"), "wrong_cue": N_("wrong cue ball"),
    "other": N_("foul (referee may restore)"), "jump": N_("jump over a ball"),
    "mankeli": N_("mankeli"), "frozen": N_("frozen ball"),
    "stop": N_("stopped a moving ball after a miss"),
}
CHOICES = {
    "one_dot": N_("takes the one-dot ball"), "two_dot": N_("takes the two-dot ball"),
    "first": N_("shoots first"), "second": N_("lets the opponent shoot first"),
}
# The words of a shot's "why" as the engine writes it in English (rules_core/kaisa.py,
# kaisa_points.py: "red corner via cushion + nakki kaisa = 9"), translated phrase by phrase
# in another language; the fouls' words above too.
WHY_WORDS = (
    N_("no pot as called"), N_("no pot"), N_("from hand: middle needs cushion"),
    N_("twice in a row"), N_("without nakki on"), N_("no nakki by kyyti"),
    N_("no nakki by a ball"), N_("via cushion"), N_("by kyyti"), N_("off a ball"),
    N_("only"), N_("nakki"), N_("white"), N_("red"), N_("corner"), N_("middle"),
    N_("FOUL"), N_("first contact"), N_("no contact"), N_("no score"),
)


def render(doc: dict) -> Iterator[str]:
    match = None
    shootout = [0, 0]  # shootout innings started per player
    for match, before, event in matchlog.steps(doc):
        state = match.state
        if event is None:
            yield _("Kaisa: %(player1)s vs %(player2)s, to %(race)d points") % {
                "player1": state.players[0], "player2": state.players[1],
                "race": state.race_to}
            yield words.rules_line(state)
        else:
            yield from _event(event, before, state)
        yield from _phase_lines(state, shootout)
    if match is not None:
        yield from _footer(match.state)


def _name(state, player) -> str:
    return state.players[player]


def _ball(ball: str) -> str:
    return {"white": _("white"), "red": _("red")}.get(ball, ball)


def _score(state) -> str:
    return "%s %d : %d %s" % (state.players[0], state.score[0], state.score[1],
                              state.players[1])


def _why(why: str) -> str:
    for token, said in FOULS.items():
        if why.startswith("FOUL " + token) or why.startswith(token + ":"):
            why = why.replace(token, said, 1).replace(" first none", ", no contact").replace(
                " first ", ", first contact ")
            break
    return why if language() == "en" else _translated(why)


def _translated(why: str) -> str:
    """The engine's English "why", phrase by phrase in the current language."""
    # Kaisa's cue ball is the shooter's own white (lyöntipallo), not pool's (kivi)
    own = {"cue ball pocketed": pgettext("kaisa", "cue ball pocketed"),
           "cue ball off the table": pgettext("kaisa", "cue ball off the table")}
    english = sorted(WHY_WORDS + tuple(FOULS.values()), key=len, reverse=True)
    pattern = re.compile(r"\b(%s)(?!\w)" % "|".join(re.escape(e) for e in english))
    return pattern.sub(lambda found: own.get(found.group(1)) or _(found.group(1)), why)


def _event(event: dict, before, after) -> Iterator[str]:
    kind = event["t"]
    if kind == "shot":
        last = after.last
        text = "  %s = %d" % (_why(last["why"]), last["points"])
        tail = []
        if "continue" in after.notes:
            tail.append(_("continues"))
        if after.to_spot:
            tail.append(_("respot %(balls)s") % {
                "balls": ", ".join(_ball(ball) for ball in after.to_spot)})
        if tail:
            text += " (%s)" % "; ".join(tail)
        yield text
    elif kind == "lag":
        yield _("Lag won by %(player)s") % {"player": _name(after, event["winner"])}
    elif kind == "choose":
        who = before.pending_option["player"]
        choice = CHOICES.get(event["choice"])
        yield _("%(player)s %(choice)s") % {"player": _name(after, who),
                                            "choice": _(choice) if choice else event["choice"]}
    elif kind == "time_up":
        yield _("TIME UP (%(score)s): two final innings each, the two-dot player %(player)s "
                "last") % {"score": _score(after), "player": _name(after, 1 - after.breaker)}
    elif kind == "adjust":
        changed = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(event.items())
                            if k not in ("t", "at", "reason"))
        yield "  " + _("Referee adjustment (%(reason)s): %(changed)s") % {
            "reason": event["reason"], "changed": changed}
    elif kind == "concede":
        yield _("%(player)s concedes") % {"player": _name(after, event["player"])}
    else:
        yield "  " + kind


def _phase_lines(state, shootout: list[int]) -> Iterator[str]:
    for note in state.notes:
        head, _sep, rest = note.partition(":")
        if head == "inning":
            player = int(rest)
            said = []
            if state.breaking:
                said.append(_("one-dot ball, opening shot"))
            if state.phase == "final":
                said.append(_("final inning %(number)d of 2") % {
                    "number": 2 - state.left[player]})
            elif state.phase == "shootout":
                shootout[player] += 1
                said.append(_("shootout inning %(number)d") % {"number": shootout[player]})
            if state.ball_in_hand:
                said.append(_("ball in hand"))
            yield _("Inning %(number)d: %(player)s%(notes)s (%(score)s)") % {
                "number": state.inning, "player": _name(state, player),
                "notes": " [%s]" % ", ".join(said) if said else "", "score": _score(state)}
        elif head == "shootout":
            yield _("PENALTY SHOOTOUT (%(score)s): 10 innings each, the kaisa from the centre "
                    "spot") % {"score": _score(state)}
        elif head == "tie_pair":
            yield _("Tied after the shootout innings: another pair (%(score)s)") % {
                "score": _score(state)}


def _footer(state) -> Iterator[str]:
    if state.finished:
        winner = state.winner
        said = {"score": _score(state), "player": _name(state, winner),
                "result1": state.result[0], "result2": state.result[1]}
        if state.phase == "final":
            yield _("Result: %(score)s, %(player)s wins (recorded %(result1)d : %(result2)d, "
                    "decided in the final innings)") % said
        elif state.phase == "shootout":
            yield _("Result: %(score)s, %(player)s wins (recorded %(result1)d : %(result2)d, "
                    "decided in the shootout)") % said
        else:
            yield _("Result: %(score)s, %(player)s wins (recorded %(result1)d : %(result2)d, "
                    "decided in play)") % said
    else:
        phase = {"play": _("play"), "final": _("final innings"),
                 "shootout": _("shootout")}.get(state.phase, state.phase)
        said = {"phase": phase, "score": _score(state)}
        if state.shooter is not None:
            yield _("In progress (%(phase)s): %(score)s; at the table: %(player)s") % dict(
                said, player=_name(state, state.shooter))
        else:
            yield _("In progress (%(phase)s): %(score)s; waiting for the lag") % said
    for player in (0, 1):
        stats = state.stats[player]
        innings = stats["innings"]
        average = "%.1f" % (stats["points"] / innings) if innings else "-"
        if language() != "en":
            average = average.replace(".", ",")
        yield _("%(player)s: %(innings)d innings, %(points)d points from shots (%(average)s per "
                "inning), best inning %(best)d, %(fouls)d fouls, pots: white %(white)d, red "
                "%(red)d, kaisa %(kaisa)d") % {
                    "player": _name(state, player), "innings": innings,
                    "points": stats["points"], "average": average, "best": stats["best"],
                    "fouls": stats["fouls"], "white": stats["white"], "red": stats["red"],
                    "kaisa": stats["kaisa"]}
