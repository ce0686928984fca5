"""Regenerate the student release (notebooks/) from the lesson sources with nbgrader."""

from __future__ import annotations

from pathlib import Path

from nbgrader.apps import NbGraderAPI

from grader.course import authoring
from grader.course.directory import Course
from grader.course.gradebook import lesson_gradebook, start_gradebook


class ReleaseFailed(RuntimeError):
    """nbgrader generate_assignment refused a lesson."""


def refused(lesson: str, result: dict) -> BaseException:
    """What a failed step of nbgrader's API (which catches everything and gives back its traceback as text) is:
    ReleaseFailed saying the lesson and the error's last line, or KeyboardInterrupt when it was Ctrl-C."""
    said = (result.get("error") or result.get("log") or "").strip().splitlines()
    last = said[-1].strip() if said else "nbgrader gave no reason"
    return KeyboardInterrupt() if last == "KeyboardInterrupt" else ReleaseFailed(f"{lesson}: {last}")


def release(course: Course, lessons: list[str] | None = None, progress=print) -> list[Path]:
    """Build each lesson's source notebook, then generate its student version and the lesson's gradebook that
    grading restores the tests from (gradebook.lesson_gradebook).

    Tests pass a copy of the course to compare with the committed release.
    """
    lessons = lessons or course.lesson_ids()
    config = course.nbgrader_config()
    start_gradebook(course, config.CourseDirectory.db_url)  # a new course's: without nbgrader's alembic command
    api = NbGraderAPI(config=config)
    written = []
    for lesson in lessons:
        authoring.build(course, lesson)
        result = api.generate_assignment(lesson, force=True)
        if not result["success"]:
            raise refused(lesson, result)
        authoring.clear_guess_stubs(course.release_notebook(lesson))
        lesson_gradebook(course, lesson)  # what grading restores the tests from: made now, not by the first grading
        written.append(course.release_notebook(lesson))
        progress(f"released {lesson} -> {written[-1].relative_to(course.root)}")
    return written


def publish(course: Course, lessons: list[str] | None = None, exchange: Path | None = None, progress=print) -> None:
    """Release lessons to the nbgrader exchange, where students fetch them (`nbgrader fetch_assignment`)."""
    config = course.nbgrader_config(exchange)
    config.ExchangeReleaseAssignment.force = True  # releasing again replaces the old release
    api = NbGraderAPI(config=config)
    for lesson in lessons or course.lesson_ids():
        result = api.release_assignment(lesson)
        if not result["success"]:
            raise refused(lesson, result)
        progress(f"released {lesson} to the exchange at {config.Exchange.root}")
