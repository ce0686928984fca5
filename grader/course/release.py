"""Regenerate the student release (notebooks/) from the lesson sources with nbgrader."""
from __future__ import annotations

from pathlib import Path

from nbgrader.apps import NbGraderAPI

from grader import course
from grader.course import authoring


class ReleaseFailed(RuntimeError):
    """nbgrader generate_assignment refused a lesson."""


def release(lessons: list[str] | None = None, root: Path = course.REPO, progress=print) -> list[Path]:
    """Build each lesson's source notebook, then generate its student version.

    `root` is the course directory; tests pass a copy to compare with the committed release.
    """
    lessons = lessons or course.lesson_ids(root)
    api = NbGraderAPI(config=course.nbgrader_config(root))
    written = []
    for lesson in lessons:
        authoring.build(lesson, root)
        result = api.generate_assignment(lesson, force=True)
        if not result["success"]:
            raise ReleaseFailed(f"{lesson}: {(result.get('error') or result.get('log') or '').strip()}")
        written.append(course.release_notebook(lesson, root))
        progress(f"released {lesson} -> {written[-1].relative_to(root)}")
    return written


def publish(lessons: list[str] | None = None, root: Path = course.REPO, exchange: Path | None = None,
            progress=print) -> None:
    """Release lessons to the nbgrader exchange, where students fetch them (`nbgrader fetch_assignment`)."""
    config = course.nbgrader_config(root, exchange)
    config.ExchangeReleaseAssignment.force = True  # releasing again replaces the old release
    api = NbGraderAPI(config=config)
    for lesson in lessons or course.lesson_ids(root):
        result = api.release_assignment(lesson)
        if not result["success"]:
            raise ReleaseFailed(f"{lesson}: {(result.get('error') or result.get('log') or '').strip()}")
        progress(f"released {lesson} to the exchange at {config.Exchange.root}")
