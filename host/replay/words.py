"""The words of `pilkku replay` shared by every game: names of games, pockets, fouls and
choices, the header and score lines, and the wording of an event's outcome from the state's
notes (pool wording; a game passes its own phrase for its own notes).

Everything is said in the CLI's language (or the hall page's: host/i18n), translated when a
line is made; the tables below are marked with N_() and translated where they are used. The
rule options' line ("rules: key=value") stays the engine's keys."""

from __future__ import annotations

import json
from collections.abc import Iterator

from host.games import GAME_NAMES, POINT_GAMES
from host.i18n import N_, _, pgettext

POCKETS = {1: N_("head left"), 2: N_("head right"), 3: N_("side left"), 4: N_("side right"),
           5: N_("foot left"), 6: N_("foot right")}


def called(call: dict) -> str:
    """A call as the referee says it: "calls 8 foot right", or "calls 8" for a call the
    engine took without a pocket number (a panel without pocket keys)."""
    pocket = call.get("pocket")
    if pocket in POCKETS:
        return _("calls %(ball)d %(pocket)s") % {"ball": call["ball"],
                                                 "pocket": _(POCKETS[pocket])}
    return _("calls %(ball)d") % {"ball": call["ball"]}


FOUL_NAMES = {
    "wrong_ball": N_("wrong ball first"), "no_hit": N_("no ball hit"),
    "no_rail": N_("no cushion"), "scratch": N_("cue ball pocketed"),
    "cue_off": N_("cue ball off the table"), "ball_off": N_("object ball off the table"),
    "touch": N_("touched a ball"), "feet": N_("both feet off"),
    "moving": N_("shot while balls moved"), "frozen": N_("frozen-ball rule"),
    "jump": N_("illegal jump"), "double_hit": N_("push or double hit"),
    "head_string": N_("outside the head string"), "bad_break": N_("illegal break"),
}
# How a rack was won: the whole sentence, the player named in it.
RACK_HOW = {
    "run": N_("RACK to %(player)s"), "break": N_("RACK to %(player)s on the break"),
    "three_fouls": N_("RACK to %(player)s, three fouls in a row"),
    "concede": N_("RACK to %(player)s, conceded"),
    "eight_off": N_("RACK to %(player)s, the 8 left the table"),
    "eight_on_foul": N_("RACK to %(player)s, the 8 fell on a foul"),
    "eight_early": N_("RACK to %(player)s, the 8 fell too early"),
    "eight_uncalled": N_("RACK to %(player)s, the 8 was not called"),
    "eight_wrong_pocket": N_("RACK to %(player)s, the 8 fell in the wrong pocket"),
}
CHOICES = {
    "play": N_("plays on"), "pass": N_("passes the shot back"),
    "accept": N_("accepts the table"),
    "bih": N_("takes ball in hand behind the head string"), "rerack": N_("re-racks"),
    "break": N_("decides the break"),
}


def choice(code: str) -> str:
    """What a player did with an option, as said after the name ("plays on")."""
    return _(CHOICES[code]) if code in CHOICES else code


def option_word(code: str) -> str:
    """One of an option's choices as listed ("play/pass"): the engine's short name in
    English, a word in another language."""
    words = {"play": pgettext("option", "play"), "pass": pgettext("option", "pass"),
             "accept": pgettext("option", "accept"), "bih": pgettext("option", "bih"),
             "rerack": pgettext("option", "rerack"), "rebreak": pgettext("option", "rebreak"),
             "break": pgettext("option", "break")}
    return words.get(code, code)


def options(codes) -> str:
    return "/".join(option_word(code) for code in codes)


def name(state, player) -> str:
    return state.players[player]


def game_name(game: str) -> str:
    return _(GAME_NAMES[game]) if game in GAME_NAMES else game


