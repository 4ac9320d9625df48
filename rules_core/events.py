"""Reading referee events: field checks shared by every game.

An event is a small dict, e.g. {"t": "shot", "pocketed": [3, 9]}. These helpers read one field
each and refuse, with a reason a referee can act on, anything malformed or out of range. They
never change state, so a game can read all fields before it changes anything.
"""

from rules_core.refusal import refuse

# Fields any event may carry: its type, and the board's wall-clock time (seconds), kept
# for the record and ignored by the rules.
COMMON = ("t", "at")


def kind(event):
    if not isinstance(event, dict):
        refuse("bad_event", "an event must be a JSON object")
    t = event.get("t")
    if not isinstance(t, str):
        refuse("bad_event", "an event needs a type in field 't'")
    at = event.get("at")
    if at is not None and not _is_int(at):
        refuse("bad_field", "'at' must be whole seconds")
    return t


def only(event, allowed):
    """Refuse fields this event type does not have in this game."""
    for key in event:
        if key not in allowed and key not in COMMON:
            refuse("bad_field", "a '%s' event has no field '%s' here" % (event["t"], key))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def player(event, key, required=True):
    value = event.get(key)
    if value is None and not required:
        return None
    if not _is_int(value) or value not in (0, 1):  # 1.0 == 1 and True == 1: exact type first
        refuse("bad_player", "'%s' must be player 0 or 1" % key)
    return value


def flag(event, key):
    value = event.get(key, False)
    if not isinstance(value, bool):
        refuse("bad_field", "'%s' must be true or false" % key)
    return value


def integer(event, key, low, high, default=None):
    value = event.get(key, default)
    if value is None:
        return None
    if not _is_int(value) or value < low or value > high:
        refuse("bad_field", "'%s' must be a whole number from %d to %d" % (key, low, high))
    return value


def text(event, key, required=True):
    value = event.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        refuse("bad_field", "'%s' must be a non-empty text" % key)
    return value


def one_of(event, key, allowed, default=None):
    value = event.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or value not in allowed:
        refuse("bad_field", "'%s' must be one of: %s" % (key, ", ".join(allowed)))
    return value


def balls(event, key, on_table):
    """A list of distinct ball numbers, each of which must be on the table."""
    value = event.get(key, [])
    if not isinstance(value, list):
        refuse("bad_field", "'%s' must be a list of ball numbers" % key)
    seen = []
    for ball in value:
        if not _is_int(ball):
            refuse("bad_field", "'%s' must be a list of ball numbers" % key)
        if ball in seen:
            refuse("bad_ball", "ball %d is listed twice in '%s'" % (ball, key))
        if ball not in on_table:
            refuse("bad_ball", "ball %d is not on the table" % ball)
        seen.append(ball)
    return seen


def pair_of_ints(event, key, low, high):
    value = event.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        refuse("bad_field", "'%s' must be a list of two numbers" % key)
    for item in value:
        if not _is_int(item) or item < low or item > high:
            refuse("bad_field", "'%s' values must be from %d to %d" % (key, low, high))
    return [value[0], value[1]]


def call(event, on_table):
    """The `call` fact: None, or (ball, pocket); the pocket is None when the panel records no
    pocket numbers (the referee then says only whether the ball fell elsewhere)."""
    value = event.get("call")
    if value is None:
        return None
    if not isinstance(value, dict) or [key for key in value if key not in ("ball", "pocket")]:
        refuse("bad_field", "'call' is {\"ball\": b, \"pocket\": 1-6}")
    ball = integer(value, "ball", 1, 15)
    if ball is None:
        refuse("bad_field", "a call names a ball")
    if ball not in on_table:
        refuse("bad_ball", "ball %d is not on the table" % ball)
    return (ball, integer(value, "pocket", 1, 6))
