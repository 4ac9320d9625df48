"""Kaisa's respotting (seed §4, §4.1): where each pocketed or jumped ball goes back.

The engine cannot see the table. After a shot the state's `to_spot` lists the object balls to
put back (kaisa first); the referee says which spots are taken; `respot` answers where each
ball goes. A white comes back as ball in hand for its owner.

    respot(["red", "kaisa"], ["centre"])  ->  [["kaisa", "head_line"], ["red", "foot_line"]]
"""

from rules_core.refusal import refuse

# head_line: the spot on the head line ("aloituslinjan pilkku"); foot_line: on the foot line
# ("alalinjan pilkku"); head and foot: the head and foot spots; centre: the centre spot.
SPOTS = ("head_line", "foot_line", "head", "foot", "centre")
ORDER = {
    "kaisa": ("centre", "head_line", "foot_line", "head", "foot"),
    "red": ("head_line", "foot_line", "head", "foot", "centre"),
}
_FIRST = ("kaisa", "red", "white")  # the kaisa is placed before a red (seed §4.1)


def respot(balls, taken):
    """[ball, spot] for each ball in `balls` (white, red, kaisa), the kaisa first: its first
    free spot in the seed's order, "hand" for a white, None when every spot is taken (the
    seed is silent: the referee places it). `taken` names the spots occupied now."""
    if not isinstance(balls, list) or [b for b in balls if not isinstance(b, str) or
                                       b not in _FIRST]:
        refuse("bad_field", "balls to respot are white, red or kaisa")
    if not isinstance(taken, list) or [s for s in taken if not isinstance(s, str) or
                                       s not in SPOTS]:
        refuse("bad_field", "spots are: %s" % ", ".join(SPOTS))
    busy = list(taken)
    placed = []  # type: list
    for ball in _FIRST:
        for _ in range(len([b for b in balls if b == ball])):
            if ball == "white":
                placed.append([ball, "hand"])
                continue
            spot = None
            for candidate in ORDER[ball]:
                if candidate not in busy:
                    spot = candidate
                    busy.append(spot)
                    break
            placed.append([ball, spot])
    return placed


def kaisa_back(kaisa_spot, centre_free, touched):
    """A kaisa that could not go to the centre goes back there as soon as the centre frees,
    if no ball has touched it yet (seed §4); a move forgotten then is not made later."""
    return kaisa_spot != "centre" and centre_free and not touched
