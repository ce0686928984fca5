"""`python -m grader` as a learner runs it: grading results, and one clear line for bad input.

Most run the command line in this process (`grader.cli.main`); a few run it as the README
shows it, in a process of its own.
"""

import json
import os
import subprocess
import sys
from dataclasses import dataclass

import nbformat
import pytest

from grader import cli
from tests.support import COURSE, run_apart

LESSON = COURSE.lesson_ids()[0]


@dataclass
class Ran:
    """What a run of the command line gave: its exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def grader(*args, cwd=COURSE.root) -> Ran:
    """Run the CLI as the README shows it: the venv's python, with no venv on PATH."""
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        [sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300, env=env
    )
    return Ran(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def grader_here(capsys):
    """Run the CLI in this process (a thread of its own, for the kernels), as `grader` runs it."""
    capsys.readouterr()

    def run(*args) -> Ran:
        returncode = run_apart(cli.main, [str(a) for a in args])
        out, err = capsys.readouterr()
        return Ran(returncode, out, err)

    return run


def test_check_runs_as_the_readme_shows_it():
    """The venv's python with no venv on PATH finds everything (the other tests run the command line in process)."""
    run = grader("check", COURSE.source_notebook(LESSON), "--json")
    assert run.returncode == 0 and run.stderr == ""
    report = json.loads(run.stdout)
    assert report["lesson"] == LESSON and report["score"] == report["max_score"] > 0
    assert grader("release", "99_nothing").returncode == 2


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_check_gives_full_marks_to_the_solution_notebook(lesson, grader_here):
    run = grader_here("check", COURSE.source_notebook(lesson), "--json")
    assert run.returncode == 0 and run.stderr == ""
    report = json.loads(run.stdout)
    assert set(report) == {"lesson", "score", "max_score", "tests"}
    assert report["lesson"] == lesson and report["score"] == report["max_score"] > 0
    assert all(set(t) == {"grade_id", "points", "max_points", "passed", "message"} for t in report["tests"])
    assert sum(t["max_points"] for t in report["tests"]) == report["max_score"]


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_check_gives_zero_to_the_release_and_prints_a_table(lesson, grader_here):
    run = grader_here("check", COURSE.release_notebook(lesson))
    assert run.returncode == 0 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert lines[1].split() == ["test", "points", "result", "message"]
    assert any(line.startswith("Total: 0 / ") for line in lines)
    assert "FAILED" in run.stdout and "not written yet" in run.stdout


def test_make_check_grades_a_notebook():
    run = subprocess.run(
        ["make", "--no-print-directory", "check", f"NB={COURSE.release_notebook(LESSON)}"],
        capture_output=True,
        text=True,
        cwd=COURSE.root,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "Total: 0 / " in run.stdout


def _unknown_lesson(path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('hi')")])
    nbformat.write(nb, path)


BAD_INPUTS = {
    "missing file": (None, "no such file"),
    "a directory": (lambda p: p.mkdir(), "no such file"),
    "empty file": (lambda p: p.write_text(""), "an empty file"),
    "not JSON": (lambda p: p.write_text("print('hello')\n"), "not valid JSON"),
    "not UTF-8": (lambda p: p.write_bytes(b"\xff\xfe{\x00"), "not valid JSON"),
    "JSON, not a notebook": (lambda p: p.write_text('{"cells": 3}'), "not a valid Jupyter notebook"),
    "notebook of no known lesson": (_unknown_lesson, "not a notebook of a known lesson"),
}


@pytest.mark.parametrize("kind", BAD_INPUTS)
def test_bad_input_is_one_line_on_stderr_and_exit_2(kind, tmp_path, grader_here):
    make, message = BAD_INPUTS[kind]
    path = tmp_path / "submission.ipynb"
    if make:
        make(path)
    run = grader_here("check", path, "--json")
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and message in run.stderr


def test_release_refuses_an_unknown_lesson(grader_here):
    run = grader_here("release", "99_nothing")
    assert run.returncode == 2 and "unknown lesson" in run.stderr
