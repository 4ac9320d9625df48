"""`pilkku replay` for 14.1 continuous: the match inning by inning, each inning closed by its
run and the score line, then each player's statistics."""

from __future__ import annotations

from collections.abc import Iterator

from host.replay import pool, words
from rules_core import matchlog

PLACES = {"head_spot": "the head spot", "centre_spot": "the centre spot",
          "behind_head": "in hand behind the head string"}


def render(doc: dict) -> Iterator[str]:
    """Lines of a 14.1 match as a referee reads it. Raises matchlog.BadLog on a bad log."""
    inning = None  # (turn number, shooter) of the inning being printed
    run = 0
    match = None
    for match, before, event in matchlog.steps(doc):
        if event is None:
            yield from words.header(match.state)
            continue
        after = match.state
        if event["t"] == "shot" and (before.inning, before.shooter) != inning:
            if inning is not None:
                yield _close(before, inning[1], run)
            inning = (before.inning, before.shooter)
            run = 0
            yield "%s, inning %d (%s)" % (words.name(before, before.shooter),
                                          before.stats[before.shooter]["innings"],
                                          words.score_line(before))
        run += _points(after, before.shooter) if event["t"] == "shot" else 0
        yield "  " + _describe(event, before, after)
    if match is None:
        return
    state = match.state
    if inning is not None:
        yield _close(state, inning[1], run)
    yield words.footer(state)
    for player in (0, 1):
        yield _player_line(state, player)


def _points(state, player) -> int:
    total = 0
    for note in state.notes:
        if note.startswith("points:%d:" % player):
            total += int(note.split(":")[2])
    return total


def _close(state, player, run) -> str:
    return "  = %s's run %d; %s" % (state.players[player], run, _score(state))


def _score(state) -> str:
    return "%s %d : %d %s" % (state.players[0], state.score[0], state.score[1], state.players[1])


def average(state, player) -> str:
    """Points per inning with two decimals, in integer arithmetic as the board does it."""
    innings = state.stats[player]["innings"]
    if not innings:
        return "-"
    hundredths = (abs(state.score[player]) * 100 * 2 + innings) // (2 * innings)
    sign = "-" if state.score[player] < 0 and hundredths else ""
    return "%s%d.%02d" % (sign, hundredths // 100, hundredths % 100)


def _player_line(state, player) -> str:
    stats = state.stats[player]
    return ("%s: %d points in %d innings (average %s), high run %d, %d balls, %d fouls, "
            "%d penalty points" % (state.players[player], state.score[player],
                                   stats["innings"], average(state, player),
                                   state.runs[player]["high"], stats["balls"], stats["fouls"],
                                   stats["penalty"]))


def _describe(event: dict, before, after) -> str:
    kind = event["t"]
    if kind == "shot":
        return _shot(event, before) + _outcome(after)
    if kind == "rack":
        return "Rack %d: %s" % (after.rack, _placement(after.placement))
    if kind == "choose" and event["choice"] in ("accept", "rebreak"):
        who = words.name(before, before.shooter)
        if event["choice"] == "accept":
            return "%s accepts the table" % who + _outcome(after)
        return "%s demands a re-break: %s breaks again" % (who, words.name(after, after.shooter))
    return pool.describe(event, before, after)


def _shot(event: dict, before) -> str:
    if before.breaking:
        what = "%s break" % event.get("break", "?")
    else:
        what = "safety" if event.get("safety") else "shot"
    parts = []
    call = event.get("call")
    if call:
        parts.append(words.called(call))
    pocketed = event.get("pocketed") or []
    parts.append("pockets " + ", ".join(str(b) for b in pocketed) if pocketed else "no pot")
    if event.get("off"):
        parts.append("off the table " + ", ".join(str(b) for b in event["off"]))
    if "cushions" in event:
        count = event["cushions"]
        parts.append("%d object ball%s to a cushion, %s" % (
            count, "" if count == 1 else "s",
            "the cue ball too" if event.get("cue_cushion") else "not the cue ball"))
    return "%s: %s" % (what, ", ".join(parts))


def _placement(placement) -> str:
    text = "%d balls racked" % placement["racked"]
    if placement["ball15"]:
        text += "; the 15th ball to %s" % PLACES[placement["ball15"]]
    if placement["cue"]:
        where = PLACES[placement["cue"]]
        text += "; cue ball %s%s" % ("" if where.startswith("in hand") else "on ", where)
    return text


def _outcome(after) -> str:
    return words.outcome(after, _phrase)


def _phrase(after, head: str, args: list[str]) -> str | None:
    """14.1's own notes; the rest are worded as in 8- and 9-ball."""
    if head == "points":
        return "+%s" % args[1]
    if head == "penalty":
        return "-%s" % args[1]
    if head == "three_fouls":
        return "THIRD FOUL IN A ROW"
    if head == "rack_due":
        return "14 down: rack"
    if head == "safety":
        return "safety"
    if head in ("continue", "groups", "rebreak", "rack_won"):
        return ""  # not said in 14.1
    return None
