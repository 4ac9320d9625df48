"""The laptop side of pilkku: the `pilkku` command (replay now; flash, sync, the virtual board
and benchmarks as they land)."""
