"""The one user-facing error: raised where bad input is read (a file, an argument, a port), it
reaches the user as one line on stderr and exit code 2 (host/cli.py main), never a traceback.
`os_reason` says why a file or a port could not be opened in the CLI's language (the
system's own strerror is English whatever the locale: Python does not set LC_MESSAGES)."""

from __future__ import annotations

import errno
import re

from host.i18n import _


class UserError(Exception):
    """What went wrong and what to do, in one line."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def os_reason(error: OSError) -> str:
    """Why the system refused (no such file, a folder, no permission, ...): in the CLI's
    language for the common reasons, else the system's words."""
    reasons = {
        errno.ENOENT: _("No such file or directory"),
        errno.EISDIR: _("Is a directory"),
        errno.ENOTDIR: _("Not a directory"),
        errno.EACCES: _("Permission denied"),
        errno.EPERM: _("Operation not permitted"),
        errno.EBUSY: _("Device or resource busy"),
        errno.EIO: _("Input/output error"),
        errno.ENOSPC: _("No space left on device"),
        errno.EROFS: _("Read-only file system"),
        errno.ENXIO: _("No such device or address"),
        errno.ENODEV: _("No such device"),
        errno.EEXIST: _("File exists"),
    }
    return reasons.get(error.errno or 0) or error.strerror or str(error)


def json_reason(error: Exception) -> str:
    """Why a text is not the JSON it should be (rules_core/bounded.py's Malformed, written in
    English on the board too), in the CLI's language; a reason it does not know as it came."""
    text = str(error)
    number = re.search(r"\d+", text)
    said = {"limit": int(number.group()) if number else 0}
    if text == "not JSON":
        return _("not JSON")
    if text == "only whole numbers are allowed":
        return _("only whole numbers are allowed")
    if text == "number out of range":
        return _("number out of range")
    if text == "object keys must be strings":
        return _("object keys must be strings")
    if text.startswith("nested deeper than"):
        return _("nested deeper than %(limit)d") % said
    if text.startswith("longer than"):
        return _("longer than %(limit)d bytes") % said
    return text
