"""What the command line says on stderr besides its results, by level: progress by default, nothing but warnings and
errors with --quiet, the details with --verbose; its results on stdout the same at every level."""

from __future__ import annotations

import contextlib
import io
import logging
import re

import pytest

from grader import cli, logs
from tests.results_by_hand import Graded, course_by_hand, executed
from tests.support import COURSE, Ran, run_apart, run_cli_here

LESSON = COURSE.lesson_ids()[0]


class Terminal(io.StringIO):
    """stderr as a person's terminal: what the command line shows only there (progress) is shown."""

    def isatty(self) -> bool:
        return True


def run_on_a_terminal(*args) -> Ran:
    out, err = io.StringIO(), Terminal()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        returncode = run_apart(cli.main, [str(arg) for arg in args])
    return Ran(returncode, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def small_class(tmp_path_factory):
    """A class of one submission graded before: `grade` on it needs no kernel."""
    graded = {("ada", LESSON): Graded(executed(COURSE, LESSON))}
    return course_by_hand(COURSE, tmp_path_factory.mktemp("class") / "course", [LESSON], graded)


def test_quiet_silences_the_progress_and_leaves_the_result():
    notebook = COURSE.release_notebook(LESSON)
    said = run_on_a_terminal("check", notebook)
    quiet = run_on_a_terminal("--quiet", "check", notebook)
    assert said.returncode == quiet.returncode == 0
    assert said.stderr == f"Grading {notebook} with every test, hidden ones included (a few seconds)...\n"
    assert quiet.stderr == "" and quiet.stdout == said.stdout and "Total: 0 / " in said.stdout


def test_verbose_shows_the_details_with_their_time_and_default_shows_none(small_class):
    plain = run_cli_here("--course", small_class.root, "grade")
    verbose = run_cli_here("--verbose", "--course", small_class.root, "grade")
    assert plain.returncode == verbose.returncode == 0
    assert plain.stderr == ""  # as before there were levels
    detail = rf"^\d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ DEBUG grader\.cli: grade on the course in {small_class.root}$"
    assert re.search(detail, verbose.stderr, re.M), verbose.stderr
    assert verbose.stdout.splitlines()[1:] == plain.stdout.splitlines()[1:]  # the first line says the time it took
    assert "1 unchanged since last graded" in plain.stdout


def test_a_warning_says_it_is_one_at_every_level_but_none_is_a_refusal():
    record = logging.LogRecord("grader.cli", logging.WARNING, __file__, 1, "kernels are %s", ("not isolated",), None)
    assert logs.Plain().format(record) == "warning: kernels are not isolated"
    record.levelno = logging.INFO
    assert logs.Plain().format(record) == "kernels are not isolated"
    refused = run_cli_here("--quiet", "release", "99_nothing")
    assert refused.returncode == 2 and refused.stderr.splitlines() == [
        f"error: unknown lesson(s): 99_nothing; known: {', '.join(COURSE.lesson_ids())}"
    ]
