"""Mutation testing with mutmut (`make mutants`; slow, not in CI; docs/testing.md).

    .venv/bin/python tests/mutants.py                  # every group, module by module
    .venv/bin/python tests/mutants.py rules journal    # some groups
    .venv/bin/python tests/mutants.py rules:pool       # one part of a group
    .venv/bin/python tests/mutants.py rules:match      # one module
    .venv/bin/python tests/mutants.py --scores         # the scores so far, per module
    .venv/bin/python tests/mutants.py --left           # ... and every unexplained survivor
    .venv/bin/python tests/mutants.py --retry rules:canon   # the survivors again (new tests)

Each group is cut into parts, and each part mutates its modules against the fast CPython
tests that concern them (the scenarios run on CPython only: the mutated sources are CPython's
alone). mutmut reads its settings from pyproject.toml, so each part runs in a copy of the
tree of its own under build/mutants/<group>-<part>, whose pyproject.toml holds the part's
[tool.mutmut]; a copy is kept between runs, and mutmut only tests again what changed.
Modules run one at a time on one core (JOBS=n for more).

A module's score is the share of its checked mutants the tests killed (a timeout counts as a
kill: the mutant made the tests hang). Mutants no test reaches ("no tests") count as
survivors; those not run yet are counted apart. A survivor that behaves exactly as the code
does (SQL written in another case, a faster path taken or not) is explained, by name, in
tests/mutants_equivalent.txt; the table gives the score both with and without them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "mutants"
BIN = Path(sys.executable).parent

KILLED = {"killed", "timeout", "caught by type check", "segfault"}
NOT_RUN = {"not checked", "skipped", "check was interrupted by user"}


EQUIVALENT = Path(__file__).resolve().parent / "mutants_equivalent.txt"


def equivalent() -> dict[str, str]:
    """Surviving mutants explained as equivalent (tests/mutants_equivalent.txt): name -> why.
    The file holds "## why" lines, each followed by the names of the mutants it explains."""
    why, explained = "", {}
    for line in EQUIVALENT.read_text().splitlines() if EQUIVALENT.is_file() else []:
        line = line.strip()
        if line.startswith("## "):
            why = line[3:]
        elif line and not line.startswith("#"):
            explained[line] = why
    return explained


def statuses(results: str) -> dict[str, Counter]:
    """module -> Counter of statuses, from mutmut's `name: status` lines; a survivor explained
    in tests/mutants_equivalent.txt counts as "equivalent"."""
    explained = equivalent()
    by_module: dict[str, Counter] = defaultdict(Counter)
    for line in results.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name or "__mutmut_" not in name:
            continue
        if status in ("survived", "no tests", "suspicious") and name in explained:
            status = "equivalent"
        module = name.split("__mutmut_")[0].rsplit(".", 1)[0]
        by_module[module][status] += 1
    return by_module


def survivors(results: str, explained: dict[str, str] | None = None) -> list[str]:
    """The surviving mutants, but those in `explained`."""
    return sorted(name for name in (line.strip().rpartition(": ")[0]
                                    for line in results.splitlines()
                                    if line.strip().endswith((": survived", ": no tests",
                                                              ": suspicious")))
                  if name not in (explained or {}))


def table(by_module: dict[str, Counter]) -> str:
    """Per module: the score (killed of checked) and the score of the mutants that are not
    explained as equivalent."""
    rows = ["| module | mutants | killed | equivalent | survived | no tests | not run | score "
            "| without equivalents |", "|---|---|---|---|---|---|---|---|---|"]
    for module in sorted(by_module):
        counts = by_module[module]
        killed = sum(counts[s] for s in KILLED)
        not_run = sum(counts[s] for s in NOT_RUN)
        checked = sum(counts.values()) - not_run
        real = checked - counts["equivalent"]
        score = "%.1f %%" % (100 * killed / checked) if checked else "—"
        sound = "%.1f %%" % (100 * killed / real) if real else "—"
        rows.append("| %s | %d | %d | %d | %d | %d | %d | %s | %s |" % (
            module, sum(counts.values()), killed, counts["equivalent"],
            counts["survived"] + counts["suspicious"], counts["no tests"], not_run, score,
            sound))
    return "\n".join(rows)


# The scenarios (CPython only: the mutated sources are CPython's alone) without the Hypothesis
# machines: under mutmut's trampolines one machine run takes minutes.
SCENARIOS = ["tests/test_scenarios.py", "-k", "not micropython"]
WORDS = "tests/test_refusal_words.py"  # every refusal's words the scenarios meet
RULES = "tests/rules"  # the games' rules at their edges (a folder: a new file there needs no
# change of a part's test selection, which would make mutmut forget every result)
# The journal's CPython tests but those at 3000 events (a 3000-event journal is played per
# run), with fewer seeds in the seeded ones (PILKKU_MUTANTS, set by run()).
JOURNAL_TESTS = ["tests/firmware/test_journal.py", "tests/firmware/test_journal_records.py",
                 "tests/firmware/test_journal_done.py", "tests/firmware/test_journal_log.py",
                 "tests/firmware/test_snapshot.py", "tests/firmware/test_journal_resume.py",
                 "tests/firmware/test_journal_pad.py", "tests/firmware/test_journal_damaged.py",
                 "-k", "not at_3000"]
RULES_UNIT = ["tests/test_match.py", "tests/test_match_snapshots.py",
              "tests/test_match_prepare.py", "tests/test_settings.py",
              "tests/test_bounded.py", "tests/test_crc_games.py", "tests/test_rulesets.py",
              "tests/test_events.py"]

# The director's night in the store: tables, withdrawals and corrections.
TOURNAMENT_TESTS = ["tests/host/test_tournament.py", "tests/host/test_formats_store.py",
                    "tests/host/test_hakukaavio_tables_order.py", "tests/host/test_corrections.py",
                    "tests/host/test_withdrawn_both.py", "tests/host/test_store.py",
                    "tests/host/test_tables_edges.py"]

# group -> part -> (modules, tests). A part's modules are mutated against its tests alone,
# in a folder of its own (build/mutants/<group>-<part>): mutmut runs for each mutant only the
# selected tests that reach the mutated function, and a surviving mutant runs all of them, so
# a module is given the fast tests that concern it and not, say, every scenario because the
# scenario runner fingerprints states with canon.
GROUPS = {
    "rules": {
        "engine": (["rules_core/match.py", "rules_core/state.py", "rules_core/refusal.py",
                    "rules_core/crc.py", "rules_core/games.py", "rules_core/rulesets.py",
                    "rules_core/events.py"],
                   RULES_UNIT + SCENARIOS[:1] + ["-k", "not micropython"]),
        "canon": (["rules_core/canon.py", "rules_core/eventlog.py"],
                  ["tests/test_canon.py", "tests/test_eventlog.py", "tests/test_match.py"]),
        "log": (["rules_core/matchlog.py", "rules_core/bounded.py"],
                ["tests/test_bounded.py", "tests/test_bounded_limits.py",
                 "tests/test_matchlog.py"]),
        "pool": (["rules_core/pool.py", "rules_core/nineball.py", "rules_core/eightball.py"],
                 [WORDS, RULES] + SCENARIOS),
        "straight": (["rules_core/straight.py"],
                     ["tests/test_straight.py", WORDS, RULES] + SCENARIOS[:1]
                     + ["-k", "not micropython and not TestStraight"]),
        "kaisa": (["rules_core/kaisa_table.py", "rules_core/kaisa_spots.py",
                   "rules_core/kaisa_points.py", "rules_core/kaisa_clock.py",
                   "rules_core/kaisa_innings.py", "rules_core/kaisa.py"],
                  ["tests/test_kaisa.py", WORDS, RULES] + SCENARIOS[:1]
                  + ["-k", "not micropython and not TestKaisa"]),
    },
    "journal": {
        "records": (["firmware/journal_records.py"], JOURNAL_TESTS),
        "log": (["firmware/journal_log.py"], JOURNAL_TESTS),
        "rewrite": (["firmware/journal_rewrite.py"], JOURNAL_TESTS),
        "snapshot": (["firmware/snapshot.py"], JOURNAL_TESTS),
        "journal": (["firmware/journal.py"], JOURNAL_TESTS),
    },
    "sync": {
        "protocol": (["rules_core/sync_protocol.py", "rules_core/sync_reader.py"],
                     ["tests/test_sync_protocol.py", "tests/firmware/test_sync_endpoint.py",
                      "-k", "not micropython"]),
        "endpoint": (["firmware/sync_endpoint.py", "firmware/sync_pull.py"],
                     ["tests/firmware/test_sync_endpoint.py"]),
        # The laptop's piece size and pulls: the direction test and two syncs on virtual
        # boards (a clean line and a poor one; the laptop's side runs in the test's process).
        # The laptop's pull, store and acknowledgement of every result, damaged ones too.
        "collect": (["host/sync/collect.py"],
                    ["tests/host/test_sync_damaged.py", "tests/host/test_sync_acks.py"]),
        "pieces": (["host/sync/pieces.py"],
                   ["tests/host/test_pieces_direction.py", "tests/host/test_sync.py",
                    "tests/host/test_sync_poor_line.py"]),
    },
    # The board's app around the rules, on the desk board (CPython).
    "firmware": {
        "shotclock": (["firmware/shotclock.py"],
                      ["tests/firmware/test_shotclock.py", "tests/firmware/test_shotclock_racks.py",
                       "tests/firmware/test_shotclock_edges.py", "tests/firmware/test_app.py"]),
        "menu": (["firmware/menu.py"],
                 ["tests/firmware/test_menu_panel.py", "tests/firmware/test_menu_abandon.py",
                  "tests/firmware/test_menu_choices.py", "tests/firmware/test_app.py"]),
        "kaisa_face": (["firmware/kaisa_face.py"],
                       ["tests/firmware/test_kaisa_panel.py",
                        "tests/firmware/test_kaisa_clock_undo.py",
                        "tests/firmware/test_kaisa_face_edges.py"]),
    },
    "tournament": {
        "tables": (["host/tournament/store/tables.py", "host/tournament/night/tables.py",
                    "host/tournament/formats/withdrawal.py"], TOURNAMENT_TESTS),
        # what follows a decided match: walkovers of withdrawn players, the draw run on
        "follow": (["host/tournament/night/follow.py"], TOURNAMENT_TESTS),
        "corrections": (["host/tournament/night/corrections.py"], TOURNAMENT_TESTS),
    },
    "results": {
        "store": (["host/tournament/store/results.py", "host/tournament/store/chain.py",
                   "host/tournament/store/damaged.py", "host/tournament/store/documents.py",
                   "host/tournament/store/per_revision.py"],
                  ["tests/host/test_store.py", "tests/host/test_store_chain.py",
                   "tests/hall/test_hall_one_read.py",
                   "tests/host/test_corrections.py", "tests/host/test_store_verify.py",
                   "tests/host/test_sync_missing_range.py::"
                   "test_a_gap_of_two_links_in_a_chain_is_named_first_to_last",
                   "tests/host/test_store_damaged.py"]),
    },
}


def _tracked() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in listed.splitlines() if line]


def parts(item: str) -> list[tuple[str, str]]:
    """(group, part) for "group", "group:part" or "group:module" (the part holding it)."""
    group, _, only = item.partition(":")
    if group not in GROUPS:
        raise KeyError(group)
    chosen = []
    for part, (modules, _tests) in GROUPS[group].items():
        if not only or only == part or only in [Path(m).stem for m in modules]:
            chosen.append((group, part))
    if not chosen:
        raise KeyError(item)
    return chosen


def folder_of(group: str, part: str) -> Path:
    return WORK / ("%s-%s" % (group, part))


def prepare(group: str, part: str) -> Path:
    """The part's copy of the tree (refreshed from the working tree) and its settings."""
    modules, tests = GROUPS[group][part]
    tests = [t for t in tests if not t.endswith(".py") or (ROOT / t).is_file()]
    folder = folder_of(group, part)
    for path in _tracked():
        source, target = ROOT / path, folder / path
        if not source.is_file():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != source.read_bytes():
            shutil.copy2(source, target)
    present = [m for m in modules if (ROOT / m).is_file()]
    roots = sorted({m.split("/")[0] + "/" for m in present})
    others = [p for p in ("rules_core/", "hardware/", "firmware/", "host/", "examples/", "docs/")
              if p not in roots]  # mutmut copies its source paths itself, mutated
    settings = "\n".join([
        "", "[tool.mutmut]",
        "source_paths = %s" % json.dumps(roots),
        "only_mutate = %s" % json.dumps(present),
        "also_copy = %s" % json.dumps(others),
        "pytest_add_cli_args_test_selection = %s" % json.dumps(tests),
        'pytest_add_cli_args = ["-p", "no:cacheprovider"]',
        "use_git_change_detection = false", ""])
    pyproject = (ROOT / "pyproject.toml").read_text()
    (folder / "pyproject.toml").write_text(pyproject + settings)
    return folder


