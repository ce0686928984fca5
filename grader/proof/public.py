"""What the public checks alone catch: an entry graded with the release's test cells, as nbgrader's Validate
runs them for a learner (the visible checks, hidden tests stripped).

`prove` grades each entry with the lesson's full tests. The learner's Validate button (and `nbgrader validate`)
runs the release instead, whose test cells hold the visible checks only. So a copy of the course is written under
.grading/public-checks/ whose source notebooks carry the release's test cells: the engine's lesson gradebook then
holds the visible checks alone, and its OverwriteCells puts back exactly what the learner's notebook runs. An entry
is caught by the public checks when a test cell of that grading scores below its points: the rule by which
Validate lists a failed cell (nbgrader's Validator._get_failed_cells), so the figure is what Validate would say.

A misconception that no public check can catch without giving the exercise away, or that only a hidden test's
generated or extreme inputs expose, is recorded in LEFT_TO_HIDDEN_TESTS with the reason.
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat

from grader.course import Course, read_cached
from grader.course.directory import CONFIG, source_notebook_in, text_source_in
from grader.engine.scores import Report
from grader.engine.testrunner import is_test_cell

FOLDER = "public-checks"  # under the course's .grading/

# Misconception id -> why the visible checks leave it to the hidden tests (prove reports each with its reason).
LEFT_TO_HIDDEN_TESTS: dict[str, str] = {}


def public_course(course: Course, lessons: list[str]) -> Course:
    """A course directory of `lessons` whose source notebooks' test cells are the release's (hidden tests stripped),
    under the course's .grading/; a file already up to date is left alone, so its lesson gradebook stays cached."""
    root = course.grading / FOLDER
    _write(root / CONFIG, (course.root / CONFIG).read_bytes())
    for lesson in lessons:
        release = read_cached(course.release_notebook(lesson))
        _write(text_source_in(root, lesson), course.text_source(lesson).read_bytes())
        _write(source_notebook_in(root, lesson), nbformat.writes(with_release_tests(course, lesson)).encode())
        _write(root / course.release_notebook(lesson).relative_to(course.root), nbformat.writes(release).encode())
    return Course(root)


def with_release_tests(course: Course, lesson: str) -> nbformat.NotebookNode:
    """The lesson's source notebook with each test cell's code as the release has it."""
    released = {
        cell.metadata["nbgrader"]["grade_id"]: cell.source
        for cell in read_cached(course.release_notebook(lesson)).cells
        if is_test_cell(cell)
    }
    nb = copy.deepcopy(read_cached(course.source_notebook(lesson)))
    for cell in nb.cells:
        if is_test_cell(cell):
            cell.source = released[cell.metadata["nbgrader"]["grade_id"]]
    return nb


def _write(path: Path, data: bytes) -> None:
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_suffix(path.suffix + ".tmp")
    staged.write_bytes(data)
    staged.replace(path)


def caught(report: Report | BaseException) -> bool | None:
    """Whether a public check failed (Validate would list a failed cell); None when the grading failed."""
    if isinstance(report, BaseException):
        return None
    return any(not test.passed for test in report.tests)
