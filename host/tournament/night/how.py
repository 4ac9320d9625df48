"""A refusal's way out, named by the action and worded by each reader (issue 28, item 2): the
night refuses once, with its reason; what to do instead is an action's name (and its match),
which the command line words as a command ("pilkku correct R1-01") and the director's desk
as its own forms (host/desk/actions.py DESK_HOW). The rule stays in the night, once.

    raise Refused("match %s is finished already; to change its result: %s"
                  % (code, way("correct")), match=code)
    error.text            # the command line's words (every StoreError's text)
    error.words(DESK_HOW) # the desk's

A text that is not a refusal may carry a way out too (night/in_play.py's "may have started
it"): in_words(text, wording) says it.
"""

from __future__ import annotations

import re

from host.i18n import N_, _
from host.tournament.store import StoreError

# The command line's words for each way out (%(match)s, %(name)s: the refusal's arguments),
# said in the language spoken when the refusal is (in_words).
CLI = {
    "correct": "pilkku correct %(match)s",
    "correct_score": "pilkku correct %(match)s --score A:B --reason TEXT",
    "enter": N_("enter one with pilkku record %(match)s LOG, or pilkku walkover %(match)s "
                "WINNER"),
    "walkover": 'pilkku walkover %(match)s "%(name)s" --reason TEXT',
    "plan_again": N_("run pilkku correct %(match)s again"),
    "void_played": "--played void",
    "keep_or_void": N_("--played keep or --played void"),
    "choose_played": N_("--played keep (they stand as played), or --played void (they do not "
                        "count, and what was drawn from them goes too)"),
    "winner": "--winner NAME",
    "follow": N_("pilkku sync --watch follows the tables"),
}
_WAY = re.compile("\x00([a-z_]+)\x00")


def way(key: str) -> str:
    """Where the way out `key` goes in a text (no name or code holds a control character)."""
    return "\x00%s\x00" % key


def in_words(text: str, wording: dict[str, str], **args: str) -> str:
    """`text` with each way out in it said in `wording`'s words (marked N_() where written,
    said in the language spoken now)."""
    return _WAY.sub(lambda found: _(wording[found.group(1)]) % args, text)


class Refused(StoreError):
    """A StoreError whose text (the command line's) names a way out: `said` holds way(key)
    where it goes, `values` its arguments."""

    def __init__(self, said: str, **args: str) -> None:
        self.said, self.values = said, args
        super().__init__(in_words(said, CLI, **args))

    def words(self, wording: dict[str, str]) -> str:
        """The refusal with its ways out in `wording`'s words."""
        return in_words(self.said, wording, **self.values)