def rules_line(state) -> str:
    """The rule options as the engine keys them (data, not words: the hall leaves it out)."""
    return "rules: " + ", ".join("%s=%s" % (k, json.dumps(v))
                                 for k, v in sorted(state.rules.items()))


def header(state) -> Iterator[str]:
    said = {"game": game_name(state.game), "player1": state.players[0],
            "player2": state.players[1], "race": state.race_to}
    if state.game in POINT_GAMES:
        yield pgettext("points", "%(game)s: %(player1)s vs %(player2)s, race to %(race)d") % said
    else:
        yield _("%(game)s: %(player1)s vs %(player2)s, race to %(race)d") % said
    yield rules_line(state)


def score_line(state) -> str:
    return "%s %d : %d %s" % (state.players[0], state.score[0], state.score[1],
                              state.players[1])


def outcome(after, game_phrase=None) -> str:
    """What an event did, from the state's notes, as a referee says it. `game_phrase(after,
    head, args)` words a game's own notes first (None: the pool wording below)."""
    said = []
    for note in after.notes:
        head, _sep, rest = note.partition(":")
        args = rest.split(":") if rest else []
        phrase = game_phrase(after, head, args) if game_phrase is not None else None
        if phrase is None:
            phrase = _pool_phrase(after, head, args)
        if phrase:  # "" from a game: a note it does not say
            said.append(phrase)
    if after.ball_in_hand and not after.finished:
        said.append(in_hand(after.ball_in_hand))
    return (" - " + "; ".join(said)) if said else ""


def in_hand(where: str) -> str:
    """Ball in hand and where it may be placed (the state's ball_in_hand)."""
    if where == "behind_head":
        return _("ball in hand behind head")
    if where == "anywhere":
        return _("ball in hand anywhere")
    return _("ball in hand %(where)s") % {"where": where.replace("_", " ")}


def _pool_phrase(after, head: str, args: list[str]) -> str | None:
    if head == "foul":
        foul = FOUL_NAMES.get(args[0])
        return _("FOUL (%(foul)s)") % {"foul": _(foul) if foul else args[0]}
    if head == "unwarned":
        return _("not warned: counts as the second foul")
    if head == "three_fouls":
        return _("third foul in a row")
    if head == "spot":
        return _("spot the %(ball)s") % {"ball": args[0]}
    if head == "groups":
        group = {"solids": _("solids"), "stripes": _("stripes")}.get(args[1], args[1])
        return _("%(player)s has %(group)s") % {"player": name(after, int(args[0])),
                                               "group": group}
    if head == "turn":
        return _("%(player)s to the table") % {"player": name(after, int(args[0]))}
    if head == "continue":
        return _("continues")
    if head == "rebreak":
        return _("8 on the break: break again")
    if head == "option":
        return _("%(player)s chooses: %(choices)s") % {
            "player": name(after, int(args[0])), "choices": options(args[1].split("/"))}
    if head == "rack_won":
        player = name(after, int(args[0]))
        if args[1] in RACK_HOW:
            return _(RACK_HOW[args[1]]) % {"player": player}
        return _("RACK to %(player)s (%(how)s)") % {"player": player, "how": args[1]}
    if head == "match_won":
        return _("MATCH to %(player)s") % {"player": name(after, int(args[0]))}
    return None


def footer(state) -> str:
    score = score_line(state)
    if state.finished:
        return _("Result: %(score)s, %(player)s wins") % {
            "score": score, "player": name(state, state.winner)}
    if state.pending_option:
        option = state.pending_option
        player = option["player"]
        who = name(state, player) if player is not None else "?"
        return _("In progress: %(score)s; %(player)s to choose: %(choices)s") % {
            "score": score, "player": who,
            "choices": ", ".join(option_word(c) for c in option["choices"])}
    if state.shooter is None:
        return _("In progress: %(score)s; waiting for the lag") % {"score": score}
    return _("In progress: %(score)s; at the table: %(player)s") % {
        "score": score, "player": name(state, state.shooter)}
