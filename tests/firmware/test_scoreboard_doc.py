"""docs/scoreboard.md shows what the displays show in each state; its drawings are made by
the firmware itself (on a desk board, drawn by host.board.face) and must stay true.
Run with PILKKU_UPDATE_DOCS=1 to rewrite them after a deliberate change."""

from __future__ import annotations

import os
import re
from pathlib import Path

from desk_board import DeskBoard

from host.board.face import draw

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoreboard.md"

# (title, keys pressed to get there from the previous state, ms to wait after)
STATES = [
    ("Menu: 9-ball, race to 5", "", 0),
    ("Menu with the shot clock on (B): the colon on the clock display", "B", 0),
    ("Waiting for the lag: 1 or 2, who won it", "B#", 0),
    ("Player 2 won the lag: 1 or 2, who breaks", "2", 0),
    ("Player 1 to break rack 1", "1", 0),
    ("A dry break: player 2 at the table", "A", 0),
    ("Entering a shot: the 2 and the 5 toggled, not yet recorded", "25", 0),
    ("Recorded: player 2 continues", "A", 0),
    ("Entering a foul: B picks the kind (scratch first)", "B", 0),
    ("The foul recorded: player 1 has ball in hand", "A", 0),
    ("Player 1 on two fouls in a row: the warning is due (* B gives it)", "BAAB" "ABA", 0),
    ("A refused key: the push out is no longer allowed", "CA", 0),
    ("Warned, then the 9 down: the rack to player 1, who breaks rack 2", "*B9A", 3000),
    # 14.1 continuous: the 9-ball match won (four more 9s on the break), back to the menu.
    ("Menu: 14.1, race to 20 points", "9A9A9A9A#CC20", 0),
    ("14.1: player 1 breaks; the clock display shows the balls on the table", "#11", 0),
    ("A failed safety break (B A): -2; player 2 chooses: 1 accept, 2 re-break (scrolls)",
     "BA", 0),
    ("Player 2 accepts (1) and pots three called balls (# # #): the run of 3", "1###", 0),
    ("Player 1 on two fouls in a row: the warning is due (* B)", "ABAABAA", 0),
    ("Warned; player 1 pots 11 (9 #, 2 #): the 14th is down, the rack is due (scrolls)",
     "*B9#2#", 0),
    ("The 15th ball in the rack area (1), the cue ball elsewhere (#): it goes on the head "
     'spot ("RACK 14, 15 HEAD SPOT" scrolls)', "1#", 2400),
    ("Player 1 reaches 20 points: the result stays until #", "9#4#", 0),
    # Kaisa: the 14.1 result left (#), the next game in the menu (C), its game clock on (B).
    ("Menu: Kaisa, race to 60, the game clock on (B)", "#CB", 0),
    ("Kaisa: player 2 won the lag and chooses his cue ball: 1 one-dot, 2 two-dot (scrolls)",
     "#2", 0),
    ("Player 2 takes the two-dot ball: player 1 (one-dot, 1D) opens; the game clock runs",
     "2", 1500),
    ("The opening shot missed (A); player 2 pots a red with nakki on the kaisa (9 2): its "
     "points for a moment", "A92", 0),
    ("The next key ends them: entering nakki on both reds (8 8)", "88", 0),
    ("The white into a corner (1): 7 points", "1", 0),
    ("A scratch after hitting a red first (B 8): -3, player 1 has ball in hand", "B8", 3000),
    ("Player 2's break (* C 2): the game clock stops, the break counts down (PL 2 BREAK "
     "scrolls)", "*C2", 10000),
    ("The break over (C); time is up (the game clock, or * #): final innings left, player "
     "1's then player 2's", "C*#", 3000),
    ("Nobody won in the final innings: the shootout's lag (SHOOTOUT LAG 1/2? scrolls)",
     "AAAA", 0),
    ("Player 1 won it and shoots first (1 1): the kaisa from the centre into a corner (3)",
     "113", 3000),
    ("Player 2 concedes (* 2): the result as recorded, the loser at most 60 (scrolls)",
     "*2", 0),
]


def gallery() -> str:
    desk = DeskBoard().boot()
    parts = []
    for title, keys, wait in STATES:
        desk.tap(*keys)
        desk.run(wait)
        parts.append("### %s\n\n```\n%s\n```\n" % (title, draw(desk.model)))
    return "\n".join(parts)


def test_the_drawings_are_what_the_firmware_shows():
    text = DOC.read_text()
    begin, end = "<!-- faces: begin -->\n", "<!-- faces: end -->"
    drawn = gallery()
    if os.environ.get("PILKKU_UPDATE_DOCS"):
        DOC.write_text(re.sub(re.escape(begin) + ".*" + re.escape(end),
                              lambda _: begin + drawn + end, text, flags=re.S))
        text = DOC.read_text()
    assert text[text.index(begin) + len(begin):text.index(end)] == drawn
