"""A Kaisa game played through a virtual board's keypad, as the e2e nights play them: the
chosen player wins the lag, opens and pockets the kaisa into a corner twice (6 + 6), which
ends a race to 10."""

from __future__ import annotations

from displays import marked

from host.board.virtual_board import VirtualBoard


def on_glass(name: str) -> str:
    """A name as the board draws it: capitals, Ä Ö Å as A O A."""
    return name.upper().translate(str.maketrans("ÄÖÅ", "AOA"))


def play_kaisa(board: VirtualBoard, winner_slot: int, names: list[str],
               started=None) -> None:
    """The match the board shows: start it, the winner wins the lag and opens, kaisa into a
    corner twice (12 of 10), leave the result. The board names the opener with his cue ball
    and the shooter's mark is on his score display until the game is won. `started()`, if
    given, is called once the match is under way (a test waits there until the laptop has
    seen it: a real game lasts long enough for that)."""
    for key in "#%d1" % winner_slot:
        board.tap(key)
    if started is not None:
        started()
    opener = on_glass(names[winner_slot - 1].split()[0])[:4]
    assert board.texts()["message"].rstrip() == opener + " 1D", board.texts()
    assert marked(board) == winner_slot
    for _shot in range(2):
        board.tap("3")
        board.run(2600)
    texts = board.texts()
    assert texts["score_%d" % winner_slot] == "  12" and " WON" in texts["message"], texts
    assert marked(board) is None  # the game is over: nobody is at the table
    board.tap("#")
