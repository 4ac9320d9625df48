"""Ruleset options: each game names its options and the values allowed, the first the default.

Every point the rules leave open ([choice] and [gap] in RULES.md) is an option here rather than
a branch hidden in code, so a club or a tournament can pick its reading in the match settings.
"""

from rules_core.refusal import refuse


class Shape:
    """Stands among an option's allowed values for "any value of this type" (a club's point
    table, say); the game checks such a value itself when the match starts."""

    def __init__(self, kind, what):
        self.kind = kind
        self.what = what

    def __str__(self):
        return self.what


def _allowed(allowed, value):
    for choice in allowed:
        if isinstance(choice, Shape):
            if isinstance(value, choice.kind):
                return True
        elif choice == value and type(value) is type(choice):  # no 1.0 for 1, True for 1
            return True
    return False


def resolve(spec, given):
    """The options in force: defaults from `spec`, overridden by `given` (checked)."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        refuse("bad_rules", "'rules' must be an object of option names and values")
    rules = {}
    for name in spec:
        rules[name] = spec[name][0]
    for name in given:
        if name not in spec:
            refuse("bad_rules", "unknown ruleset option '%s' (known: %s)"
                   % (name, ", ".join(sorted(spec))))
        value = given[name]
        if not _allowed(spec[name], value):
            refuse("bad_rules", "option '%s' must be one of %s"
                   % (name, ", ".join([str(v) for v in spec[name]])))
        rules[name] = value
    return rules
