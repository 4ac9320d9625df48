"""The club's season (docs/season.md): what joins a store's nights.

    points      a series' point table (checked; the store keeps its versions)
    nights      a tournament as a series sees it: its final ranking and its games, by person
    table       a series' table from its nights (the club secretary's rules)
    series      the series' operations: new, add nights, table at a date, close, points
    prize       a tournament's prize money: the pot, the shares, the places paid, rounding
    post        the invitation and the results as plain text to paste
    page        the hall's /series.html

The people across nights are the store's (host/tournament/store/people.py); the night's
ranking is night/ranking.py's final_ranking, never repeated here.
"""
