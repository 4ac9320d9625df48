"""The director's desk: the night run from a browser (issue 28). `pilkku desk` (command.py)
serves the hall's pages and the desk from one server and keeps the boards in sync in the same
process. The desk's pages (app.py) read posted forms (forms.py) guarded against other sites
and stale pages (guard.py, versions.py), call the director's operations (actions.py ->
host.tournament.night) and show the night (views.py, templates/). No rule lives here."""
