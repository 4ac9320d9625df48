"""No tracebacks: every `pilkku` subcommand, found by walking the parser (so a new subcommand is
covered by itself), is called with bad arguments and files: missing, a folder, binary, truncated,
not UTF-8, empty, huge numbers, floats where whole numbers belong, a store that is no store, a
port that is no port, an unknown option. Each must exit 2 with a short message that starts with
`pilkku` and no traceback; the store given must not change."""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import shutil
import sqlite3
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from host import cli
from host.arguments import minutes
from host.board import registry
from tests.host.test_tournament_cli import log_text

# What each argument (by its dest) stands for, and the value a well-formed call gives it.
FILES = {"log", "file", "script"}       # files pilkku reads
FOLDERS = {"dir"}                        # a board's folder
PORTS = {"port"}                         # a serial port
BAD_WHOLE = ["1.5", "2e3", "99999999999999999999999", "-3", "0", "x", "", "٣"]
BAD_TEXT = ["Be\x1bn", "x" * 5000, "\udcff\udcfe"]  # a control character; long; not UTF-8
GOOD = {"name": "Cup", "game": "9ball", "race": "2", "match": "R1-01", "table": "1",
        "count": "2", "winner": "Anna", "reason": "late", "player": "Anna", "old": "Anna",
        "new": "Anne", "score": "2:1", "board": "manual", "action": "start", "dir": "no-board-here"}


def leaves(parser: argparse.ArgumentParser, path: tuple = ()) -> list:
    """(command words, parser) for every subcommand that runs something."""
    found = []
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if path and parser.get_default("func") is not None:
        found.append((path, parser))
    for action in subs:
        seen = set()
        for name, child in action.choices.items():
            if id(child) not in seen:
                seen.add(id(child))
                found += leaves(child, path + (name,))
    return found


def arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not isinstance(
        a, (argparse._HelpAction, argparse._SubParsersAction, argparse._VersionAction))]


