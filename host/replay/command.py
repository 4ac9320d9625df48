"""`pilkku replay`: a match log read back as a referee reads it, rack by rack (or inning by
inning), or its final state as JSON. Each game family has its renderer (pool, straight, kaisa);
this module picks one and is the subcommand."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from host.errors import UserError, json_reason, os_reason
from host.i18n import N_, _
from host.replay import kaisa, pool, straight
from rules_core import bounded, matchlog

# Games with their own reading (inning by inning, points per shot) add their renderer here.
RENDERERS = {"8ball": pool.render, "9ball": pool.render, "14.1": straight.render,
             "kaisa": kaisa.render}


def final_state(doc: dict) -> dict:
    return matchlog.load(doc).state.to_dict()


def render(doc: dict) -> Iterator[str]:
    """Lines of the match as a referee reads it. Raises matchlog.BadLog on a bad log."""
    # The renderer is picked before matchlog has checked the document, so nothing here may
    # assume a field's kind: settings of any other kind is refused by matchlog, naming it.
    settings = doc.get("settings") if isinstance(doc, dict) else None
    game = settings.get("game") if isinstance(settings, dict) else None
    renderer = RENDERERS.get(game, pool.render) if isinstance(game, str) else pool.render
    return renderer(doc)


def _read_log(path: str) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise UserError(_("cannot read %(path)s: %(error)s") % {
            "path": path, "error": os_reason(error)}) from None
    except UnicodeDecodeError:
        raise UserError(_("%(path)s is not UTF-8 text: is it a pilkku match log?")
                        % {"path": path}) from None
    try:
        return bounded.loads(text, matchlog.MAX_TEXT, matchlog.MAX_DEPTH)
    except bounded.Malformed as error:
        raise UserError(_("%(path)s is not JSON of a match log (%(error)s); is it a pilkku "
                          "match log?") % {"path": path, "error": json_reason(error)}) from None


def cmd_replay(args: argparse.Namespace) -> int:
    doc = _read_log(args.log)
    try:
        if args.json:
            print(json.dumps(final_state(doc), indent=2, sort_keys=True,
                             ensure_ascii=False))
        else:
            lines = list(render(doc))
            print("\n".join(lines))
    except matchlog.BadLog as bad:
        # Translators: the reason is the rules engine's, in English (it runs on the board too);
        # say that the log was refused before it.
        print("pilkku replay: %s" % (_("%(path)s: %(reason)s") % {
            "path": args.log, "reason": bad.text}), file=sys.stderr)
        return 2
    return 0


def add_commands(sub) -> None:
    """Register `pilkku replay`."""
    replay = sub.add_parser(
        "replay", help=N_("read a match log back, rack by rack"),
        description=_("Replay a match log (format pilkku.match/1) and print it as a referee "
                      "reads it, or its final state as JSON. A log the rules refuse exits 2 "
                      "naming the event."))
    replay.add_argument("log", help=_("the match log file (.json)"))
    replay.add_argument("--json", action="store_true", help=_("print the final state as JSON"))
    replay.set_defaults(func=cmd_replay)
