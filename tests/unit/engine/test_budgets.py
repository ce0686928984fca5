"""A class graded beside submissions that would cost the batch its time: one whose cells each stay just under
their limit, stopped at the notebook's limit, and one whose cell of thousands of shell lines the grading
process used to read for minutes, now flagged unread. Each is graded within a bound, and an ordinary classmate
graded beside them is untouched. The CPU the grading process spends on a submission is measured in the worker
(`grade` below); its bound is wide (the grading of that submission takes a small part of it).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from grader import cli
from grader.course import Course
from grader.course.limits import Limits
from grader.engine import status, testrunner
from grader.engine.bridge import INTERRUPT_GRACE
from grader.engine.grade import grade_submission
from grader.instructor import grading
from grader.instructor.grading import grade_class, statuses
from grader.instructor.results import class_results
from testbed.hostile.cells import last_cell, sleepy_cells
from testbed.hostile.lesson import FULL, LESSON, NORMALIZE_ONLY, notebook, released_course, submit
from testbed.hostile.payloads import SHELL_LINES
from tests.support import COURSE, run_apart

CELL_LIMIT, NOTEBOOK_LIMIT = 4, 20  # seconds; the fast cells before the sleeping ones take a few, busy
SLEEPY = sleepy_cells(100, 1.5)  # 150 s of cells, each well within its limit
# A grading stopped at its notebook's limit takes that limit, the grace of the cell it stopped, and the rest of the
# grading (reading the submission before, scoring it after): a few seconds, up to a minute allowed for busy cores
# (each grading and its kernel a quarter of a core), still well short of the 150 s its cells would sleep.
STOPPED_SECONDS = NOTEBOOK_LIMIT + INTERRUPT_GRACE + 60
MORE_SHELL_LINES = "\n".join(["!ls -a"] * 200_000)  # 1.4 MB
GRADING_CPU_SECONDS = 20  # a grading process's CPU for one submission (before the budget: minutes for SHELL_LINES)


def with_student(student: str, edit=None):
    """An edit that names the student in the notebook's metadata (so `grade` knows whose it grades), then `edit`."""

    def named(nb):
        nb.metadata["student"] = student
        if edit:
            edit(nb)

    return named


def shell_lines(nb):
    """Two cells after the tests: 8,000 shell lines, then 200,000."""
    last_cell(SHELL_LINES)(nb)
    last_cell(MORE_SHELL_LINES)(nb)


CLASS = {  # student -> (notebook, status, score, what its detail must say)
    "ordinary": (notebook(edit=with_student("ordinary")), status.GRADED, FULL, ""),
    "just_under": (
        notebook(edit=with_student("just_under", SLEEPY)),
        status.TIMEOUT,
        NORMALIZE_ONLY,
        f"the notebook ran past its {NOTEBOOK_LIMIT} s limit",
    ),
    "shell_lines": (
        notebook(edit=with_student("shell_lines", shell_lines)),
        f"{status.SUSPICIOUS}, {status.TIMEOUT}",  # its kernel reads the 8,000 lines for longer than a cell may run
        FULL,
        "and the cell after it too large to inspect",
    ),
}


def grade(course_root, lesson, data, *rest):
    """grade_submission; its CPU-seconds (the worker process's) and when it started and ended (the machine's
    monotonic clock, which every process shares) written to .grading/times-<student>."""
    cpu, start = time.process_time(), time.monotonic()
    outcome = grade_submission(course_root, lesson, data, *rest)
    times = {"cpu": time.process_time() - cpu, "start": start, "end": time.monotonic()}
    student = json.loads(data)["metadata"]["student"]
    (Path(course_root) / ".grading" / f"times-{student}").write_text(json.dumps(times))
    return outcome


def test_a_class_beside_pathological_submissions_is_graded_within_its_bound_and_untouched(tmp_path):
    root = released_course(tmp_path / "course")
    for student, (data, *_) in CLASS.items():
        submit(root, student, data)
    log = run_apart(
        lambda: grade_class(Course(root), jobs=len(CLASS), limits=Limits(CELL_LIMIT, NOTEBOOK_LIMIT), grade=grade)
    )
    assert log.failed == []
    found, results = statuses(Course(root)), class_results(Course(root))
    times = {student: json.loads((root / ".grading" / f"times-{student}").read_text()) for student in CLASS}
    for student, (_, expected_status, score, detail) in CLASS.items():
        got_status, got_detail = found[student, LESSON]
        assert (got_status, results.score(student, LESSON)) == (expected_status, score), got_detail
        assert detail in got_detail
        cpu = times[student]["cpu"]
        assert cpu < GRADING_CPU_SECONDS, f"{student}: its grading process took {cpu:.1f} CPU-s"
    # the slowest is stopped at the notebook's limit, and the others are graded beside it, not after it
    slowest = times["just_under"]
    assert slowest["end"] - slowest["start"] < STOPPED_SECONDS, slowest
    assert all(times[s]["start"] < slowest["end"] and slowest["start"] < times[s]["end"] for s in CLASS), times


def test_grade_hands_its_notebook_timeout_to_every_grading(monkeypatch):
    given = {}
    monkeypatch.setattr(grading, "grade_class", lambda course, **limits: given.update(limits) or grading.GradeLog())
    assert cli.main(["--course", str(COURSE.root), "grade", "--timeout", "5", "--notebook-timeout", "45"]) == 0
    assert given["limits"] == Limits(5, 45)
    assert cli.main(["--course", str(COURSE.root), "grade"]) == 0
    assert given["limits"] == Limits(30, None)  # None: the default, ten cell limits


def test_grades_help_says_the_notebook_limits_default(capsys):
    with pytest.raises(SystemExit):
        cli.main(["grade", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"else {testrunner.NOTEBOOK_TIMES} × the cells' limit)" in shown
