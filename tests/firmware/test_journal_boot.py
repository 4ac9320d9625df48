"""The boot after a power cut never bricks the board (issue 22, items 1 and 3), on the real
unix port's littlefs through tests/firmware/journal_driver.py: a 9-ball and a 14.1 match, each
with undos and a snapshot taken right after one (so the record before the snapshot's last
event is a U record), finished, cut at every flash write of the finish and of the boot after;
and the very first boot, cut at every write (the journal's folders being made)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

from host.board import toolchain
from tests.firmware.test_journal_powercut import (  # noqa: F401  (build is a fixture)
    EXAMPLES,
    Model,
    build,
    check_resumed,
    matches,
    play,
)

SNAPSHOT_EVERY = 32  # Journal's default, which the driver uses


def script() -> list[list]:
    out: list[list] = []
    for number, name in enumerate(("demo-9ball.json", "demo-straight.json")):
        demo = json.loads((EXAMPLES / name).read_text())
        events = demo["events"]
        assert len(events) > SNAPSHOT_EVERY
        out.append(["start", demo["settings"], {"match": number}])
        for index, event in enumerate(events):
            out.append(["apply", event])
            if index in (5, SNAPSHOT_EVERY - 1):
                # Taken back and given again: at SNAPSHOT_EVERY - 1 the snapshot is kept
                # twice, the second time with a U record just before its last event.
                out.extend([["undo"], ["apply", event]])
        out.append(["finish", {"match": number, "ended": True}])
    return out


def test_cut_at_every_write_of_a_finish_after_a_snapshot(build, tmp_path):  # noqa: F811
    actions = script()
    model = Model(actions)
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(a, separators=(",", ":")) + "\n" for a in actions))
    base, cut, whole = (tmp_path / name for name in ("base.img", "cut.img", "whole.img"))
    play(build, base, path, 0, 0)
    at = 0
    finishes = [n for n, action in enumerate(actions) if action[0] == "finish"]
    cuts = 0
    for number in finishes:
        assert play(build, base, path, at, number - at)["acks"] == list(range(at, number))
        shutil.copy(base, whole)
        boot, end = play(build, whole, path, number, 1)["flash"]
        for k in range(end - boot):
            cuts += 1
            shutil.copy(base, cut)
            assert play(build, cut, path, number, 1, cut=boot + k)["cut"]
            resumed = play(build, cut, path, number, 0)  # raised before the fix: bricked
            assert "problem" not in resumed, (number, k)  # a cut is not damage
            if not matches(resumed, model.after(number)):
                check_resumed(resumed, model.after(number + 1))
        shutil.copy(whole, base)
        at = number + 1
    check_resumed(play(build, base, path, at, 0), model.after(at))
    assert cuts > 2 * len(finishes)


def test_first_boot_cut_at_every_write(build, tmp_path):  # noqa: F811
    """The journal's folders made at the first boot on a formatted flash, cut before each
    write: the next boot goes on from whatever was left and the board is empty."""
    path = tmp_path / "script.jsonl"
    path.write_text("[\"ack\"]\n")
    blank, cut = tmp_path / "blank.img", tmp_path / "cut.img"
    formatter = tmp_path / "format.py"
    formatter.write_text("import sys\nfrom hardware.boards import virtual_flash\n"
                         "virtual_flash.mount(sys.argv[1], 256, '/flash')\n")
    env = dict(os.environ, MICROPYPATH=str(build))
    subprocess.run([toolchain.micropython_binary(), str(formatter), str(blank)], env=env,
                   check=True, timeout=60)
    k = 0
    while True:  # until the boot takes fewer writes than the cut lets it
        shutil.copy(blank, cut)
        report = play(build, cut, path, 0, 0, cut=k)
        again = play(build, cut, path, 0, 0)  # raised EEXIST before the fix
        assert again["events"] is None and not again["docs"] and again["ready"], k
        if not report["cut"]:
            break
        k += 1
    assert k > 0
