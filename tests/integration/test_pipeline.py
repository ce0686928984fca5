"""`grader grade` against plain `nbgrader autograde` on one small class (lesson 01's reference, stub and wrong
guesses, one student each): the same scores, and the gradebook stays right after a re-run, a changed submission and
`--force`.

The end-to-end path through the exchange and an LMS zip, and the outputs, are in test_demo.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import nbformat
import pytest

from grader.course import Course
from grader.proof.simulate import cell_scores
from tests.plain_class import KINDS, PIPELINE_LESSON, graded_class, plain_scores
from tests.support import COURSE, run_cli_here

pytestmark = pytest.mark.xdist_group("predictions-graded")  # its tests read one graded class (tests.plain_class)

LESSONS = [PIPELINE_LESSON]
STUDENTS = len(KINDS)  # a student of each kind of hand-in, named after it


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The build's folder: the class graded by plain nbgrader (in tests.plain_class's plain runs) and by
    `grader grade` in a process of its own (folder/pipeline, what it printed in folder/first-run.txt)."""
    return graded_class(tmp_path_factory)


def grade(root, *args) -> str:
    """`grader grade` in this process: the build's first grading runs it in a process of its own."""
    done = run_cli_here("--course", root, "grade", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_every_submission_gets_the_same_score_as_plain_nbgrader(graded):
    expected, got = plain_scores(graded, KINDS, LESSONS), cell_scores(Course(graded / "pipeline"), LESSONS)
    assert len({(student, lesson) for student, lesson, _ in got}) == STUDENTS * len(LESSONS)
    assert got == expected
    assert f"Graded {STUDENTS} submission(s)" in (graded / "first-run.txt").read_text()
    for student in {student for student, _, _ in got}:  # autograded notebooks where formgrader looks
        assert (
            graded / "pipeline" / ".grading" / "autograded" / student / LESSONS[0] / f"{LESSONS[0]}.ipynb"
        ).is_file()


def test_a_rerun_grades_only_what_changed_and_force_grades_all(graded, tmp_path):
    root = tmp_path / "course"
    shutil.copytree(graded / "pipeline", root)
    before = cell_scores(Course(root), LESSONS)
    assert "Graded 0 submission(s)" in grade(root) and f"{STUDENTS} unchanged" in grade(root)
    assert cell_scores(Course(root), LESSONS) == before

    lesson = LESSONS[0]
    stub_student = "stub"
    assert sum(v for (s, _, _), v in before.items() if s == stub_student) == 0
    resubmitted = root / ".grading" / "submitted" / stub_student / lesson / f"{lesson}.ipynb"
    nbformat.write(COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson)), resubmitted)
    output = grade(root)
    assert "Graded 1 submission(s)" in output and f"{STUDENTS - 1} unchanged" in output
    after = cell_scores(Course(root), LESSONS)
    assert sum(v for (s, _, _), v in after.items() if s == stub_student) == 15
    assert {k: v for k, v in after.items() if k[0] != stub_student} == {
        k: v for k, v in before.items() if k[0] != stub_student
    }

    assert f"Graded {STUDENTS} submission(s)" in grade(root, "--force")
    assert cell_scores(Course(root), LESSONS) == after


def test_grade_refuses_a_lesson_the_course_does_not_have(graded):
    command = [sys.executable, "-m", "grader", "--course", str(graded / "pipeline"), "grade", "02_exp_evidence"]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 2 and "unknown lesson(s): 02_exp_evidence" in done.stderr
