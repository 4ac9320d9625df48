"""What happens to a withdrawn player's remaining matches, by format (docs/tournament.md, "A
player withdraws"). A rule looks at one unfinished match of the withdrawn player whose two
players are known and says what becomes of it:

    "walkover"   the opponent wins it now by walkover (the store records a signed entry by the
                 director, the winner credited with the race and the loser with 0)
    "leave"      nothing now: the format deals with it (e.g. it is dropped from a later draw)

A match still waiting for its players is asked again whenever a result fills a slot, so a
bracket's withdrawn player loses by walkover the match they would have played next. A format
module registers its rule with `register(format, rule)`; the formats that have none use
`walk_over`.
"""

from __future__ import annotations

from collections.abc import Callable

# rule(match, withdrawn) -> "walkover" | "leave"; match is a row of Store.matches() (ids in
# player1_id/player2_id), withdrawn the ids of the tournament's withdrawn players.
Rule = Callable[[dict, set], str]
ACTIONS = ("walkover", "leave")


def walk_over(match: dict, withdrawn: set) -> str:
    """Round robin, an imported list, single elimination: every remaining match of a withdrawn
    player is a walkover for the opponent (their results so far stand)."""
    return "walkover"


RULES: dict[str, Rule] = {"list": walk_over, "round_robin": walk_over, "bracket": walk_over}


def register(format_name: str, rule: Rule) -> None:
    RULES[format_name] = rule


def rule_for(format_name: str | None) -> Rule:
    return RULES.get(format_name or "list", walk_over)
