"""The tournament store's SQLite schema, as the migrations that make it (store/schema.py's
migrate applies them).

Schema (version in `schema_version`, one row per applied migration; MIGRATIONS run in order
on open, each in its own transaction):
  v1  tournaments(id, name, game, race_to, rules JSON, format, pairing_key, created)
      players(id, tournament_id, seed, name, club)
      tables(tournament_id, number)
      matches(id, tournament_id, code, round, seq, player1_id, player2_id, table_number,
              queued, winner_id, score1, score2, next_match_id, next_slot)
      results(id, match_id, document BLOB, board_id, hmac, started, ended, received)
  v2  boards(board_id, tournament_id, table_number, last_seen); index on the table queues
  v3  results(... kind, reason, replaced_by): several per match, one current; former_names;
      players.withdrawn, tables.removed, boards.firmware
  v4  board_links(board_id, n, tournament_id, prev, mac, document, match_code, received):
      every signed result a board delivered, as a chain (docs/security.md); results.chain_n
  v5  tournaments rebuilt: format also 'double', 'groups', 'hakukaavio'; format_options JSON
  v6  live(board_id, tournament_id, table_number, state JSON, answered_ms, changed_ms,
           silent): each board's last confirmed live state, written by `pilkku sync --watch`
  v7  damaged_results(id, tournament_id, board_id, seq, data, digest, received, named,
           match_code, readable JSON, settled_match, settled_result): a board's result that
           came damaged, its bytes kept as they came (host/tournament/store/damaged.py)
  v8  (no table) a Kaisa match's stored score made its recorded score (60 for the winner)
  v9  results.kind also 'hand' (a score the director typed in from a paper sheet), 'void' and
      'both_lose'; matches.outcome: NULL (a winner decides it, or it is open), 'void' (it
      does not count: no winner, no loser, out of the draw) or 'both_lose' (both lost it)
  v10 people(id, name, club, licence, created, joined_into): a person known across the
      store's tournaments; players.person_id links a tournament's player to one;
      people_joins(id, kept, joined, name, reason, at, players JSON): the director's joins of
      two spellings, kept as the audit trail; the ranking series (host/season/):
      point_tables(name, version, points JSON, created), series(id, name, game, date_from,
      date_to, points_name, points_version, best_of, tie_break JSON, carry JSON, created,
      closed, frozen JSON), series_nights(series_id, tournament_id, played);
      people_joins.undone, undo_reason: a join the director took back (pilkku people split);
      prizes(tournament_id, settings JSON, printed, saved): a tournament's prize money as the
      director set it, and whether its final ranking's printout shows it
  revision(id = 1, n): the store's revision, one number every write moves on (not a
      migration: see ensure_revision)
A match is finished when it has a winner or an outcome; its table stays recorded (where it
was played).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from rules_core import bounded, matchlog

V1 = """
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied TEXT NOT NULL);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    race_to INTEGER NOT NULL,
    rules TEXT NOT NULL,                -- canonical JSON: the ruleset options, resolved
    format TEXT CHECK (format IN ('list', 'round_robin', 'bracket')),  -- NULL: no matches yet
    pairing_key BLOB NOT NULL,
    created TEXT NOT NULL);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    seed INTEGER NOT NULL,              -- import order: the bracket seeds by it
    name TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    UNIQUE (tournament_id, name));
CREATE TABLE tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL CHECK (number >= 1),
    PRIMARY KEY (tournament_id, number));
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    code TEXT NOT NULL,                 -- the match id the director, sync and the board use
    round INTEGER,
    seq INTEGER NOT NULL,               -- order of play: the next waiting match is the lowest
    player1_id INTEGER REFERENCES players(id),  -- NULL: waits for an earlier bracket match
    player2_id INTEGER REFERENCES players(id),
    table_number INTEGER,
    queued INTEGER,                     -- order in the table's queue
    winner_id INTEGER REFERENCES players(id),   -- set: finished
    score1 INTEGER,
    score2 INTEGER,
    next_match_id INTEGER REFERENCES matches(id),  -- bracket: where the winner goes
    next_slot INTEGER CHECK (next_slot IN (1, 2)),
    UNIQUE (tournament_id, code),
    FOREIGN KEY (tournament_id, table_number) REFERENCES tables(tournament_id, number));
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL UNIQUE REFERENCES matches(id),
    document BLOB NOT NULL,             -- the match log, byte for byte as the board sent it
    board_id TEXT NOT NULL,
    hmac TEXT,                          -- hex HMAC-SHA256 of document; NULL: entered unsigned
    started,
    ended,
    received TEXT NOT NULL);
"""

V2 = """
CREATE TABLE boards (
    board_id TEXT PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments(id),
    table_number INTEGER,
    last_seen TEXT NOT NULL);
