"""The games the engine keeps, by the name used in match settings."""

from rules_core import eightball, nineball

GAMES = {
    nineball.NAME: nineball,
    eightball.NAME: eightball,
}


def get(name):
    return GAMES.get(name)
