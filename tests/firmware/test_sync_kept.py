"""The board's kept files at the sync (issue 32, item 2), on a desk board with the laptop's
frames made by hand: the hello names what the board found damaged (`mended`: one copy, mended
from the other; `lost`: both); a lost chain has no head (`chain` null), signs nothing and is
given its head again by the laptop's tagged K request, from which the results are signed;
a lost config leaves the board unpaired under its own id; a lost schedule is named until the
laptop sends one again."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_sync_endpoint import KEY, Laptop, SerialDesk, desk_board, document_of, pull, results_on

from rules_core import sync_protocol as sp

MATCH = {"match_id": "R1-01", "settings": {"game": "9ball", "race_to": 1,
                                           "players": ["Anna", "Ben"]}}


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset % len(data)] ^= 0x20
    path.write_bytes(bytes(data))


def damage(desk: SerialDesk, name: str, copies: tuple[str, ...] = ("", ".2")) -> None:
    for copy in copies:
        flip(desk.flash / (name + copy), 7)


def restarted(desk: SerialDesk) -> SerialDesk:
    """The power goes and comes back: the same flash, a new endpoint."""
    again = SerialDesk()
    again.flash, again._keep_flash = desk.flash, desk
    return again.boot()


def hello(laptop: Laptop) -> dict:
    reply = laptop.hello(version=sp.VERSION)
    assert reply["ok"] is True, reply
    return reply


def signed_one(desk: SerialDesk) -> tuple[SerialDesk, Laptop, list]:
    """A board with one result pulled (its link kept by the laptop) and acknowledged, and a
    second result pulled: (the board, its laptop, the two links)."""
    laptop = Laptop(desk)
    hello(laptop)
    first, second_ = results_on(desk, 2)
    one, _ = pull(laptop, {"seq": first, "size": 1000, "at": [0, 4], "link": True})
    assert laptop.ask(sp.ACK, {"seq": first})["ok"] is True
    two, _ = pull(laptop, {"seq": second_, "size": 1000, "at": [0, 4], "link": True})
    return desk, laptop, [one["link"], two["link"]]


def test_a_lost_chain_is_named_signs_nothing_and_is_mended_by_the_laptop():
    desk, _laptop, (one, two) = signed_one(desk_board())
    assert two[:2] == [2, one[2]]
    damage(desk, "chain.json")
    desk = restarted(desk)
    laptop = Laptop(desk)
    said = hello(laptop)
    # Before the fix: [0, ""], a chain restarted at #1 (every later result then refused).
    assert said["chain"] is None and said["lost"] == ["chain"] and said["mended"] == []
    (seq,) = desk.app.store.finished()
    refused, pieces = pull(laptop, {"seq": seq, "size": 1000, "at": [0, 4], "link": True})
    assert refused["ok"] is False and "chain" in refused["error"] and pieces == []
    # The laptop's last stored link is #1 (the second result's link never reached its
    # store): the board goes on from it, and the result is signed as #2 again, as before.
    assert laptop.ask(sp.CHAIN, {"n": one[0], "mac": one[2]}) == {"ok": True,
                                                                  "chain": [1, one[2]]}
    reply, _ = pull(laptop, {"seq": seq, "size": 1000, "at": [0, 4], "link": True})
    assert reply["link"] == two  # the same document, the same link: nothing looks edited
    assert reply["link"][2] == sp.result_mac(sp.Key(KEY), "pk-desk", 2, one[2],
                                             document_of(desk, seq))
    said = hello(laptop)
    assert said["chain"] == [2, two[2]] and said["lost"] == []
    # Mended, the chain is whole: a K is refused, the head stays.
    refused = laptop.ask(sp.CHAIN, {"n": 0, "mac": ""})
    assert refused["ok"] is False and "whole" in refused["error"]
    assert hello(Laptop(restarted(desk)))["chain"] == [2, two[2]]


@pytest.mark.parametrize("payload", [{}, {"n": 1}, {"n": 1, "mac": "x"}, {"n": "1", "mac": ""},
                                     {"n": 0, "mac": "a" * 64}, {"n": True, "mac": ""},
                                     {"n": 2, "mac": "A" * 64}])
def test_a_bad_chain_head_is_refused_and_changes_nothing(payload):
    desk, _laptop, _links = signed_one(desk_board())
    damage(desk, "chain.json")
    laptop = Laptop(restarted(desk))
    hello(laptop)
    reply = laptop.ask(sp.CHAIN, payload)
    assert reply["ok"] is False and reply["error"].startswith("bad request")
    assert hello(laptop)["chain"] is None


def test_an_untagged_chain_head_is_refused():
    desk, _laptop, _links = signed_one(desk_board())
    damage(desk, "chain.json")
    laptop = Laptop(restarted(desk))
    hello(laptop)
    laptop.key = sp.Key(b"not the key")  # a device without the tournament's key
    frames = laptop.frames(laptop.signed(sp.CHAIN, {"n": 0, "mac": ""}))
    assert frames[0][2]["ok"] is False and "pairing key" in frames[0][2]["error"]
    laptop.key = sp.Key(KEY)
    assert hello(laptop)["chain"] is None


def test_one_copy_damaged_is_mended_on_the_board_and_named_to_the_laptop():
    desk, laptop, (_one, two) = signed_one(desk_board())
    laptop.ask(sp.SCHEDULE, {"matches": [MATCH]})
    for name in ("chain.json", "config.json", "schedule.json"):
        damage(desk, name, ("",) if name != "config.json" else (".2",))
    desk = restarted(desk)
    said = hello(Laptop(desk))
    assert said["chain"] == [2, two[2]] and said["board"] == "pk-desk" and said["paired"]
    assert said["mended"] == ["chain", "config", "schedule"] and said["lost"] == []
    assert desk.app.config.schedule() == [MATCH]


def test_a_lost_config_leaves_the_board_unpaired_under_its_own_id():
    desk, _laptop, _links = signed_one(desk_board())
    damage(desk, "config.json")
    desk = restarted(desk)
    said = hello(Laptop(desk))
    assert said["board"] == "pk-desk" and said["paired"] is False and said["table"] is None
    assert said["lost"] == ["config"]


def test_a_lost_schedule_is_named_until_the_laptop_sends_one():
    desk = desk_board()
    laptop = Laptop(desk)
    hello(laptop)
    laptop.ask(sp.SCHEDULE, {"matches": [MATCH]})
    damage(desk, "schedule.json")
    desk = restarted(desk)
    laptop = Laptop(desk)
    said = hello(laptop)
    assert said["lost"] == ["schedule"] and desk.app.menu.schedule == []
    laptop.ask(sp.SCHEDULE, {"matches": [MATCH]})
    assert hello(laptop)["lost"] == []


def test_links_of_results_no_longer_on_the_board_are_dropped():
    desk, laptop, (_one, _two) = signed_one(desk_board())
    (seq,) = desk.app.store.finished()
    laptop.ask(sp.ACK, {"seq": seq})  # acknowledged: its link dropped in RAM only
    again = restarted(desk)
    again.line.incoming += b"~\n"  # the endpoint is made with a frame's first byte (~)
    again.run(10)
    assert again.app.endpoint.chain.links == {}


def test_a_link_whose_chain_write_fails_is_not_given_and_the_next_pull_signs_and_keeps_it(
        monkeypatch):
    """On a Pico the chain's write at a pull can find no heap (littlefs' file cache): the
    request is dropped and the laptop pulls again. The link was not on flash, so it must not
    be given by the next pull unsaved (a power cut then, and another link would get its
    number): the next pull signs it again and keeps it first."""
    from firmware import kept

    desk = desk_board()
    laptop = Laptop(desk)
    hello(laptop)
    (seq,) = results_on(desk, 1)
    write = kept.write
    writes = []

    def short_of_heap(path, value):
        writes.append(path)
        if len(writes) == 1:
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return write(path, value)

    monkeypatch.setattr(kept, "write", short_of_heap)
    assert laptop.frames(laptop.signed(sp.PULL, {"seq": seq, "size": 1000, "at": [0, 4],
                                                 "link": True})) == []  # dropped
    reply, _ = pull(laptop, {"seq": seq, "size": 1000, "at": [0, 4], "link": True},
                    seq=laptop.seq)
    assert len(writes) == 2  # signed again, and kept before it was given
    assert reply["link"][0] == 1  # the chain's first link: the failed one never counted
    again = restarted(desk)  # the power goes: the link given is the one on flash
    laptop2 = Laptop(again)
    hello(laptop2)
    same, _ = pull(laptop2, {"seq": seq, "size": 1000, "at": [0, 4], "link": True})
    assert same["link"] == reply["link"]