def module_name(path: str) -> str:
    return path[:-3].replace("/", ".")


def run(group: str, part: str, only: str | None = None) -> None:
    folder = prepare(group, part)
    modules = [m for m in GROUPS[group][part][0] if (ROOT / m).is_file()]
    if only is not None and only != part:
        modules = [m for m in modules if Path(m).stem == only]
    env = dict(os.environ, PILKKU_CPYTHON_ONLY="1", PILKKU_MUTANTS="1")
    for module in modules:
        print("== %s:%s: %s" % (group, part, module), flush=True)
        subprocess.run([str(BIN / "mutmut"), "run", "--max-children",
                        os.environ.get("JOBS", "1"), module_name(module) + ".*"],
                       cwd=folder, env=env, check=False)


def results(group: str, part: str) -> str:
    folder = folder_of(group, part)
    if not (folder / "mutants").is_dir():
        return ""
    return subprocess.run([str(BIN / "mutmut"), "results", "--all", "true"], cwd=folder,
                          capture_output=True, text=True, check=False).stdout


def retry(group: str, part: str, only: str | None = None) -> None:
    """Test a part's surviving mutants again, or one module's (mutmut keeps a mutant's result
    until its function changes, so new tests reach only mutants named)."""
    folder = prepare(group, part)
    names = survivors(results(group, part), equivalent())
    if only is not None and only != part:
        names = [n for n in names if n.split("__mutmut_")[0].rsplit(".", 1)[0].endswith(
            "." + only)]
    print("== %s:%s: %d survivors again" % (group, part, len(names)), flush=True)
    if names:
        subprocess.run([str(BIN / "mutmut"), "run", "--max-children",
                        os.environ.get("JOBS", "1"), *names],
                       cwd=folder, check=False,
                       env=dict(os.environ, PILKKU_CPYTHON_ONLY="1", PILKKU_MUTANTS="1"))


def every_result() -> str:
    return "".join(results(group, part) for group in GROUPS for part in GROUPS[group])


def main(argv: list[str]) -> int:
    if argv == ["--scores"] or argv == ["--left"]:
        text = every_result()
        print(table(statuses(text)))
        if argv == ["--left"]:
            print("\n".join(survivors(text, equivalent())))
        return 0
    again = argv[:1] == ["--retry"]
    for item in (argv[1:] if again else argv) or list(GROUPS):
        try:
            chosen = parts(item)
        except KeyError:
            print("mutants: no group or module %r (groups: %s)" % (item, ", ".join(GROUPS)),
                  file=sys.stderr)
            return 2
        only = item.partition(":")[2] or None
        for group, part in chosen:
            if again:
                retry(group, part, only)
            else:
                run(group, part, only)
    print(table(statuses(every_result())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
