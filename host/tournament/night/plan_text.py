"""A correction's plan (night/consequences.py) as the director reads it: text for the command
line, and a plain dict for `--json` and the director's desk.

The dict: {"match", "format", "change": {"winner", "score", "outcome"}, "before": {"players",
"winner", "score", "outcome"}, "played" (keep, void or null), "choice_needed",
"stands": [row], "redrawn": [row], "depends": [row + "state" ("played" | "in play"), "why",
"kept"], "new": [{"match", "round", "players"}], "queues": [{"table", "before", "after"}],
"keep_refused" (why keep is not possible, or null), "followed" (the words the correction's
entry carries)}; a row is {"match", "players", "table", "result"} (stands: also "was"/"now",
its round before and as replayed)."""

from __future__ import annotations

from typing import Any

from host.tournament.night.how import CLI, in_words


def followed(plan: Any) -> str:
    """"R3-02 redrawn, R3-04 voided, R3-05 new" (empty: nothing followed)."""
    words = ["%s redrawn" % r["match"] for r in plan.redrawn]
    words += ["%s %s" % (r["match"], "kept" if plan.played == "keep" else "voided")
              for r in plan.depends]
    words += ["%s new" % r["match"] for r in plan.new]
    return ", ".join(words)


def plan_dict(plan: Any) -> dict:
    change = plan.change
    winner = None
    if change.outcome is None and change.winner is not None:
        winner = plan.before["players"][change.winner - 1]
    return {
        "match": plan.code, "format": plan.format,
        "change": {"winner": winner, "score": None if change.score is None else
                   list(change.score), "outcome": change.outcome},
        "before": dict(plan.before), "played": plan.played,
        "choice_needed": plan.choice_needed,
        "stands": [_clean(r) for r in plan.stands],
        "redrawn": [_clean(r) for r in plan.redrawn],
        "depends": [dict(_clean(r), why=r["why"] and in_words(r["why"], CLI))
                    if "why" in r else _clean(r) for r in plan.depends],
        "new": [{k: r[k] for k in ("match", "round", "players")} for r in plan.new],
        "queues": [dict(q) for q in plan.queues],
        "keep_refused": None if plan.keep_refused is None else in_words(
            plan.keep_refused, CLI),
        "followed": followed(plan),
    }


def same_plan(one: dict, two: dict) -> bool:
    """The two plans' dicts change the same (a board's score in "why" moves on meanwhile)."""
    def key(plan: dict) -> dict:
        return dict(plan, depends=[{k: v for k, v in r.items() if k != "why"}
                                   for r in plan.get("depends", [])])
    return key(one) == key(two)


def _clean(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in ("id", "index")}


def _pair(row: dict) -> str:
    return "%s %s" % (row["match"], " – ".join(str(p) for p in row["players"]))


def plan_text(plan: Any, wording: dict[str, str] = CLI) -> str:
    lines = ["What this correction changes:", "  %s" % _change_line(plan)]
    if not (plan.stands or plan.redrawn or plan.depends or plan.new or plan.queues):
        lines.append("  Nothing else: no later match was drawn from it.")
        return "\n".join(lines)
    if plan.stands:
        lines.append("  Stands: %s" % ", ".join(_stands(r) for r in plan.stands))
    if plan.redrawn:
        lines.append("  Redrawn (not started): %s"
                     % ", ".join(_pair(r) for r in plan.redrawn))
    if plan.new:
        lines.append("  New: %s" % ", ".join(_pair(r) for r in plan.new))
    if plan.depends:
        lines.append("  In play or played, drawn from the old result (%s):"
                     % _choice(plan, wording))
        for row in plan.depends:
            lines.append("    %s: %s" % (_pair(row), in_words(row["why"], wording)
                                          if row["why"] else row["result"] or row["state"]))
        if plan.keep_refused:
            lines.append("    (keep is not possible: %s)" % in_words(plan.keep_refused,
                                                                     wording))
    if plan.queues:
        lines.append("  Tables whose queue changes: %s" % "; ".join(
            "table %d: %s -> %s" % (q["table"], ", ".join(q["before"]) or "nothing",
                                    ", ".join(q["after"]) or "nothing")
            for q in plan.queues))
    if plan.choice_needed:
        lines.append("  (shown as if voided: the rest follows the choice)")
    return "\n".join(lines)


def _choice(plan: Any, wording: dict[str, str]) -> str:
    if plan.played == "keep":
        return "kept: they stand as played"
    if plan.played == "void":
        return "voided: they do not count"
    return "keep or void? %s" % wording["keep_or_void"]


def _stands(row: dict) -> str:
    text = _pair(row)
    if row.get("was") is not None and row.get("now") != row.get("was"):
        text += " (now round %d)" % row["now"]
    return text


def _change_line(plan: Any) -> str:
    before, change = plan.before, plan.change
    players = " – ".join(str(p) for p in before["players"])
    if before["winner"] is not None:
        was = "%s won %d:%d" % (before["winner"], *before["score"])
    elif before["outcome"]:
        was = {"void": "void", "both_lose": "lost by both"}[before["outcome"]]
    else:
        was = "no result"
    if change.outcome == "void":
        now = "void"
    elif change.outcome == "both_lose":
        now = "lost by both"
    else:
        now = "%s wins %d:%d" % (before["players"][change.winner - 1], *(change.score or (0, 0)))
    return "%s %s: %s (was: %s)" % (plan.code, players, now, was)
