"""The tournament on the director's laptop: formats (who meets whom, free of storage), the
SQLite store (schema and migrations in schema.py, the connection in db.py, queries in store.py
with tables.py and results.py; results that came damaged in damaged.py; the boards' live
states in live.py), the statistics of a match log (stats.py), CSV imports, and the director's
subcommands (commands.py, cmd_prepare.py, cmd_results.py, console.py). May import rules_core,
the board's record format (firmware/journal_records.py: damaged.py reads a damaged result's
file with it, the one definition) and host's shared modules (arguments, errors, games); no
other host package."""
