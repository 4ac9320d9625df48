"""`pilkku people`: the people known across the store's tournaments (store/people.py): listed,
completed from what was typed, added, linked to a tournament's players, two spellings joined
(with a reason, kept: `pilkku people history`), a club or licence number set."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from host.tournament.cli.console import current, emit, run
from host.tournament.store import Store, StoreError
from host.tournament.store.people import Ambiguous, shown_person

TEXT = {
    "help": "the people known across the tournaments (a series follows them)",
    "description": "Each tournament's player is a person known across the store's "
                   "tournaments. A name is never merged silently: a name two people share is "
                   "asked about, and two spellings of one person are joined by the director.",
    "added": "#%d %s added",
    "nothing": "every player of '%s' is linked already",
    "joined": "#%d joined into #%d (%d tournament player(s) moved); kept in `pilkku people "
              "history`",
    "split": "#%d is a person of his own again, not #%d (%d tournament player(s) moved back); "
             "kept in `pilkku people history`",
    "pick_form": "--person takes NAME=#ID (e.g. 'Matti Virtanen=#3'), not '%s'",
    "none": "nobody yet",
    "which": "'%s' could be:",
    "choice": "  %d) %s",
    "a_new": "  n) a new person",
    "ask": "Which (1-%d, n; nothing: nothing is done)? ",
    "gave_up": "Nothing was changed.",
}
LINKED = {"known": "%s: the known person #%d", "new": "%s: a new person #%d",
          "picked": "%s: #%d as picked"}
COLUMNS = ["id", "name", "club", "licence", "nights"]


def add_commands(sub, common) -> None:
    parser = sub.add_parser("people", parents=[common(False, outputs=True)], help=TEXT["help"],
                            description=TEXT["description"])
    parser.set_defaults(func=run(people_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.add_parser("list", parents=[common(False, outputs=True, nested=True)],
                       help="everyone, with the nights each played")
    comp = actions.add_parser("complete", parents=[common(False, outputs=True, nested=True)],
                              help="the people whose name (or a word of it) starts so")
    comp.add_argument("prefix", help="what was typed, e.g. 'vir'")
    comp.set_defaults(func=run(people_complete))
    add = actions.add_parser("add", parents=[common(False, nested=True)], help="a new person")
    add.add_argument("name")
    add.add_argument("--club", default="", help="the person's club")
    add.add_argument("--licence", default="", help="the person's licence number")
    add.add_argument("--new", action="store_true",
                     help="another person of a name someone has already")
    add.set_defaults(func=run(people_add))
    put = actions.add_parser("set", parents=[common(False, nested=True)],
                             help="a person's club or licence number")
    put.add_argument("who", help="#ID, or a name only one person has")
    put.add_argument("--club")
    put.add_argument("--licence")
    put.set_defaults(func=run(people_set))
    link = actions.add_parser(
        "link", parents=[common(True, nested=True)],
        help="link a tournament's players to the people they are",
        description="A name one person has is that person; a name nobody has is a new person; "
                    "a name several people have is refused until you say which.")
    link.add_argument("--new", action="append", default=[], metavar="NAME",
                      help="this player is a new person, though the name is known")
    link.add_argument("--person", action="append", default=[], metavar="NAME=#ID",
                      help="this player is that person")
    link.set_defaults(func=run(people_link))
    join = actions.add_parser(
        "join", parents=[common(False, nested=True)],
        help="two spellings of one person made one (audited)",
        description="KEPT stays; JOINED's tournaments become KEPT's. Kept with the reason in "
                    "`pilkku people history`. Two people who played the same tournament are "
                    "never joined.")
    join.add_argument("kept", help="#ID or name")
    join.add_argument("joined", help="#ID or name")
    join.add_argument("--reason", required=True, help="why they are one person")
    join.set_defaults(func=run(people_join))
    split = actions.add_parser(
        "split", parents=[common(False, nested=True)], help="take a join back (audited)",
        description="The players the join moved are the joined person's again; the join "
                    "stays in `pilkku people history`, marked undone with the reason.")
    split.add_argument("joined", help="the joined person's #ID")
    split.add_argument("--reason", required=True, help="why they are two people after all")
    split.set_defaults(func=run(people_split))
    hist = actions.add_parser("history", parents=[common(False, outputs=True, nested=True)],
                              help="every join, with its reason")
    hist.set_defaults(func=run(people_history))


def people_list(args: argparse.Namespace, store: Store) -> int:
    rows = store.people.all()
    if not rows and not (args.json or args.csv):
        print(TEXT["none"])
        return 0
    emit(args, COLUMNS, rows)
    return 0


def people_complete(args: argparse.Namespace, store: Store) -> int:
    emit(args, COLUMNS, store.people.complete(args.prefix))
    return 0


def people_add(args: argparse.Namespace, store: Store) -> int:
    person = store.people.add(args.name, args.club, args.licence, new=args.new)
    print(TEXT["added"] % (person, args.name.strip()))
    return 0


def people_set(args: argparse.Namespace, store: Store) -> int:
    person = store.people.set_details(args.who, args.club, args.licence)
    print(", ".join("%s: %s" % (k, person[k]) for k in ("id", "name", "club", "licence")))
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
        print(LINKED[row["how"]] % (row["player"], row["person"]))
    if not done:
        print(TEXT["nothing"] % tournament["name"])
    return 0


def person_picks(args: argparse.Namespace) -> dict[str, str]:
    """--person NAME=#ID as {name: '#ID'}."""
    picks = {}
    for pick in args.person:
        name, sep, who = pick.rpartition("=")
        if not sep or not name.strip() or not who.strip():
            raise StoreError(TEXT["pick_form"] % pick[:60])
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
            print(TEXT["which"] % unsure.name)
            for number, person in enumerate(unsure.people, 1):
                print(TEXT["choice"] % (number, shown_person(person)))
            print(TEXT["a_new"])
            print(TEXT["ask"] % len(unsure.people), end="", flush=True)
            answer = sys.stdin.readline().strip().lower()
            if answer == "n":
                new.append(unsure.name)
            elif answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(
                    unsure.people):
                picks[unsure.name] = "#%d" % unsure.people[int(answer) - 1]["id"]
            else:
                print(TEXT["gave_up"])
                return None


def people_join(args: argparse.Namespace, store: Store) -> int:
    done = store.people.join(args.kept, args.joined, args.reason)
    print(TEXT["joined"] % (done["joined"], done["kept"], done["players"]))
    return 0


def people_split(args: argparse.Namespace, store: Store) -> int:
    done = store.people.split(args.joined, args.reason)
    print(TEXT["split"] % (done["joined"], done["kept"], done["players"]))
    return 0


def people_history(args: argparse.Namespace, store: Store) -> int:
    emit(args, ["at", "kept", "kept_name", "joined", "joined_name", "reason", "undone"],
         store.people.joins())
    return 0
