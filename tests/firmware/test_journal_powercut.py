"""Power cuts on the real filesystem code: the journal in the MicroPython unix port on a
LittleFS2 image (hardware/boards/virtual_flash.py), killed with SIGKILL at 50 random points
of a scripted match and restarted on the same image each time.

After every kill the restarted board must hold exactly the actions it confirmed (printed
"ACK n" for) and at most the one in flight, its state must equal a fresh CPython replay of
the events it resumed, and every finished match must replay from its document."""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
from pathlib import Path

import pytest

from host import toolchain
from rules_core import canon, matchlog
from rules_core.match import Match

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples"
HEAP = "96k"  # see docs/journal.md: littlefs' caches and the journal on top of the rules
KILLS = 50
SEED = 20240611

BOARD_FILES = ["firmware/__init__.py", "firmware/journal.py", "hardware/__init__.py",
               "hardware/compat.py", "hardware/boards/__init__.py",
               "hardware/boards/virtual_flash.py"]


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    try:
        toolchain.micropython_binary()
    except toolchain.ToolchainError as missing:
        pytest.skip(str(missing))
    target = tmp_path_factory.mktemp("journal-mpy")
    toolchain.compile_packages(target, ("rules_core",))
    for relative in BOARD_FILES:
        toolchain.compile_file(toolchain.ROOT / relative,
                               target / Path(relative).with_suffix(".mpy"), relative)
    toolchain.compile_file(HERE / "journal_driver.py", target / "journal_driver.mpy",
                           "tests/firmware/journal_driver.py")
    (target / "run_journal_driver.py").write_text(
        "import sys\nimport journal_driver\njournal_driver.main(sys.argv[1:])\n")
    return target


def script(rng: random.Random) -> list[list]:
    """Two real matches (the 9-ball and 8-ball demos) with the referee undoing and
    re-entering shots along the way, each finished; then the host acknowledges both."""
    out: list[list] = []
    for number, name in enumerate(("demo-9ball.json", "demo-8ball.json")):
        demo = json.loads((EXAMPLES / name).read_text())
        events = demo["events"]
        out.append(["start", demo["settings"], {"match": number}])
        for index, event in enumerate(events):
            if index and rng.random() < 0.2:
                back = rng.randint(1, min(3, index))
                out.extend([["undo"]] * back)
                out.extend(["apply", e] for e in events[index - back:index])
            out.append(["apply", event])
        out.append(["finish", {"match": number, "ended": True}])
    out.append(["ack"])
    return out


class Model:
    """What the journal must hold after the first n actions of the script."""

    def __init__(self, actions: list[list]):
        self.actions = actions

    def after(self, n: int) -> dict:
        active: list | None = None
        settings: dict | None = None
        finished: list[tuple] = []
        for number in range(n):
            action = self.actions[number % len(self.actions)]
            kind = action[0]
            if kind == "start":
                active, settings = [], action[1]
            elif kind == "apply":
                assert active is not None
                active.append(action[1])
            elif kind == "undo":
                assert active is not None
                active.pop()
            elif kind == "finish":
                finished.append((settings, active))
                active = None
            elif kind == "ack":
                finished = []
        return {"events": active, "settings": settings, "finished": finished}


def parse(lines: list[str]) -> dict:
    out: dict = {"acks": [], "docs": [], "ready": False, "end": False}
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "RESUMED":
            out["events"] = json.loads(rest)
        elif word == "STATE":
            out["state"] = rest
        elif word == "DOC":
            out["docs"].append(json.loads(rest))
        elif word == "READY":
            out["ready"] = True
        elif word == "ACK":
            out["acks"].append(int(rest))
        elif word == "END":
            out["end"] = True
        else:
            raise AssertionError("driver said %r" % line)
    return out


