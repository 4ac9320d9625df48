"""The laptop's side of the sync protocol (rules_core/sync_protocol.py): a session with one
board over its serial port (session.py), pulling a result in pieces (pieces.py), every
result of a board pulled, stored and acknowledged, damaged ones apart (collect.py), checking
every reply (replies.py), pairing a board with the tournament's key (pair.py),
and `pilkku sync` / `pilkku pair` (commands.py), where the store meets the boards. May import
host.board (ports, the mpremote adapter), host.tournament (the store) and rules_core."""