CREATE INDEX matches_by_table ON matches (tournament_id, table_number, queued);
"""

# v3: the director's corrections. A match may have several results, one current (replaced_by
# NULL) and the ones it replaced kept for `pilkku results --history`; a result is a board's log,
# one entered by hand, or the director's (a correction, a walkover), each signed. Players may
# withdraw and be renamed (their former names still match the logs boards hold); tables may be
# removed (kept for the matches played on them); boards report their firmware.
V3 = """
CREATE TABLE results_v3 (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    document BLOB NOT NULL,
    board_id TEXT NOT NULL,
    hmac TEXT,
    started,
    ended,
    received TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'board'
        CHECK (kind IN ('board', 'manual', 'correction', 'walkover')),
    reason TEXT NOT NULL DEFAULT '',
    replaced_by INTEGER);               -- the result that replaced this one; NULL: current
INSERT INTO results_v3 (id, match_id, document, board_id, hmac, started, ended, received, kind)
    SELECT id, match_id, document, board_id, hmac, started, ended, received,
           CASE WHEN hmac IS NULL THEN 'manual' ELSE 'board' END FROM results;
DROP TABLE results;
ALTER TABLE results_v3 RENAME TO results;
CREATE UNIQUE INDEX results_current ON results (match_id) WHERE replaced_by IS NULL;
CREATE TABLE former_names (
    player_id INTEGER NOT NULL REFERENCES players(id),
    name TEXT NOT NULL,
    until TEXT NOT NULL);
ALTER TABLE players ADD COLUMN withdrawn TEXT;
ALTER TABLE tables ADD COLUMN removed TEXT;
ALTER TABLE boards ADD COLUMN firmware TEXT;
"""

V4 = """
CREATE TABLE board_links (
    board_id TEXT NOT NULL,
    n INTEGER NOT NULL CHECK (n >= 1),  -- the link's number in the board's chain
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),  -- whose key signed it
    prev TEXT NOT NULL,                 -- the MAC of link n - 1 ('' for the board's first)
    mac TEXT NOT NULL,                  -- HMAC-SHA256 over board, n, prev and the document
    document BLOB NOT NULL,             -- the match log, byte for byte as the board sent it
    match_code TEXT,                    -- NULL: a free game, kept as a file beside the store
    received TEXT NOT NULL,
    PRIMARY KEY (board_id, n));
ALTER TABLE results ADD COLUMN chain_n INTEGER;  -- its link in board_links (NULL: protocol 1)
"""

# The formats clubs run (docs/formats.md): the format CHECK widened (a table rebuild, with the
# foreign keys off around it, see migrate) and the format's options kept as JSON.
V5 = """
CREATE TABLE tournaments_v5 (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    race_to INTEGER NOT NULL,
    rules TEXT NOT NULL,
    format TEXT CHECK (format IN ('list', 'round_robin', 'bracket', 'double', 'groups',
                                  'hakukaavio')),  -- NULL: no matches yet
    pairing_key BLOB NOT NULL,
    created TEXT NOT NULL,
    format_options TEXT NOT NULL DEFAULT '{}');  -- {"format": planned, options, numbers}
INSERT INTO tournaments_v5 (id, name, game, race_to, rules, format, pairing_key, created)
    SELECT id, name, game, race_to, rules, format, pairing_key, created FROM tournaments;
DROP TABLE tournaments;
ALTER TABLE tournaments_v5 RENAME TO tournaments;
"""

V6 = """
CREATE TABLE live (
    board_id TEXT PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments(id),
    table_number INTEGER,
    state TEXT,                         -- canonical JSON of the board's checked live reply;
                                        -- NULL: no match on the board
    answered_ms INTEGER NOT NULL,       -- laptop time (ms since 1970) of the last answer
    changed_ms INTEGER NOT NULL,        -- ... of the last change of state, table or silence
    silent INTEGER NOT NULL DEFAULT 0); -- 1: the board stopped answering
"""

# A result a board set aside as damaged (docs/journal.md): its file's bytes, kept once, and
# what its good records say; the director settles it by entering its match (pilkku correct).
V7 = """
CREATE TABLE damaged_results (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),  -- the one synced
    board_id TEXT NOT NULL,
    seq INTEGER NOT NULL,               -- the board's number for the result
    data BLOB NOT NULL,                 -- the journal file, byte for byte as the board sent it
    digest TEXT NOT NULL,               -- SHA-256 of data, hex: the same bytes are kept once
    received TEXT NOT NULL,
    named TEXT NOT NULL CHECK (named IN ('match', 'free', 'unreadable')),  -- its first record
    match_code TEXT,                    -- the match it says it is (named 'match')
    readable TEXT NOT NULL,             -- canonical JSON: what its good records say
    settled_match TEXT,                 -- the match the director entered in its place
    settled_result INTEGER REFERENCES results(id),  -- ... and that entry
    UNIQUE (board_id, seq, digest));
