"""`pilkku replay` on the bundled logs, and its refusal of damaged ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from host import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KEYS = ("game", "players", "score", "shooter", "inning", "fouls_in_a_row", "ball_in_hand",
        "pending_option", "winner", "finished")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["demo-9ball.json", "demo-8ball.json"])
def test_json_final_state_has_the_keys(capsys, name):
    code, out, _ = run(capsys, "replay", "--json", str(EXAMPLES / name))
    assert code == 0
    state = json.loads(out)
    for key in KEYS:
        assert key in state
    assert state["finished"] is True


def test_demo_9ball_result(capsys):
    code, out, _ = run(capsys, "replay", "--json", str(EXAMPLES / "demo-9ball.json"))
    state = json.loads(out)
    assert (state["score"], state["winner"]) == ([3, 2], 0)
    assert state["stats"][1]["break_wins"] == 1  # Ben's 9 on the break in rack 3


def test_text_reads_rack_by_rack(capsys):
    code, out, _ = run(capsys, "replay", str(EXAMPLES / "demo-9ball.json"))
    assert code == 0
    lines = out.splitlines()
    assert [line for line in lines if line.startswith("Rack ")][:2] == [
        "Rack 1, Anna breaks (Anna 0 : 0 Ben)", "Rack 2, Anna breaks (Anna 1 : 0 Ben)"]
    assert "Anna chooses: play/pass" in out
    assert lines[-1] == "Result: Anna 3 : 2 Ben, Anna wins"


def _corrupt(tmp_path, change) -> Path:
    doc = json.loads((EXAMPLES / "demo-9ball.json").read_text())
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    return path


def test_refused_event_is_named(tmp_path, capsys):
    def pocket_a_ball_twice(doc):
        doc["events"][3] = {"t": "shot", "pocketed": [4]}  # the 4 fell on the break

    code, out, err = run(capsys, "replay", "--json", str(_corrupt(tmp_path, pocket_a_ball_twice)))
    assert code == 2
    assert out == ""
    assert "event 3 refused: ball 4 is not on the table" in err


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="pilkku.match/9"), 'format must be "pilkku.match/1"'),
    (lambda d: d["settings"].update(race_to=0), "settings: 'race_to'"),
    (lambda d: d["events"].append({"t": "shot"}), "event 40 refused: the match is over"),
    (lambda d: d.update(events={}), "'events' must be a list"),
])
def test_damaged_documents(tmp_path, capsys, change, message):
    code, _, err = run(capsys, "replay", str(_corrupt(tmp_path, change)))
    assert code == 2
    assert message in err


def test_not_json_is_a_clear_error(tmp_path):
    path = tmp_path / "torn.json"
    path.write_text((EXAMPLES / "demo-9ball.json").read_text()[:200])
    done = subprocess.run([sys.executable, "-m", "host.cli", "replay", str(path)],
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert "is not JSON" in done.stderr


def _replay(path: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "host.cli", "replay", *options, str(path)],
                          capture_output=True, text=True, timeout=60)


def _corrupt_8ball(tmp_path, index: int, event: dict) -> Path:
    doc = json.loads((EXAMPLES / "demo-8ball.json").read_text())
    doc["events"][index] = event
    path = tmp_path / "call.json"
    path.write_text(json.dumps(doc))
    return path


NO_POCKET = "'call' is {\"ball\": b, \"pocket\": 1-6}"
POCKET_RANGE = "'pocket' must be a whole number from 1 to 6"


@pytest.mark.parametrize("call, says", [
    ({"ball": 9}, NO_POCKET), ({"ball": 9, "pocket": None}, NO_POCKET),
    ({"pocket": 1}, "a call names a ball"), ({"ball": 9, "pocket": 7}, POCKET_RANGE),
    ({"ball": 9, "pocket": "1"}, POCKET_RANGE)])
@pytest.mark.parametrize("options", [(), ("--json",)])
def test_an_8ball_call_that_is_not_ball_and_pocket_is_refused_naming_the_event(
        tmp_path, call, says, options):
    """docs/match-log.md: a call is a ball and a pocket. Text and --json alike exit 2 with
    the refusal, never a traceback (it was KeyError: 'pocket', and --json exited 0)."""
    path = _corrupt_8ball(tmp_path, 5, {"t": "shot", "call": call, "first": 9, "pocketed": [9]})
    done = _replay(path, *options)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert "event 5 refused: " + says in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_the_8_called_without_a_pocket_number_reads_back(tmp_path):
    """The one call without a pocket: the 8 from a panel without pocket keys
    (firmware/referee.py), `wrong_pocket` saying it fell elsewhere."""
    path = _corrupt_8ball(tmp_path, 12, {"t": "shot", "call": {"ball": 8}, "first": 8,
                                         "pocketed": [8], "wrong_pocket": True})
    done = _replay(path)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if "calls 8" in x)
    assert "calls 8, pockets 8" in line and "wrong pocket" in line, line
    assert _replay(path, "--json").returncode == 0


def _set(key, value):
    return lambda doc: doc.__setitem__(key, value)


def _set_event(value):
    return lambda doc: doc["events"].__setitem__(2, value)


# Every top-level field of the document, and each event, given a value of the wrong kind.
NOT_AN_OBJECT = ["text", ["a", "list"], None, 3]
WRONG_SHAPES = (
    [("settings", _set("settings", value), "settings: settings must be an object")
     for value in NOT_AN_OBJECT]
    + [("settings", lambda doc: doc.pop("settings"), "settings: settings must be an object")]
    + [("events", _set("events", value), "'events' must be a list")
       for value in ["text", {"t": "lag"}, None, 3]]
    + [("events", lambda doc: doc.pop("events"), "'events' must be a list")]
    + [("event", _set_event(value), "event 2 refused: an event must be a JSON object")
       for value in NOT_AN_OBJECT]
    + [("meta", _set("meta", value), "'meta' must be an object") for value in NOT_AN_OBJECT]
    + [("format", _set("format", value), 'format must be "pilkku.match/1"')
       for value in [["pilkku.match/1"], None, 1, {"v": 1}]]
)


@pytest.mark.parametrize("field, change, says", WRONG_SHAPES,
                         ids=["%s-%d" % (shape[0], n) for n, shape in enumerate(WRONG_SHAPES)])
@pytest.mark.parametrize("options", [(), ("--json",)])
def test_a_field_of_the_wrong_kind_is_refused_naming_it(tmp_path, capsys, field, change, says,
                                                       options):
    """A log whose settings is a string, a list, null or a number (or events, an event, meta,
    format of the wrong kind) exits 2 naming the field, in text and --json alike. The text
    reading picked its renderer from settings.get('game') first: AttributeError."""
    code, out, err = run(capsys, "replay", *options, str(_corrupt(tmp_path, change)))
    assert code == 2, (out, err)
    assert out == ""
    assert says in err
    assert "Traceback" not in err and "internal error" not in err


@pytest.mark.parametrize("doc", [["a", "list"], "text", None, 3])
def test_a_document_that_is_not_an_object_is_refused(tmp_path, capsys, doc):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    for options in ((), ("--json",)):
        code, _, err = run(capsys, "replay", *options, str(path))
        assert code == 2 and "a match log is a JSON object" in err, err
