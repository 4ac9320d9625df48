"""`pilkku people`: the people known across the store's tournaments (store/people.py): listed,
completed from what was typed, added, linked to a tournament's players, two spellings joined
(with a reason, kept: `pilkku people history`), a club or licence number set."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from host.i18n import N_, _, formats
from host.tournament.cli import console
from host.tournament.cli.console import current, emit, render_table, run
from host.tournament.store import Store, StoreError
from host.tournament.store.people import Ambiguous, shown_person

TEXT = {  # (N_: said in the CLI's language where used)
    "added": N_("#%(id)d %(name)s added"),
    "nothing": N_("every player of '%(tournament)s' is linked already"),
    "joined": N_("#%(joined)d joined into #%(kept)d (%(players)d tournament player(s) moved); "
                 "kept in `pilkku people history`"),
    "split": N_("#%(joined)d is a person of his own again, not #%(kept)d (%(players)d "
                "tournament player(s) moved back); kept in `pilkku people history`"),
    "pick_form": N_("--person takes NAME=#ID (e.g. 'Matti Virtanen=#3'), not '%(found)s'"),
    "none": N_("nobody yet"),
    "which": N_("'%(name)s' could be:"),
    "a_new": N_("a new person"),
    "ask": N_("Which (1-%(most)d, n; nothing: nothing is done)?"),
    "gave_up": N_("Nothing was changed."),
    "set": N_("#%(id)d %(name)s: club '%(club)s', licence number '%(licence)s'"),
}
LINKED = {"known": N_("%(player)s: the known person #%(person)d"),
          "new": N_("%(player)s: a new person #%(person)d"),
          "picked": N_("%(player)s: #%(person)d as picked")}
COLUMNS = ["id", "name", "club", "licence", "nights"]
# The season's columns as the text tables head them, in the CLI's language (--csv and --json
# keep these English keys); console.HEADINGS has the night's.
HEADINGS = frozenset((
    N_("id"), N_("licence"), N_("nights"), N_("at"), N_("kept"), N_("kept_name"),
    N_("joined"), N_("joined_name"), N_("undone"), N_("series"), N_("from"), N_("to"),
    N_("points"), N_("best"), N_("closed"), N_("carried"), N_("wins"), N_("version"),
    N_("amount"), N_("cents"),
))


def show(args: argparse.Namespace, columns: list[str], rows: list[dict]) -> None:
    """Rows as console.emit gives them (--json, --csv: English keys), the text table's
    headings in the CLI's language."""
    if getattr(args, "json", False) or getattr(args, "csv", False):
        emit(args, columns, rows)
        return
    print(render_table([_(c) if c in HEADINGS or c in console.HEADINGS else c for c in columns],
                       [[row[c] for c in columns] for row in rows]))


def add_commands(sub, common) -> None:
    parser = sub.add_parser(
        "people", parents=[common(False, outputs=True)],
        help=_("the people known across the tournaments (a series follows them)"),
        description=_("Each tournament's player is a person known across the store's "
                      "tournaments. A name is never merged silently: a name two people share "
                      "is asked about, and two spellings of one person are joined by the "
                      "director."))
    parser.set_defaults(func=run(people_list))
    actions = parser.add_subparsers(dest="action", metavar=_("ACTION"))
    actions.add_parser("list", parents=[common(False, outputs=True, nested=True)],
                       help=_("everyone, with the nights each played"))
    comp = actions.add_parser("complete", parents=[common(False, outputs=True, nested=True)],
                              help=_("the people whose name (or a word of it) starts so"))
    comp.add_argument("prefix", metavar=_("PREFIX"), help=_("what was typed, e.g. 'vir'"))
    comp.set_defaults(func=run(people_complete))
    add = actions.add_parser("add", parents=[common(False, nested=True)], help=_("a new person"))
    add.add_argument("name", metavar=_("NAME"))
    add.add_argument("--club", default="", help=_("the person's club"))
    add.add_argument("--licence", default="", help=_("the person's licence number"))
    add.add_argument("--new", action="store_true",
                     help=_("another person of a name someone has already"))
    add.set_defaults(func=run(people_add))
    put = actions.add_parser("set", parents=[common(False, nested=True)],
                             help=_("a person's club or licence number"))
    put.add_argument("who", metavar=_("WHO"), help=_("#ID, or a name only one person has"))
    put.add_argument("--club")
    put.add_argument("--licence")
    put.set_defaults(func=run(people_set))
    link = actions.add_parser(
        "link", parents=[common(True, nested=True)],
        help=_("link a tournament's players to the people they are"),
        description=_("A name one person has is that person; a name nobody has is a new "
                      "person; a name several people have is refused until you say which."))
    link.add_argument("--new", action="append", default=[], metavar=_("NAME"),
                      help=_("this player is a new person, though the name is known"))
    link.add_argument("--person", action="append", default=[], metavar=_("NAME=#ID"),
                      help=_("this player is that person"))
    link.set_defaults(func=run(people_link))
    join = actions.add_parser(
        "join", parents=[common(False, nested=True)],
        help=_("two spellings of one person made one (audited)"),
        description=_("KEPT stays; JOINED's tournaments become KEPT's. Kept with the reason in "
                      "`pilkku people history`. Two people who played the same tournament "
                      "are never joined."))
    join.add_argument("kept", metavar=_("KEPT"), help=_("#ID or name"))
    join.add_argument("joined", metavar=_("JOINED"), help=_("#ID or name"))
    join.add_argument("--reason", required=True, metavar=_("REASON"),
                       help=_("why they are one person"))
    join.set_defaults(func=run(people_join))
    split = actions.add_parser(
        "split", parents=[common(False, nested=True)], help=_("take a join back (audited)"),
        description=_("The players the join moved are the joined person's again; the join "
                      "stays in `pilkku people history`, marked undone with the reason."))
    split.add_argument("joined", metavar=_("JOINED"), help=_("the joined person's #ID"))
    split.add_argument("--reason", required=True, metavar=_("REASON"),
                       help=_("why they are two people after all"))
    split.set_defaults(func=run(people_split))
    hist = actions.add_parser("history", parents=[common(False, outputs=True, nested=True)],
                              help=_("every join, with its reason"))
    hist.set_defaults(func=run(people_history))


