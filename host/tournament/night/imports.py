"""What the director imports, checked before anything is written: player names and match rows
from CSV files (each bad line named), as the store takes them."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from host.tournament.store.schema import ImportRefused, StoreError
from host.tournament.store.text import shown

MATCH_COLUMNS = (("id", "player1", "player2"), ("round", "table"))
CODE_MAX = 20
WHOLE_MAX = 9999  # a round or table number


def check_match_row(row: dict, ids: dict, codes: set, pairs: set) -> tuple[str | None, dict]:
    """One imported match checked against the players, the ids and pairings seen so far (which
    it joins when good). Returns (problem, match ready to insert)."""
    code = row["id"]
    if not code:
        return "a match needs an id", {}
    if len(code) > CODE_MAX:
        return "match id '%s' is longer than %d characters" % (shown(code), CODE_MAX), {}
    if code in codes:
        return "match id '%s' is used twice" % code, {}
    unknown = [n for n in (row["player1"], row["player2"]) if n not in ids]
    if unknown:
        return ("unknown player '%s' (import players first: `pilkku players import`)"
                % shown(unknown[0]), {})
    if row["player1"] == row["player2"]:
        return "'%s' cannot play themself" % row["player1"], {}
    round_, problem = _whole(row.get("round"), "round")
    table, problem2 = _whole(row.get("table"), "table")
    if problem or problem2:
        return problem or problem2, {}
    pair = pair_key(ids[row["player1"]], ids[row["player2"]], round_)
    if pair in pairs:
        return ("duplicate match: %s vs %s is listed already%s" % (
            row["player1"], row["player2"], " in round %d" % round_ if round_ else ""), {})
    codes.add(code)
    pairs.add(pair)
    return None, {"code": code, "round": round_, "table": table,
                  "player1": ids[row["player1"]], "player2": ids[row["player2"]]}


def _whole(text: str | None, what: str) -> tuple[int | None, str | None]:
    """An optional whole number of 1 or more from a CSV cell."""
    if text is None or text == "":
        return None, None
    # isdigit() alone takes "²" and any length; SQLite takes nothing past 2**63.
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(WHOLE_MAX))) \
            or not 1 <= int(text) <= WHOLE_MAX:
        return None, "%s must be a whole number from 1 to %d (found '%s')" % (what, WHOLE_MAX,
                                                                             text[:20])
    return int(text), None


def pair_key(a, b, round_) -> tuple:
    """Two players meeting in a round, whichever is listed first."""
    return (min(a, b), max(a, b), round_)


def read_csv(path: str, spec: tuple[tuple[str, ...], tuple[str, ...]]) -> list[tuple[int, dict]]:
    """(line, {column: text}) for each data row, the header checked against `spec`
    (required, optional columns). ImportRefused names the line of any malformed row."""
    required, optional = spec
    text = read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    problems, rows = [], []
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        problem = header_problem(header, required, optional)
        if problem:
            raise ImportRefused(["line 1: " + problem])
        for record in reader:
            if not any(cell.strip() for cell in record):
                continue  # blank lines are no rows
            if len(record) != len(header):
                problems.append("line %d: %d fields, the header has %d (%s)"
                                % (reader.line_num, len(record), len(header), ",".join(header)))
                continue
            cells = zip(header, record, strict=True)
            rows.append((reader.line_num, {h: c.strip() for h, c in cells}))
    except csv.Error as error:
        problems.append("line %d: not valid CSV (%s)" % (reader.line_num, error))
    if not rows and not problems:
        problems.append("line 2: no rows after the header")
    if problems:
        raise ImportRefused(problems)
    return rows


def read_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise StoreError("cannot read %s: %s" % (path, error.strerror)) from None
    try:
        return data.decode("utf-8-sig")  # spreadsheets often save a BOM first
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ImportRefused(["line %d: not UTF-8 text (save the file as CSV UTF-8)" % line]
                            ) from None


def header_problem(header: list[str], required: tuple, optional: tuple) -> str | None:
    expected = ",".join(required) + "".join("[,%s]" % o for o in optional)
    if not header:
        return "the file is empty; its first line must be the header %s" % expected
    missing = [c for c in required if c not in header]
    unknown = [c for c in header if c not in required + optional]
    if missing or unknown or len(set(header)) != len(header):
        return "the header must be %s (found %s)" % (expected, ",".join(header))
    return None
