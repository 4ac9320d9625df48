"""Ruleset options: each game names its options and the values allowed, the first the default.

Every point the rules leave open ([choice] and [gap] in RULES.md) is an option here rather than
a branch hidden in code, so a club or a tournament can pick its reading in the match settings.
"""

from rules_core.refusal import refuse


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
        if value not in spec[name] or isinstance(value, bool) != isinstance(spec[name][0], bool):
            refuse("bad_rules", "option '%s' must be one of %s"
                   % (name, ", ".join([str(v) for v in spec[name]])))
        rules[name] = value
    return rules
