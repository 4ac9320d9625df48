"""A power cut at every flash write of a sync's writes to the board's own files (issue 22,
item 2) on the real unix port's littlefs: the result chain (chain.json), the config with the
board id (config.json) and the schedule (schedule.json) are each the old file or the new one
after any cut, never lost: the chain goes on from its last link (it restarted at #1 when
write_json deleted chain.json before renaming its .tmp over it). Each is kept in two checked
copies (firmware/kept.py, issue 32 item 2): a cut at any write of either leaves both readable,
nothing is found damaged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from driver_build import driver_build

from host.board import toolchain
from rules_core import sync_protocol as sp

HERE = Path(__file__).resolve().parent
STEPS = 8
BOARD_FILES = ["firmware/__init__.py", "firmware/config.py", "firmware/kept.py",
               "firmware/result_chain.py", "firmware/words.py",
               "firmware/journal.py", "firmware/journal_log.py", "firmware/journal_records.py",
               "firmware/journal_rewrite.py", "firmware/journal_done.py",
               "firmware/journal_ring.py", "firmware/journal_ring_file.py",
               "firmware/journal_place.py", "firmware/snapshot.py", "firmware/room.py",
               "hardware/__init__.py",
               "hardware/compat.py", "hardware/boards/__init__.py",
               "hardware/boards/virtual_flash.py"]


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return driver_build(tmp_path_factory.mktemp("config-mpy"), BOARD_FILES,
                        ("journal_driver", "config_driver"))


def play(build: Path, image: Path, steps: int, cut: int = -1) -> dict:
    env = dict(os.environ, MICROPYPATH=str(build))
    done = subprocess.run([toolchain.micropython_binary(), "-X", "heapsize=128k",
                           str(build / "run_config_driver.py"), str(image), str(steps),
                           str(cut)], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    out: dict = {"acks": [], "flash": []}
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("CONFIG", "SCHEDULE", "CHAIN", "FOUND"):
            out[word.lower()] = json.loads(rest)
        elif word == "ACK":
            out["acks"].append(int(rest))
        elif word == "FLASH":
            out["flash"].append(int(rest))
        else:
            out[word.lower()] = True
    return out


def check_chain(chain: dict, board: str) -> None:
    """Every link held is the one the board signed as link n of an unbroken chain."""
    mac = ""
    macs = {0: ""}
    for n in range(1, chain["n"] + 1):
        mac = sp.result_mac(sp.Key(b"k" * 16), board, n, mac, "result %d" % n)
        macs[n] = mac
    assert chain["mac"] == macs[chain["n"]]
    for seq, (n, prev, link_mac, *_crc) in chain["links"].items():
        assert int(seq) == n and prev == macs[n - 1] and link_mac == macs[n]


def test_cut_at_every_write_of_the_boards_files(build, tmp_path):
    base, cut = tmp_path / "base.img", tmp_path / "cut.img"
    first = play(build, base, 0)  # formats; makes the board id (config.json)
    board = first["config"]["board"]
    whole = tmp_path / "whole.img"
    shutil.copy(base, whole)
    done = play(build, whole, STEPS)
    boot, end = done["flash"][0], None
    assert done["acks"] == list(range(STEPS))
    after = play(build, whole, 0)
    end = after["chain"]["n"]
    assert end == STEPS
    cuts = 0
    k = 0
    while True:
        shutil.copy(base, cut)
        report = play(build, cut, STEPS, cut=boot + k)
        if not report.get("cut"):
            break
        cuts += 1
        confirmed = len(report["acks"])
        again = play(build, cut, 0)
        chain = again["chain"]
        # The chain holds every step confirmed, and at most the one in flight.
        assert chain["n"] in (confirmed, confirmed + 1), (k, chain["n"], confirmed)
        assert again["config"]["board"] == board, k
        # Each of the two copies is old or new, never torn: nothing found damaged.
        assert again["found"] == {"mended": [], "lost": []}, k
        check_chain(chain, board)
        # ... and goes on from there: the next link is n + 1, after the last one.
        more = play(build, cut, 2)
        check_chain(play(build, cut, 0)["chain"], board)
        assert len(more["acks"]) == 2
        k += 1
    assert cuts > STEPS