class Files:
    """Bad files of every kind, and good ones, made once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(exist_ok=True)
        self.good_log = self.write("good.json", log_text(["Anna", "Dan"], [2, 1]))
        self.good_csv = self.write("good.csv", "name\nEve\n")
        good = Path(self.good_log).read_bytes()
        self.bad = {
            "missing": str(folder / "no-such-file"),
            "a folder": str(folder),
            "binary": self.write("binary.bin", bytes(range(256)) * 64),
            "truncated": self.write("truncated.json", good[: len(good) // 2]),
            "not UTF-8": self.write("latin1.csv", "name\nÄijälä\n".encode("latin-1")),
            "empty": self.write("empty.txt", b""),
            "floats": self.write("floats.json", good.replace(b'"race_to":2', b'"race_to":2.0')),
        }

    def write(self, name: str, data: str | bytes) -> str:
        path = self.folder / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return str(path)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("matrix")
    files = Files(root / "files")
    db = root / "good.db"
    players = files.write("players.csv", "name\nAnna\nBen\nCid\nDan\n")
    for args in (["tournament", "new", "Cup", "--game", "9ball", "--race", "2"],
                 ["players", "import", players], ["matches", "generate", "--round-robin"],
                 ["tables", "2"], ["assign", "--auto"], ["record", "R1-01", files.good_log]):
        with redirect_stdout(io.StringIO()):
            assert cli.main(args + ["--db", str(db)]) == 0, args
    truncated = root / "truncated.db"
    data = db.read_bytes()
    truncated.write_bytes(data[: len(data) // 3])
    stores = {"a folder": str(root / "files"), "binary": files.bad["binary"],
              "truncated": str(truncated), "in a missing folder": str(root / "nope" / "x.db"),
              "text": files.bad["not UTF-8"]}
    return root, files, db, stores


def good_call(words: tuple, parser: argparse.ArgumentParser, files: Files) -> list[str]:
    """The command with its required arguments given well-formed values."""
    argv = list(words)
    for action in arguments(parser):
        if not action.required and action.option_strings:
            continue
        if action.dest in ("db", "tournament") or action.nargs == "?":
            continue
        value = good_value(action, files)
        argv += ([action.option_strings[0]] if action.option_strings else []) + [value]
    return argv


def good_value(action: argparse.Action, files: Files) -> str:
    if action.dest in ("log", "script"):
        return files.good_log
    if action.dest == "file":
        return files.good_csv
    value = GOOD.get(action.dest, "x")
    if action.choices and value not in action.choices:
        value = sorted(action.choices)[0]
    return value


def replaced(argv: list[str], files: Files, action: argparse.Action, value: str) -> list[str]:
    argv = list(argv)
    if action.option_strings:
        flag = action.option_strings[0]
        if flag in argv:
            argv[argv.index(flag) + 1] = value
        else:
            argv += [flag, value]
        return argv
    good = good_value(action, files)
    if action.nargs == "?" or good not in argv:
        return argv + [value]
    argv[argv.index(good)] = value
    return argv


def calls(made) -> list:
    root, files, _db, stores = made
    matrix = []
    for words, parser in leaves(cli.build_parser()):
        base = good_call(words, parser, files)
        start = len(matrix)
        matrix.append((base + ["--no-such-option"], "an unknown option"))
        if any(a.required for a in arguments(parser)):
            matrix.append((list(words), "nothing given"))
        for action in arguments(parser):
            if action.nargs == 0:
                continue
            if action.dest in FILES:
                matrix += [(replaced(base, files, action, path), "%s %s" % (action.dest, kind))
                           for kind, path in files.bad.items()]
            elif action.dest in FOLDERS:
                matrix += [(replaced(base, files, action, files.bad[kind]), "dir: " + kind)
                           for kind in ("binary", "empty")]
            elif action.dest in PORTS:
                matrix += [(replaced(base, files, action, files.bad[kind]), "port: " + kind)
                           for kind in ("missing", "a folder", "binary")]
            elif action.dest == "db":
                matrix += [(base + ["--db", path], "store: " + kind)
                           for kind, path in stores.items()]
            elif action.type in (float, minutes):  # numbers that may have a fraction
                matrix += [(replaced(base, files, action, value), "%s %r" % (action.dest, value))
                           for value in ("x", "", "1,5", "١")]
            elif action.type is not None and action.type is not str:
                matrix += [(replaced(base, files, action, value), "%s %r" % (action.dest, value))
                           for value in BAD_WHOLE]
            elif action.dest in ("score",):
                matrix += [(replaced(base, files, action, value), "score %r" % value)
                           for value in ("2.0:1", "99999999999:0", "2v-1v", "")]
            elif action.dest in ("name", "new", "player", "winner", "match", "tournament"):
                matrix += [(replaced(base, files, action, value),
                            "%s %r" % (action.dest, value[:8])) for value in BAD_TEXT]
        assert all(argv[:len(words)] == list(words) for argv, _ in matrix[start:])
    return matrix


def run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1  # as Python exits
            if not isinstance(done.code, int):
                print(done.code, file=sys.stderr)
    return code, err.getvalue() + out.getvalue()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_matrix_covers_every_subcommand(made):
    matrix = calls(made)
    for words, _parser in leaves(cli.build_parser()):
        assert sum(argv[:len(words)] == list(words) for argv, _ in matrix) >= 1, words
    assert len(matrix) > 200


def test_no_bad_call_gets_a_traceback(made, tmp_path, monkeypatch):
    root, _files, good_db, _stores = made
    # `pilkku sync` without --port looks for this machine's virtual boards: none of them here.
    monkeypatch.setattr(registry, "VIRTUAL_BOARDS", tmp_path / "no-boards")
    failures = []
    for argv, what in calls(made):
        db = tmp_path / "store.db"
        shutil.copyfile(good_db, db)
        if "--db" not in argv:
            argv = ["--db", str(db)] + argv  # before the command: every command takes it there
        before = digest(db)
        try:
            code, text = run(argv)
        except Exception as error:  # noqa: BLE001 (this is what the test is looking for)
            failures.append("%s (%s): %s: %s" % (" ".join(argv[2:5]), what,
                                                 type(error).__name__, error))
            continue
        lines = text.strip().splitlines()
        problem = None
        if code != 2:
            problem = "exit %s" % code
        elif not lines or not lines[0].startswith("pilkku"):
            problem = "no message starting with pilkku: %r" % text[:200]
        elif "Traceback" in text or "internal error" in text:
            problem = "a traceback: %r" % text[-300:]
        elif len(lines) > 6 or any(len(line) > 400 for line in lines):
            problem = "a long message: %r" % text[:300]
        elif digest(db) != before:
            problem = "the store changed"
        if problem:
            failures.append("%s (%s): %s" % (" ".join(a[-20:] for a in argv[2:6]), what,
                                             problem))
    assert not failures, "\n".join(f[:300] for f in failures[:60]) + "\n%d failures" % len(
        failures)


def test_a_store_that_is_no_store_is_left_as_it_was(made):
    _root, _files, _db, stores = made
    for kind in ("binary", "truncated", "text"):
        path = Path(stores[kind])
        before = digest(path)
        code, text = run(["standings", "--db", str(path)])
        assert code == 2 and "not a pilkku store" in text and digest(path) == before, kind
    assert not os.path.exists(stores["in a missing folder"])
    sqlite3.connect(":memory:").close()
