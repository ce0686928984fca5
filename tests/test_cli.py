"""`python -m grader` as a learner runs it: grading results, and one clear line for bad input."""
import json
import os
import subprocess
import sys

import nbformat
import pytest

from tests.conftest import COURSE

LESSON = COURSE.lesson_ids()[0]


def grader(*args, cwd=COURSE.root):
    """Run the CLI as the README shows it: the venv's python, with no venv on PATH."""
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=300, env=env)


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_check_gives_full_marks_to_the_solution_notebook(lesson):
    run = grader("check", COURSE.source_notebook(lesson), "--json")
    assert run.returncode == 0 and run.stderr == ""
    report = json.loads(run.stdout)
    assert set(report) == {"lesson", "score", "max_score", "tests"}
    assert report["lesson"] == lesson and report["score"] == report["max_score"] > 0
    assert all(set(t) == {"grade_id", "points", "max_points", "passed", "message"} for t in report["tests"])
    assert sum(t["max_points"] for t in report["tests"]) == report["max_score"]


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_check_gives_zero_to_the_release_and_prints_a_table(lesson):
    run = grader("check", COURSE.release_notebook(lesson))
    assert run.returncode == 0 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert lines[1].split() == ["test", "points", "result", "message"]
    assert any(line.startswith("Total: 0 / ") for line in lines)
    assert "FAILED" in run.stdout and "not written yet" in run.stdout


def test_make_check_grades_a_notebook():
    run = subprocess.run(["make", "--no-print-directory", "check", f"NB={COURSE.release_notebook(LESSON)}"],
                         capture_output=True, text=True, cwd=COURSE.root, timeout=300)
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
def test_bad_input_is_one_line_on_stderr_and_exit_2(kind, tmp_path):
    make, message = BAD_INPUTS[kind]
    path = tmp_path / "submission.ipynb"
    if make:
        make(path)
    run = grader("check", path, "--json")
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and message in run.stderr


def test_release_refuses_an_unknown_lesson():
    run = grader("release", "99_nothing")
    assert run.returncode == 2 and "unknown lesson" in run.stderr
