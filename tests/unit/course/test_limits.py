"""One source for a grading's limits: the defaults of grader/course/limits.py, which docs/reference/limits.md states;
then a course's nbgrader_config.py, which wins over them; then an option given on the command line, which wins over
the course for that run only. `grade` and `check` build the same Limits (a real grade in tests/integration/test_cli.py
shows it applied)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from traitlets.config import Config

from grader import cli
from grader.course import Course, NotACourse
from grader.course.limits import CELL_SECONDS, MEMORY_MB, NOTEBOOK_TIMES, Limits
from grader.engine import pool, sandbox, warmkernel
from grader.instructor import grading
from tests.support import COURSE

PAGE = COURSE.root / "docs" / "reference" / "limits.md"
LESSON = COURSE.lesson_ids()[0]
COURSE_SETS = "\nc.Execute.timeout = 7\nc.GradingLimits.memory = 700\n"


def documented_rows() -> list[list[str]]:
    """The cells of each row of the page's table of limits."""
    rows = [line.strip("|").split("|") for line in PAGE.read_text().splitlines() if line.startswith("| ")]
    return [[cell.strip().strip("`") for cell in row] for row in rows[1:]]


def test_the_defaults_are_what_the_reference_page_says(capsys):
    (cell, notebook, memory) = documented_rows()
    assert Limits() == Limits(CELL_SECONDS, None, MEMORY_MB)
    assert (cell[1], notebook[1], memory[1]) == (
        str(CELL_SECONDS),
        f"{NOTEBOOK_TIMES} × the cell limit",
        str(MEMORY_MB),
    )
    # each row's nbgrader_config.py line, read as a course's, sets the value its default column says
    config = Config()
    for row in (cell, notebook, memory):
        exec(row[2], {"c": config})
    assert Limits.from_config(config) == Limits(CELL_SECONDS, NOTEBOOK_TIMES * CELL_SECONDS, MEMORY_MB)
    # and each row's option is one that grade and check take
    options = {row[3].split()[0] for row in (cell, notebook, memory)}
    for command in ("grade", "check"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        shown = capsys.readouterr().out
        assert all(re.search(rf"^\s+{option} ", shown, re.MULTILINE) for option in options), (command, shown)


def course_setting(folder: Path, settings: str = COURSE_SETS) -> Course:
    """A copy of this course's settings and first lesson, with `settings` added to its nbgrader_config.py."""
    folder.mkdir()
    (folder / "nbgrader_config.py").write_text((COURSE.root / "nbgrader_config.py").read_text() + settings)
    for part in ("solutions", "notebooks"):
        shutil.copytree(COURSE.root / part / LESSON, folder / part / LESSON)
    return Course(folder)


def test_the_course_setting_wins_over_the_default(tmp_path):
    assert course_setting(tmp_path / "course").limits() == Limits(7, None, 700)
    assert COURSE.limits() == Limits()  # this course sets none


def test_an_option_given_wins_over_the_course_and_one_not_given_leaves_it():
    assert Limits(7, None, 700).given(cell_seconds=20, notebook_seconds=None, memory_mb=None) == Limits(20, None, 700)
    assert Limits(7, 40, 700).given() == Limits(7, 40, 700)


def test_grade_and_check_build_the_courses_limits_with_the_options_given(tmp_path, monkeypatch):
    course = course_setting(tmp_path / "course")
    seen = []

    def graded(*args, limits=None, **rest):
        """Stands for a grading: what matters is what it was handed; it stops the command there."""
        seen.append(limits)
        raise KeyboardInterrupt

    monkeypatch.setattr(grading, "grade_class", graded)
    monkeypatch.setattr(sandbox, "autograde_sandboxed", graded)
    monkeypatch.setattr(pool, "start_early", lambda: None)  # the workers and kernels graded() never needs
    monkeypatch.setattr(warmkernel, "ensure_zygote", lambda: None)
    submission = course.release_notebook(LESSON)
    for options in ([], ["--timeout", "20"], ["--memory", "900", "--notebook-timeout", "50"]):
        assert cli.main(["--course", str(course.root), "grade", *options]) == 130  # stopped in graded()
        assert cli.main(["--course", str(course.root), "check", str(submission), *options]) == 130
    assert seen == [Limits(7, None, 700)] * 2 + [Limits(20, None, 700)] * 2 + [Limits(7, 50, 900)] * 2


def test_the_limits_cross_to_a_worker_as_data():
    limits = Limits(7, 50, 900)
    assert Limits.from_data(limits.as_data()) == limits and Limits.from_data(Limits().as_data()) == Limits()


@pytest.mark.parametrize(
    "setting", ['c.GradingLimits.memory = "lots"', 'c.Execute.timeout = "10"', "c.GradingLimits.notebook_timeout = -1"]
)
def test_a_setting_that_is_no_limit_is_a_one_line_error(setting, tmp_path, capsys):
    course = course_setting(tmp_path / "course", f"\n{setting}\n")
    with pytest.raises(NotACourse, match="sets a limit that cannot be used"):
        course.limits()
    assert cli.main(["--course", str(course.root), "grade"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"error: {course.root / 'nbgrader_config.py'} sets a limit") and said.count("\n") == 1
