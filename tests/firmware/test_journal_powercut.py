"""Power cuts on the real filesystem code: the journal in the MicroPython unix port on a
LittleFS2 image (hardware/boards/virtual_flash.py), cut while it plays a scripted pair of
matches and restarted on the same image each time. Two ways to cut:

- test_power_cuts_on_littlefs: SIGKILL at 50 points (some aimed at starts, finishes and
  acknowledgements), in a quarter of the rounds once more during the next boot;
- test_cut_at_every_flash_write: the driver's flash dies before its k-th write, for every k
  of the actions that create, rewrite or delete files, and of the boot repairs after them.

After every cut the restarted board must hold exactly the actions it confirmed (printed
"ACK n" for) and at most the one in flight, its state must equal a fresh CPython replay of
the events it resumed, every finished match must replay from its document (with the start
meta updated by the finish meta), and every match keeps the sequence number it was given,
numbers rising with the matches and never reused.

Every action of the script is one step on flash that lands whole or not at all (an "ack"
acknowledges one result, as the host's sync does), so the check is exact. Timing decides
only *where* a SIGKILL lands (the machine's load moves it), never whether the test passes:
the rounds, aims and delays come from the seeded generator, a process plays a bounded number
of actions however late the kill comes, and the check accepts exactly "the confirmed
actions" or "one more" whatever the timing was."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from driver_build import JOURNAL_FILES, driver_build

from host.board import toolchain
from rules_core import canon, matchlog
from rules_core.match import Match

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples"
HEAP = "128k"  # see docs/journal.md: code loaded into the heap, littlefs, the journal, a match
KILLS = 50
DEEP = 8  # shots taken back at once, early in the first match: a compaction
BEYOND = 16  # actions a driver plays past the ACKs the round waits for, then it exits
SEED = 20240611
AIMS = ("", "", "", "start", "finish", "ack")  # what a round aims its cut at ("": nothing)



@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return driver_build(tmp_path_factory.mktemp("journal-mpy"), JOURNAL_FILES, ("journal_driver",))


def script(rng: random.Random) -> list[list]:
    """Two real matches (the 9-ball and 8-ball demos) with the referee undoing and
    re-entering shots along the way, each finished; then the host acknowledges them one
    result at a time (the oldest first), as its sync does. Once, early in the first match,
    the referee takes back DEEP shots: the undone records outweigh the log, which is then
    compacted (the journal's rewrite through a temporary file and a rename)."""
    out: list[list] = []
    names = ("demo-9ball.json", "demo-8ball.json")
    for number, name in enumerate(names):
        demo = json.loads((EXAMPLES / name).read_text())
        events = demo["events"]
        out.append(["start", demo["settings"], {"match": number}])
        for index, event in enumerate(events):
            back = 0
            if number == 0 and index == DEEP:
                back = DEEP
            elif index and rng.random() < 0.2:
                back = rng.randint(1, min(3, index))
            if back:
                out.extend([["undo"]] * back)
                out.extend(["apply", e] for e in events[index - back:index])
            out.append(["apply", event])
        out.append(["finish", {"match": number, "ended": True}])
    out.extend([["ack"]] * len(names))
    return out


class Model:
    """What the journal must hold after the first n actions of the script (n counts on
    round the script). A match is named by the number of its start action."""

    def __init__(self, actions: list[list]):
        self.actions = actions
        self._states: list[dict] = [{"events": None, "settings": None, "meta": None,
                                     "active": None, "finished": []}]

    def _step(self, state: dict, number: int) -> dict:
        action = self.actions[number % len(self.actions)]
        kind = action[0]
        state = dict(state, finished=list(state["finished"]))
        if kind == "start":
            assert state["events"] is None
            state.update(events=[], settings=action[1], meta=action[2], active=number)
        elif kind == "apply":
            state["events"] = state["events"] + [action[1]]
        elif kind == "undo":
            assert state["events"]
            state["events"] = state["events"][:-1]
        elif kind == "finish":
            meta = dict(state["meta"], **action[1])
            state["finished"].append((state["active"], state["settings"], state["events"],
                                      meta))
            state.update(events=None, settings=None, meta=None, active=None)
        elif kind == "ack":
            assert state["finished"]
            state["finished"].pop(0)
        else:
            raise AssertionError("unknown action %r" % kind)
        return state

    def after(self, n: int) -> dict:
        while len(self._states) <= n:
            self._states.append(self._step(self._states[-1], len(self._states) - 1))
        return self._states[n]


def _without_the_dead_flash_in_finalisers(lines: list[str]) -> list[str]:
    """The lines less what MicroPython prints when a file the collector finalises after the
    cut meets the dead flash: a traceback of the fake flash's own frames alone, ending in its
    EIO (a cut chip runs nothing; the driver goes on to say CUT). Any other traceback stays,
    and fails the test."""
    kept: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i] == "Traceback (most recent call last):":
            end = i + 1
            while end < len(lines) and lines[end].startswith("  "):
                end += 1
            frames = [line for line in lines[i + 1:end] if line.startswith("  File ")]
            if end < len(lines) and lines[end] == "OSError: [Errno 5] EIO" and frames and all(
                    "journal_driver.py" in f and f.endswith(("in writeblocks", "in _erase",
                                                             "in _spend")) for f in frames):
                i = end + 1
                continue
        kept.append(lines[i])
        i += 1
    return kept


