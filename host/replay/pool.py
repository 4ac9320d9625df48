"""`pilkku replay` for 8-ball and 9-ball: rack by rack, each event as a referee says it. The
wording of the events every pool game shares (lag, choices, warnings, concessions) is here too;
14.1 reads its own shots and uses these for the rest."""

from __future__ import annotations

from collections.abc import Iterator

from host.replay import words
from host.replay.words import CHOICES, name, outcome
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
            _, number, breaker = note.split(":")
            yield "Rack %s, %s breaks (%s)" % (number, name(state, int(breaker)),
                                              words.score_line(state))


def describe(event: dict, before, after) -> str:
    kind = event["t"]
    if kind == "lag":
        return "Lag won by %s" % name(after, event["winner"])
    if kind == "choose":
        who = name(before, before.pending_option["player"])
        text = "%s %s" % (who, CHOICES.get(event["choice"], event["choice"]))
        if "breaker" in event:
            text += ": %s breaks" % name(after, event["breaker"])
        return text + outcome(after)
    if kind == "shot":
        return _shot(event, before, after)
    if kind == "warn":
        return "%s warned: two fouls in a row" % name(after, event["player"])
    if kind == "concede":
        return "%s concedes the %s%s" % (name(after, event["player"]),
                                         event.get("scope", "rack"), outcome(after))
    if kind == "adjust":
        return "Referee adjustment (%s)%s" % (event["reason"], outcome(after))
    return kind


def _shot(event: dict, before, after) -> str:
    shooter = name(before, before.shooter)
    what = "break" if before.breaking else "push out" if event.get("push") else \
        "safety" if event.get("safety") else "shot"
    parts = ["%s %s" % (shooter, what)]
    call = event.get("call")
    if call:
        parts.append(words.called(call))
    pocketed = event.get("pocketed") or []
    parts.append("pockets " + ", ".join(str(b) for b in pocketed) if pocketed else "no pot")
    if event.get("off"):
        parts.append("off the table " + ", ".join(str(b) for b in event["off"]))
    return parts[0] + ": " + ", ".join(parts[1:]) + outcome(after)
