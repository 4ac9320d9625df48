"""Frame lines out of the serial's byte stream, for both ends of the sync protocol
(rules_core/sync_protocol.py): the REPL's output, line noise and damaged frames around them
are dropped and counted."""

from rules_core.sync_protocol import MAX_LINE, decode, old_decode


class Reader:
    """Collects frame lines out of a byte stream (bytes may come in any pieces) and drops
    everything that is not one. `damaged` counts lines that began as frames and were not."""

    def __init__(self):
        self._line = bytearray()
        self._in_frame = False
        self.damaged = 0

    def feed(self, data):
        """Frames completed by `data`: a list of (seq, kind, payload, tag, body); a protocol
        2 hello or reply comes as (seq, OLD_HELLO or OLD_REPLY, payload, b"", b"")."""
        frames = []  # type: list
        for byte in data:
            if byte == 0x7E:  # "~" starts a frame, wherever it is
                if self._in_frame:
                    self.damaged += 1
                self._line = bytearray(b"~")
                self._in_frame = True
            elif not self._in_frame:
                continue
            elif byte == 0x0A:
                self._end(frames)
            elif len(self._line) >= MAX_LINE or byte < 0x20 or byte == 0x7F:
                self._in_frame = False  # too long, or a control byte: not a frame of ours
                self._line = bytearray()
                self.damaged += 1
            else:
                self._line.append(byte)
        return frames

    def _end(self, frames):
        line = self._line
        self._in_frame = False
        self._line = bytearray()
        try:
            frames.append(decode(line))
            return
        except Exception:  # FrameError, or anything a parser may raise: dropped
            pass
        try:
            old = old_decode(line)
        except Exception:
            old = None
        if old is None:
            self.damaged += 1
        else:
            frames.append((old[0], old[1], old[2], b"", b""))
