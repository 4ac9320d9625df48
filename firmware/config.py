"""The board's own settings on its flash (/config.json): its id, its table number and the
tournament's pairing key. Written whole to a temporary file and renamed, so a power cut
leaves the old settings or the new ones, never half of each."""

import os

from rules_core import bounded, canon

PATH = "config.json"
SCHEDULE = "schedule.json"
_TMP = ".tmp"
_MAX_FILE = 16384  # bytes: eight scheduled matches with their settings fit many times


def _hex(data):
    return "".join(["%02x" % b for b in data])


def read_json(path, default):
    """A settings file, bounded: a damaged or oversized one reads as `default`. If only its
    .tmp is there (a cut in an older firmware's write, which deleted the file first) and it
    is whole, it is the file: renamed into place."""
    value = _read(path)
    if value is None:
        value = _read(path + _TMP)
        if value is not None:
            try:
                os.rename(path + _TMP, path)
            except OSError:
                pass  # read again from the .tmp at the next boot
    return default if value is None else value


def _read(path):
    try:
        if os.stat(path)[6] > _MAX_FILE:  # read(n) would take n bytes of heap at once
            return None
        with open(path) as f:
            return bounded.loads(f.read(), _MAX_FILE, 12)
    except (OSError, ValueError, MemoryError):
        return None


def write_json(path, value):
    """Write the file whole to its .tmp, then rename it over the file: littlefs (lfs2), the
    unix port and FAT all replace the target in the rename, so a cut leaves the old file or
    the new one. The old one is never deleted first: a cut there lost the chain."""
    tmp = path + _TMP
    with open(tmp, "w") as f:
        f.write(canon.dumps(value))
    os.rename(tmp, path)


class Config:
    def __init__(self, folder=""):
        self.path = folder + PATH
        self.schedule_path = folder + SCHEDULE
        self.values = read_json(self.path, {})
        if not isinstance(self.values, dict):
            self.values = {}
        if not self.values.get("board"):
            # The board's id, made once: it tells the tournament's tables apart.
            self.values["board"] = "pk-" + _hex(os.urandom(4))
            self.save()

    def save(self):
        write_json(self.path, self.values)

    @property
    def board(self):
        return self.values["board"]

    @property
    def table(self):
        return self.values.get("table")

    def set_table(self, table):
        self.values["table"] = table
        self.save()

    def key(self):
        """The pairing key (bytes), or None while the board is not paired."""
        text = self.values.get("key")
        if not text:
            return None
        return bytes([int(text[i:i + 2], 16) for i in range(0, len(text), 2)])

    def schedule(self):
        matches = read_json(self.schedule_path, [])
        return matches if isinstance(matches, list) else []

    def set_schedule(self, matches):
        write_json(self.schedule_path, matches)
