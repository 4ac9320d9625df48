"""The journal's record primitives (firmware/journal_records.py) at their edges: the longest
payload, a limit short of a record, a file shorter than the limit, short writes, a payload
that is not JSON, the CRC handed back, and buffers reused rather than reallocated (board
code: no allocation per record). The layout and round trip are in test_journal.py."""

from __future__ import annotations

import binascii
import errno
import io

import pytest

from firmware.journal_records import (
    KIND_EVENT,
    KIND_SETTINGS,
    OVERHEAD,
    JournalError,
    Records,
)


def written(*payloads: bytes) -> io.BytesIO:
    f = io.BytesIO()
    records = Records()
    for payload in payloads:
        records.write(f, KIND_EVENT, payload)
    return f


class ShortWrites(io.BytesIO):
    """A file on a full flash: every write takes one byte less than it was given."""

    def write(self, data) -> int:  # type: ignore[override]
        return super().write(bytes(data)[:-1])


def test_the_longest_payload_round_trips_and_one_more_byte_is_refused():
    f = written(b"p" * 65535)
    records = Records()
    assert records.read(f, 0, 65535 + OVERHEAD) == 65535
    assert bytes(records.payload()) == b"p" * 65535
    with pytest.raises(JournalError, match=r"^record too long \(65536 bytes\)$"):
        Records().write(io.BytesIO(), KIND_EVENT, b"p" * 65536)


def test_a_record_running_past_the_limit_is_torn_even_with_its_bytes_there():
    """The scan of the events before a snapshot stops at the snapshot's last event: a record
    crossing that limit is torn (-1), whatever follows in the file."""
    f = written(b"a" * 40, b"b" * 40)
    records = Records()
    for limit in range(1, 47):
        assert records.read(f, 0, limit) == -1, limit
    assert records.read(f, 0, 47) == 40
    assert records.read(f, 47, 47 + 46) == -1


@pytest.mark.parametrize("cut", [1, 2, 3, 5, 10, 46])
def test_a_file_shorter_than_the_limit_gives_a_torn_record(cut):
    """The caller's limit can be past the file's end (a file cut behind the log's back):
    short reads of the head or the payload are a torn record, not a CRC failure."""
    data = written(b"c" * 40).getvalue()
    assert Records().read(io.BytesIO(data[:cut]), 0, len(data)) == -1
    assert Records().read(io.BytesIO(data[:cut]), 0, len(data) + 100) == -1


def test_a_short_write_is_a_full_flash():
    with pytest.raises(OSError) as error:
        Records().write(ShortWrites(), KIND_EVENT, b"{}")
    assert error.value.args == (errno.ENOSPC,)  # as MicroPython raises it: OSError(errno)
    f = written(b"{}")
    records = Records()
    records.read(f, 0, 9)
    with pytest.raises(OSError) as error:
        records.put_last(ShortWrites())
    assert error.value.args == (errno.ENOSPC,)  # as MicroPython raises it: OSError(errno)


def test_a_payload_that_is_not_json_is_a_journal_error():
    f = written(b"{not json")
    records = Records()
    assert records.read(f, 0, 100) == 9
    with pytest.raises(JournalError, match="^a journal record is not JSON$"):
        records.value()


def test_crc_is_the_stored_crc_of_the_record_read_last():
    f = written(b"first", b'{"t":"shot"}')
    data = f.getvalue()
    records = Records()
    records.read(f, 12, len(data))
    assert records.crc() == binascii.crc32(data[12:12 + 3 + 12])
    assert records.crc() == int.from_bytes(data[-4:], "little")


def test_size_at_reads_a_two_byte_length():
    f = written(b"s" * 300, b"t" * 5)
    assert Records.size_at(f, 0) == 300 + OVERHEAD
    assert Records.size_at(f, 307) == 5 + OVERHEAD


def test_copy_bytes_copies_what_there_is_and_says_how_much():
    records = Records()
    source = io.BytesIO(b"x" * 1000)
    target = io.BytesIO()
    assert records.copy_bytes(source, target, 600) == 600
    assert target.getvalue() == b"x" * 600
    target = io.BytesIO()
    assert records.copy_bytes(source, target, 5000) == 1000
    assert target.getvalue() == b"x" * 1000


def test_buffers_are_reused_and_grown_to_a_multiple_of_64_only_when_too_small():
    records = Records()
    write_buffer, read_buffer = records._wbuf, records._rbuf  # noqa: SLF001
    size = len(write_buffer)
    f = io.BytesIO()
    offsets = []
    for _ in range(50):  # records that fit: the same buffers, never longer
        offsets.append(f.tell())
        records.write(f, KIND_EVENT, b"e" * 60)
    offsets.append(f.tell())
    records.write(f, KIND_SETTINGS, b"s" * (size - OVERHEAD))  # exactly the buffer's size
    for offset in offsets:
        assert records.read(f, offset, len(f.getvalue())) >= 0
    assert records._wbuf is write_buffer and records._rbuf is read_buffer  # noqa: SLF001
    assert len(write_buffer) == len(read_buffer) == size
    records.write(f, KIND_EVENT, b"g" * (320 - OVERHEAD))  # a multiple of 64: just that
    assert len(records._wbuf) == 320  # noqa: SLF001
    records.write(f, KIND_EVENT, b"h" * (321 - OVERHEAD))
    assert len(records._wbuf) == 384  # noqa: SLF001


def test_a_bad_crc_is_told_apart_from_a_torn_record():
    """-2 for a whole record whose CRC fails (damage: boot keeps a copy), -1 for a torn one
    (a power cut: dropped quietly)."""
    data = bytearray(written(b"d" * 20).getvalue())
    data[10] ^= 0x40
    assert Records().read(io.BytesIO(bytes(data)), 0, len(data)) == -2
    assert Records().read(io.BytesIO(bytes(data[:-1])), 0, len(data) - 1) == -1
