"""Kaisa's point table as data, and the points of one legal pot (RULES.md §5, seed 001 §2).

The table: pocket -> called ball -> nakki -> points. A nakki key names the balls the cue ball
touched after the pot, one letter each, sorted: k = kaisa, r = red, w = the opponent's white;
"-" = no nakki. The middle pocket's values default to the corner's (the lost table does not
give them: "to confirm with the federation"), and so do the kaisa + nakki values, which the
source cuts off (6 + white 2 / red 3, as in the red row). "trick" is the value of a kaisa
pocketed into the middle by kyyti or off a ball via cushion(s): "only 6" (seed §2.1).

A club replaces entries through the ruleset option `points`, e.g.
{"middle": {"kaisa": {"-": 8}}}: each entry given replaces the default; the middle falls back
to the corner (the club's corner if it gives one) entry by entry. kaisa_table.check refuses
a malformed table, naming the entry.
"""

CORNER = {
    "white": {"-": 2, "r": 4, "rr": 7, "k": 7, "kr": 10, "krr": 13},
    "red": {"-": 3, "w": 5, "r": 6, "rw": 8, "k": 9, "kw": 11, "kr": 12, "krw": 14},
    "kaisa": {"-": 6, "w": 8, "r": 9, "rr": 12, "rw": 11, "rrw": 14},
}
TRICK = 6  # middle kaisa by kyyti, or off a ball via cushion(s)
POCKETS = ("corner", "middle")
_LETTER = {"kaisa": "k", "red": "r", "white": "w"}
WORD = {"-": "", "k": "kaisa", "r": "red", "w": "white"}




def value(table, pocket, ball, key):
    """The table's points for `ball` pocketed in `pocket` with nakki `key`."""
    if table:
        for where in (pocket, "corner"):
            row = table.get(where, {}).get(ball, {})
            if key in row:
                return row[key]
    if key == "trick":
        return TRICK
    return CORNER[ball][key]


def nakki_key(nakki):
    if not nakki:
        return "-"
    return "".join(sorted([_LETTER[ball] for ball in nakki]))


def pot(table, call, corner, middle, nakki, limit):
    """Points and why for a legal pot as called: `call` is (ball, pocket, way, cushion);
    `corner` and `middle` the balls that fell there (the called ball among them); `nakki` the
    balls the cue ball touched after the pot; `limit` the middle_kaisa_limit option."""
    ball, pocket, way, cushion = call
    why = ball + " " + pocket
    if way == "cushion" or cushion:
        why += " via cushion"
    if way == "kyyti":
        why += " by kyyti"
    elif way == "off":
        why += " off a ball"
    trick = way in ("kyyti", "off")
    if ball == "kaisa" and pocket == "middle" and (
            (way == "kyyti" and (cushion or limit == "kyyti_or_off_cushion"))
            or (way == "off" and cushion)):
        points = value(table, "middle", "kaisa", "trick")
        why += " (only %d)" % points
    else:
        key = "-" if trick else nakki_key(nakki)
        points = value(table, pocket, ball, key)
        if key != "-":
            why += " + nakki " + ", ".join([WORD[c] for c in key])
    if trick and nakki:
        why += " (no nakki by %s)" % ("kyyti" if way == "kyyti" else "a ball")
    extras = {"corner": list(corner), "middle": list(middle)}
    extras[pocket].remove(ball)
    if corner + middle != [ball]:
        why += " (%d)" % points
    for where in POCKETS:
        for extra in extras[where]:
            worth = value(table, where, extra, "-")
            points += worth
            why += " + %s %s (%d)" % (extra, where, worth)
    return points, why
