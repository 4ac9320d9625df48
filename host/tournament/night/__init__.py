"""The director's operations: everything a director does to a night, as one layer that the
CLI (host/tournament/cli/) and the director's desk call the same way. Each operation is one
transaction over the store (host/tournament/store/), takes what a person typed or a board sent
(already parsed), applies the rules of the format (host/tournament/formats/), and says what
changed or why it was refused (StoreError: its text says what to do). No rule lives in an
argument parser or a web handler.

    setup        new_tournament, plan_format, import_players, import_matches, draw_round_robin,
                 draw_bracket, draw_opening, set_tables
    tables       assign, assign_free_tables, start_next, unassign, remove_table, release_table
    results      record_result (a board's signed log through sync, or a log file)
    corrections  correct (correction_plan: what it changes, night/consequences.py), walkover,
                 withdraw, rename_player
    hand         record_hand (a score typed in), no_winner (void, both lose)
    in_play      whether a match is being played at its table (InPlay: ask first)
    scores       a typed score read and checked against the game
    engine       engine_of (a drawn format's engine rebuilt from the store)
    follow       what follows any decided match (the draw, withdrawals' walkovers, tables)
    imports, players_file   the director's files read and checked before anything is written
"""

from host.tournament.night.corrections import (
    correct,
    correction_plan,
    rename_player,
    walkover,
    withdraw,
)
from host.tournament.night.engine import engine_of
from host.tournament.night.hand import no_winner, record_hand
from host.tournament.night.results import record_result
from host.tournament.night.setup import (
    draw_bracket,
    draw_opening,
    draw_round_robin,
    import_matches,
    import_players,
    new_tournament,
    plan_format,
    set_tables,
)
from host.tournament.night.tables import (
    assign,
    assign_free_tables,
    fill_tables,
    release_table,
    remove_table,
    start_next,
    unassign,
)

__all__ = ["assign", "assign_free_tables", "correct", "correction_plan", "draw_bracket",
           "draw_opening",
           "draw_round_robin", "engine_of", "fill_tables", "import_matches", "import_players",
           "new_tournament", "no_winner", "plan_format", "record_hand", "record_result",
           "release_table", "remove_table", "rename_player", "set_tables", "start_next",
           "unassign", "walkover", "withdraw"]
