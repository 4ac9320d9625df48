"""A club's Kaisa point table checked: imported only when a club gives one, as the board's heap
is small. The table's shape is in kaisa_points."""

from rules_core.kaisa_points import CORNER
from rules_core.refusal import refuse


def check(table):
    """Refuse a club's table with an unknown pocket, ball or nakki, or points not 0 to 99."""
    for pocket in table:
        rows = table[pocket]
        for ball in rows if pocket in ("corner", "middle") and isinstance(rows, dict) else [""]:
            row = rows[ball] if ball in CORNER else None
            for key in row if isinstance(row, dict) else [""]:
                worth = None
                if isinstance(row, dict) and (key in CORNER[ball] or key == "trick"
                                              and pocket + ball == "middlekaisa"):
                    worth = row[key]
                if not isinstance(worth, int) or isinstance(worth, bool) or not 0 <= worth <= 99:
                    refuse("bad_rules", "point table: '%s' is no entry with 0 to 99 points"
                           % " ".join([pocket, ball, key]).strip())
