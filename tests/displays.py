"""Reading a board's displays in tests, for desk boards and virtual boards alike."""

from __future__ import annotations


def seen(board) -> tuple[str, str, str, str]:
    """What the four displays show now (the message row without its trailing blanks)."""
    texts = board.texts()
    return (texts["score_1"], texts["score_2"], texts["clock"], texts["message"].rstrip())


def shown(board) -> str:
    """The whole message the row shows (or scrolls), from a desk board's app."""
    return board.app.frame()[3]


def last(board) -> dict:
    """The last event the match recorded, without its timestamp."""
    event = dict(board.app.match.log[-1])
    event.pop("at", None)
    return event
