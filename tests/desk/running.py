"""`pilkku desk` in a process of its own, as the director runs it, for the tests that need
the real command (tests/desk, tests/e2e): started on a free port with the test's own runtime
folder (XDG_RUNTIME_DIR: its boards and its door, no other on this machine), read until it
printed its links — it listens before it prints them, so a link opened at once is served —
then asked as the director's browser asks, stopped by Ctrl-C or killed outright."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

from host.hall.app import COOKIE

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60  # only a failing run waits this long


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Running:
    """`pilkku desk --db DB --port PORT`, its output read line by line until its links."""

    def __init__(self, db: Path, port: int, runtime: Path) -> None:
        env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "host.cli", "desk", "--db", str(db), "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        while True:
            line = self.process.stdout.readline()  # type: ignore[union-attr]
            assert line, "pilkku desk ended: %s" % "".join(self.lines)
            self.lines.append(line)
            found = re.search(r"(http://\S+/desk/director\?token=(\S+))", line)
            if found:
                self.director, self.token = found.groups()
                break
        self.base = self.director.split("/desk/")[0]

    def open(self, path: str, form: dict | None = None) -> tuple[int, str]:
        """(status, page) of a GET, or a form's POST, with the director's cookie."""
        data = None if form is None else urlencode(form).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={
            "Cookie": "%s=%s" % (COOKIE, self.token), "Origin": self.base})
        try:
            with urllib.request.urlopen(request, timeout=WAIT_S) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self) -> str:
        """Ctrl-C: it must stop cleanly; all it said."""
        self.process.send_signal(signal.SIGINT)
        rest, _ = self.process.communicate(timeout=WAIT_S)
        said = "".join(self.lines) + rest
        assert self.process.returncode == 0, said
        return said

    def killed(self) -> None:
        """The laptop's process killed outright (a crash, a lid closed on a dead battery)."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=WAIT_S)
