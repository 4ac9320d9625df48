"""The players file as clubs have it: what Excel, LibreOffice or a text editor saved, in
Finnish, Swedish or English. Read before anything is written, and said back to the director:
which encoding, which separator, which columns, so a wrong guess is seen at once.

    rows, how = read_players(path)   # rows: [(line, name, club)], how: one line for the director

Taken: UTF-8 (with or without the BOM spreadsheets write first), UTF-16 with its BOM (Excel's
"Unicode text"), and otherwise Windows-1252 (what Finnish Excel saves as plain "CSV");
separated by `;` (Finnish Excel: the comma is the decimal mark), `,` or a tab; a header naming
the columns in English, Finnish or Swedish, a first-name and a surname column joined, or no
header at all: a bare list of names, one a line (a second column is then the club).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from host.errors import os_reason
from host.i18n import _
from host.tournament.store.schema import ImportRefused, StoreError
from host.tournament.store.text import shown

# What a header cell may say, by the column it names (lower case, spaces and dots dropped).
HEADERS = {
    "name": ("name", "names", "player", "players", "nimi", "pelaaja", "pelaajat", "namn",
             "spelare", "fullname", "kokonimi"),
    "club": ("club", "seura", "klubi", "förening", "forening", "klubb", "team"),
    "first": ("firstname", "first", "etunimi", "förnamn", "fornamn"),
    "last": ("lastname", "surname", "last", "sukunimi", "efternamn"),
}
SEPARATORS = (";", "\t", ",")
MAX_BYTES = 1 << 20  # a club's list is a few KB; a megabyte is something else


def read_players(path: str) -> tuple[list[tuple[int, str, str]], str]:
    """(line, name, club) for every player in the file, and how the file was read."""
    text, encoding = _decode(_read(path))
    lines = text.splitlines()
    separator = _separator(lines)
    records = _records(text, separator)
    if not records:
        raise ImportRefused([_("line %(line)d: the file has no names in it") % {"line": 1}])
    columns, first = _columns(records[0][1])
    unused: list[str] = []
    width = len(records[0][1])
    if columns is None:
        columns, header = _bare(records), _("no header: a list of names")
        width = 2
    else:
        cells = [c.strip() for c in records[0][1]]
        header = _("header %(header)s") % {"header": separator.join(cells)}
        unused = [c for i, c in enumerate(cells) if c and i not in columns.values()]
        records = records[1:]
        if first:
            header += " " + _("(first name and surname joined)")
    rows, problems = _rows(records, columns, width)
    if problems:
        raise ImportRefused(problems)
    if not rows:
        raise ImportRefused([_("line %(line)d: no names after the header") % {"line": 2}])
    how = _("read as %(encoding)s, %(separator)s, %(header)s") % {
        "encoding": encoding, "header": header,
        "separator": _("separated by %(separator)s") % {"separator": _separated(separator)}
        if separator in text else _("one column")}
    if unused:
        how += "; " + _("not used: %(columns)s") % {"columns": ", ".join(unused)}
    return rows, how


def _separated(separator: str) -> str:
    return _("tabs") if separator == "\t" else "'%s'" % separator


def _read(path: str) -> bytes:
    try:
        with open(Path(path), "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as error:
        raise StoreError(_("cannot read %(file)s: %(error)s") % {
            "file": path, "error": os_reason(error)}) from None
    if len(data) > MAX_BYTES:
        raise ImportRefused([_("the file is over %(size)d KB: is it the players list?")
                             % {"size": MAX_BYTES >> 10}])
    return data


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            raise ImportRefused([_("line %(line)d: the file says UTF-16 but is not: save it "
                                   "again as CSV") % {"line": 1}]) from None
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        pass
    # Windows-1252 leaves five bytes undefined; a file with them is not a Windows text file.
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ImportRefused([_("line %(line)d: neither UTF-8 nor Windows-1252 text: save the "
                               "file as CSV UTF-8") % {"line": line}]) from None


def _separator(lines: list[str]) -> str:
    """The separator most lines have the same number of (Finnish Excel's ';' first)."""
    sample = [line for line in lines[:50] if line.strip()]
    best, best_score = ";", 0
    for sep in SEPARATORS:
        counts = [line.count(sep) for line in sample]
        if not counts or not counts[0]:
            continue
        score = sum(1 for c in counts if c == counts[0])
        if score > best_score:
            best, best_score = sep, score
    return best


def _records(text: str, separator: str) -> list[tuple[int, list[str]]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    records = []
    try:
        for record in reader:
            if any(cell.strip() for cell in record):
                records.append((reader.line_num, record))
    except csv.Error as error:
        raise ImportRefused([_("line %(line)d: not valid CSV (%(error)s)") % {
            "line": reader.line_num, "error": error}]) from None
    return records


def _key(cell: str) -> str:
    return cell.strip().lower().replace(" ", "").replace(".", "").replace("_", "")


def _columns(cells: list[str]) -> tuple[dict[str, int] | None, bool]:
    """{column: index} when the first row is a header (it names a name column), else None;
    and whether the name is a first name and a surname."""
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        for column, words in HEADERS.items():
            if _key(cell) in words and column not in found:
                found[column] = index
    if "name" not in found:  # "Pelaajan nimi", "Player name", "Spelarens namn"
        for index, cell in enumerate(cells):
            key = _key(cell)
            if index not in found.values() and any(w in key for w in ("nimi", "name", "namn")):
                found["name"] = index
                break
    if "name" in found:
        return found, False
    if "first" in found and "last" in found:
        return found, True
    return None, False


def _bare(records: list[tuple[int, list[str]]]) -> dict[str, int]:
    width = max(len(r) for _, r in records)
    if width > 2:
        raise ImportRefused([_("line %(line)d: %(width)d columns and no header naming the "
                               "name column: put a first line such as nimi;seura (or "
                               "name,club)") % {"line": 1, "width": width}])
    return {"name": 0, "club": 1} if width == 2 else {"name": 0}


def _rows(records: list[tuple[int, list[str]]], columns: dict[str, int], width: int
          ) -> tuple[list[tuple[int, str, str]], list[str]]:
    rows, problems = [], []
    for line, record in records:
        if any(cell.strip() for cell in record[width:]):
            problems.append(_("line %(line)d: %(fields)d fields, the header has %(width)d") % {
                "line": line, "fields": len(record), "width": width})
            continue
        name = _cell(record, columns, "name") or " ".join(
            p for p in (_cell(record, columns, "first"), _cell(record, columns, "last")) if p)
        if not name:
            problems.append(_("line %(line)d: a player needs a name (found %(found)s)") % {
                "line": line, "found": shown(",".join(record))})
            continue
        # Runs of spaces are a typing slip; a tab or another control character is refused
        # by the store, naming it (imports.name_problem).
        rows.append((line, " ".join(p for p in name.split(" ") if p), _cell(record, columns,
                                                                             "club")))
    return rows, problems


def _cell(record: list[str], columns: dict[str, int], column: str) -> str:
    index = columns.get(column)
    return record[index].strip() if index is not None and index < len(record) else ""
