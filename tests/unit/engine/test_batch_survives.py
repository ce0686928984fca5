"""Nothing a submission holds stops `grade`, and edited grading metadata costs nothing but a flag.

One class is graded by the real CLI: an ordinary student beside a cell Python cannot parse
(200,000 terms), metadata of the wrong type and each edit of grading metadata on notebooks
whose answers are all right, JSON nested too deep to read, and a timestamp that is no time.
Another is graded by grade_class with workers that die: the batch finishes, the others are
graded, and the submission that kills its worker every time gets a status of its own.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import Course
from grader.engine import status
from grader.engine.grade import grade_submission
from grader.instructor.grading import grade_class, statuses
from grader.instructor.results import class_results
from tests.hostile import ENV, FULL, LESSON, edits, notebook, released_course, submit
from tests.support import once_per_run, run_apart

pytestmark = pytest.mark.xdist_group("batch-survives")  # its tests read one graded class (tests/conftest.py)


def long_expression(nb):
    nb.cells.insert(5, nbformat.v4.new_code_cell(edits.LONG))


DEEP = b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"  # too deep for Python's JSON reader
# student -> (the notebook, what is handed in beside it, status, score, detail it must name): every
# edited notebook has every answer right
CLASS = {
    "ordinary": (notebook(), (), status.GRADED, FULL, ""),
    "long_expression": (notebook(edit=long_expression), (), status.SUSPICIOUS, FULL, "cell 5 could not be read"),
    **{edit.__name__: (notebook(edit=edit), (), status.TAMPERED, FULL, detail) for edit, detail in edits.EDITS.items()},
    "deep_json": (DEEP, (), status.INVALID, 0.0, "not"),  # "not a notebook" or "not readable as a notebook"
    "bad_timestamp": (
        notebook(),
        (("timestamp.txt", b"9" * 60),),
        status.BAD_TIMESTAMP,
        FULL,
        "timestamp.txt is not a time nbgrader can read (OverflowError",
    ),
}


def grade_the_class(folder):
    root = released_course(folder / "course")
    for student, (data, beside, _, _, _) in CLASS.items():
        submit(root, student, data, beside)
    done = subprocess.run(
        [sys.executable, "-m", "grader", "--course", str(root), "grade", "--timeout", "10"],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=900,
    )
    (folder / "grade.txt").write_text(f"{done.returncode}\n{done.stdout}\n{done.stderr}")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return once_per_run(tmp_path_factory, "batch-survives", grade_the_class)


def test_the_batch_finishes_with_exit_0(graded):
    returncode, output = (graded / "grade.txt").read_text().split("\n", 1)
    assert returncode == "0", output
    assert f"Graded {len(CLASS)} submission(s)" in output and "Could not grade" not in output


@pytest.mark.parametrize("student", CLASS)
def test_each_gets_its_status_and_the_points_it_earned(graded, student):
    _, _, expected_status, score, detail = CLASS[student]
    root = graded / "course"
    got_status, got_detail = statuses(Course(root))[student, LESSON]
    assert (got_status, class_results(Course(root)).score(student, LESSON)) == (expected_status, score), got_detail
    assert detail in got_detail


def test_the_cell_python_cannot_compile_costs_no_time_limit(graded):
    autograded = graded / "course" / ".grading" / "autograded" / "long_expression" / LESSON / f"{LESSON}.ipynb"
    cell = nbformat.read(autograded, as_version=4).cells[5]
    assert [output.ename for output in cell.outputs if output.output_type == "error"] == ["RecursionError"]


# A worker that dies: `grade` below runs in the worker processes in place of grade_submission.
KILLER, KILLED_ONCE = "kills_its_worker", "worker_killed_once"


def grade(course_root, lesson, data, *rest):
    """grade_submission, but the worker grading KILLER dies at once (every time), and the one grading
    KILLED_ONCE dies two seconds into its first grading (its kernel running)."""
    student = json.loads(data)["metadata"]["student"]  # each notebook names its student (see the test)
    if student == KILLER:
        os.kill(os.getpid(), signal.SIGKILL)
    marker = Path(course_root) / ".grading" / f"killed-{student}"
    if student == KILLED_ONCE and not marker.exists():
        marker.touch()
        threading.Timer(2, os.kill, (os.getpid(), signal.SIGKILL)).start()
    return grade_submission(course_root, lesson, data, *rest)


def test_a_worker_that_dies_is_replaced_and_the_batch_finishes(tmp_path):
    root = released_course(tmp_path / "course")
    students = ["ordinary_a", KILLER, KILLED_ONCE, "ordinary_b", "ordinary_c"]
    for student in students:
        submit(root, student, notebook(edit=lambda nb, student=student: nb.metadata.update(student=student)))
    log = run_apart(lambda: grade_class(Course(root), jobs=2, timeout=10, grade=grade))
    assert log.failed == []
    assert (tmp_path / "course" / ".grading" / f"killed-{KILLED_ONCE}").is_file()  # it did die once
    found, results = statuses(Course(root)), class_results(Course(root))
    for student in students:
        expected = (status.GRADER_DIED, 0.0) if student == KILLER else (status.GRADED, FULL)
        assert (found[student, LESSON][0], results.score(student, LESSON)) == expected, found[student, LESSON]
    assert f"{KILLER} / {LESSON}: {status.GRADER_DIED} (the grading process died twice" in log.render()
    with Gradebook(Course(root).nbgrader_config().CourseDirectory.db_url) as gb:
        flagged = {
            sub.student.id for sub in gb.find_assignment(LESSON).submissions for nb in sub.notebooks if nb.flagged
        }
    assert flagged == {KILLER}
    # a worker's death may be the machine's
    again = run_apart(lambda: grade_class(Course(root), jobs=2, timeout=10, grade=grade))
    assert [student for student, *_ in again.graded] == [KILLER] and len(again.unchanged) == len(students) - 1