def parse(lines: list[str]) -> dict:
    out: dict = {"acks": [], "docs": [], "seq": None, "ready": False, "end": False,
                 "flash": [], "cut": False}
    lines = _without_the_dead_flash_in_finalisers(lines)
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "RESUMED":
            if rest == "null":
                out["events"] = None
            else:
                seq, _, events = rest.partition(" ")
                out["seq"] = int(seq)
                out["events"] = json.loads(events)
        elif word == "STATE":
            out["state"] = rest
        elif word == "DOC":
            seq, _, doc = rest.partition(" ")
            out["docs"].append((int(seq), json.loads(doc)))
        elif word == "PROBLEM":
            out["problem"] = rest
        elif word == "READY":
            out["ready"] = True
        elif word == "ACK":
            out["acks"].append(int(rest))
        elif word == "END":
            out["end"] = True
        elif word == "FLASH":
            out["flash"].append(int(rest))
        elif word == "CUT":
            out["cut"] = True
        else:
            raise AssertionError("driver said %r" % line)
    return out


def run(build: Path, image: Path, actions: Path, start: int, count: int,
        rng: random.Random | None = None, wait_acks: int = 0, cut_early: float | None = None,
        log: Path | None = None, spread: float = 0.004) -> tuple[dict, str]:
    """Start the driver; kill it (SIGKILL) after `wait_acks` ACK lines plus a random delay
    of up to `spread` seconds, or `cut_early` seconds after start; return what it printed
    and how it ended."""
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
        delay = rng.uniform(0, spread)  # drawn first: the generator's sequence is fixed
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
            time.sleep(delay)
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


def play(build: Path, image: Path, actions: Path, start: int, count: int,
         cut: int = -1) -> dict:
    """Run the driver to its end, no kill; with `cut` >= 0 the flash dies after that many
    writes (see journal_driver.py). Return what it printed."""
    env = dict(os.environ, MICROPYPATH=str(build))
    done = subprocess.run(
        [toolchain.micropython_binary(), "-X", "heapsize=" + HEAP,
         str(build / "run_journal_driver.py"), str(image), str(actions), str(start), str(count),
         str(cut)], capture_output=True, text=True, env=env, timeout=60)
    if done.returncode != 0:
        raise AssertionError("driver failed (%s):\n%s" % (done.returncode,
                                                          (done.stdout + done.stderr)[-2000:]))
    return parse(done.stdout.splitlines())


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
    for (_, doc), (_, settings, events, meta) in zip(report["docs"], want["finished"],
                                                      strict=True):
        assert doc["events"] == events
        assert doc["meta"] == meta
        assert canon.dumps(matchlog.load(doc).state.to_dict()) == \
            replayed_state(settings, events)


