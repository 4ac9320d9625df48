"""hardware/ on real MicroPython: every module compiles with mpy-cross, and the same driving
script prints the same displays, keys and tones under the unix port as under CPython."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SOURCES = sorted(p.relative_to(ROOT) for p in (ROOT / "hardware").rglob("*.py"))


@pytest.mark.parametrize("source", SOURCES, ids=str)
def test_compiles_with_mpy_cross(mpy_cross_bin: str, tmp_path: Path, source: Path) -> None:
    out = tmp_path / source.with_suffix(".mpy").name
    done = subprocess.run(
        [mpy_cross_bin, "-O1", "-o", str(out), "-s", str(source), str(ROOT / source)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0


@pytest.fixture
def mpy_build(mpy_cross_bin: str, tmp_path: Path) -> Path:
    """hardware/ compiled to .mpy in its package layout, as it sits on the board's flash."""
    for source in SOURCES:
        out = tmp_path / source.with_suffix(".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [mpy_cross_bin, "-o", str(out), "-s", str(source), str(ROOT / source)], check=True
        )
    # The demo too, and a two-line driver: compiling a script on the port costs heap that a
    # board-sized heap does not have to spare.
    subprocess.run(
        [mpy_cross_bin, "-o", str(tmp_path / "mpy_demo.mpy"), str(HERE / "mpy_demo.py")],
        check=True,
    )
    (tmp_path / "run_demo.py").write_text("import mpy_demo\nmpy_demo.main()\n")
    return tmp_path


def run_demo_micropython(micropython_bin: str, build: Path) -> str:
    env = dict(os.environ, MICROPYPATH=str(build))
    done = subprocess.run(
        [micropython_bin, "-X", "heapsize=64k", str(build / "run_demo.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=str(build),
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def run_demo_cpython() -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(HERE / "mpy_demo.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=str(ROOT),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_same_output_under_micropython_and_cpython(micropython_bin: str, mpy_build) -> None:
    on_board = run_demo_micropython(micropython_bin, mpy_build)
    on_host = run_demo_cpython()
    assert on_board.splitlines()[-1] == "ok"
    assert on_board == on_host
    lines = on_host.splitlines()
    for expected in (
        "board virtual",
        "score -12 | 70= -12 | 71=  12 | 72=     | 73=     | 74=    ",
        "clock | 70=-999 | 71= 999 | 72=12:34 | 73=Hi,  | 74=P1.  ",
        "number | 70=-999 | 71= 999 | 72= 9:05 | 73=  9- | 74=BALL",
        "char 65 | 70=AAAA | 71= 999 | 72= 9:05 | 73=AAAA | 74=AAAA",
        "scroll 600 | 70=     | 71= 999 | 72= 9:05 | 73=OUL  | 74=- BA",
        "scroll 2100 | 70=     | 71= 999 | 72= 9:05 | 73= IN  | 74=HAND",
        "scroll done True",
        "key 130 5 press",  # chatter 100..110 ms, then 20 ms of debounce
        "key 730 5 long",
        "key 920 5 release",
        "key 720 A repeat",
        "key 1220 A release",
        "short refused True",
        "buzzer 650 off 2700",
    ):
        assert expected in lines


def test_the_font_tables_are_read_in_place_not_kept_in_the_heap(micropython_bin: str,
                                                                 mpy_build) -> None:
    """hardware/segments.py's fonts are bytes constants: a board that runs its code from ROM
    reads them from the flash in place, where tuples of ints (the 14-segment font was an
    array made from one, the 7-segment font bytes made from one) stayed in its heap for good
    as the module's constants. On the unix port (.mpy files, bytes in RAM too) the module
    cost 3 840 bytes of heap with the tuples and 2 240 without; 3 008 since the text's layout
    (``layout``, its bytecode: in the flash on a board) moved here from hardware/ht16k33.py
    (issue 31), where the tuples would make it ~4 600."""
    (mpy_build / "segments_heap.py").write_text(
        "import gc\nimport hardware.compat\ngc.collect()\nbefore = gc.mem_alloc()\n"
        "import hardware.segments\ngc.collect()\nprint(gc.mem_alloc() - before)\n")
    done = subprocess.run([micropython_bin, "-X", "heapsize=64k",
                           str(mpy_build / "segments_heap.py")], capture_output=True, text=True,
                          env=dict(os.environ, MICROPYPATH=str(mpy_build)), timeout=60,
                          cwd=str(mpy_build))
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.strip()) <= 3300, done.stdout
