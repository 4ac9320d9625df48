"""The board's own settings on its flash (/config.json): its id, its table number, the
tournament's pairing key and the displays' language (firmware/words.py: "fi", "sv", none for
English; set by the laptop with the schedule or at pairing); and the schedule the laptop
sent (/schedule.json). Both are kept files (firmware/kept.py): checked when read, two
copies, each written whole and renamed, so a power cut leaves the old settings or the new
ones and a flipped byte is mended from the other copy.

Both copies damaged is named, never read as a default: the config keeps the board's id (from
its chain of results, which is signed under it) and is marked damaged until the board is
paired again (`pilkku pair`: the key went with the file); the schedule is dropped until the
laptop sends it again. `mended` and `lost` name the files for the laptop (the sync's hello),
`problem` for the displays."""

import os

from firmware import kept, words

DAMAGED = "damaged"  # in the config: its copies were both found damaged; cleared by pairing


def _hex(data):
    return "".join(["%02x" % b for b in data])


def _config_ok(value):
    """Settings this firmware wrote: an id, a table number, a key in hex (a key that is not
    hex raised in every hello, from a legacy file one flipped byte had changed)."""
    if not isinstance(value, dict):
        return False
    key, board, table = value.get("key"), value.get("board"), value.get("table")
    if key is not None and not (isinstance(key, str) and len(key) % 2 == 0 and all(
            0x30 <= b <= 0x39 or 0x61 <= b <= 0x66 for b in key.encode())):
        return False
    lang = value.get("lang")
    return (board is None or isinstance(board, str)) and (
        table is None or isinstance(table, int) and not isinstance(table, bool)) and (
        lang is None or isinstance(lang, str))


def _schedule_ok(value):
    """A schedule as the sync endpoint takes it: matches with a match_id and settings (an
    entry without them, read back from a legacy file, stopped the menu at every boot)."""
    if not isinstance(value, list):
        return False
    for match in value:
        if not isinstance(match, dict) or not isinstance(match.get("match_id"), str) \
                or not isinstance(match.get("settings"), dict):
            return False
    return True


class Config:
    def __init__(self, folder=""):
        self.path = folder + kept.CONFIG
        self.schedule_path = folder + kept.SCHEDULE
        self.mended = []  # kept files mended from their other copy since the board started
        self.lost = []  # kept files whose copies were both damaged (until written again)
        values, found = kept.read(self.path, _config_ok)
        self._found("config", found)
        self.values = values if values is not None else {}
        if found == kept.LOST:
            # The key and the table went with it; the id is the one the chain is signed under.
            self.values = {"board": _chain_board(folder), DAMAGED: True}
        if self.values.get(DAMAGED):
            self._found("config", kept.LOST)
        if not self.values.get("board"):
            # The board's id, made once: it tells the tournament's tables apart.
            self.values["board"] = "pk-" + _hex(os.urandom(4))
            self.save()
        elif found == kept.LOST:
            self.save()
        words.use(self.values.get("lang"))

    def _found(self, name, found):
        names = self.mended if found == kept.MENDED else self.lost if found == kept.LOST \
            else None
        if names is not None and name not in names:
            names.append(name)

    @property
    def problem(self):
        """What the displays say at boot about the kept files, or None."""
        if "config" in self.lost:
            return words.w("CONFIG DAMAGED: PAIR AGAIN")
        if "schedule" in self.lost:
            return words.w("SCHEDULE DAMAGED: SYNC AGAIN")
        return None

    def save(self):
        kept.write(self.path, self.values)

    @property
    def board(self):
        return self.values["board"]

    @property
    def table(self):
        return self.values.get("table")

    def set_table(self, table):
        self.values["table"] = table
        self.save()

    def set_language(self, lang):
        """Show the displays in `lang` from now on, and keep it as "lang" (none for English;
        written only when it changes: the laptop sends it at every sync). An unknown
        language is English."""
        lang = words.use(lang)
        if lang != (self.values.get("lang") or "en"):
            if lang == "en":
                self.values.pop("lang", None)
            else:
                self.values["lang"] = lang
            self.save()

    def key(self):
        """The pairing key (bytes), or None while the board is not paired."""
        text = self.values.get("key")
        if not text:
            return None
        return bytes([int(text[i:i + 2], 16) for i in range(0, len(text), 2)])

    def schedule(self):
        matches, found = kept.read(self.schedule_path, _schedule_ok)
        self._found("schedule", found)
        return matches if matches is not None else []

    def set_schedule(self, matches):
        kept.write(self.schedule_path, matches)
        if "schedule" in self.lost:
            self.lost.remove("schedule")  # the laptop sent it again


def _chain_board(folder):
    """The board id the chain of results was signed under, or None."""
    chain, _found = kept.read(folder + kept.CHAIN, None, False)
    board = chain.get("board") if isinstance(chain, dict) else None
    return board if isinstance(board, str) and 0 < len(board) <= 32 else None
