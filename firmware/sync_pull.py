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
CHUNK = 256  # bytes of a pulled document held in one piece of the heap (_document)


class Pulling:
    """The pulls of an Endpoint (see there for the fields)."""

    def _pieces(self, seq, pull):
        """The piece frames a pull asked for: at each offset, so many pieces of `size`
        bytes, each tagged (each goes out as it is made: the board holds one at a time)."""
        result, size, at = pull
        if self.pulled is None or self.pulled[0] != result:
            return  # freed since (an acknowledge in the same pull): the laptop has it
        chunks, total = self.pulled[1], self.pulled[3]
        for i in range(0, len(at), 2):
            offset = at[i]
            for _ in range(at[i + 1]):
                if offset >= total:
                    break
                parts = _stuffed(chunks, offset, min(size, total - offset))
                head = sp.piece_head(seq, offset)
                sp.write_frame(self.usb.write, (head,) + parts, self._tag(head, *parts))
                parts = None  # gone before the next piece is made: one at a time
                offset += size

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
                data = self.journal.damaged_bytes(seq, sp.MAX_RESULT)
                self.pulled = (key, [data], None, len(data))
            elif self.chain.lost:  # nothing is signed until the laptop gives its head again
                return no("the board's chain of results is damaged on its flash: the laptop "
                          "mends it (pilkku sync)"), None
            else:
                try:
                    chunks, total = self._document(seq)
                except ResultDamaged as damage:  # set aside just now: pull it as damaged
                    self._changed()
                    return {"ok": False, "error": damage.text, "damaged": True}, None
                if total > sp.MAX_RESULT:
                    return no("result %d is too long to send (%d bytes)" % (seq, total)), None
                link = self.chain.link(seq, self.key, self.config.board, chunks)
                self.pulled = (key, chunks, link, total)
        total = self.pulled[3]
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
        """Result `seq`'s document as UTF-8 bytes, and its length: in CHUNK-byte bytearrays
        (the last one shorter), made in one reading of the file. On a Pico the
        sync's boot leaves the heap in small holes (~3 KB the largest, with 20 KB free):
        a bytearray of the whole document's length was the block the pull found no room
        for (issue 31); chunks fit the holes, and the pieces are cut from them."""
        chunks = []
        at = [CHUNK]  # bytes in the last chunk (full: none yet)
        total = [0]

        def put(text):
            piece = memoryview(text.encode())  # (cut into the chunks without copies)
            total[0] += len(piece)
            if total[0] > sp.MAX_RESULT:
                return  # counted, not kept: too long to send (_pull says so)
            done, left = 0, len(piece)
            while left:
                if at[0] == CHUNK:
                    chunks.append(bytearray(CHUNK))
                    at[0] = 0
                n = min(left, CHUNK - at[0])
                chunks[-1][at[0]:at[0] + n] = piece[done:done + n]
                at[0] += n
                done += n
                left -= n

        self.journal.dump_document(seq, put, False)
        if chunks and at[0] < CHUNK:
            chunks[-1] = chunks[-1][:at[0]]  # the last one as long as its bytes
        return chunks, total[0]

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


def _stuffed(chunks, offset, length):
    """The escaped bytes (sp.stuff) of a result's bytes offset..offset + length, held in
    `chunks` all as long as the first (the last one shorter): a tuple of a part for each
    chunk they lie in (the escaping is byte by byte: the parts joined are the stuffing of
    the bytes joined)."""
    width = len(chunks[0])
    parts = ()
    while length > 0:
        chunk = chunks[offset // width]
        start = offset % width
        n = min(length, width - start)
        parts += (sp.stuff(chunk, start, n)[0],)
        offset += n
        length -= n
    return parts


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
