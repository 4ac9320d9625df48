"""The director's subcommands on the command line: each parses what was typed, calls the
director's operations (host/tournament/night/) or reads the store, and prints (a table, CSV or
JSON); refusals go to stderr with exit code 2. No rule lives here."""
