"""Runs rules scenarios (tests/scenarios/**.json) under CPython or MicroPython.

    micropython tests/scenario_runner.py FILE...   (MICROPYPATH must hold the repo root)

Prints one canonical JSON line per scenario: the outcome of every step, the final state and
the expectations that failed. pytest runs it in process and through the `micropython` binary
and requires the two outputs to be identical and free of failures.

Besides the fields a scenario names, every step is checked against the whole state: the
runner keeps a fingerprint (CRC-32 of the canonical JSON) of the state after each number of
events, so an undo must give back exactly the state before the event it drops, a redo exactly
the state after it, and a refused event must leave every field as it was.

A FILE ending in .jsonl holds the same scenario as lines (the scenario without its steps,
then one step per line) and is read a line at a time: in a board-sized heap the parsed
scenario must not crowd out the match it tests.
"""

import gc
import json
import sys

from rules_core import canon
from rules_core.crc import crc32
from rules_core.match import Match
from rules_core.refusal import Refused


def _collect():
    """Only the board-sized heap needs room made between steps; under CPython (pytest, mutmut)
    a full collection per step made the scenarios ten times slower."""
    if sys.implementation.name == "micropython":
        gc.collect()


def run_file(path):
    with open(path) as handle:
        if not path.endswith(".jsonl"):
            return run(json.loads(handle.read()))
        header = json.loads(handle.readline())
        return run(header, _lines(handle))


def _listed(list_path):
    with open(list_path) as handle:
        while True:
            line = handle.readline().strip()
            if not line:
                return
            yield line


def _lines(handle):
    while True:
        line = handle.readline()
        if not line:
            return
        yield json.loads(line)


def as_lines(scenario):
    """The .jsonl form of a scenario (see the module docstring)."""
    header = {}
    for key in scenario:
        if key != "steps":
            header[key] = scenario[key]
    lines = [canon.dumps(header)]
    for step in scenario.get("steps", []):
        lines.append(canon.dumps(step))
    return "\n".join(lines) + "\n"


def run(scenario, steps=None):
    failures = []
    outcomes = []
    match = Match(scenario["settings"])
    if steps is None:
        steps = scenario.get("steps", [])
    trail = [fingerprint(match)]  # trail[n]: the state after n events (kept past an undo)
    index = 0
    for step in steps:
        outcome = _step(match, step, index, failures)
        _check_whole_state(match, step, outcome, trail, index, failures)
        outcomes.append(outcome)
        index += 1
    expect = scenario.get("expect")
    trail = None
    _collect()  # the board-sized heap: room for the final state's copy
    final = match.state.to_dict()
    if expect is not None:
        _compare(expect, final, "final", failures)
    return {"name": scenario["name"], "outcomes": outcomes, "final": final,
            "failures": failures}


def _step(match, step, index, failures):
    where = "step %d" % index
    if "event" in step or "undo" in step or "redo" in step:
        if "event" in step:
            try:
                match.apply(step["event"])
                outcome = "ok"
            except Refused as refusal:
                outcome = "refused:" + refusal.code
            done = "ok"
        else:
            outcome = _undo_redo(match, step)
            done = "undo" if "undo" in step else "redo"
        wanted = step.get("refused")
        if wanted is None and outcome != done:
            failures.append("%s: expected %s, got %s" % (where, done, outcome))
        elif wanted is not None and outcome != "refused:" + wanted:
            failures.append("%s: expected refused:%s, got %s" % (where, wanted, outcome))
    elif "expect" in step:
        outcome = "checked"
    else:
        failures.append("%s: unknown step %s" % (where, canon.dumps(step)))
        outcome = "bad_step"
    if "expect" in step:
        _collect()
        _compare(step["expect"], match.state.to_dict(), where, failures)
    return outcome


class _Crc:
    def __init__(self):
        self.value = 0

    def write(self, text):
        self.value = crc32(text.encode(), self.value)


def fingerprint(match):
    """CRC-32 of the whole state's canonical JSON: a few bytes a step, so a long scenario's
    history fits the board-sized heap."""
    _collect()  # the board-sized heap: no litter of earlier steps under the pieces
    crc = _Crc()
    canon.dump(match.state.to_dict(), crc.write)
    return crc.value


def _check_whole_state(match, step, outcome, trail, index, failures):
    count = len(match.log)
    if "event" in step and outcome == "ok":
        del trail[count:]  # a new event: what was undone can no longer be redone
        trail.append(fingerprint(match))
        return
    if "event" not in step and "undo" not in step and "redo" not in step:
        return
    if count >= len(trail):
        failures.append("step %d: %d events, but only %d were ever applied" % (
            index, count, len(trail) - 1))
    elif fingerprint(match) != trail[count]:
        failures.append("step %d: after %s the whole state is not the state after %d events" % (
            index, outcome, count))


def _undo_redo(match, step):
    action = match.undo if "undo" in step else match.redo
    count = step.get("undo", step.get("redo"))
    try:
        for _ in range(count):
            action()
        return "undo" if "undo" in step else "redo"
    except Refused as refusal:
        return "refused:" + refusal.code


def _compare(expected, actual, where, failures, path=""):
    """Partial match: dicts compare only the keys the scenario names, recursively."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(expected):
            if key not in actual:
                failures.append("%s: no field %s%s" % (where, path, key))
            else:
                _compare(expected[key], actual[key], where, failures, path + key + ".")
    elif isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(
            actual) and len([e for e in expected if isinstance(e, dict)]):
        for i in range(len(expected)):
            _compare(expected[i], actual[i], where, failures, "%s%d." % (path, i))
    elif expected != actual:
        failures.append("%s: %s expected %s, got %s" % (
            where, path[:-1] or "state", canon.dumps(expected), canon.dumps(actual)))


def main(paths):
    """Run the scenarios named; an argument "@LIST" names a file of paths, one a line (on
    the board-sized heap a long command line would crowd out the match)."""
    if len(paths) == 1 and paths[0].startswith("@"):
        paths = _listed(paths[0][1:])
    for path in paths:
        canon.dump(run_file(path), sys.stdout.write)
        sys.stdout.write("\n")
        gc.collect()


if __name__ == "__main__":
    main(sys.argv[1:])
