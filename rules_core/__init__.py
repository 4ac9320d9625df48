"""pilkku's rules engine: the four games, the match log and its records.

Pure domain code: no I/O, no clock, no imports outside this package. It runs unchanged under
CPython and MicroPython. Start with `rules_core.match.Match`.
"""
