"""A Dask worker's side of `grade --cluster` (grader/engine/clusterworker.py) and how the instructor's side reads
what it sends back (grader/instructor/cluster.py), without a cluster: what stops a grading comes back as text.

Dask lets a task's SystemExit or KeyboardInterrupt through to the worker, which then stops; the scheduler gives
the task to the next worker, which stops too."""

from __future__ import annotations

import pytest

from grader.course import Course
from grader.course.limits import Limits
from grader.engine import clusterworker
from grader.engine.pool import GraderError
from grader.instructor import cluster
from testbed.hostile.lesson import LESSON, notebook, released_course


@pytest.mark.parametrize("raised", [SystemExit, KeyboardInterrupt, GeneratorExit])
def test_what_stops_a_grading_comes_back_as_text_and_is_that_submissions_grader_error(raised, tmp_path, monkeypatch):
    root = released_course(tmp_path / "course")

    def stops(*args):
        raise raised("stopped while grading")

    monkeypatch.setattr(clusterworker, "grade_submission", stops)
    call = (str(root), LESSON, notebook(), None, [], Limits(5, None, 512))
    answer = clusterworker.grade_task(clusterworker.task(call, clusterworker.lesson_digest(Course(root), LESSON)))
    with pytest.raises(GraderError, match=f"^{raised.__name__}: stopped while grading$"):
        cluster.outcome_of(answer)


def test_an_ordinary_grading_comes_back_as_its_outcome(tmp_path):
    root = released_course(tmp_path / "course")
    call = (str(root), LESSON, notebook(), None, [], Limits(10, None, 512))
    answer = clusterworker.grade_task(clusterworker.task(call, clusterworker.lesson_digest(Course(root), LESSON)))
    outcome = cluster.outcome_of(answer)
    assert (outcome["status"], outcome["detail"]) == ("graded", "") and outcome["result"] is not None


def test_the_instructors_limits_reach_the_workers_grading(tmp_path, monkeypatch):
    """`grade --cluster` grades within the Limits `grade` built (the course's, then its options), as data."""
    root = released_course(tmp_path / "course")
    handed = []
    monkeypatch.setattr(clusterworker, "grade_submission", lambda *args: handed.append(args[-1]) or {})
    call = (str(root), LESSON, notebook(), None, [], Limits(5, 40, 512))
    clusterworker.grade_task(clusterworker.task(call, clusterworker.lesson_digest(Course(root), LESSON)))
    assert handed == [Limits(5, 40, 512)]
