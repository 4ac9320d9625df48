"""The journal's flash I/O watched and damaged in tests: every record it asks `Records.read`
for, by offset (optionally only in files whose name ends so), and a flash that stores each
record's last byte wrong."""

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


def garble_writes(journal, monkeypatch) -> None:
    """From now on the journal's flash stores each record with its last byte zeroed, so the
    record's CRC fails when it is read back."""
    real = journal._io.write  # noqa: SLF001

    def garbled(f, kind, payload):
        size = real(f, kind, payload)
        f.seek(f.tell() - 1)
        f.write(b"\x00")
        return size

    monkeypatch.setattr(journal._io, "write", garbled)  # noqa: SLF001
