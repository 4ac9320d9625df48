"""The hall: the tournament on the venue's screens. `pilkku hall` serves the pages (tables
live from the boards, standings and brackets, the schedule, results with match reports and
statistics, a TV page, a stream overlay per table) and writes them as static HTML; `pilkku
stats` prints the statistics. data.py reads the store, pages.py renders the Jinja2 templates in
templates/ (style and script in static/, nothing from the internet), app.py is the Starlette
server with its server-sent events, export.py the static copy, command.py the subcommands.

A view only: it may import host.tournament (the store and the formats), host.replay (the
referee's reading of a match log) and rules_core (statistics); not host.sync or host.board."""
