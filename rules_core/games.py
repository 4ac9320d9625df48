"""The games the engine keeps, by the name used in match settings.

A game's module is imported only when a match of that game is made: on the board its
bytecode then costs heap only for the game being played.
"""

GAMES = {
    "9ball": "rules_core.nineball",
    "8ball": "rules_core.eightball",
    "kaisa": "rules_core.kaisa",
    "14.1": "rules_core.straight",
}

_loaded = {}  # type: dict


def get(name):
    if not isinstance(name, str) or name not in GAMES:
        return None
    module = _loaded.get(name)
    if module is None:
        module = __import__(GAMES[name], None, None, ["NAME"])
        _loaded[name] = module
    return module


def loaded(name):
    """True if the game's module is imported already (its heap spent)."""
    return name in _loaded
