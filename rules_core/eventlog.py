"""The match's event log kept packed: canonical JSON text in small fixed chunks.

An event dict costs about three times its JSON text in MicroPython's heap, and a race to 9 has
hundreds of events, so the log keeps text and decodes an event only when it is read (replay,
undo, export). Text and index live in small pieces allocated once at their full size, never in
one buffer or list that grows: on a fragmented board heap a growing block soon finds no room.
It behaves like a list of event dicts: append, pop, len, index, iterate.
"""

import json

from rules_core import canon

_CHUNK = 256  # bytes of text per chunk (a longer event gets a chunk of its own size)


class PackedLog:
    def __init__(self, events=None):
        self._chunks = []  # bytearrays of event text
        self._ends = []  # per chunk: the end offset of each of its events
        self._first = []  # per chunk: the index of its first event
        self._count = 0
        for event in events or ():
            self.append(event)

    def append(self, event):
        text = canon.dumps(event).encode()
        fill = self._ends[-1][-1] if self._chunks else 0
        if not self._chunks or fill + len(text) > len(self._chunks[-1]):
            self._chunks.append(bytearray(max(_CHUNK, len(text))))
            self._ends.append([])
            self._first.append(self._count)
            fill = 0
        self._chunks[-1][fill:fill + len(text)] = text
        self._ends[-1].append(fill + len(text))
        self._count += 1

    def pop(self):
        event = self[self._count - 1]
        self._ends[-1].pop()
        if not self._ends[-1]:
            self._chunks.pop()
            self._ends.pop()
            self._first.pop()
        self._count -= 1
        return event

    def __len__(self):
        return self._count

    def __getitem__(self, index):
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("no event %d" % index)
        chunk = self._chunk_of(index)
        slot = index - self._first[chunk]
        start = self._ends[chunk][slot - 1] if slot else 0
        return json.loads(self._chunks[chunk][start:self._ends[chunk][slot]].decode())

    def _chunk_of(self, index):
        low, high = 0, len(self._first) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self._first[middle] <= index:
                low = middle
            else:
                high = middle - 1
        return low

    def __iter__(self):
        for index in range(self._count):
            yield self[index]

    def text_size(self):
        """Bytes of buffer held for event text (for benchmarks)."""
        return sum([len(chunk) for chunk in self._chunks])
