"""The director's desk: the night run from a browser (`pilkku desk`), with its printouts."""
