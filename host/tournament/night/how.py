"""A refusal's way out, named by the action and worded by each reader (issue 28, item 2): the
night refuses once, with its reason; what to do instead is an action's name and its match,
which the command line words as a command ("pilkku correct R1-01") and the director's desk
as its own forms (host/desk/actions.py DESK_HOW). The rule stays in the night, once.

    raise Refused("match %s is finished already; to change its result: %s" % (code, HOW),
                  "correct", match=code)
    error.text            # the command line's words (every StoreError's text)
    error.words(DESK_HOW) # the desk's
"""

from __future__ import annotations

from host.tournament.store import StoreError

# Where the way out goes in a refusal's words (no name or code holds a control character).
HOW = "\x00how\x00"

# The command line's words for each way out (%(match)s, %(name)s: the refusal's arguments).
CLI = {
    "correct": "pilkku correct %(match)s",
    "correct_score": "pilkku correct %(match)s --score A:B --reason TEXT",
    "enter": "enter one with pilkku record %(match)s LOG, or pilkku walkover %(match)s WINNER",
    "walkover": 'pilkku walkover %(match)s "%(name)s" --reason TEXT',
    "plan_again": "run pilkku correct %(match)s again",
    "void_played": "--played void",
    "keep_or_void": "--played keep or --played void",
    "choose_played": "--played keep (they stand as played), or --played void (they do not "
                     "count, and what was drawn from them goes too)",
    "winner": "--winner NAME",
}


class Refused(StoreError):
    """A StoreError whose text (the command line's) names a way out: `said` holds HOW where
    it goes, `how` the action, `values` its arguments."""

    def __init__(self, said: str, how: str, **args: str) -> None:
        self.said, self.how, self.values = said, how, args
        super().__init__(self.words(CLI))

    def words(self, wording: dict[str, str]) -> str:
        """The refusal with its way out in `wording`'s words."""
        return said_with(self.said, self.how, wording, **self.values)


def said_with(said: str, how: str, wording: dict[str, str], **args: str) -> str:
    """`said` with the way out `how` in `wording`'s words where HOW stands."""
    return said.replace(HOW, wording[how] % args)
