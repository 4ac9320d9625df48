"""The pulls of the board's sync endpoint (firmware/sync_endpoint.py): a finished result made
into its document once, signed as the next link of the board's chain, and sent in the pieces
each pull asks for; the acknowledgement that frees it. A result the journal set aside as
damaged (firmware/journal.py) is pulled as the bytes of its file, unsigned (the session's tags
vouch for them), and freed by its own acknowledgement. `Pulling` is a base of `Endpoint`,
whose fields it works on (`journal`, `chain`, `config`, `key`, `usb`, `pulled`, `app`).
"""

from firmware.journal_records import ResultDamaged
from rules_core import bounded
from rules_core import sync_protocol as sp

TIME_MAX = 1 << 40  # the largest number a request's seq, ack or time may be


class Pulling:
    """The pulls of an Endpoint (see there for the fields)."""

    def _pieces(self, seq, pull):
        """The piece frames a pull asked for: at each offset, so many pieces of `size`
        bytes, each tagged (each goes out as it is made: the board holds one at a time)."""
        result, size, at = pull
        if self.pulled is None or self.pulled[0] != result:
            return  # freed since (an acknowledge in the same pull): the laptop has it
        data = self.pulled[1]
        for i in range(0, len(at), 2):
            offset = at[i]
            for _ in range(at[i + 1]):
                if offset >= len(data):
                    break
                stuffed, took = sp.stuff(data, offset, size)
                head = sp.piece_head(seq, offset)
                sp.write_frame(self.usb.write, (head, stuffed), self._tag(head, stuffed))
                stuffed = None  # gone before the next piece is made: one at a time
                offset += took

    def _pull(self, payload):
        """The reply to a pull ({"seq": s, "size": z, "at": [offset, pieces, ...], and
        "link": true for the result's link, "ack": the result before, stored, or "damaged":
        true for a damaged result's bytes) and what its pieces are: ((seq, damaged), size,
        [offset, pieces, ...])."""
        seq = sp.whole(payload, "seq", 0, TIME_MAX)
        damaged = flag(payload, "damaged")
        if damaged and "link" in payload:
            raise sp.FrameError("a damaged result has no link")
        size = sp.whole(payload, "size", sp.PIECE_MIN, sp.PIECE_MAX)
        at = payload.get("at")
        if not isinstance(at, list) or len(at) > 2 * sp.RUNS_MAX or len(at) % 2:
            raise sp.FrameError("'at' must be a list of at most %d offsets and counts"
                                % sp.RUNS_MAX)
        asked = 0
        for i in range(len(at)):
            if not bounded.whole(at[i], i % 2, sp.MAX_RESULT if i % 2 == 0 else
                                    sp.COUNT_MAX):
                raise sp.FrameError("'at' must hold offsets and counts")
            asked += at[i] if i % 2 else 0
        if asked > sp.COUNT_MAX or asked * size > sp.BURST_MAX:
            raise sp.FrameError("a pull asks for at most %d pieces, %d bytes"
                                % (sp.COUNT_MAX, sp.BURST_MAX))
        if "ack" in payload:
            sp.whole(payload, "ack", 0, TIME_MAX)  # checked before anything is sent
        key = (seq, damaged)
        if self.pulled is None or self.pulled[0] != key:
            self.pulled = None
            if damaged:
                self.pulled = (key, self.journal.damaged_bytes(seq, sp.MAX_RESULT), None)
            elif self.chain.lost:  # nothing is signed until the laptop gives its head again
                return no("the board's chain of results is damaged on its flash: the laptop "
                          "mends it (pilkku sync)"), None
            else:
                try:
                    data = self._document(seq)
                except ResultDamaged as damage:  # set aside just now: pull it as damaged
                    self._changed()
                    return {"ok": False, "error": damage.text, "damaged": True}, None
                if len(data) > sp.MAX_RESULT:
                    return no("result %d is too long to send (%d bytes)" % (seq, len(data))), \
                        None
                link = self.chain.link(seq, self.key, self.config.board, data)
                self.pulled = (key, data, link)
        total = len(self.pulled[1])
        frames = 0
        for i in range(0, len(at), 2):
            if at[i] < total:
                frames += min(at[i + 1], (total - at[i] + size - 1) // size)
        reply = {"ok": True, "seq": seq, "total": total, "frames": frames}
        if damaged:
            reply["damaged"] = True
        elif payload.get("link") is True:
            reply["link"] = self.pulled[2]
        return reply, (key, size, at)

    def _document(self, seq):
        """Result `seq`'s document as UTF-8 bytes, in one bytearray of its length: the text
        is made twice, once to count it, so that the board never holds it more than once
        (a list of its pieces and their join took twice the document's RAM, the sync's peak
        on a small heap). Each time the file is read once: a damaged one raises in the
        count, before the bytearray."""
        size = [0]

        def count(text):
            size[0] += len(text.encode())  # a piece at a time: a few bytes, freed at once

        self.journal.dump_document(seq, count, False)
        data = bytearray(size[0])
        view = memoryview(data)
        at = [0]

        def put(text):
            piece = text.encode()
            end = at[0] + len(piece)
            if end > len(data):
                raise ValueError("the result changed while it was read")
            view[at[0]:end] = piece
            at[0] = end

        self.journal.dump_document(seq, put, False)
        if at[0] != len(data):
            raise ValueError("the result changed while it was read")
        return data

    def _acknowledge(self, payload, name="ack"):
        """Free a result the laptop has stored (and its link), or with "damaged": true (an
        acknowledgement of its own, never one riding a pull) a damaged result's bytes; True
        if it was gone."""
        seq = sp.whole(payload, name, 0, TIME_MAX)
        damaged = name == "seq" and flag(payload, "damaged")
        if damaged:
            gone = not self.journal.acknowledge_damaged(seq)
            self._changed()  # the menu no longer says the board holds it
        else:
            gone = not self.journal.acknowledge(seq)
            self.chain.forget(seq)
        if self.pulled is not None and self.pulled[0] == (seq, damaged):
            self.pulled = None
        return gone

    def _changed(self):
        """The displays are drawn again: whether the board holds damaged results changed."""
        if self.app is not None:
            self.app.dirty = True


def flag(payload, name):
    """payload[name] when it is there: exactly true (a flag is never false, 1 or "yes")."""
    if name not in payload:
        return False
    if payload[name] is not True:
        raise sp.FrameError("'%s' must be true when it is given" % name)
    return True


def no(reason):
    """A refusal: the reply of a request that changed nothing, saying why."""
    return {"ok": False, "error": reason}
