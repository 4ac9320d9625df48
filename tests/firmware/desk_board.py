"""The desk board for the firmware's tests: host/bench/pico_twin.py (the emulated Pico's
bench compares against it too), under the name the tests import."""

from host.bench.pico_twin import DeskBoard

__all__ = ["DeskBoard"]
