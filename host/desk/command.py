"""`pilkku desk`: the night from one command. One server on --host:--port serves the hall's
pages and the director's desk (host/desk/app.py), and a thread of the same process keeps the
boards in sync as `pilkku sync --watch` does (host/sync/watch.py's Watcher, with its door for
a one-shot `pilkku sync` or `pilkku pair`). It prints the hall's link and the director's (a
token made at each start: a restarted desk prints a new one). Everything is in the store, so
stopped and started again it goes on where it was."""

from __future__ import annotations

import argparse
import socket
import sys
import threading

from host.arguments import listen_options, store_options
from host.hall.command import listen_reason
from host.i18n import N_, _
from host.tournament.store import Store, StoreError


def cmd_desk(args: argparse.Namespace) -> int:
    from host.hall import data

    try:
        with Store.open(args.db) as store:
            # A new store (no tournament yet, none named): the desk opens on its setup page.
            t = data.tournament(store, args.tournament) \
                if args.tournament or store.tournaments.all() else {"name": None}
    except StoreError as error:
        print("pilkku desk: %s" % error.text, file=sys.stderr)
        return 2
    try:  # uvicorn would log a bind error and exit; say it plainly instead
        listening = socket.create_server((args.host, args.port))
    except OSError as error:
        print("pilkku desk: " + _("cannot listen on %(host)s:%(port)d: %(reason)s (give another "
                                  "--port or --host)") % {
                                      "host": args.host, "port": args.port,
                                      "reason": listen_reason(error)}, file=sys.stderr)
        return 2
    with listening:
        return serve(args.db, t["name"], args.host, listening, args.tournament)


def serve(db: str | None, name: str | None, host: str, listening: socket.socket,
          follow: str | None) -> int:
    """The server on the `listening` socket (bound and listening before the links are
    printed: a browser opening one at once waits in its backlog, never meets a refusal) and
    the watcher, until Ctrl-C (or SIGTERM): both stopped cleanly."""
    from host.desk import boards_view
    from host.desk.app import make
    from host.hall.app import Hall, server
    from host.sync import door
    from host.sync.watch import Watcher

    port = listening.getsockname()[1]
    # The laptop's firmware versions (the boards page marks a board with another) known now,
    # from the sources' hashes (no compiling: a few ms), not at the page's first look.
    boards_view.laptop_versions()
    hall = Hall(db, follow)
    watcher = Watcher(db, follow, None, None, 1.0,
                      say=lambda text: print(_("sync: %(line)s") % {"line": text}, flush=True))
    running = server(hall, host, port, make(hall, watcher))  # its boards page acts through it
    entrance = door.Door(db, watcher.handle)
    try:
        entrance.open()
    except (door.DoorError, OSError) as error:
        print("pilkku desk: %s" % error, file=sys.stderr)
        return 2
    syncing = threading.Thread(target=_watch, args=(watcher,), name="desk-sync", daemon=True)
    syncing.start()
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print((_("the desk of '%(tournament)s'") % {"tournament": name} if name else
           _("the desk (no tournament yet: set one up at the director's link)")) + "\n" +
          _("  the hall:     http://%(host)s:%(port)d/\n  the director: "
            "http://%(host)s:%(port)d/desk/director?token=%(token)s   (keep it to yourself; a "
            "new token at each start)\nthe boards are kept in sync here (no pilkku sync "
            "--watch needed); stop with Ctrl-C") % {"host": shown, "port": port,
                                                    "token": hall.token}, flush=True)
    try:
        running.run(sockets=[listening])
    finally:
        watcher.stop.set()
        syncing.join(timeout=15)
        entrance.close()
    print(_("the desk stopped"), flush=True)
    return 0


def _watch(watcher) -> None:
    """The watcher's loop; its errors said, never a traceback. On a new store it begins
    when the desk's setup has made the first tournament."""
    try:
        while not watcher.stop.is_set():
            with Store.open(watcher.db) as store:
                if watcher.follow is not None or store.tournaments.all():
                    break
            watcher.stop.wait(1.0)
        if not watcher.stop.is_set():
            watcher.run()
    except StoreError as error:
        print(_("sync: stopped: %(error)s") % {"error": error.text}, flush=True)
    except Exception as error:  # noqa: BLE001 (the server goes on; the director is told)
        print(_("sync: stopped by an internal error (%(kind)s: %(error)s); the desk goes on "
                "without it: pilkku sync --watch in another terminal") % {
                    "kind": type(error).__name__, "error": error}, flush=True)


def add_commands(sub) -> None:
    desk = sub.add_parser(
        "desk", parents=[store_options(), listen_options()],
        help=N_("run the night from a browser: the hall, the director's desk and the boards' "
                "sync in one"),
        description=_("Serve the hall's pages and the director's desk from one server and keep "
                      "the boards in sync (as pilkku sync --watch does) in the same process. "
                      "Prints the hall's link and the director's (with a token, new at each "
                      "start). Stopped and started again, it goes on where it was: everything "
                      "is in the store."))
    desk.set_defaults(func=cmd_desk)
