"""`pilkku replay` for 8-ball and 9-ball: rack by rack, each event as a referee says it. The
wording of the events every pool game shares (lag, choices, warnings, concessions) is here too;
14.1 reads its own shots and uses these for the rest."""

from __future__ import annotations

from collections.abc import Iterator

from host.i18n import _
from host.replay import words
from host.replay.words import name, outcome
from rules_core import matchlog


def render(doc: dict) -> Iterator[str]:
    """8-ball and 9-ball: rack by rack."""
    match = None
    for match, before, event in matchlog.steps(doc):
        if event is None:
            yield from words.header(match.state)
            yield from _rack_lines(match.state)
            continue
        yield "  " + describe(event, before, match.state)
        yield from _rack_lines(match.state)
    if match is not None:
        yield words.footer(match.state)


def _rack_lines(state) -> Iterator[str]:
    for note in state.notes:
        if note.startswith("rack:"):
            _note, number, breaker = note.split(":")
            yield _("Rack %(number)s, %(player)s breaks (%(score)s)") % {
                "number": number, "player": name(state, int(breaker)),
                "score": words.score_line(state)}


def describe(event: dict, before, after) -> str:
    kind = event["t"]
    if kind == "lag":
        return lag_won(after, event["winner"])
    if kind == "choose":
        who = name(before, before.pending_option["player"])
        said = {"player": who, "choice": words.choice(event["choice"])}
        if "breaker" in event:
            said["breaker"] = name(after, event["breaker"])
            return _("%(player)s %(choice)s: %(breaker)s breaks") % said + outcome(after)
        return _("%(player)s %(choice)s") % said + outcome(after)
    if kind == "shot":
        return _shot(event, before, after)
    if kind == "warn":
        return _("%(player)s warned: two fouls in a row") % {
            "player": name(after, event["player"])}
    if kind == "concede":
        player = name(after, event["player"])
        if event.get("scope", "rack") == "match":
            return _("%(player)s concedes the match") % {"player": player} + outcome(after)
        return _("%(player)s concedes the rack") % {"player": player} + outcome(after)
    if kind == "adjust":
        return _("Referee adjustment (%(reason)s)") % {"reason": event["reason"]} \
            + outcome(after)
    return kind


def lag_won(state, player: int) -> str:
    return _("Lag won by %(player)s") % {"player": name(state, player)}


def _shot(event: dict, before, after) -> str:
    shooter = name(before, before.shooter)
    said = {"player": shooter}
    what = _("%(player)s break") % said if before.breaking else \
        _("%(player)s push out") % said if event.get("push") else \
        _("%(player)s safety") % said if event.get("safety") else _("%(player)s shot") % said
    return what + ": " + ", ".join(balls(event)) + outcome(after)


def balls(event: dict) -> list[str]:
    """What a shot did with the balls: the call, what was pocketed, what left the table."""
    parts = []
    call = event.get("call")
    if call:
        parts.append(words.called(call))
    pocketed = event.get("pocketed") or []
    parts.append(_("pockets %(balls)s") % {"balls": ", ".join(str(b) for b in pocketed)}
                 if pocketed else _("no pot"))
    if event.get("off"):
        parts.append(_("off the table %(balls)s") % {
            "balls": ", ".join(str(b) for b in event["off"])})
    return parts
