"""`python -m grader` as a learner runs it: grading results, and one clear line for bad input.

Most run the command line in this process (`grader.cli.main`, tests.support.run_cli_here); a few run it
as the docs show it, in a process of its own: `--help`, `check`, `make check`, `grade` and a bad input.
What `check` prints for every lesson is read from gradings shared with the rest of the run (one warm
batch each): the stubs' from the `lesson_reports` fixture, the source notebooks' from `source_reports`;
the real runs below show that `check` prints exactly those reports.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.course import Course
from grader.engine import status
from grader.engine.scores import render_table
from grader.engine.submission import identify_lesson, read_notebook
from grader.instructor.grading import statuses
from grader.instructor.results import class_results
from grader.proof.simulate import hand_in, released_course
from tests.results_by_hand import Graded, course_by_hand, executed
from tests.support import (
    COURSE,
    Ran,
    grade_source_notebooks,
    once_per_run,
    read_lesson_reports,
    run_cli_here,
)

LESSON = COURSE.lesson_ids()[0]


def grader(*args, cwd=COURSE.root) -> Ran:
    """Run the CLI as the docs show it: the venv's python, with no venv on PATH."""
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        [sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300, env=env
    )
    return Ran(done.returncode, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def source_reports(tmp_path_factory):
    """lesson -> {"source": the Report of its source notebook}, graded once per run in one batch."""
    return read_lesson_reports(once_per_run(tmp_path_factory, "source-reports", grade_source_notebooks))


def printed_json(report) -> dict:
    """What `check --json` prints for a report, parsed."""
    return json.loads(report.to_json())


# ------------------------------------------------------------------- real processes, as the docs show them


def test_check_runs_as_the_readme_shows_it(source_reports):
    """The venv's python with no venv on PATH finds everything (the other tests run the command line in process)."""
    run = grader("check", COURSE.source_notebook(LESSON), "--json")
    assert run.returncode == 0 and run.stderr == ""
    report = json.loads(run.stdout)
    assert report["lesson"] == LESSON and report["score"] == report["max_score"] > 0
    assert report == printed_json(source_reports[LESSON]["source"])  # what the shared grading gives
    assert grader("release", "99_nothing").returncode == 2


def test_help_lists_every_command():
    run = grader("--help")
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.startswith("usage: python -m grader")
    for command in ("release", "collect", "grade", "serve", "feedback", "export", "report", "check", "prove"):
        assert command in run.stdout


def test_bad_input_is_one_line_on_stderr_and_exit_2_in_a_process_of_its_own(tmp_path):
    path = tmp_path / "submission.ipynb"
    path.write_text("print('hello')\n")
    run = grader("check", path, "--json")
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "not valid JSON" in run.stderr


def test_grade_runs_as_the_readme_shows_it(tmp_path):
    """`grade` in a process of its own: a submission graded before (written by hand as grading writes it) is
    left as it is, and a new one that is no file (a folder named like the notebook) is graded and flagged;
    neither needs a kernel (test_pipeline grades notebooks through `grade` in a process of its own)."""
    graded = {("ada", LESSON): Graded(executed(COURSE, LESSON))}
    course = course_by_hand(COURSE, tmp_path / "course", [LESSON], graded)
    (course.grading / "submitted" / "bo" / LESSON / f"{LESSON}.ipynb").mkdir(parents=True)
    run = grader("--course", course.root, "grade")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Graded 1 submission(s)") and "1 unchanged since last graded" in run.stdout
    assert f"  bo / {LESSON}: {status.INVALID} (no such file)" in run.stdout.splitlines()
    results = class_results(course)
    assert results.score("ada", LESSON) == results.max_scores[LESSON] > 0 and results.problem("ada", LESSON) is None
    assert results.score("bo", LESSON) == 0 and results.problem("bo", LESSON) == (status.INVALID, "no such file")


# A course whose nbgrader_config.py gives each cell COURSE_CELL_SECONDS (the default is 30), and a submission with a
# cell that sleeps SLEEPS: past the course's limit, well within the default and the limit given on the command line.
COURSE_CELL_SECONDS, SLEEPS, GIVEN = 3, 8, 25


def course_with_sleeping_hand_in(folder) -> tuple[Course, Path]:
    """A course of LESSON whose nbgrader_config.py gives each cell COURSE_CELL_SECONDS (and the notebook a limit
    that never comes into it), and ada's hand-in: the reference, with a cell that sleeps SLEEPS before it defines
    its function: (course, the hand-in's file)."""
    root = released_course(COURSE, folder, [LESSON])
    with open(root / "nbgrader_config.py", "a") as config:
        config.write(f"\nc.Execute.timeout = {COURSE_CELL_SECONDS}\nc.GradingLimits.notebook_timeout = 600\n")
    course = Course(root)
    answers = COURSE.reference_answers(LESSON)
    function = COURSE.graded_functions(LESSON)[0]
    answers[function] = f"import time\n\ntime.sleep({SLEEPS})\n\n{answers[function]}"  # stopped: never defined
    hand_in(root, "ada", LESSON, nbformat.writes(course.learner_notebook(LESSON, answers)).encode())
    return course, course.grading / "submitted" / "ada" / LESSON / f"{LESSON}.ipynb"


def test_grade_keeps_the_courses_cell_limit_unless_the_command_line_gives_one(tmp_path):
    course, _ = course_with_sleeping_hand_in(tmp_path / "course")
    root = course.root
    by_course = run_cli_here("--course", root, "grade")
    assert by_course.returncode == 0, by_course.stderr
    stopped, detail = statuses(course)["ada", LESSON]
    assert stopped == status.TIMEOUT and "ran past the time limit" in detail, detail  # 30 s would have let it run
    stopped_score = class_results(course)
    assert stopped_score.score("ada", LESSON) < stopped_score.max_scores[LESSON]
    given = run_cli_here("--course", root, "grade", "--force", "--timeout", GIVEN)
    assert given.returncode == 0, given.stderr
    assert statuses(course)["ada", LESSON] == (status.GRADED, "")
    results = class_results(course)
    assert results.score("ada", LESSON) == results.max_scores[LESSON] > 0


def test_check_keeps_the_courses_cell_limit_unless_the_command_line_gives_one(tmp_path):
    course, notebook = course_with_sleeping_hand_in(tmp_path / "course")
    by_course = run_cli_here("--course", course.root, "check", notebook, "--json")
    assert by_course.returncode == 0, by_course.stderr
    report = json.loads(by_course.stdout)
    assert report["score"] < report["max_score"]  # its function never defined: 30 s would have let the cell end
    given = run_cli_here("--course", course.root, "check", notebook, "--json", "--timeout", GIVEN)
    assert given.returncode == 0, given.stderr
    report = json.loads(given.stdout)
    assert report["score"] == report["max_score"] > 0


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


# ----------------------------------------------------------------- in this process


def test_check_prints_the_table_of_its_grading(lesson_reports):
    """A real `check` in process prints render_table of the grading, the same as the shared batch's."""
    run = run_cli_here("check", COURSE.release_notebook(LESSON))
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == render_table(lesson_reports[LESSON]["stub"]) + "\n"


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_check_gives_full_marks_to_the_solution_notebook(lesson, source_reports):
    report = printed_json(source_reports[lesson]["source"])
    assert set(report) == {"lesson", "score", "max_score", "tests"}
    assert report["lesson"] == lesson and report["score"] == report["max_score"] > 0
    assert all(set(t) == {"grade_id", "points", "max_points", "passed", "message"} for t in report["tests"])
    assert sum(t["max_points"] for t in report["tests"]) == report["max_score"]


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_check_gives_zero_to_the_release_and_prints_a_table(lesson, lesson_reports):
    release = COURSE.release_notebook(lesson)
    graded = read_notebook(release)  # as `check` reads it: the stub notebook of the shared grading
    assert identify_lesson(COURSE, graded, release) == lesson and graded == COURSE.learner_notebook(lesson, {})
    printed = render_table(lesson_reports[lesson]["stub"])
    lines = printed.splitlines()
    assert lines[1].split() == ["test", "points", "result", "message"]
    assert any(line.startswith("Total: 0 / ") for line in lines)
    assert "FAILED" in printed and "not written yet" in printed


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
    run = run_cli_here("check", path, "--json")
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and message in run.stderr


def test_release_refuses_an_unknown_lesson():
    run = run_cli_here("release", "99_nothing")
    assert run.returncode == 2 and "unknown lesson" in run.stderr