def people_list(args: argparse.Namespace, store: Store) -> int:
    rows = store.people.all()
    if not rows and not (args.json or args.csv):
        print(_(TEXT["none"]))
        return 0
    show(args, COLUMNS, rows)
    return 0


def people_complete(args: argparse.Namespace, store: Store) -> int:
    show(args, COLUMNS, store.people.complete(args.prefix))
    return 0


def people_add(args: argparse.Namespace, store: Store) -> int:
    person = store.people.add(args.name, args.club, args.licence, new=args.new)
    print(_(TEXT["added"]) % {"id": person, "name": args.name.strip()})
    return 0


def people_set(args: argparse.Namespace, store: Store) -> int:
    person = store.people.set_details(args.who, args.club, args.licence)
    print(_(TEXT["set"]) % person)
    return 0


def people_link(args: argparse.Namespace, store: Store) -> int:
    tournament = current(args, store)
    picks = person_picks(args)
    done = asking(lambda chosen, new: store.people.link_tournament(tournament["id"], new,
                                                                  chosen),
                  picks, [n.strip() for n in args.new])
    if done is None:
        return 1
    for row in done:
        print(_(LINKED[row["how"]]) % row)
    if not done:
        print(_(TEXT["nothing"]) % {"tournament": tournament["name"]})
    return 0


def person_picks(args: argparse.Namespace) -> dict[str, str]:
    """--person NAME=#ID as {name: '#ID'}."""
    picks = {}
    for pick in args.person:
        name, sep, who = pick.rpartition("=")
        if not sep or not name.strip() or not who.strip():
            raise StoreError(_(TEXT["pick_form"]) % {"found": pick[:60]})
        picks[name.strip()] = who.strip()
    return picks


def asking(decide: Callable[[dict[str, str], list[str]], list], picks: dict[str, str],
           new: list[str]) -> list | None:
    """`decide(picks, new)`; a name several people have is asked about at a terminal (which
    of them, or a new person) and decided again with the answer; without a terminal it is
    refused as it is (the refusal names --person and --new). None: the director gave up."""
    while True:
        try:
            return decide(dict(picks), list(new))
        except Ambiguous as unsure:
            if not sys.stdin.isatty():
                raise
            print(_(TEXT["which"]) % {"name": unsure.name})
            for number, person in enumerate(unsure.people, 1):
                print("  %d) %s" % (number, shown_person(person)))
            print("  n) %s" % _(TEXT["a_new"]))
            print(_(TEXT["ask"]) % {"most": len(unsure.people)}, end=" ", flush=True)
            answer = sys.stdin.readline().strip().lower()
            if answer == "n":
                new.append(unsure.name)
            elif answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(
                    unsure.people):
                picks[unsure.name] = "#%d" % unsure.people[int(answer) - 1]["id"]
            else:
                print(_(TEXT["gave_up"]))
                return None


def people_join(args: argparse.Namespace, store: Store) -> int:
    done = store.people.join(args.kept, args.joined, args.reason)
    print(_(TEXT["joined"]) % done)
    return 0


def people_split(args: argparse.Namespace, store: Store) -> int:
    done = store.people.split(args.joined, args.reason)
    print(_(TEXT["split"]) % done)
    return 0


def people_history(args: argparse.Namespace, store: Store) -> int:
    joins = store.people.joins()
    if not (getattr(args, "json", False) or getattr(args, "csv", False)):
        # The table in the laptop's local time, as the desk shows it; --csv and --json keep
        # the store's UTC stamps (data).
        joins = [dict(j, at=formats.stamp(j["at"]),
                      undone=formats.stamp(j["undone"]) if j["undone"] else "") for j in joins]
    show(args, ["at", "kept", "kept_name", "joined", "joined_name", "reason", "undone"], joins)
    return 0
