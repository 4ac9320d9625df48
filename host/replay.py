"""`pilkku replay`: a match log read back as a referee reads it, rack by rack, or its final
state as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator

from host import replay_kaisa, replay_straight
from rules_core import matchlog

GAME_NAMES = {"8ball": "8-ball", "9ball": "9-ball", "14.1": "14.1 continuous", "kaisa": "Kaisa"}
POCKETS = {1: "head left", 2: "head right", 3: "side left", 4: "side right", 5: "foot left",
           6: "foot right"}
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


def final_state(doc: dict) -> dict:
    return matchlog.load(doc).state.to_dict()


def render(doc: dict) -> Iterator[str]:
    """Lines of the match as a referee reads it. Raises matchlog.BadLog on a bad log."""
    game = doc.get("settings", {}).get("game") if isinstance(doc, dict) else None
    renderer = RENDERERS.get(game, render_racks) if isinstance(game, str) else render_racks
    return renderer(doc)


def render_racks(doc: dict) -> Iterator[str]:
    """8-ball and 9-ball: rack by rack."""
    match = None
    for match, before, event in matchlog.steps(doc):
        if event is None:
            yield from _header(match.state)
            yield from _rack_lines(match.state)
            continue
        yield "  " + _describe(event, before, match.state)
        yield from _rack_lines(match.state)
    if match is not None:
        yield _footer(match.state)


def _name(state, player) -> str:
    return state.players[player]


def _header(state) -> Iterator[str]:
    rules = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(state.rules.items()))
    yield "%s: %s vs %s, race to %d" % (GAME_NAMES.get(state.game, state.game),
                                        state.players[0], state.players[1], state.race_to)
    yield "rules: " + rules


def _rack_lines(state) -> Iterator[str]:
    for note in state.notes:
        if note.startswith("rack:"):
            _, number, breaker = note.split(":")
            yield "Rack %s, %s breaks (%s)" % (number, _name(state, int(breaker)),
                                              _score_line(state))


def _score_line(state) -> str:
    return "%s %d : %d %s" % (state.players[0], state.score[0], state.score[1],
                              state.players[1])


def _describe(event: dict, before, after) -> str:
    kind = event["t"]
    if kind == "lag":
        return "Lag won by %s" % _name(after, event["winner"])
    if kind == "choose":
        who = _name(before, before.pending_option["player"])
        text = "%s %s" % (who, CHOICES.get(event["choice"], event["choice"]))
        if "breaker" in event:
            text += ": %s breaks" % _name(after, event["breaker"])
        return text + _outcome(after)
    if kind == "shot":
        return _shot(event, before, after)
    if kind == "warn":
        return "%s warned: two fouls in a row" % _name(after, event["player"])
    if kind == "concede":
        return "%s concedes the %s%s" % (_name(after, event["player"]),
                                         event.get("scope", "rack"), _outcome(after))
    if kind == "adjust":
        return "Referee adjustment (%s)%s" % (event["reason"], _outcome(after))
    return kind


def _shot(event: dict, before, after) -> str:
    shooter = _name(before, before.shooter)
    what = "break" if before.breaking else "push out" if event.get("push") else \
        "safety" if event.get("safety") else "shot"
    parts = ["%s %s" % (shooter, what)]
    call = event.get("call")
    if call:
        parts.append("calls %d %s" % (call["ball"], POCKETS.get(call["pocket"], "?")))
    pocketed = event.get("pocketed") or []
    parts.append("pockets " + ", ".join(str(b) for b in pocketed) if pocketed else "no pot")
    if event.get("off"):
        parts.append("off the table " + ", ".join(str(b) for b in event["off"]))
    return parts[0] + ": " + ", ".join(parts[1:]) + _outcome(after)


def _outcome(after) -> str:
    return outcome(after)


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
        return "%s has %s" % (_name(after, int(args[0])), args[1])
    if head == "turn":
        return "%s to the table" % _name(after, int(args[0]))
    if head == "continue":
        return "continues"
    if head == "rebreak":
        return "8 on the break: break again"
    if head == "option":
        return "%s chooses: %s" % (_name(after, int(args[0])), args[1])
    if head == "rack_won":
        return "RACK to %s%s" % (_name(after, int(args[0])),
                                 RACK_HOW.get(args[1], " (%s)" % args[1]))
    if head == "match_won":
        return "MATCH to %s" % _name(after, int(args[0]))
    return None


def _footer(state) -> str:
    if state.finished:
        return "Result: %s, %s wins" % (_score_line(state), _name(state, state.winner))
    text = "In progress: %s" % _score_line(state)
    if state.pending_option:
        option = state.pending_option
        player = option["player"]
        who = _name(state, player) if player is not None else "?"
        return text + "; %s to choose: %s" % (who, ", ".join(option["choices"]))
    if state.shooter is None:
        return text + "; waiting for the lag"
    return text + "; at the table: %s" % _name(state, state.shooter)


# Games with their own reading (inning by inning, points per shot) add their renderer here.
RENDERERS = {"8ball": render_racks, "9ball": render_racks, "14.1": replay_straight.render,
             "kaisa": replay_kaisa.render}
