"""The few things that differ between MicroPython and CPython, defined once for hardware/.

``const`` is MicroPython's compile-time constant marker (the identity on CPython), and
``ticks_diff``/``ticks_add`` do millisecond arithmetic that survives the wrap of the board's
millisecond counter (plain subtraction/addition on CPython, whose callers pass
never-wrapping integers). Its types for mypy are in compat.pyi.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(value: int) -> int:
        return value


try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython

    def ticks_diff(end: int, start: int) -> int:
        return end - start

    def ticks_add(base: int, delta: int) -> int:
        return base + delta


def due(now: int, deadline: int) -> bool:
    """True once ``now`` has reached ``deadline`` (both ms, wrap-safe on the board)."""
    return ticks_diff(now, deadline) >= 0
