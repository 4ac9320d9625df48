"""A match's statistics, read from its log by the rules engine: the log is replayed event by
event (rules_core.matchlog.steps) and each player's figures are taken from the states the rules
made, never typed in and never scored a second time. Laptop only: every module of rules_core
is board code, loaded into the board's 64 KB heap, and the board never needs these; they stay
plain (ints, no dict order relied on) all the same.

    of_match(doc) -> {"game", "players", "winner", "duration_s", "per_player": [two dicts]}
    KEYS: the per-player figures, in the order tables show them
    add(total, figures) -> total          sums one match's figures into a player's total

Per player:
  innings       the player's innings (turns at the table), as the rules count them
  score         racks (8/9-ball) or points (14.1, Kaisa; may be negative)
  high_run      8/9-ball: most racks won in a row; 14.1 and Kaisa: most points in one inning
  avg_x100      score per inning, times 100 (an int; 1.25 is 125)
  break_and_runs, break_wins   8/9-ball: racks run out from the break / won on the break
                (None in games without them)
  fouls         fouls the rules counted
  safeties      shots entered as a safety
  extensions    shot-clock extensions used: None, the match log does not record them
  duration_s    from the first to the last event's board time, else from the log's meta
                started/ended (None without times)
"""

from rules_core import matchlog

KEYS = ("innings", "score", "high_run", "avg_x100", "break_and_runs", "break_wins", "fouls",
        "safeties", "extensions")
_POOL = ("8ball", "9ball")


def of_match(doc):
    """Figures of a finished or unfinished log; matchlog.BadLog if it does not replay."""
    match = None
    game = None
    runs = [0, 0]
    best = [0, 0]
    safeties = [0, 0]
    first_at = None
    last_at = None
    for match, before, event in matchlog.steps(doc):
        state = match.state
        if event is None:
            game = state.game
            continue
        at = event.get("at")
        if isinstance(at, int):
            first_at = at if first_at is None else first_at
            last_at = at
        shooter = before.shooter
        if event.get("safety") is True and shooter is not None:
            safeties[shooter] += 1
        if game in _POOL:
            _rack_runs(before, state, runs, best)
        else:
            _point_runs(before, state, shooter, runs, best)
    if match is None:  # steps() always yields the settings first; this keeps mypy sure
        raise matchlog.BadLog("an empty log")
    state = match.state
    per_player = []
    for p in (0, 1):
        per_player.append(_figures(state, p, best[p], safeties[p]))
    duration = None
    if first_at is not None and last_at is not None:
        duration = last_at - first_at
    else:  # the board's clock times the match in its meta when events carry no times
        meta = doc.get("meta") or {}
        started, ended = meta.get("started"), meta.get("ended")
        if isinstance(started, int) and isinstance(ended, int) and ended >= started:
            duration = ended - started
    return {"game": game, "players": list(state.players), "winner": state.winner,
            "finished": bool(state.finished), "duration_s": duration,
            "per_player": per_player}


def _rack_runs(before, state, runs, best):
    """A rack won extends its winner's run of racks and ends the opponent's."""
    for p in (0, 1):
        if state.score[p] > before.score[p]:
            runs[p] += state.score[p] - before.score[p]
            runs[1 - p] = 0
            if runs[p] > best[p]:
                best[p] = runs[p]


def _point_runs(before, state, shooter, runs, best):
    """Points gained while the same player stays at the table make one run; a turn passed or
    a penalty ends it."""
    if shooter is None:
        return
    gained = state.score[shooter] - before.score[shooter]
    if gained > 0:
        runs[shooter] += gained
        if runs[shooter] > best[shooter]:
            best[shooter] = runs[shooter]
    elif gained < 0:
        runs[shooter] = 0
    if state.shooter != shooter:
        runs[shooter] = 0


def _figures(state, p, high_run, safeties):
    counted = state.stats[p] if state.stats else {}
    innings = counted.get("innings", 0)
    score = state.score[p]
    pool = state.game in _POOL
    return {
        "innings": innings,
        "score": score,
        "high_run": high_run,
        "avg_x100": per_inning(score, innings),
        "break_and_runs": counted.get("break_and_runs", 0) if pool else None,
        "break_wins": counted.get("break_wins", 0) if pool else None,
        "fouls": counted.get("fouls", 0),
        "safeties": safeties,
        "extensions": None,
    }


def per_inning(score, innings):
    """Score per inning times 100, cut toward zero (so -17 in 6 is -283, as -2.83 reads)."""
    if innings <= 0:
        return 0
    value = abs(score) * 100 // innings
    return -value if score < 0 else value


def add(total, figures):
    """A player's tournament total: counts summed, the high run the best, the average
    recomputed from the summed score and innings."""
    for key in KEYS:
        value = figures.get(key)
        if key == "avg_x100" or value is None:
            continue
        if key == "high_run":
            total[key] = max(total.get(key) or 0, value)
        else:
            total[key] = (total.get(key) or 0) + value
    innings = total.get("innings") or 0
    total["avg_x100"] = per_inning(total.get("score") or 0, innings)
    for key in KEYS:
        if key not in total:
            total[key] = None
    return total
