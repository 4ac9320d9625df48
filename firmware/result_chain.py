"""The board's chain of signed results: each result the laptop pulls is signed once, as the
next link of this board's chain (its number, the MAC of the link before, the document), and
the link is kept on flash until the laptop acknowledges the result, so a pull repeated after a
lost reply or a power cut gets the very same signature. The laptop keeps every link; a result
deleted, reordered or signed again later shows as a break in the chain (docs/security.md).

/chain.json: {"n": the last link's number, "mac": its MAC, "links": {"<journal seq>":
[n, prev, mac]}}, written whole to a temporary file and renamed (firmware/config.py)."""

from firmware.config import read_json, write_json
from rules_core import bounded
from rules_core import sync_protocol as sp

PATH = "chain.json"
_MAX_LINKS = 64  # a board keeps 16 unacknowledged results


class Chain:
    def __init__(self, folder=None):
        self.path = None if folder is None else folder + PATH
        saved = read_json(self.path, {}) if self.path is not None else {}
        self.n, self.mac, self.links = 0, "", {}
        if _well_formed(saved):  # a damaged file restarts the chain: the laptop sees a break
            self.n, self.mac, self.links = saved["n"], saved["mac"], saved["links"]

    def head(self):
        return [self.n, self.mac]

    def link(self, seq, key, board, text):
        """[n, prev, mac] of the result with journal number `seq` (signed now if it was not
        before); None when the board has no key to sign with."""
        name = "%d" % seq
        found = self.links.get(name)
        if found is not None:
            return found
        if key is None:
            return None
        n = self.n + 1
        found = [n, self.mac, sp.result_mac(key, board, n, self.mac, text)]
        self.links[name] = found
        self.n, self.mac = n, found[2]
        self._save()  # before the laptop sees it: a second pull gets the same link
        return found

    def forget(self, seq):
        """The laptop has stored the result: its link is in the laptop's chain now."""
        if self.links.pop("%d" % seq, None) is not None:
            self._save()

    def _save(self):
        if self.path is not None:
            write_json(self.path, {"n": self.n, "mac": self.mac, "links": self.links})


def _well_formed(saved):
    if not isinstance(saved, dict) or not bounded.whole(saved.get("n"), 0, 1 << 40):
        return False
    links = saved.get("links")
    if not isinstance(saved.get("mac"), str) or not isinstance(links, dict) \
            or len(links) > _MAX_LINKS:
        return False
    for link in links.values():
        if not isinstance(link, list) or len(link) != 3:
            return False
    return True
