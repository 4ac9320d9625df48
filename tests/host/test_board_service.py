"""One board per folder: a second `pilkku board start` or `pilkku sim --dir` on a folder whose
board runs is refused, naming its pid and pty; `pilkku board stop` finds the running board; a
board killed with its host leaves nothing that blocks the next."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.board import registry

PILKKU = [sys.executable, "-m", "host.cli"]


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(PILKKU + list(args), capture_output=True, text=True, timeout=timeout)


def started(folder: Path) -> tuple[subprocess.Popen, dict]:
    process = subprocess.Popen(PILKKU + ["board", "start", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        info = registry.running(folder)
        if info and info.get("pty") and info.get("child"):
            return process, info
        assert process.poll() is None, process.stdout.read() if process.stdout else ""
        time.sleep(0.1)
    process.kill()
    pytest.fail("the board did not start")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    status = Path("/proc/%d/stat" % pid)
    return status.exists() and status.read_text().split()[2] != "Z"


def test_a_second_board_on_a_running_folder_is_refused_and_stop_finds_the_first(tmp_path):
    folder = tmp_path / "table1"
    script = tmp_path / "keys.txt"
    script.write_text("# start a free game\nC\n")
    first, info = started(folder)
    try:
        for second in (run("board", "start", str(folder)),
                       run("sim", "--dir", str(folder), "--script", str(script))):
            assert second.returncode == 2, second
            assert "pid %d" % first.pid in second.stderr and info["pty"] in second.stderr
            assert "pilkku board stop" in second.stderr and "Traceback" not in second.stderr
        assert first.poll() is None  # the running board was not disturbed
        stopped = run("board", "stop", str(folder))
        assert stopped.returncode == 0, stopped
        assert first.wait(10) == 0 and not alive(info["child"])
        assert registry.running(folder) is None
        nothing = run("board", "stop", str(folder))
        assert nothing.returncode == 2 and "no virtual board is running" in nothing.stderr
    finally:
        registry.stop(folder)


def test_a_board_killed_with_its_host_leaves_the_folder_free(tmp_path):
    folder = tmp_path / "table2"
    first, info = started(folder)
    try:
        first.send_signal(signal.SIGKILL)  # no clean-up at all: the lock file stays behind
        first.wait()
        deadline = time.monotonic() + 10  # its MicroPython process follows (its pty is gone)
        while alive(info["child"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(info["child"]) and registry.running(folder) is None
        second, again = started(folder)  # a stale lock file does not block the next board
        assert again["pid"] == second.pid != info["pid"]
        assert run("board", "stop", str(folder)).returncode == 0
        assert second.wait(10) == 0
    finally:
        registry.stop(folder)


def test_a_board_whose_power_goes_comes_back_on_the_same_pty(tmp_path):
    """kill -9 of the board's own process (a power cut): `pilkku board start` powers it up
    again on the same flash and pty, says so, and `pilkku board stop` still ends it."""
    folder = tmp_path / "table3"
    first, info = started(folder)
    try:
        os.kill(info["child"], signal.SIGKILL)
        deadline = time.monotonic() + 60
        again = info
        while time.monotonic() < deadline:
            again = registry.running(folder) or {}
            if again.get("child") not in (None, info["child"]) and alive(again["child"]):
                break
            time.sleep(0.1)
        assert again.get("child") not in (None, info["child"]), again
        assert again["pty"] == info["pty"] and (folder / "port").read_text() == info["pty"]
        assert run("board", "stop", str(folder)).returncode == 0
        said = first.communicate(timeout=10)[0]
        assert first.returncode == 0 and "the board lost power; powering it up again" in said
        assert "Traceback" not in said and not (folder / "port").exists()
    finally:
        registry.stop(folder)
