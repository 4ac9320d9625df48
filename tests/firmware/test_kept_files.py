"""The board's kept files (issue 32, item 2), on CPython's files: /chain.json, /config.json and
/schedule.json are checked when read. One flipped byte anywhere in one copy is mended from the
other copy and named; both copies damaged are named, never read as a default: the chain is
lost (no head, nothing signed) until the laptop gives it its head again, the config keeps the
board's id (from the chain) and asks to be paired again, the schedule is dropped until the
laptop sends it again. A file of the older firmware (JSON alone) is read once and rewritten
checked."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from firmware.config import Config
from firmware.result_chain import Chain
from rules_core import sync_protocol as sp

KEY = sp.Key(b"k" * 16)
BOARD = "pk-0badf1a5"
MATCHES = [{"match_id": "R1-01", "settings": {"game": "9ball", "race_to": 3,
                                              "players": ["Anna", "Ben"]}},
           {"match_id": "R1-02", "settings": {"game": "8ball", "race_to": 2,
                                              "players": ["Cid", "Dan"]}}]


def folder_of(tmp_path: Path) -> str:
    return str(tmp_path) + "/"


def flip(path: Path, offset: int, mask: int = 0x01) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= mask
    path.write_bytes(bytes(data))


def second(path: Path) -> Path:
    return path.with_name(path.name + ".2")


def signed(folder: str, count: int = 3) -> Chain:
    chain = Chain(folder)
    for seq in range(1, count + 1):
        chain.link(seq, KEY, BOARD, "result %d" % seq)
    return chain


def macs(count: int) -> list[str]:
    out, mac = [""], ""
    for n in range(1, count + 1):
        mac = sp.result_mac(KEY, BOARD, n, mac, "result %d" % n)
        out.append(mac)
    return out


# --- the chain ------------------------------------------------------------------------------

@pytest.mark.parametrize("copy", ["first", "second"])
def test_a_flipped_byte_anywhere_in_one_copy_of_the_chain_is_mended(tmp_path, copy):
    folder = folder_of(tmp_path)
    chain = signed(folder)
    head, links = chain.head(), dict(chain.links)
    path = tmp_path / "chain.json"
    if copy == "second":
        path = second(path)  # (no second copy before the fix)
    original = path.read_bytes()
    for offset in range(len(original)):
        for mask in (0x01, 0x80):
            path.write_bytes(original)
            flip(path, offset, mask)
            again = Chain(folder)
            # Before the fix: the chain restarted at [0, ""], or read a MAC one byte off.
            assert (again.head(), again.links) == (head, links), (offset, mask)
            assert again.mended and not again.lost, offset  # named, for the laptop
            assert path.read_bytes() == original, offset  # the damaged copy written again
            assert Chain(folder).mended is False  # ... and the next read finds both good


def test_both_copies_damaged_the_chain_is_lost_never_restarted(tmp_path):
    folder = folder_of(tmp_path)
    signed(folder)
    path = tmp_path / "chain.json"
    first, other = path.read_bytes(), second(path).read_bytes()
    trials = random.Random(32)
    for _ in range(40):
        path.write_bytes(first)
        second(path).write_bytes(other)
        flip(path, trials.randrange(len(first)), 1 << trials.randrange(8))
        flip(second(path), trials.randrange(len(other)), 1 << trials.randrange(8))
        damaged = (path.read_bytes(), second(path).read_bytes())
        lost = Chain(folder)
        # Before the fix: [0, ""] (a restarted chain) or a head one byte off.
        assert lost.head() is None and lost.lost
        with pytest.raises(ValueError):
            lost.link(9, KEY, BOARD, "result 9")  # nothing is signed from a lost head
        assert (path.read_bytes(), second(path).read_bytes()) == damaged  # left to be seen
        assert Chain(folder).lost  # and lost at the next boot too, until mended
    # The laptop gives the head it holds (its last stored link): the chain goes on from it.
    known = macs(4)
    lost = Chain(folder)
    assert lost.mend(3, known[3]) is True
    assert lost.head() == [3, known[3]] and not lost.lost
    assert lost.link(4, KEY, BOARD, "result 4") == [4, known[3], known[4]]
    again = Chain(folder)
    assert again.head() == [4, known[4]] and not again.lost and not again.mended
    assert again.mend(1, known[1]) is False  # a whole chain is never set back


def test_a_mend_is_checked(tmp_path):
    folder = folder_of(tmp_path)
    signed(folder)
    for path in (tmp_path / "chain.json", second(tmp_path / "chain.json")):
        path.write_bytes(b"\x00" * 40)
    lost = Chain(folder)
    for n, mac in ((3, "A" * 64), (3, "a" * 63), (0, "a" * 64), (3, ""), (-1, ""),
                   (True, ""), (3, None), (1 << 41, "a" * 64)):
        with pytest.raises(sp.FrameError):
            lost.mend(n, mac)
        assert lost.lost
    assert lost.mend(0, "") is True  # a store that holds none of its results: from #1
    assert lost.head() == [0, ""]


def test_a_link_kept_for_another_document_is_not_given_again(tmp_path):
    """A link is given again, as it was signed (with a key paired since too), only for the
    document it signs: a result number the journal gave again (its counter lost) gets a new
    link, not a stale one."""
    folder = folder_of(tmp_path)
    chain = signed(folder, 2)
    known = macs(2)
    assert chain.link(2, KEY, BOARD, "result 2") == [2, known[1], known[2]]  # the same
    assert Chain(folder).link(2, sp.Key(b"paired since"), BOARD, "result 2") == \
        [2, known[1], known[2]]
    fresh = chain.link(2, KEY, BOARD, "another result")
    assert fresh[:2] == [3, known[2]]
    assert fresh[2] == sp.result_mac(KEY, BOARD, 3, known[2], "another result")


def test_acknowledged_links_are_dropped_without_a_write_of_their_own(tmp_path):
    """The laptop's acknowledgement drops a link in RAM; the next link's write (or the next
    start, by the journal's list) drops it on flash: a result costs one write of the chain
    (two copies), as it cost two writes (its link, its acknowledgement) before."""
    folder = folder_of(tmp_path)
    chain = signed(folder, 3)
    path = tmp_path / "chain.json"
    before = path.read_bytes()
    chain.forget(1)
    assert path.read_bytes() == before and "1" not in chain.links
    chain.link(4, KEY, BOARD, "result 4")
    assert sorted(Chain(folder).links) == ["2", "3", "4"]
    chain.forget(2)
    again = Chain(folder)
    again.keep([3, 4])  # the journal's unacknowledged results
    assert sorted(again.links) == ["3", "4"] and again.head() == chain.head()


# --- the config -----------------------------------------------------------------------------

def paired(folder: str) -> Config:
    config = Config(folder)
    config.values.update({"board": BOARD, "table": 4, "key": "ab" * 32})
    config.save()
    return config


@pytest.mark.parametrize("copy", ["first", "second"])
def test_a_flipped_byte_anywhere_in_one_copy_of_the_config_is_mended(tmp_path, copy):
    folder = folder_of(tmp_path)
    paired(folder)
    path = tmp_path / "config.json"
    if copy == "second":
        path = second(path)
    original = path.read_bytes()
    for offset in range(len(original)):
        path.write_bytes(original)
        flip(path, offset)
        config = Config(folder)
        # Before the fix: a new board id, the key and table gone.
        assert (config.board, config.table, config.key()) == (BOARD, 4, b"\xab" * 32), offset
        assert config.mended == ["config"] and config.lost == [] and config.problem is None
        assert path.read_bytes() == original, offset


def test_both_copies_of_the_config_damaged_keep_the_board_id_and_ask_to_pair(tmp_path):
    folder = folder_of(tmp_path)
    paired(folder)
    signed(folder)  # the chain knows whose it is
    path = tmp_path / "config.json"
    flip(path, 5)
    flip(second(path), 9)
    config = Config(folder)
    # Before the fix: a new board id, silently (its results then a new board's).
    assert config.board == BOARD
    assert config.key() is None and config.table is None  # the key is gone with the file
    assert config.lost == ["config"]
    assert config.problem == "CONFIG DAMAGED: PAIR AGAIN"
    again = Config(folder)  # said at every start until the board is paired again
    assert again.board == BOARD and again.lost == ["config"] and again.problem
    # `pilkku pair` (host/sync/pair.py) writes the key and clears the mark.
    again.values.pop("damaged", None)
    again.values["key"] = "cd" * 32
    again.save()
    mended = Config(folder)
    assert mended.lost == [] and mended.problem is None and mended.key() == b"\xcd" * 32


def test_both_copies_damaged_and_no_chain_a_new_id_is_named(tmp_path):
    folder = folder_of(tmp_path)
    paired(folder)
    for path in (tmp_path / "config.json", second(tmp_path / "config.json")):
        path.write_bytes(b"{\x00")
    config = Config(folder)
    assert sp.board_id_ok(config.board) and config.board != BOARD
    assert config.lost == ["config"] and config.problem == "CONFIG DAMAGED: PAIR AGAIN"
    assert Config(folder).board == config.board  # kept from then on


# --- the schedule ---------------------------------------------------------------------------

def test_the_schedule_one_copy_mended_both_dropped_and_named(tmp_path):
    folder = folder_of(tmp_path)
    config = paired(folder)
    config.set_schedule(MATCHES)
    path = tmp_path / "schedule.json"
    original = path.read_bytes()
    for offset in range(0, len(original), 7):
        path.write_bytes(original)
        flip(path, offset)
        again = Config(folder)
        assert again.schedule() == MATCHES, offset
        assert again.mended == ["schedule"] and again.problem is None
    flip(path, 20)
    flip(second(path), 30)
    again = Config(folder)
    assert again.schedule() == []  # dropped: the laptop sends it again at the next sync
    assert again.lost == ["schedule"] and again.problem == "SCHEDULE DAMAGED: SYNC AGAIN"
    again.set_schedule(MATCHES[1:])
    assert again.lost == [] and again.problem is None
    assert Config(folder).schedule() == MATCHES[1:]


# --- the older firmware's files ---------------------------------------------------------------

def test_files_of_the_older_firmware_are_read_once_and_rewritten_checked(tmp_path):
    folder = folder_of(tmp_path)
    known = macs(2)
    chain = {"n": 2, "mac": known[2], "links": {"2": [2, known[1], known[2]]}}
    (tmp_path / "chain.json").write_text(json.dumps(chain))
    (tmp_path / "config.json").write_text(json.dumps({"board": BOARD, "table": 2,
                                                      "key": "ab" * 32}))
    (tmp_path / "schedule.json").write_text(json.dumps(MATCHES))
    config = Config(folder)
    assert (config.board, config.table, config.schedule()) == (BOARD, 2, MATCHES)
    assert Chain(folder).head() == [2, known[2]]
    for name in ("chain.json", "config.json", "schedule.json"):
        path = tmp_path / name
        assert second(path).read_bytes() == path.read_bytes(), name
        flip(path, 3)  # checked now: a flip is mended like any other
    assert Chain(folder).head() == [2, known[2]]
    again = Config(folder)
    assert (again.board, again.schedule()) == (BOARD, MATCHES)
    assert again.mended == ["config", "schedule"]


# --- on the displays --------------------------------------------------------------------------

def test_the_board_says_its_config_is_damaged(tmp_path):
    from desk_board import DeskBoard
    from displays import seen

    folder = folder_of(tmp_path)
    paired(folder)
    signed(folder)
    flip(tmp_path / "config.json", 2)
    flip(second(tmp_path / "config.json"), 2)
    desk = DeskBoard(tmp_path)
    desk.boot(10)
    rows = []
    for _ in range(200):
        desk.run(50)
        rows.append(seen(desk)[3])
    # The row's last character as the text scrolls by, each held over several samples.
    tape = "".join(char for char, _ in itertools.groupby(row[-1:] for row in rows))
    assert rows[0] == "CONFIG D" and "DAMAGED" in tape and "PAIR" in tape  # (scrolling)
    assert desk.app.config.board == BOARD


def test_a_schedule_that_reads_back_broken_is_dropped_not_shown(tmp_path):
    """A schedule read back with a match the sync would never have taken (one without its
    match_id: on the older firmware one flipped byte in schedule.json, 'match_id' ->
    'match_md', read back as JSON and stopped the menu at every boot, a watchdog reset loop)
    is dropped and named like a damaged one."""
    from desk_board import DeskBoard

    folder = folder_of(tmp_path)
    paired(folder)
    broken = [dict(MATCHES[0]), MATCHES[1]]
    broken[0]["match_md"] = broken[0].pop("match_id")
    (tmp_path / "schedule.json").write_text(json.dumps(broken))  # the older firmware's file
    desk = DeskBoard(tmp_path)
    desk.boot(10)  # raised KeyError: 'match_id' in the menu before the fix
    desk.run(3000)
    assert desk.app.config.lost == ["schedule"] and desk.app.menu.schedule == []


def test_a_config_that_reads_back_broken_is_named_not_used(tmp_path):
    """Settings read back with a key that is not hex (the older firmware's file, one flipped
    byte: int() raised in every hello afterwards) are named like damaged ones; the id is
    kept from the chain."""
    folder = folder_of(tmp_path)
    signed(folder)
    (tmp_path / "config.json").write_text(json.dumps({"board": BOARD, "table": 4,
                                                      "key": "ab" * 31 + "ag"}))
    config = Config(folder)
    assert config.key() is None and config.board == BOARD and config.lost == ["config"]
