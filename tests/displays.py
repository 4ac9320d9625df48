"""Reading a board's displays in tests (desk boards and virtual boards alike), and the steps
end-to-end tests take with a virtual board.

The shooter's mark (the left colon of a score display, decoded by the HT16K33 model apart
from the digits) is read on its own: ``seen`` gives the digits and fails on a mark no
firmware should show (half a colon, or both players marked); ``marked`` says whose it is."""

from __future__ import annotations


def _marked(texts: dict) -> int | None:
    marks = (texts["mark_1"], texts["mark_2"])
    assert marks in (("", ""), (":", ""), ("", ":")), ("shooter marks", marks, texts)
    return 1 if marks[0] else 2 if marks[1] else None


def seen(board) -> tuple[str, str, str, str]:
    """What the four displays show now (the message row without its trailing blanks; the
    scores without the shooter's mark, which must be whole and on one display at most)."""
    texts = board.texts()
    _marked(texts)
    return (texts["score_1"], texts["score_2"], texts["clock"], texts["message"].rstrip())


def marked(board) -> int | None:
    """Whose score display carries the shooter's mark: 1 (player 1), 2, or None."""
    return _marked(board.texts())


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
    shows its first 8 characters; None: whatever that display shows, e.g. a running clock),
    and optionally whose score display is marked (1, 2 or None: nobody's)."""
    for step in steps:
        keys, expected = step[0], step[1]
        for key in keys:
            board.tap(key)
        now = seen(board)
        assert now == tuple(now[i] if expected[i] is None else expected[i]
                            for i in range(4)), (keys, now)
        if len(step) > 2:
            assert marked(board) == step[2], (keys, now, "marked", marked(board))


def powered_up(folder, files: dict):
    """A virtual board in `folder` with `files` on its flash, powered up at the menu."""
    from host.board.virtual_board import VirtualBoard

    board = VirtualBoard(folder)
    board.install(files)
    board.start()
    board.run(100)
    return board


def power_cut(board) -> None:
    """Pull a virtual board's power and plug it back in."""
    board.kill()
    board.start()
    board.run(100)


def cuts_in_flight(frames: list, actions, cuts: int, taps, press, cut, view) -> tuple[int, int]:
    """`cuts` power cuts, each while a press is in flight, on a board showing `frames[0]`:
    `frames[n]` is what it must show after the first n `actions`. Before each cut, `taps()`
    more presses land whole (and as many more as the displays would not tell apart from the
    one in flight); `cut(key)` presses a key, cuts the power and powers up again. After the
    cut the board shows the frame before the key or after it, nothing else. Returns (presses
    done, cuts after which the key had landed)."""
    done = landed = 0
    for _cut in range(cuts):
        more = taps()
        while more > 0 or frames[done + 1] == frames[done]:
            press(actions[done])
            done += 1
            more -= 1
            assert view() == frames[done], done
        cut(actions[done])
        now = view()
        assert now in (frames[done], frames[done + 1]), (done, now)
        if now == frames[done + 1]:
            done += 1
            landed += 1
    return done, landed
