"""Reading a board's displays in tests (desk boards and virtual boards alike), and the steps
end-to-end tests take with a virtual board."""

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


def play(board, steps) -> None:
    """Each step: keys, then what the displays show right after (a message that scrolls
    shows its first 8 characters; None: whatever that display shows, e.g. a running clock)."""
    for keys, expected in steps:
        for key in keys:
            board.tap(key)
        now = seen(board)
        assert now == tuple(now[i] if expected[i] is None else expected[i]
                            for i in range(4)), (keys, now)


def power_cut(board) -> None:
    """Pull a virtual board's power and plug it back in."""
    board.kill()
    board.start()
    board.run(100)
