"""The words of `pilkku replay` shared by every game: names of games, pockets, fouls and
choices, the header and score lines, and the wording of an event's outcome from the state's
notes (pool wording; a game passes its own phrase for its own notes)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from host.games import GAME_NAMES

POCKETS = {1: "head left", 2: "head right", 3: "side left", 4: "side right", 5: "foot left",
           6: "foot right"}


def called(call: dict) -> str:
    """A call as the referee says it: "calls 8 foot right", or "calls 8" for a call the
    engine took without a pocket number (a panel without pocket keys)."""
    pocket = call.get("pocket")
    return ("calls %d %s" % (call["ball"], POCKETS.get(pocket, "") if pocket else "")).strip()


FOUL_NAMES = {
    "wrong_ball": "wrong ball first", "no_hit": "no ball hit", "no_rail": "no cushion",
    "scratch": "cue ball pocketed", "cue_off": "cue ball off the table",
    "ball_off": "object ball off the table", "touch": "touched a ball", "feet": "both feet off",
    "moving": "shot while balls moved", "frozen": "frozen-ball rule", "jump": "illegal jump",
    "double_hit": "push or double hit", "head_string": "outside the head string",
    "bad_break": "illegal break",
}
RACK_HOW = {
    "run": "", "break": " on the break", "three_fouls": ", three fouls in a row",
    "concede": ", conceded", "eight_off": ", the 8 left the table",
    "eight_on_foul": ", the 8 fell on a foul", "eight_early": ", the 8 fell too early",
    "eight_uncalled": ", the 8 was not called",
    "eight_wrong_pocket": ", the 8 fell in the wrong pocket",
}
CHOICES = {
    "play": "plays on", "pass": "passes the shot back", "accept": "accepts the table",
    "bih": "takes ball in hand behind the head string", "rerack": "re-racks",
    "break": "decides the break",
}



def name(state, player) -> str:
    return state.players[player]


def header(state) -> Iterator[str]:
    rules = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(state.rules.items()))
    yield "%s: %s vs %s, race to %d" % (GAME_NAMES.get(state.game, state.game),
                                        state.players[0], state.players[1], state.race_to)
    yield "rules: " + rules


def score_line(state) -> str:
    return "%s %d : %d %s" % (state.players[0], state.score[0], state.score[1],
                              state.players[1])


def outcome(after, game_phrase=None) -> str:
    """What an event did, from the state's notes, as a referee says it. `game_phrase(after,
    head, args)` words a game's own notes first (None: the pool wording below)."""
    said = []
    for note in after.notes:
        head, _, rest = note.partition(":")
        args = rest.split(":") if rest else []
        phrase = game_phrase(after, head, args) if game_phrase is not None else None
        if phrase is None:
            phrase = _pool_phrase(after, head, args)
        if phrase:  # "" from a game: a note it does not say
            said.append(phrase)
    if after.ball_in_hand and not after.finished:
        said.append("ball in hand " + after.ball_in_hand.replace("_", " "))
    return (" - " + "; ".join(said)) if said else ""


def _pool_phrase(after, head: str, args: list[str]) -> str | None:
    if head == "foul":
        return "FOUL (%s)" % FOUL_NAMES.get(args[0], args[0])
    if head == "unwarned":
        return "not warned: counts as the second foul"
    if head == "three_fouls":
        return "third foul in a row"
    if head == "spot":
        return "spot the %s" % args[0]
    if head == "groups":
        return "%s has %s" % (name(after, int(args[0])), args[1])
    if head == "turn":
        return "%s to the table" % name(after, int(args[0]))
    if head == "continue":
        return "continues"
    if head == "rebreak":
        return "8 on the break: break again"
    if head == "option":
        return "%s chooses: %s" % (name(after, int(args[0])), args[1])
    if head == "rack_won":
        return "RACK to %s%s" % (name(after, int(args[0])),
                                 RACK_HOW.get(args[1], " (%s)" % args[1]))
    if head == "match_won":
        return "MATCH to %s" % name(after, int(args[0]))
    return None


def footer(state) -> str:
    if state.finished:
        return "Result: %s, %s wins" % (score_line(state), name(state, state.winner))
    text = "In progress: %s" % score_line(state)
    if state.pending_option:
        option = state.pending_option
        player = option["player"]
        who = name(state, player) if player is not None else "?"
        return text + "; %s to choose: %s" % (who, ", ".join(option["choices"]))
    if state.shooter is None:
        return text + "; waiting for the lag"
    return text + "; at the table: %s" % name(state, state.shooter)
