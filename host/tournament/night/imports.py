"""What the director imports, checked before anything is written: player names and match rows
from CSV files (each bad line named), as the store takes them."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from host.errors import os_reason
from host.i18n import _
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
        return _("a match needs an id"), {}
    if len(code) > CODE_MAX:
        return _("match id '%(id)s' is longer than %(max)d characters") % {
            "id": shown(code), "max": CODE_MAX}, {}
    if code in codes:
        return _("match id '%(id)s' is used twice") % {"id": code}, {}
    unknown = [n for n in (row["player1"], row["player2"]) if n not in ids]
    if unknown:
        return (_("unknown player '%(name)s' (import players first: `pilkku players import`)")
                % {"name": shown(unknown[0])}, {})
    if row["player1"] == row["player2"]:
        return _("'%(name)s' cannot play themself") % {"name": row["player1"]}, {}
    round_, problem = _whole(row.get("round"), "round")
    table, problem2 = _whole(row.get("table"), "table")
    if problem or problem2:
        return problem or problem2, {}
    pair = pair_key(ids[row["player1"]], ids[row["player2"]], round_)
    if pair in pairs:
        said = (_("duplicate match: %(player1)s vs %(player2)s is listed already in round "
                  "%(round)d") if round_ else
                _("duplicate match: %(player1)s vs %(player2)s is listed already"))
        return said % {"player1": row["player1"], "player2": row["player2"],
                       "round": round_ or 0}, {}
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
        return None, _("%(column)s must be a whole number from 1 to %(max)d (found "
                       "'%(found)s')") % {"column": what, "max": WHOLE_MAX, "found": text[:20]}
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
            raise ImportRefused([_("line %(line)d: %(problem)s") % {"line": 1,
                                                                   "problem": problem}])
        for record in reader:
            if not any(cell.strip() for cell in record):
                continue  # blank lines are no rows
            if len(record) != len(header):
                problems.append(_("line %(line)d: %(fields)d fields, the header has %(width)d "
                                  "(%(header)s)") % {
                    "line": reader.line_num, "fields": len(record), "width": len(header),
                    "header": ",".join(header)})
                continue
            cells = zip(header, record, strict=True)
            rows.append((reader.line_num, {h: c.strip() for h, c in cells}))
    except csv.Error as error:
        problems.append(_("line %(line)d: not valid CSV (%(error)s)") % {
            "line": reader.line_num, "error": error})
    if not rows and not problems:
        problems.append(_("line %(line)d: no rows after the header") % {"line": 2})
    if problems:
        raise ImportRefused(problems)
    return rows


def read_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise StoreError(_("cannot read %(file)s: %(error)s") % {
            "file": path, "error": os_reason(error)}) from None
    try:
        return data.decode("utf-8-sig")  # spreadsheets often save a BOM first
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ImportRefused([_("line %(line)d: not UTF-8 text (save the file as CSV UTF-8)")
                             % {"line": line}]) from None


def header_problem(header: list[str], required: tuple, optional: tuple) -> str | None:
    expected = ",".join(required) + "".join("[,%s]" % o for o in optional)
    if not header:
        return _("the file is empty; its first line must be the header %(header)s") % {
            "header": expected}
    missing = [c for c in required if c not in header]
    unknown = [c for c in header if c not in required + optional]
    if missing or unknown or len(set(header)) != len(header):
        return _("the header must be %(header)s (found %(found)s)") % {
            "header": expected, "found": ",".join(header)}
    return None
