"""Edits of lesson 01's notebook that hostile kinds make: test cells deleted, replaced or duplicated, grading
metadata stripped, forged or made unreadable, cells added after the tests."""

from __future__ import annotations

import json
from copy import deepcopy

import nbformat

from testbed.hostile.lesson import notebook


def test_cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def delete_test(grade_id):
    return lambda nb: nb.cells.remove(test_cell(nb, grade_id))


def replace_test(grade_id, source):
    def edit(nb):
        test_cell(nb, grade_id).source = source

    return edit


def duplicate_test(grade_id):
    def edit(nb):
        cell = test_cell(nb, grade_id)
        copy = nbformat.from_dict(deepcopy(cell))  # as copy and paste in JupyterLab makes it
        copy["id"] = "copied-cell"
        nb.cells.insert(nb.cells.index(cell) + 1, copy)

    return edit


def strip_metadata(nb):
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)


def warning_first(source: str) -> str:
    """The function with a warning as its first statement."""
    body = source.index(":\n", source.index("def ")) + 2
    return "import warnings\n\n" + source[:body] + '    warnings.warn("slow path")\n' + source[body:]


def timed(source: str) -> str:
    """The cell, first printing when it ran: the test times the grading from it to the recorded result."""
    return f"import time\nprint('grading started at', repr(time.time()))\n\n{source}"


def plain_cell(source):
    def edit(nb):
        nb.cells.insert(7, nbformat.v4.new_code_cell(source))

    return edit


def set_metadata(grade_id, **changes):
    def edit(nb):
        test_cell(nb, grade_id).metadata.nbgrader.update(changes)

    return edit


def fake_grade_cell(nb):
    meta = {
        "grade": True,
        "solution": False,
        "locked": True,
        "grade_id": "bonus_points",
        "points": 100,
        "schema_version": 3,
        "task": False,
    }
    nb.cells.insert(16, nbformat.v4.new_code_cell("print('all good')", metadata={"nbgrader": meta}))


def markdown_grade(nb):
    nb.cells[2].metadata["nbgrader"] = {
        "grade": True,
        "solution": True,
        "locked": False,
        "grade_id": "essay",
        "points": 10,
        "schema_version": 3,
        "task": False,
    }


def json_of(edit) -> bytes:
    """The notebook with reference answers, edited as a plain dict (nbformat would refuse what `edit` makes)."""
    nb = json.loads(notebook())
    edit(nb)
    return json.dumps(nb, indent=1).encode()


def list_metadata(nb):
    next(c for c in nb["cells"] if c["cell_type"] == "code" and "nbgrader" not in c["metadata"])["metadata"][
        "nbgrader"
    ] = ["grade", True]


def deep_json() -> bytes:
    """A notebook whose metadata nests 100,000 lists deep (JSON allows it; a recursive reader overflows)."""
    nb = json.loads(notebook())
    nb["metadata"]["deep"] = "DEEP"
    return json.dumps(nb).replace('"DEEP"', "[" * 100_000 + "]" * 100_000).encode()


def sleepy_cells(count: int, seconds: float):
    """An edit: `count` plain cells that each sleep `seconds`, after naive_normalize's last test."""

    def edit(nb):
        at = nb.cells.index(test_cell(nb, "test_naive_normalize_breaks")) + 1
        nb.cells[at:at] = [nbformat.v4.new_code_cell(f"import time\ntime.sleep({seconds})") for _ in range(count)]

    return edit


def last_cell(source: str):
    """An edit: a plain cell of `source` at the end of the notebook, after every test."""
    return lambda nb: nb.cells.append(nbformat.v4.new_code_cell(source))