"""



def v8_recorded_kaisa_scores(conn: sqlite3.Connection) -> None:
    """v8: a Kaisa match's score is its recorded score (the winner's 60, the loser's at most
    60: the seed's §3, rules_core/kaisa.py `winner_recorded`), not the points played past it
    (66 stood in the standings before). The stored scores of logs taken before are made the
    recorded ones; the points played stay in the log, its report and the statistics."""
    rows = conn.execute(
        "SELECT m.id, m.score1, m.score2, r.document FROM matches m JOIN results r ON "
        "r.match_id = m.id AND r.replaced_by IS NULL JOIN tournaments t ON t.id = "
        "m.tournament_id WHERE t.game = 'kaisa' AND m.winner_id IS NOT NULL").fetchall()
    for match_id, score1, score2, document in rows:
        try:
            state = matchlog.loads(bytes(document).decode("utf-8")).state
        except (matchlog.BadLog, UnicodeDecodeError, bounded.Malformed, ValueError):
            continue  # a director's entry, or a log that no longer replays: as it was
        played, recorded = list(state.score), getattr(state, "result", None)
        if not recorded or list(recorded) == played:
            continue
        if [score1, score2] == played:
            conn.execute("UPDATE matches SET score1 = ?, score2 = ? WHERE id = ?",
                         (recorded[0], recorded[1], match_id))
        elif [score2, score1] == played:
            conn.execute("UPDATE matches SET score1 = ?, score2 = ? WHERE id = ?",
                         (recorded[1], recorded[0], match_id))


# v9: the director's other outcomes. The results' kind CHECK widened (a table rebuild: a
# damaged result's settling entry refers to results, so foreign keys are off around it).
V9 = """
CREATE TABLE results_v9 (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    document BLOB NOT NULL,
    board_id TEXT NOT NULL,
    hmac TEXT,
    started,
    ended,
    received TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'board'
        CHECK (kind IN ('board', 'manual', 'correction', 'walkover', 'hand', 'void',
                        'both_lose')),
    reason TEXT NOT NULL DEFAULT '',
    replaced_by INTEGER,
    chain_n INTEGER);
INSERT INTO results_v9 SELECT id, match_id, document, board_id, hmac, started, ended, received,
    kind, reason, replaced_by, chain_n FROM results;
DROP TABLE results;
ALTER TABLE results_v9 RENAME TO results;
CREATE UNIQUE INDEX results_current ON results (match_id) WHERE replaced_by IS NULL;
ALTER TABLE matches ADD COLUMN outcome TEXT CHECK (outcome IN ('void', 'both_lose'));
"""

# v10: the club's season (docs/season.md). A person is whom a tournament's player is; the
# director joins two spellings of one person (people_joins keeps each join with its reason and
# the players it moved). A point table is kept in versions: a series holds the version it
# counts by, so a later change moves only the open series to it. A closed series keeps its
# table as it stood (frozen). A tournament's prize money as the director saved it
# (host/season/prize.py) is kept in prizes.
V10 = """
CREATE TABLE people (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    licence TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL,
    joined_into INTEGER REFERENCES people(id));  -- set: joined into that person (not listed)
CREATE INDEX people_by_name ON people (name);
ALTER TABLE players ADD COLUMN person_id INTEGER REFERENCES people(id);
CREATE TABLE people_joins (
    id INTEGER PRIMARY KEY,
    kept INTEGER NOT NULL REFERENCES people(id),
    joined INTEGER NOT NULL REFERENCES people(id),
    name TEXT NOT NULL,                 -- the joined person's name as it was
    reason TEXT NOT NULL,
    at TEXT NOT NULL,
    players TEXT NOT NULL,              -- JSON: the player ids moved to the kept person
    undone TEXT,                        -- set: the director took the join back (when)
    undo_reason TEXT);
CREATE TABLE point_tables (
    name TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    points TEXT NOT NULL,               -- canonical JSON (host/season/points.py)
    created TEXT NOT NULL,
    PRIMARY KEY (name, version));
CREATE TABLE series (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    date_from TEXT,                     -- ISO dates; NULL: open-ended
    date_to TEXT,
    points_name TEXT NOT NULL,
    points_version INTEGER NOT NULL,
    best_of INTEGER CHECK (best_of IS NULL OR best_of >= 1),  -- NULL: every night counts
    tie_break TEXT NOT NULL,            -- JSON list of keys
    carry TEXT NOT NULL DEFAULT '{}',   -- JSON: {"from": series id, "points": [...]}
    created TEXT NOT NULL,
    closed TEXT,                        -- set: closed, its table frozen
    frozen TEXT,                        -- JSON: the table as it stood when closed
    FOREIGN KEY (points_name, points_version) REFERENCES point_tables(name, version));
CREATE TABLE series_nights (
    series_id INTEGER NOT NULL REFERENCES series(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    played TEXT NOT NULL,               -- the night's date (ISO)
    PRIMARY KEY (series_id, tournament_id));
CREATE TABLE prizes (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
    settings TEXT NOT NULL,             -- JSON: fee, players, shares, places paid, rounding
    printed INTEGER NOT NULL DEFAULT 0, -- 1: on the final ranking's printout
    saved TEXT NOT NULL);
"""

Step = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[tuple[int, str | Step]] = [(1, V1), (2, V2), (3, V3), (4, V4), (5, V5),
                                            (6, V6), (7, V7), (8, v8_recorded_kaisa_scores),
                                            (9, V9), (10, V10)]
REBUILDS = {5, 9}  # steps that drop a table others refer to: foreign keys off, checked after
