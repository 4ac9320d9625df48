"""What the subcommands' parsers share: the store options (--db, --tournament) and whole-number
arguments within a range. argparse's `int`
takes 10**30, -5 and "٣"; a table number, a race or a count taken that way would loop for ever
or overflow SQLite, so each is checked where it is read and refused with its range."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from host.i18n import _

TABLES_MAX = 999


def whole(low: int = 1, high: int = TABLES_MAX) -> Callable[[str], int]:
    def parse(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(high))
                and low <= int(digits) <= high):
            raise argparse.ArgumentTypeError(
                _("'%(text)s' is not a whole number from %(low)d to %(high)d")
                % {"text": text[:20], "low": low, "high": high})
        return int(digits)

    parse.__name__ = "whole number"
    return parse


def store_options(with_tournament: bool = True, nested: bool = False) -> argparse.ArgumentParser:
    """A parent parser with --db and --tournament, for every command that reads the store. On an
    action under another command (nested) they default to SUPPRESS, so `pilkku players --db X
    import F` keeps the X given before the action instead of the action's own default."""
    default = argparse.SUPPRESS if nested else None
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar=_("PATH"), default=default,
                        help=_("the tournament store (default: $PILKKU_DB, else ./pilkku.db)"))
    if with_tournament:
        common.add_argument("--tournament", metavar=_("NAME"), default=default,
                            help=_("act on this tournament (default: the latest created)"))
    return common


DEFAULT_PORT = 8080


def listen_options() -> argparse.ArgumentParser:
    """A parent parser with --host and --port, for the commands that serve pages (pilkku hall,
    pilkku desk)."""
    serving = argparse.ArgumentParser(add_help=False)
    serving.add_argument("--host", default="127.0.0.1",
                         help=_("address to listen on (default 127.0.0.1, this laptop only; "
                                "0.0.0.0 shows the hall on the venue's network)"))
    serving.add_argument("--port", type=whole(0, 65535), default=DEFAULT_PORT,
                         help=_("port to listen on (default %(port)d)") % {"port": DEFAULT_PORT})
    return serving


def minutes(text: str) -> float:
    """A number of minutes as typed (e.g. 30 or 0.5): ASCII only, as float() also takes
    '١'; above 0 and at most a day."""
    digits = text.strip()
    if not (digits.isascii() and digits.replace(".", "", 1).isdigit() and len(digits) <= 6
            and 0 < float(digits) <= 1440):
        raise argparse.ArgumentTypeError(_("'%(text)s' is not a number of minutes (e.g. 30)")
                                         % {"text": text[:20]})
    return float(digits)
