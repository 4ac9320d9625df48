"""`pilkku replay`: a match log read back as a referee reads it. One renderer per game family
(pool.py for 8- and 9-ball, straight.py for 14.1, kaisa.py), the words they share (words.py),
and the subcommand that picks one (command.py). May import rules_core and
host.games (the games' names) only."""
