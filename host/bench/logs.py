"""Realistic match logs for `pilkku bench`, made by the engine itself: a seeded player who
pots, misses, plays safe and fouls at club-night rates, each event tried on the real Match
and kept only if the rules accept it. The rules decide everything else (turns, racks,
options), so the logs change with them and never hold an event the board would refuse.

    log = straight_log(500)        # a 14.1 match of exactly 500 events (unfinished)
    log = kaisa_log(None, race_to=60)  # a Kaisa game played to its end
"""

from __future__ import annotations

import random

from rules_core.match import Match
from rules_core.matchlog import FORMAT
from rules_core.refusal import Refused

PLAYERS = ["Aino Laine", "Eero Salo"]
SAFETY_NET = 5000  # events: a generator that never ends is a bug, not a long match


def _play(settings: dict, events: int | None, choose) -> dict:
    """Apply the first event of `choose(state, rng)` the match accepts, until `events` are
    logged (None: until the match is over)."""
    rng = random.Random(settings["game"] + str(settings["race_to"]) + str(events))
    match = Match(settings)
    while (events is None or len(match.log) < events) and not match.state.finished:
        if len(match.log) >= SAFETY_NET:
            raise RuntimeError("the %s generator does not finish" % settings["game"])
        for event in choose(match.state, rng):
            try:
                match.apply(event)
                break
            except Refused:
                continue
        else:
            raise RuntimeError("no event accepted in state %r" % match.state.to_dict())
    return {"format": FORMAT, "settings": dict(settings), "events": list(match.log),
            "meta": {"note": "pilkku bench"}}


# --- 14.1 --------------------------------------------------------------------------------

def _straight_events(state, rng: random.Random) -> list[dict]:
    option = state.pending_option
    if state.shooter is None and option is None:
        return [{"t": "lag", "winner": rng.randrange(2)}]
    if option is not None:
        if "break" in option["choices"]:
            return [{"t": "choose", "choice": "break", "breaker": option["player"]}]
        return [{"t": "choose", "choice": rng.choice(option["choices"])}]
    if state.breaking:
        if rng.random() < 0.1:
            return [{"t": "shot", "break": "safety", "cushions": 1, "cue_cushion": True}]
        return [{"t": "shot", "break": "safety", "cushions": rng.randrange(2, 5),
                 "cue_cushion": True}]
    table = state.on_table
    if len(table) < 2:
        if not table:
            return [{"t": "rack", "cue": "elsewhere"}]
        return [{"t": "rack", "ball15": rng.choice(["elsewhere", "elsewhere", "rack"])}]
    if state.fouls_in_a_row[state.shooter] == 2 and not state.warned[state.shooter]:
        return [{"t": "warn", "player": state.shooter}, {"t": "shot", "safety": True}]
    ball = rng.choice(table)
    roll = rng.random()
    if roll < 0.72:  # a called ball in (a good club player's run)
        shot = {"t": "shot", "call": {"ball": ball, "pocket": rng.randrange(1, 7)},
                "pocketed": [ball]}
        if rng.random() < 0.5:
            del shot["call"]  # an obvious ball: the referee enters no call
        return [shot]
    if roll < 0.86:
        return [{"t": "shot", "call": {"ball": ball, "pocket": rng.randrange(1, 7)}}]
    if roll < 0.94:
        return [{"t": "shot", "safety": True}]
    return [{"t": "shot", "foul": rng.choice(["scratch", "no_rail", "touch"])},
            {"t": "shot"}]


def straight_log(events: int | None, race_to: int = 1000) -> dict:
    """A 14.1 match: `events` events long (race_to high enough not to end it), or played
    to its end (events None)."""
    settings = {"game": "14.1", "players": PLAYERS, "race_to": race_to}
    return _play(settings, events, _straight_events)


# --- Kaisa -------------------------------------------------------------------------------

_NAKKI: tuple[list[str], ...] = ([], [], ["red"], ["kaisa"], ["red", "red"], ["kaisa", "red"])


def _kaisa_events(state, rng: random.Random) -> list[dict]:
    option = state.pending_option
    if state.shooter is None and option is None:
        return [{"t": "lag", "winner": rng.randrange(2)}]
    if option is not None:
        return [{"t": "choose", "choice": rng.choice(option["choices"])}]
    miss = {"t": "shot", "first": rng.choice(["red", "red", "kaisa", "white"])}
    roll = rng.random()
    if roll < 0.45:
        ball = rng.choice(["red", "red", "kaisa", "white"])
        pocket = "corner" if rng.random() < 0.7 else "middle"
        shot = {"t": "shot", "call": ball, "pocket": pocket, pocket: [ball]}
        if pocket == "middle":
            shot["way"] = "cushion"  # also legal from hand
        nakki = [b for b in rng.choice(_NAKKI) if b != ball]
        if nakki:
            shot["nakki"] = nakki
        return [shot, miss, {"t": "shot", "first": "red"}]
    if roll < 0.92:
        return [miss, {"t": "shot", "first": "red"}]
    return [{"t": "shot", "foul": rng.choice(["cue_in", "cue_off"]), "first": "red"},
            {"t": "shot", "foul": "touch"}, miss, {"t": "shot", "first": "red"}]


def kaisa_log(events: int | None, race_to: int = 1000) -> dict:
    """A Kaisa game: `events` events long (race_to high enough not to end it), or played
    to its end (events None)."""
    settings = {"game": "kaisa", "players": PLAYERS, "race_to": race_to}
    return _play(settings, events, _kaisa_events)


def long_logs(events: int) -> dict[str, dict]:
    """The long logs replay and undo are measured on, by game."""
    return {"14.1": straight_log(events), "kaisa": kaisa_log(events)}


def full_matches() -> dict[str, dict]:
    """A 14.1 race to 100 and a Kaisa game to 60, each played to its end."""
    return {"14.1": straight_log(None, 100), "kaisa": kaisa_log(None, 60)}