def matches(report: dict, want: dict) -> bool:
    try:
        check_resumed(report, want)
    except AssertionError:
        return False
    return True


def check_seqs(seqs: dict[int, int], report: dict, want: dict) -> None:
    """Each match (named by its start action) keeps one sequence number, and the numbers
    rise with the matches: none is reused, so an acknowledgement cannot hit another one."""
    seen = [(start, seq) for (seq, _), (start, *_) in zip(report["docs"], want["finished"],
                                                          strict=True)]
    if want["active"] is not None:
        seen.append((want["active"], report["seq"]))
    for start, seq in seen:
        assert seqs.setdefault(start, seq) == seq, "match %d changed its number" % start
    ordered = [seqs[start] for start in sorted(seqs)]
    assert ordered == sorted(set(ordered)), "sequence numbers reused or out of order"


def aim(actions: list[list], done: int, kind: str) -> int:
    """ACKs to wait for so that the next action of `kind` is the one in flight."""
    ahead = 0
    while actions[(done + ahead) % len(actions)][0] != kind:
        ahead += 1
    return ahead


def test_power_cuts_on_littlefs(build, tmp_path):
    rng = random.Random(SEED)
    actions = script(rng)
    model = Model(actions)
    # Every action changes what the board holds, so "landed" and "not landed" never look
    # alike: the check below cannot take one for the other.
    for n in range(2 * len(actions)):
        assert model.after(n) != model.after(n + 1), "action %d changes nothing" % n
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(a, separators=(",", ":")) + "\n" for a in actions))
    image = tmp_path / "flash.img"
    log = tmp_path / "driver.err"
    began = time.monotonic()
    done = 0  # actions on flash, by the last restart's report
    seqs: dict[int, int] = {}  # start action -> the match's sequence number
    in_flight: dict[str, int] = {}  # kinds of the actions in flight at the cuts
    landed: dict[str, int] = {}  # kinds of the in-flight actions that reached flash
    least = 0  # the ACKs the rounds waited for: each one was confirmed
    targets = set()
    early = 0
    boot = 0.02  # seconds from start to READY, measured on the last restart
    for _ in range(KILLS):
        # The same draws every round, whatever the timing did.
        target, wait, cut_boot, when = rng.choice(AIMS), rng.randint(0, 12), \
            rng.random() < 0.25, rng.uniform(0, 1.2)
        wait = aim(actions, done, target) if target else wait
        # At most wait + BEYOND actions, however late the cut comes on a busy machine: what
        # one process does (and the heap it needs) never depends on the load.
        report, how = run(build, image, path, done, wait + BEYOND, rng, wait_acks=wait,
                          log=log, spread=0.001 if target else 0.004)
        acked = report["acks"]
        assert acked == list(range(done, done + len(acked)))  # in order, none skipped
        confirmed = done + len(acked)
        least += wait
        targets.add(target)
        if how == "killed":
            kind = actions[confirmed % len(actions)][0]
            in_flight[kind] = in_flight.get(kind, 0) + 1
        if cut_boot:  # another cut while the board boots: during its repairs
            early += 1
            run(build, image, path, confirmed, 0, rng, cut_early=when * boot, log=log)
        # Restart on the same image and see what the board resumes.
        started = time.monotonic()
        resumed, _ = run(build, image, path, confirmed, 0, log=log)
        boot = time.monotonic() - started
        if matches(resumed, model.after(confirmed)):
            done = confirmed
        elif how == "killed" and matches(resumed, model.after(confirmed + 1)):
            done = confirmed + 1
            kind = actions[confirmed % len(actions)][0]
            landed[kind] = landed.get(kind, 0) + 1
        else:
            action = actions[confirmed % len(actions)][0]
            print("action %d (%s) was in flight (%s)" % (confirmed, action, how))
            check_resumed(resumed, model.after(confirmed))  # fails, showing the difference
        check_seqs(seqs, resumed, model.after(done))
    elapsed = time.monotonic() - began
    print("power cuts: %d kills (%d during boot), %d actions confirmed over %d script actions, "
          "in flight %s, of which kept %s, %d matches numbered, %.1f s"
          % (KILLS, early, done, len(actions), in_flight, landed, len(seqs), elapsed))
    # The cuts went through whole matches, some aimed at starts, finishes and acknowledgements
    # (the seed decides that, not the timing); every ACK waited for was kept.
    assert targets == set(AIMS) and done >= least


