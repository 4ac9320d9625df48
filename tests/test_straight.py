"""14.1 continuous: enough scenarios, the demo log through `pilkku replay`, and Hypothesis
stateful tests (score = balls scored - penalties in every state; a refusal changes nothing;
undo and redo restore the exact state; replaying the log gives the same state)."""

from __future__ import annotations

import json
from pathlib import Path

import engine_checks
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from test_scenarios import scenario_files

from host import cli
from host.replay import straight as replay_straight
from rules_core import straight
from rules_core.match import Match

DEMO = Path(__file__).resolve().parent.parent / "examples" / "demo-straight.json"


def test_enough_14_1_scenarios():
    assert len(scenario_files("14.1")) >= 30


def test_demo_json_has_score_fouls_runs_option(capsys):
    assert cli.main(["replay", "--json", str(DEMO)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["game"] == "14.1"
    assert (state["score"], state["winner"], state["finished"]) == ([-17, 25], 1, True)
    assert state["fouls_in_a_row"] == [0, 0]
    assert state["runs"] == [{"current": 0, "high": 3}, {"current": 4, "high": 19}]
    assert state["pending_option"] is None
    assert state["rack"] == 2
    assert state["stats"][0] == {"innings": 6, "fouls": 4, "balls": 3, "penalty": 20}


def test_demo_json_mid_match_shows_the_pending_option(tmp_path, capsys):
    doc = json.loads(DEMO.read_text())
    doc["events"] = doc["events"][:14]  # up to Anna's third foul in a row
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(doc))
    assert cli.main(["replay", "--json", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["score"] == [-20, 2]
    assert state["pending_option"] == {"player": 1, "choices": ["accept", "rebreak"]}
    assert state["runs"][1] == {"current": 0, "high": 2}


def test_demo_text_reads_inning_by_inning(capsys):
    assert cli.main(["replay", str(DEMO)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "14.1 continuous: Anna vs Ben, race to 25"
    assert "Anna, inning 1 (Anna 0 : 0 Ben)" in lines
    assert "  Ben demands a re-break: Anna breaks again" in lines
    assert "THIRD FOUL IN A ROW; -15" in out
    assert "  Rack 2: 14 balls racked; the 15th ball to the head spot" in lines
    assert "  = Ben's run 19; Anna -20 : 21 Ben" in lines
    assert lines[-3] == "Result: Anna -17 : 25 Ben, Ben wins"
    assert lines[-1].startswith("Ben: 25 points in 5 innings (average 5.00), high run 19")


def test_average_in_integers():
    class Fake:
        score = [-17, 25]
        stats = [{"innings": 6}, {"innings": 0}]

    assert replay_straight.average(Fake, 0) == "-2.83"
    assert replay_straight.average(Fake, 1) == "-"
    Fake.stats = [{"innings": 3}, {"innings": 8}]
    Fake.score = [2, 1]
    assert (replay_straight.average(Fake, 0), replay_straight.average(Fake, 1)) == ("0.67", "0.13")


# --- Hypothesis: random referee events, legal and not --------------------------------------

FOULS = ("scratch", "cue_off", "touch", "no_rail", "bad_break", "wrong_ball", "head_string",
         "nonsense")


def _shot(data, state):
    table = state.on_table or [1]
    shot: dict = {"t": "shot"}
    pocketed = data.draw(st.lists(st.sampled_from(table), unique=True, max_size=5))
    if pocketed:
        shot["pocketed"] = pocketed
    if state.breaking or data.draw(st.integers(0, 9)) == 0:
        shot["break"] = data.draw(st.sampled_from(["safety", "safety", "called", "push"]))
    if shot.get("break") == "called" or data.draw(st.integers(0, 3)) == 0:
        ball = data.draw(st.sampled_from(pocketed or table)) if data.draw(
            st.integers(0, 4)) else data.draw(st.sampled_from(table))
        shot["call"] = {"ball": ball, "pocket": data.draw(st.integers(0, 6))}
    if "break" in shot and data.draw(st.integers(0, 9)):
        shot["cushions"] = data.draw(st.integers(0, 4))
        shot["cue_cushion"] = data.draw(st.booleans())
    if data.draw(st.integers(0, 2)) == 0:
        shot["foul"] = data.draw(st.sampled_from(FOULS if data.draw(st.integers(0, 3)) == 0
                                                 else ("scratch", "touch")))
    extra = data.draw(st.integers(0, 19))
    if extra == 0:
        shot["safety"] = True
    elif extra == 1:
        shot["rail"] = False
    elif extra == 2:
        shot["first"] = data.draw(st.sampled_from([0, table[0]]))
    elif extra == 3:
        shot["off"] = [data.draw(st.sampled_from(table))]
    elif extra == 4 and "call" in shot:
        shot["into"] = data.draw(st.integers(1, 6))
    elif extra == 5 and "call" in shot:
        shot["wrong_pocket"] = True
    return shot


def _referee_event(data, state):
    kind = data.draw(st.sampled_from(("shot",) * 16 + (
        "rack", "rack", "choose", "choose", "choose", "warn", "warn", "concede", "adjust",
        "adjust", "lag", "junk")))
    if kind == "shot":
        return _shot(data, state)
    if kind == "lag":
        return {"t": "lag", "winner": data.draw(st.sampled_from([0, 1, 2]))}
    if kind == "rack":
        rack: dict = {"t": "rack"}
        for key in ("ball15", "cue"):
            if data.draw(st.booleans()):
                rack[key] = data.draw(st.sampled_from(straight.PLACES + ("kitchen",)))
        return rack
    if kind == "choose":
        option = state.pending_option
        choices = list(option["choices"]) if option and data.draw(st.integers(0, 9)) else [
            "accept", "rebreak", "break", "rerack", "bih"]
        choose: dict = {"t": "choose", "choice": data.draw(st.sampled_from(choices))}
        if choose["choice"] == "break" or data.draw(st.integers(0, 6)) == 0:
            choose["breaker"] = data.draw(st.sampled_from([0, 1]))
        return choose
    if kind == "warn":
        return {"t": "warn", "player": data.draw(st.sampled_from([0, 1]))}
    if kind == "concede":
        return {"t": "concede", "player": data.draw(st.sampled_from([0, 1])),
                "scope": data.draw(st.sampled_from(["match", "rack", "rack", "rack"]))}
    if kind == "adjust":
        adjust: dict = {"t": "adjust", "reason": data.draw(st.sampled_from(["", "scorer slip"]))}
        what = data.draw(st.integers(0, 2))
        if what == 0:
            adjust["score"] = [data.draw(st.integers(-20, 8)), data.draw(st.integers(-20, 8))]
        elif what == 1:
            adjust["fouls_in_a_row"] = [data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))]
        else:
            adjust["on_table"] = data.draw(st.lists(st.integers(1, 15), unique=True, max_size=3))
        return adjust
    return data.draw(st.sampled_from([{"t": "dance"}, {"x": 1}, "shot", {"t": "shot", "q": 1},
                                      {"t": "rack", "q": 1}]))


class StraightMachine(RuleBasedStateMachine):
    @initialize(breaker=st.sampled_from([None, 0, 1, 0, 1]), race_to=st.integers(3, 40),
                rules=st.fixed_dictionaries({}, optional={
                    name: st.sampled_from(values) for name, values in straight.OPTIONS.items()}))
    def start(self, breaker, race_to, rules):
        self.match = Match({"game": "14.1", "players": ["Anna", "Ben"], "race_to": race_to,
                            "breaker": breaker, "rules": rules})
        self.adjusted = [0, 0]  # points set by referee adjustments, outside balls - penalties

    @rule(data=st.data())
    def referee_event(self, data):
        referee = _referee_event(data, self.match.state)
        states = engine_checks.try_event(self.match, referee)
        if states is None:
            return
        before, after = states
        notes = " ".join(after["notes"])
        event("accepted %s%s" % (referee["t"], " (rack)" if "racked" in notes else
                                 " (three fouls)" if "three_fouls" in notes else ""))
        if referee["t"] == "adjust":
            for player in (0, 1):
                self.adjusted[player] += after["score"][player] - before["score"][player]

    @rule()
    def undo_then_redo(self):
        engine_checks.undo_then_redo(self.match)

    @invariant()
    def score_is_balls_minus_penalties(self):
        state = self.match.state
        for player in (0, 1):
            stats = state.stats[player]
            assert state.score[player] == (stats["balls"] - stats["penalty"]
                                           + self.adjusted[player])

    @invariant()
    def runs_fouls_table_and_options_are_sane(self):
        state = self.match.state
        assert state.shooter in (None, 0, 1)
        assert state.on_table == sorted(set(state.on_table))
        assert set(state.on_table) <= set(straight.RACK)
        for player in (0, 1):
            run = state.runs[player]
            assert 0 <= run["current"] <= run["high"] <= state.stats[player]["balls"]
            if player != state.shooter:
                assert run["current"] == 0
            assert 0 <= state.fouls_in_a_row[player] <= 2
            assert state.stats[player]["innings"] >= 0
        if state.finished:
            assert state.winner in (0, 1) and state.pending_option is None
        else:
            assert max(state.score) < state.race_to
        option = state.pending_option
        if option is not None:
            assert option["player"] in (0, 1)
            assert set(option["choices"]) <= {"break", "accept", "rebreak"}

    @invariant()
    def replay_gives_the_same_state(self):
        engine_checks.replay_gives_the_same_state(self.match)


TestStraight = StraightMachine.TestCase
TestStraight.settings = settings(max_examples=100, stateful_step_count=80, deadline=None,
                                 suppress_health_check=[HealthCheck.too_slow])
