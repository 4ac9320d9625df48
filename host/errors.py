"""The one user-facing error: raised where bad input is read (a file, an argument, a port), it
reaches the user as one line on stderr and exit code 2 (host/cli.py main), never a traceback."""

from __future__ import annotations


class UserError(Exception):
    """What went wrong and what to do, in one line."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text
