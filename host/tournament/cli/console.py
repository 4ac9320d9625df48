"""What the director's commands share: running one against the store (its refusals printed on
stderr with exit code 2), the problems with the results (exit code 1), the current
tournament, and printing rows as an aligned table, CSV or JSON."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Callable, Sequence

from host.tournament.night.in_play import InPlay
from host.tournament.store import ImportRefused, Store, StoreError


def run(action: Callable[[argparse.Namespace, Store], int]):
    """Wrap a command: open the store, turn StoreError into a message and exit code 2."""

    def command(args: argparse.Namespace) -> int:
        name = " ".join(filter(None, (args.command, getattr(args, "action", None))))
        try:
            with Store.open(args.db) as store:
                return action(args, store)
        except ImportRefused as refused:
            source = getattr(args, "file", None) or getattr(args, "log", "the file")
            print("pilkku %s: %s refused, nothing was changed:" % (name, source),
                  file=sys.stderr)
            for problem in refused.problems:
                print("  " + problem, file=sys.stderr)
            return 2
        except StoreError as error:
            print("pilkku %s: %s" % (name, error.text), file=sys.stderr)
            return 2

    return command


def asking(args: argparse.Namespace, decide: Callable[[bool], int]) -> int:
    """Run `decide(confirm_in_play)`; a match being played at its table (night.in_play.InPlay)
    is asked about at a terminal, else refused naming --yes (exit 2). --yes: decided at once."""
    try:
        return decide(bool(getattr(args, "yes", False)))
    except InPlay as busy:
        if not sys.stdin.isatty():
            raise
        print(busy.question + " [y/N] ", end="", flush=True)
        if sys.stdin.readline().strip().lower() not in ("y", "yes", "k", "kyllä"):
            print("Nothing was changed.")
            return 1
        return decide(True)


def say_problems(problems: list[str], out=None) -> int:
    """Print the store's problems with its results (store.results.problems), one "FAILED:"
    line each; the exit code of a command that showed results: 1 when there are any."""
    for problem in problems:
        print("FAILED: " + problem, file=out or sys.stdout)
    return 1 if problems else 0


def current(args: argparse.Namespace, store: Store) -> dict:
    return store.tournaments.get(getattr(args, "tournament", None))


def render_table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Aligned text columns; numbers to the right."""
    cells = [[cell(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [bool(rows) and all(isinstance(row[i], int) or row[i] in (None, "")
                                  for row in rows) for i in range(len(columns))]
    lines = []
    for row in [list(columns)] + cells:
        parts = [v.rjust(w) if num else v.ljust(w)
                 for v, w, num in zip(row, widths, numeric, strict=True)]
        lines.append("  ".join(parts).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cell(value: object) -> str:
    return "" if value is None else str(value)


def emit(args: argparse.Namespace, columns: Sequence[str], rows: list[dict],
          document: object = None) -> None:
    """Rows as --json (`document`, or the rows), --csv, or a text table."""
    if getattr(args, "json", False):
        print(json.dumps(rows if document is None else document, indent=2,
                         ensure_ascii=False))
    elif getattr(args, "csv", False):
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else list(columns),
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        print(out.getvalue(), end="")
    else:
        print(render_table(columns, [[row[c] for c in columns] for row in rows]))
