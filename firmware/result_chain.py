"""The board's chain of signed results: each result the laptop pulls is signed once, as the
next link of this board's chain (its number, the MAC of the link before, the document), and
the link is kept on flash until the laptop acknowledges the result, so a pull repeated after a
lost reply or a power cut gets the very same signature. The laptop keeps every link; a result
deleted, reordered or signed again later shows as a break in the chain (docs/security.md).

/chain.json: {"board": the id it is signed under, "n": the last link's number, "mac": its MAC,
"links": {"<journal seq>": [n, prev, mac, the document's CRC-32]}}, a kept file
(firmware/kept.py: checked, two copies). Both copies damaged, the chain is lost: it has no
head and signs nothing until the laptop gives it the head it holds (`mend`, the sync's K
request), never restarted at #1.

An acknowledged link is dropped in RAM only: the next link's write drops it on flash, and
`keep` drops at start the links of results the journal no longer has. So a pulled result costs
one write of the chain (both copies), as its link and its acknowledgement cost before."""

from firmware import kept
from rules_core import bounded
from rules_core import sync_protocol as sp
from rules_core.crc import crc32

PATH = kept.CHAIN
_MAX_LINKS = 64  # a board keeps 16 unacknowledged results
_BIG = 1 << 40


class Chain:
    def __init__(self, folder=None):
        self.path = None if folder is None else folder + PATH
        self.n, self.mac, self.links, self.board = 0, "", {}, None
        self.mended = self.lost = False  # (for the laptop: the sync's hello)
        if self.path is None:
            return
        saved, found = kept.read(self.path, _well_formed)
        self.mended, self.lost = found == kept.MENDED, found == kept.LOST
        if saved is not None:
            self.n, self.mac, self.links = saved["n"], saved["mac"], saved["links"]
            self.board = saved.get("board")

    def head(self):
        """[n, mac] of the last link, or None while the chain is lost."""
        return None if self.lost else [self.n, self.mac]

    def link(self, seq, key, board, text):
        """[n, prev, mac] of the result with journal number `seq`, its document `text` (str,
        bytes, or a list of its bytes in pieces), signed now if it was not before; None when
        the board has no key to sign with. A link kept for `seq` is given again, as it was
        signed, only for the same document (its CRC-32 is kept beside it): a number the
        journal gave again, its counter lost, gets a new link, not a stale one."""
        if self.lost:
            raise ValueError("the chain of results is lost: the laptop mends it (sync)")
        name = "%d" % seq
        found = self.links.get(name)
        if found is not None and (len(found) == 3 or found[3] == _crc(text)):
            return found[:3]  # (3: kept by the older firmware, without the CRC)
        if key is None:
            return None
        n = self.n + 1
        found = [n, self.mac, sp.result_mac(key, board, n, self.mac, text), _crc(text)]
        was = self.n, self.mac, self.board
        self.links[name] = found
        self.n, self.mac, self.board = n, found[2], board
        try:
            self._save()  # before the laptop sees it: a second pull gets the same link
        except BaseException:
            # Not on flash (no heap for the file, a flash error): not given either, nor kept
            # in RAM, where the next pull would give it unsaved (a power cut then, and the
            # board would sign another link with its number).
            del self.links[name]
            self.n, self.mac, self.board = was
            raise
        return found[:3]

    def forget(self, seq):
        """The laptop has stored the result: its link is in the laptop's chain now (dropped
        on flash with the next write)."""
        self.links.pop("%d" % seq, None)

    def keep(self, results):
        """Drop the links of results no longer on the board (`results`: the journal's)."""
        for name in list(self.links):
            if int(name) not in results:
                del self.links[name]

    def mend(self, n, mac):
        """A lost chain goes on from [n, mac], the last link the laptop holds (0, "": none);
        True, or False if the chain is not lost (a whole chain is never set back).
        sp.FrameError for what is no head."""
        if not bounded.whole(n, 0, _BIG) or not (mac == "" if n == 0 else _mac_ok(mac)):
            raise sp.FrameError("a chain head is a number and its link's MAC (64 hex digits)")
        if not self.lost:
            return False
        self.n, self.mac, self.links = n, mac, {}
        self._save()
        self.lost = False
        return True

    def _save(self):
        if self.path is not None:
            kept.write(self.path, {"board": self.board, "n": self.n, "mac": self.mac,
                                   "links": self.links})


def _crc(text):
    """The CRC-32 of a document: text, its bytes, or a list of its bytes in pieces (the
    sync's pull holds it so: firmware/sync_pull.py)."""
    if isinstance(text, list):
        crc = 0
        for part in text:
            crc = crc32(part, crc)
        return crc
    return crc32(text.encode() if isinstance(text, str) else text)


def _mac_ok(mac):
    return isinstance(mac, str) and len(mac) == 64 and all(
        0x30 <= b <= 0x39 or 0x61 <= b <= 0x66 for b in mac.encode())


def _well_formed(saved):
    if not isinstance(saved, dict) or not bounded.whole(saved.get("n"), 0, _BIG):
        return False
    links = saved.get("links")
    if not isinstance(saved.get("mac"), str) or not isinstance(links, dict) \
            or len(links) > _MAX_LINKS:
        return False
    for name in links:
        link = links[name]
        if not name.isdigit() or not isinstance(link, list) or not 3 <= len(link) <= 4:
            return False
    return True
