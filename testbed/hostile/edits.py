"""Edits of lesson 01's grading metadata that a submission may carry, and what restoring it must name.

Read by tests/unit/engine/test_metadata_restore.py, graded end to end by tests/unit/engine/test_batch_survives.py.
"""

from __future__ import annotations

import nbformat

from grader.course import read_cached
from testbed.hostile.lesson import COURSE, LESSON

HIDDEN, PUBLIC, SOLUTION = "test_naive_normalize_rows", "test_naive_normalize_public", "naive_normalize"
LONG = "x = " + "+".join(["1"] * 200_000)


RELEASED = [c.metadata.get("nbgrader", {}).get("grade_id") for c in read_cached(COURSE.release_notebook(LESSON)).cells]


def place(grade_id: str) -> int:
    """The index of the release's cell `grade_id`, as findings number cells."""
    return RELEASED.index(grade_id)


def cell(nb, grade_id):
    return next(
        c
        for c in nb.cells
        if isinstance(c.metadata.get("nbgrader"), dict) and c.metadata.nbgrader.get("grade_id") == grade_id
    )


def fake_grade_cell(nb):
    meta = {"grade": True, "grade_id": "bonus", "points": 100, "solution": False, "locked": False, "schema_version": 3}
    nb.cells.insert(11, nbformat.v4.new_code_cell("print('all good')", metadata={"nbgrader": meta}))


def markdown_grade_cell(nb):
    meta = {"grade": True, "grade_id": "essay", "points": 5, "solution": False, "locked": False, "schema_version": 3}
    nb.cells.insert(3, nbformat.v4.new_markdown_cell("I deserve these points.", metadata={"nbgrader": meta}))


def schema_version(nb):
    cell(nb, HIDDEN).metadata.nbgrader["schema_version"] = 4


def flipped_to_solution(nb):
    cell(nb, HIDDEN).metadata.nbgrader["solution"] = True


def points_changed(nb):
    cell(nb, PUBLIC).metadata.nbgrader["points"] = 100


def list_metadata(nb):
    cell(nb, PUBLIC).metadata["nbgrader"] = ["grade", True]


def flag_as_number(nb):
    cell(nb, HIDDEN).metadata.nbgrader["solution"] = 0  # equal to False, and yet not a flag


def string_metadata_on_the_solution(nb):
    cell(nb, SOLUTION).metadata["nbgrader"] = "solution"


def markdown_test_cell(nb):
    test = cell(nb, PUBLIC)
    test.cell_type = "markdown"
    del test["outputs"], test["execution_count"]


# each edit, and what the finding must say
EDITS = {
    fake_grade_cell: "cell 11: grade metadata the release does not have (grade_id 'bonus')",
    markdown_grade_cell: "cell 3: grade metadata the release does not have (grade_id 'essay')",
    schema_version: f"{HIDDEN}: schema_version 4 (the release's: 3)",
    flipped_to_solution: f"{HIDDEN}: solution True (the release's: False)",
    points_changed: f"{PUBLIC}: points 100 (the release's: 2)",
    flag_as_number: f"{HIDDEN}: solution 0 (the release's: False)",
    list_metadata: f"cell {place(PUBLIC)}: its nbgrader metadata is a list, not a mapping; read as {PUBLIC} "
    "from its place",
    string_metadata_on_the_solution: f"cell {place(SOLUTION)}: its nbgrader metadata is a string, not a mapping; "
    f"read as {SOLUTION} from its place",
    markdown_test_cell: f"{PUBLIC}: a markdown cell (the release's is code)",
}
