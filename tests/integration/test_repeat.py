"""benchmarks/repeat.py: a pytest selection run in a fresh clone of this commit, with busy loops beside it, one line
per run and a count of the runs that passed; the shared venv used as it is and left whole, the clone and the loops
gone afterwards; a bad argument refused in one line, before anything is cloned."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from testbed.clone import fresh_clone
from tests.support import COURSE

# one worker for the module: a test that makes a clone must not run while another counts the clones
pytestmark = pytest.mark.xdist_group("repeat")

SCRIPT = COURSE.root / "benchmarks" / "repeat.py"
# quick, and reads no shared build
TINY = "tests/unit/test_suite.py::test_no_browser_test_waits_on_a_clock"


def repeat(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def clones() -> set[str]:
    return {name for name in os.listdir(tempfile.gettempdir()) if name.startswith("repeat-")}


def busy_loops() -> set[int]:
    """The pids of the busy loops running on the machine (repeat.py's, or any alike)."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if (entry / "cmdline").read_bytes().split(b"\0")[-3:-1] == [b"-c", b"while True: pass"]:
                found.add(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


def test_one_run_of_a_tiny_selection_in_a_clone_beside_a_busy_loop():
    before, loops_before = clones(), busy_loops()
    venv = COURSE.root / ".venv" / "bin" / "python"
    done = repeat("--runs", "1", "--load", "1", "--jobs", "0", TINY)
    assert done.returncode == 0, done.stdout + done.stderr
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=COURSE.root, capture_output=True, text=True).stdout
    first, run, last = done.stdout.splitlines()
    assert first == f"pytest {TINY} in a clone of {commit[:12]}, 1 runs, 1 busy loops beside", first
    assert re.fullmatch(r"run 1 of 1: 1 passed, 0 failed in \d+:\d\d\.\d", run), run
    assert last == "1 of 1 runs passed"
    log = (COURSE.root / "artifacts" / "repeat" / "run-1.log").read_text()
    assert "1 passed" in log and str(COURSE.root / ".venv") not in log.splitlines()[0]  # the clone's own python ran
    assert clones() <= before and venv.exists()  # the clone removed, the shared venv whole
    assert busy_loops() <= loops_before  # its loop ended


@pytest.mark.parametrize(
    "args, said",
    [
        (["--runs", "0", TINY], "argument --runs: '0' is not a whole number above 0"),
        (["--load", "-1", TINY], "--load -1: give 0 or more"),
        (["--runs", "2"], "give a pytest selection or --make TARGET (one of them)"),
        (["--make", "test", TINY], "give a pytest selection or --make TARGET (one of them)"),
        (["--revision", "no-such-commit", TINY], "--revision no-such-commit: no such commit in"),
    ],
)
def test_a_bad_argument_is_one_line_and_nothing_is_cloned(args, said):
    before = clones()
    done = repeat(*args)
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.count("\n") == 1 and f"repeat.py: error: {said}" in done.stderr, done.stderr
    assert clones() == before


def test_what_a_run_does_to_the_clones_venv_never_reaches_the_shared_one():
    """A test that runs make in the clone finds the venv up to date, a kernel's user can run it, and a test that
    deletes the clone's venv (as make's rebuild does) deletes its own links only."""
    shared = COURSE.root / ".venv" / "bin" / "python"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=COURSE.root, capture_output=True, text=True).stdout.strip()
    with fresh_clone(head) as clone:
        venv = clone / ".venv"
        assert venv.is_dir() and not venv.is_symlink() and not os.path.ismount(venv)
        assert clone.parent.stat().st_mode & 0o055 == 0o055  # a kernel's own user reaches the clone's venv
        assert subprocess.run(["make", "-q", ".venv/.installed"], cwd=clone).returncode == 0
        subprocess.run(["rm", "-rf", str(venv)], check=True)
        assert shared.exists()
    assert shared.exists()
