"""Build a lesson's nbgrader source notebook from its jupytext text source.

Lessons are written as jupytext percent-format files with short cell markers:

    # %% nbgrader="solution" grade_id="naive_normalize"
    # %% nbgrader="tests" grade_id="test_naive_normalize_rows" points=2
    # %% nbgrader="readonly" grade_id="setup"

and this module expands each marker into the metadata nbgrader expects.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import jupytext
import nbformat

if TYPE_CHECKING:
    from grader.course.directory import Course

CELL_KINDS = {
    "solution": {"solution": True, "grade": False, "locked": False},
    "tests": {"solution": False, "grade": True, "locked": True},
    "readonly": {"solution": False, "grade": False, "locked": True},
}
# Metadata that only jupytext uses; it has no place in the built notebook.
JUPYTEXT_ONLY = ("lines_to_next_cell", "lines_to_end_of_cell_marker", "title")


class AuthoringError(ValueError):
    """A lesson's text source has a malformed nbgrader marker."""


def build_notebook(text_path: Path) -> nbformat.NotebookNode:
    """Read a lesson's text source and return its nbgrader source notebook."""
    nb = jupytext.read(text_path)
    nb.metadata.pop("jupytext", None)
    seen = set()
    for index, cell in enumerate(nb.cells):
        meta = cell.metadata
        for key in JUPYTEXT_ONLY:
            meta.pop(key, None)
        kind, grade_id, points = meta.pop("nbgrader", None), meta.pop("grade_id", None), meta.pop("points", None)
        cell.id = f"cell-{index:02d}"
        if kind is None:
            if grade_id is not None or points is not None:
                raise AuthoringError(f"{text_path.name}: cell {index} has grade_id/points but no nbgrader kind")
            continue
        if kind not in CELL_KINDS:
            raise AuthoringError(f"{text_path.name}: cell {index}: unknown nbgrader kind {kind!r}")
        if not grade_id or grade_id in seen:
            raise AuthoringError(f"{text_path.name}: cell {index}: grade_id missing or repeated: {grade_id!r}")
        if (kind == "tests") != (points is not None):
            raise AuthoringError(f"{text_path.name}: cell {grade_id}: points go on tests cells, and only there")
        seen.add(grade_id)
        meta["nbgrader"] = {**CELL_KINDS[kind], "grade_id": grade_id, "schema_version": 3, "task": False}
        if points is not None:
            meta["nbgrader"]["points"] = points
        cell.id = grade_id
    nbformat.validate(nb)
    return nb


def build(course: Course, lesson: str) -> Path:
    """Write solutions/<lesson>/<lesson>.ipynb from its text source; return its path."""
    target = course.source_notebook(lesson)
    nbformat.write(build_notebook(course.text_source(lesson)), target)
    return target
