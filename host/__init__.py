"""The laptop side of pilkku: the `pilkku` command (host/cli.py) and its packages, one per
concern. Imports point one way: host → firmware → hardware, rules_core; nothing below imports
host. Inside host, `cli` imports the packages' `add_commands`; `bench` may import `board` and
`sync`; `sync` may import `board` and `tournament`; `replay`, `tournament` and `board` import no
other host package (see docs/architecture.md)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("pilkku")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