def run(build: Path, image: Path, actions: Path, start: int, count: int,
        rng: random.Random | None = None, wait_acks: int = 0, cut_early: float | None = None,
        log: Path | None = None) -> tuple[dict, str]:
    """Start the driver; kill it (SIGKILL) after `wait_acks` ACK lines plus a short random
    delay, or `cut_early` seconds after start; return what it printed and how it ended."""
    env = dict(os.environ, MICROPYPATH=str(build))
    errors = open(log or os.devnull, "w")
    proc = subprocess.Popen(
        [toolchain.micropython_binary(), "-X", "heapsize=" + HEAP,
         str(build / "run_journal_driver.py"), str(image), str(actions), str(start), str(count)],
        stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
    assert proc.stdout is not None
    lines: list[str] = []
    killed = False
    if rng is not None:
        if cut_early is not None:
            time.sleep(cut_early)
        else:
            seen = 0
            while seen < wait_acks or not any(x == "READY" for x in lines):
                line = proc.stdout.readline()
                if not line:
                    break
                lines.append(line.rstrip("\n"))
                if line.startswith("ACK"):
                    seen += 1
            time.sleep(rng.uniform(0, 0.004))
        proc.kill()
        killed = True
    # Not communicate(): with a timeout it reads the pipe itself, past what readline()
    # already buffered.
    rest = proc.stdout.read()
    proc.stdout.close()
    proc.wait(timeout=60)
    errors.close()
    lines.extend(x for x in rest.splitlines() if x)
    code = proc.returncode
    if cut_early is not None:
        lines = []  # cut while it was still reporting: lines may be cut short too
    if not (code == 0 or (killed and code == -9)):
        detail = Path(log).read_text()[-2000:] if log else ""
        raise AssertionError("driver failed (%s):\n%s\n%s" % (code, "\n".join(lines[-5:]),
                                                             detail))
    return parse(lines), "killed" if code == -9 else "exited"


def replayed_state(settings: dict, events: list) -> str:
    match = Match(settings)
    for event in events:
        match.apply(event)
    return canon.dumps(match.state.to_dict())


def check_resumed(report: dict, want: dict) -> None:
    assert report["events"] == want["events"]
    if want["events"] is not None:
        assert report["state"] == replayed_state(want["settings"], want["events"])
    assert len(report["docs"]) == len(want["finished"])
    for doc, (settings, events) in zip(report["docs"], want["finished"], strict=True):
        assert doc["events"] == events
        assert canon.dumps(matchlog.load(doc).state.to_dict()) == \
            replayed_state(settings, events)


def matches(report: dict, want: dict) -> bool:
    try:
        check_resumed(report, want)
    except AssertionError:
        return False
    return True


def test_power_cuts_on_littlefs(build, tmp_path):
    rng = random.Random(SEED)
    actions = script(rng)
    model = Model(actions)
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(a, separators=(",", ":")) + "\n" for a in actions))
    image = tmp_path / "flash.img"
    log = tmp_path / "driver.err"
    began = time.monotonic()
    done = 0  # actions on flash, by the last restart's report
    in_flight = 0  # kills after which the action in flight had reached flash
    early = 0
    for _ in range(KILLS):
        report, how = run(build, image, path, done, 200, rng, wait_acks=rng.randint(0, 12),
                          log=log)
        acked = report["acks"]
        assert acked == list(range(done, done + len(acked)))  # in order, none skipped
        confirmed = done + len(acked)
        if rng.random() < 0.2:  # another cut while the board boots: during its repairs
            early += 1
            run(build, image, path, confirmed, 0, rng, cut_early=rng.uniform(0, 0.03), log=log)
        # Restart on the same image and see what the board resumes.
        resumed, _ = run(build, image, path, confirmed, 0, log=log)
        if matches(resumed, model.after(confirmed)):
            done = confirmed
        elif how == "killed" and matches(resumed, model.after(confirmed + 1)):
            done = confirmed + 1
            in_flight += 1
        else:
            check_resumed(resumed, model.after(confirmed))  # fails, showing the difference
    elapsed = time.monotonic() - began
    print("power cuts: %d kills (%d during boot), %d actions confirmed over %d script actions, "
          "in-flight action kept %d times, %.1f s" % (KILLS, early, done, len(actions),
                                                     in_flight, elapsed))
    # The cuts went through whole matches: starts, finishes and acknowledgements included.
    assert done > len(actions)
