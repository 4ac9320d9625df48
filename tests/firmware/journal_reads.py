"""Counting what the journal reads from flash in tests: every record it asks
`Records.read` for, by offset (optionally only in files whose name ends so)."""

from __future__ import annotations

from firmware import journal_records


class Reads:
    """The offsets of the records the journal reads from now on (until monkeypatch.undo)."""

    def __init__(self, monkeypatch, only: str = "") -> None:
        self.offsets: list[int] = []
        real = journal_records.Records.read

        def counted(io, f, offset, limit):
            if getattr(f, "name", "").endswith(only):
                self.offsets.append(offset)
            return real(io, f, offset, limit)

        monkeypatch.setattr(journal_records.Records, "read", counted)

    @property
    def count(self) -> int:
        return len(self.offsets)
