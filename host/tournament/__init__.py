"""The tournament on the director's laptop, in four layers, imports pointing down only:

    cli/      the director's subcommands: parse, call, print (no rules)
    night/    the director's operations: everything a director does to a night, one
              transaction each, the format's rules applied (the desk calls these too)
    store/    the SQLite store, composed of its parts (tournaments, players, matches,
              tables, boards, results, chains, damaged results, live states); keeps, decides
              nothing
    formats/  who meets whom: the draws and their engines, free of storage

and stats.py, the figures of a match log (replayed by rules_core). May import rules_core, the
board's record format (firmware/journal_records.py: store/damaged.py reads a damaged result's
file with it, the one definition) and host's shared modules (arguments, errors, games); no
other host package."""
