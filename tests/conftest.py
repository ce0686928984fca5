"""Shared helpers: learner notebooks built from the release, graded by real nbgrader."""
from __future__ import annotations

import os

import nbformat
import pytest
from hypothesis import settings

from grader import course
from grader.selfgrade import Report, grade_notebook

# Kernels run beside the property tests, so time per example means nothing; in CI, the same
# examples every run.
settings.register_profile("course", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "course")


def solution_sources(lesson: str) -> dict[str, str]:
    """The reference source of every solution cell of a lesson, by grade_id."""
    nb = nbformat.read(course.source_notebook(lesson), as_version=4)
    return {c.metadata.nbgrader.grade_id: c.source for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("solution")}


def learner_notebook(lesson: str, answers: dict[str, str]) -> nbformat.NotebookNode:
    """The student release with the given solution cells filled in, as a learner would."""
    nb = nbformat.read(course.release_notebook(lesson), as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return nb


@pytest.fixture
def grade(tmp_path):
    """Grade a notebook object with the lesson's full tests; return the Report."""
    def _grade(nb: nbformat.NotebookNode, name: str = "submission.ipynb") -> Report:
        path = tmp_path / name
        nbformat.write(nb, path)
        return grade_notebook(path)
    return _grade
