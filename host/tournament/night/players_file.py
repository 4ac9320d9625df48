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
SEPARATOR_NAMES = {";": "';'", "\t": "tabs", ",": "','"}
MAX_BYTES = 1 << 20  # a club's list is a few KB; a megabyte is something else


def read_players(path: str) -> tuple[list[tuple[int, str, str]], str]:
    """(line, name, club) for every player in the file, and how the file was read."""
    text, encoding = _decode(_read(path))
    lines = text.splitlines()
    separator = _separator(lines)
    records = _records(text, separator)
    if not records:
        raise ImportRefused(["line 1: the file has no names in it"])
    columns, first = _columns(records[0][1])
    unused: list[str] = []
    width = len(records[0][1])
    if columns is None:
        columns, header = _bare(records), "no header: a list of names"
        width = 2
    else:
        cells = [c.strip() for c in records[0][1]]
        header = "header %s" % separator.join(cells)
        unused = [c for i, c in enumerate(cells) if c and i not in columns.values()]
        records = records[1:]
        if first:
            header += " (first name and surname joined)"
    rows, problems = _rows(records, columns, width)
    if problems:
        raise ImportRefused(problems)
    if not rows:
        raise ImportRefused(["line 2: no names after the header"])
    how = "read as %s, %s, %s" % (encoding, "separated by %s" % SEPARATOR_NAMES[separator]
                                  if separator in text else "one column", header)
    return rows, how + ("" if not unused else "; not used: " + ", ".join(unused))


def _read(path: str) -> bytes:
    try:
        with open(Path(path), "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as error:
        raise StoreError("cannot read %s: %s" % (path, error.strerror)) from None
    if len(data) > MAX_BYTES:
        raise ImportRefused(["the file is over %d KB: is it the players list?"
                             % (MAX_BYTES >> 10)])
    return data


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            raise ImportRefused(["line 1: the file says UTF-16 but is not: save it again as "
                                 "CSV"]) from None
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        pass
    # Windows-1252 leaves five bytes undefined; a file with them is not a Windows text file.
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ImportRefused(["line %d: neither UTF-8 nor Windows-1252 text: save the file as "
                             "CSV UTF-8" % line]) from None


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
        raise ImportRefused(["line %d: not valid CSV (%s)" % (reader.line_num, error)]
                            ) from None
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
        raise ImportRefused(["line 1: %d columns and no header naming the name column: put "
                             "a first line such as nimi;seura (or name,club)" % width])
    return {"name": 0, "club": 1} if width == 2 else {"name": 0}


def _rows(records: list[tuple[int, list[str]]], columns: dict[str, int], width: int
          ) -> tuple[list[tuple[int, str, str]], list[str]]:
    rows, problems = [], []
    for line, record in records:
        if any(cell.strip() for cell in record[width:]):
            problems.append("line %d: %d fields, the header has %d" % (line, len(record), width))
            continue
        name = _cell(record, columns, "name") or " ".join(
            p for p in (_cell(record, columns, "first"), _cell(record, columns, "last")) if p)
        if not name:
            problems.append("line %d: a player needs a name (found %s)"
                            % (line, shown(",".join(record))))
            continue
        # Runs of spaces are a typing slip; a tab or another control character is refused
        # by the store, naming it (imports.name_problem).
        rows.append((line, " ".join(p for p in name.split(" ") if p), _cell(record, columns,
                                                                             "club")))
    return rows, problems


def _cell(record: list[str], columns: dict[str, int], column: str) -> str:
    index = columns.get(column)
    return record[index].strip() if index is not None and index < len(record) else ""
