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

from host.i18n import N_, _, pgettext
from host.tournament.night.in_play import InPlay
from host.tournament.store import ImportRefused, Store, StoreError

# The answers a terminal's question takes as yes, in every language pilkku speaks.
YES = ("y", "yes", "k", "kyllä", "j", "ja")
# The text tables' headings (the columns' English names, which --csv and --json keep).
HEADINGS = frozenset((
    N_("seed"), N_("name"), N_("club"), N_("match"), N_("round"), N_("player1"),
    N_("player2"), N_("table"), N_("status"), N_("score"), N_("winner"), N_("board"),
    N_("check"), N_("place"), N_("player"), N_("played"), N_("won"), N_("lost"), N_("for"),
    N_("against"), N_("difference"), N_("diff"), N_("out"), N_("withdrawn"), N_("result"),
    N_("kind"), N_("reason"), N_("rank"), N_("now"), N_("then"), N_("tournament"),
    N_("game"), N_("race"), N_("format"), N_("players"), N_("matches"), N_("created"),
    N_("racks for"), N_("points for"),
))


def run(action: Callable[[argparse.Namespace, Store], int]):
    """Wrap a command: open the store, turn StoreError into a message and exit code 2."""

    def command(args: argparse.Namespace) -> int:
        name = " ".join(filter(None, (args.command, getattr(args, "action", None))))
        try:
            with Store.open(args.db) as store:
                return action(args, store)
        except ImportRefused as refused:
            source = getattr(args, "file", None) or getattr(args, "log", None) or _("the file")
            print(_("pilkku %(command)s: %(file)s refused, nothing was changed:")
                  % {"command": name, "file": source}, file=sys.stderr)
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
        print(busy.question + " " + _("[y/N]") + " ", end="", flush=True)
        if sys.stdin.readline().strip().lower() not in YES:
            print(_("Nothing was changed."))
            return 1
        return decide(True)


def say_problems(problems: list[str], out=None) -> int:
    """Print the store's problems with its results (store.results.problems), one "FAILED:"
    line each; the exit code of a command that showed results: 1 when there are any."""
    for problem in problems:
        print(_("FAILED: %(problem)s") % {"problem": problem}, file=out or sys.stdout)
    return 1 if problems else 0


def current(args: argparse.Namespace, store: Store) -> dict:
    return store.tournaments.get(getattr(args, "tournament", None))


def render_table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Aligned text columns; numbers to the right. A column's heading is said in the CLI's
    language when it is one of HEADINGS (the keys of --csv and --json stay English)."""
    columns = [heading(c) for c in columns]
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


def heading(column: str) -> str:
    """A column's heading in the CLI's language (one of HEADINGS; any other as it is)."""
    return _(column) if column in HEADINGS else column


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


def check_word(verified: bool | None) -> str:
    """A result's check as the text table says it (--csv and --json: ok, FAILED, unsigned)."""
    return {True: pgettext("check", "ok"), False: pgettext("check", "FAILED"),
            None: pgettext("check", "unsigned")}[verified]


def board_word(board: str | None) -> str | None:
    """Where a result came from, as a text table says it: a board's id, or the director."""
    return {"director": pgettext("board", "director"),
            "manual": pgettext("board", "manual")}.get(board or "", board)


def score_words(code: str, match: dict) -> dict:
    """A decided match's placeholders: match, player1, score1, score2, player2, winner."""
    return {"match": code, "player1": match["player1"], "score1": match["score1"],
            "score2": match["score2"], "player2": match["player2"], "winner": match["winner"]}
