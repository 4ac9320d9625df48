"""A firmware with a bug planted, for the watchdog's tests (the virtual board's and the
emulated Pico's): main.py as `pilkku flash` installs it, but the D key spins for ever."""

from __future__ import annotations

from pathlib import Path

WEDGED_MAIN = b"""from firmware import app as _app

_key = _app.App.key


def _key_or_wedge(self, name, gesture, now):
    if name == "D":
        while True:  # the bug: the loop never comes back
            pass
    _key(self, name, gesture, now)


_app.App.key = _key_or_wedge
""" + (Path(__file__).parents[1] / "firmware" / "main.py").read_bytes()
