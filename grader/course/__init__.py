"""The course: a directory of lessons (Course), authoring (text -> notebook), release and the course contract."""

from grader.course.directory import (
    RELEASE,
    SOLUTIONS,
    Course,
    NotACourse,
    lesson_ids_in,
    read_cached,
    source_notebook_in,
    text_source_in,
)

__all__ = [
    "RELEASE",
    "SOLUTIONS",
    "Course",
    "NotACourse",
    "lesson_ids_in",
    "read_cached",
    "source_notebook_in",
    "text_source_in",
]
