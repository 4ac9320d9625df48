"""The board's own settings on its flash (/config.json): its id, its table number and the
tournament's pairing key. Written whole to a temporary file and renamed, so a power cut
leaves the old settings or the new ones, never half of each."""

import json
import os

from rules_core import canon

PATH = "config.json"
SCHEDULE = "schedule.json"


def _hex(data):
    return "".join(["%02x" % b for b in data])


def read_json(path, default):
    try:
        with open(path) as f:
            return json.loads(f.read())
    except (OSError, ValueError):
        return default


def write_json(path, value):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(canon.dumps(value))
    try:
        os.remove(path)  # littlefs renames over a file; some ports do not
    except OSError:
        pass
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