def focus(actions: list[list]) -> list[int]:
    """The actions cut at every flash write: every start (the first on an empty journal, one
    with a result waiting, one after all were acknowledged), finish and acknowledgement, the
    first event, and the deep take-back with its compaction."""
    kinds = [a[0] for a in actions]
    deep = next(n for n in range(len(kinds)) if kinds[n:n + DEEP] == ["undo"] * DEEP)
    chosen = {1, len(actions)} | set(range(deep, deep + DEEP))
    chosen |= {n for n, kind in enumerate(kinds) if kind in AIMS[-3:]}
    return sorted(chosen)


def same_board(one: dict, other: dict) -> bool:
    keys = ("events", "state", "seq", "docs")
    return all(one.get(key) == other.get(key) for key in keys)


def test_cut_at_every_flash_write(build, tmp_path):
    """A power cut before each flash write (block program or erase) of the actions that
    rewrite or delete files, and then a second cut before each write of the repairs the next
    boot makes (once per kind of repair: an action cut at two writes whose boots both keep it
    or both drop it, with as many writes, is one repair): the board resumes the actions
    before, or those and the one cut, exactly as the model says; a cut boot repairs to the
    very same board. No timing involved."""
    actions = script(random.Random(SEED))
    model = Model(actions)
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(a, separators=(",", ":")) + "\n" for a in actions))
    base, whole, cut, before = (tmp_path / name for name in ("base.img", "whole.img",
                                                             "cut.img", "before.img"))
    play(build, base, path, 0, 0)  # a formatted, empty journal
    at = 0  # the actions on `base`
    seqs: dict[int, int] = {}
    cuts = boot_cuts = kept = 0
    swept: set[tuple] = set()
    for number in focus(actions):
        if number > at:
            assert play(build, base, path, at, number - at)["acks"] == list(range(at, number))
            at = number
        shutil.copy(base, whole)
        done = play(build, whole, path, number, 1)
        assert done["acks"] == [number]
        boot, end = done["flash"]
        for k in range(end - boot):  # the power goes before the action's write k
            cuts += 1
            shutil.copy(base, cut)
            report = play(build, cut, path, number, 1, cut=boot + k)
            assert report["cut"] and not report["acks"], (number, k)
            shutil.copy(cut, before)
            resumed = play(build, cut, path, number, 0)
            if matches(resumed, model.after(number)):
                landed = number
            else:
                check_resumed(resumed, model.after(number + 1))
                landed = number + 1
                kept += 1
            check_seqs(seqs, resumed, model.after(landed))
            repairs = resumed["flash"][0]  # writes the boot's repairs took
            if (number, landed, repairs) in swept:
                continue  # the same repair as after an earlier cut of this action
            swept.add((number, landed, repairs))
            for j in range(repairs):  # the boot's repairs, cut at write j
                boot_cuts += 1
                shutil.copy(before, cut)
                assert play(build, cut, path, number, 0, cut=j)["cut"]
                again = play(build, cut, path, number, 0)
                assert same_board(again, resumed), (number, k, j)
        shutil.copy(whole, base)
        at = number + 1
        resumed = play(build, base, path, at, 0)
        check_resumed(resumed, model.after(at))
        check_seqs(seqs, resumed, model.after(at))
    print("cut at every write of %d actions: %d cuts (%d kept the action), %d cuts during "
          "the boot after" % (len(focus(actions)), cuts, kept, boot_cuts))
