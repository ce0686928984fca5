"""A submission's grading metadata is rebuilt from the release (grader.metadata.restore), and each
edit is named; the reading of learner code survives cells Python cannot parse (grader.suspicious).

These read notebooks only; test_batch_survives.py grades such submissions end to end.
"""

from __future__ import annotations

import copy
import json

import nbformat
import pytest
from nbgrader.nbgraderformat import MetadataValidator

from grader.course import read_cached
from grader.engine import metadata, sandbox, status, suspicious
from testbed.hostile.edits import EDITS, HIDDEN, LONG, PUBLIC, cell, list_metadata, place
from testbed.hostile.lesson import LESSON, notebook
from tests.support import COURSE

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

RELEASE = read_cached(COURSE.release_notebook(LESSON))
SOLUTION = "naive_normalize"


def submitted(edit=None) -> nbformat.NotebookNode:
    return nbformat.reads(notebook(edit=edit), as_version=4)


def graded_cells(nb) -> list[tuple[str, str, dict]]:
    """(grade_id, cell type, nbgrader metadata) of every cell whose nbgrader metadata is a mapping, in order."""
    return [
        (c.metadata.nbgrader["grade_id"], c.cell_type, dict(c.metadata.nbgrader))
        for c in nb.cells
        if isinstance(c.metadata.get("nbgrader"), dict)
    ]


def test_an_untouched_notebook_keeps_its_metadata_and_has_no_findings():
    nb = submitted()
    restored, findings = metadata.restore(nb, RELEASE)
    assert findings == [] and graded_cells(restored) == graded_cells(RELEASE)
    assert [c.source for c in restored.cells] == [c.source for c in nb.cells]


@pytest.mark.parametrize("edit", EDITS, ids=[edit.__name__ for edit in EDITS])
def test_each_edit_is_undone_and_named(edit):
    nb = submitted(edit)
    before = copy.deepcopy(nb)
    restored, findings = metadata.restore(nb, RELEASE)
    assert findings == [EDITS[edit]]
    assert graded_cells(restored) == graded_cells(RELEASE)  # every cell the release grades, as the release has it
    MetadataValidator().validate_nb(restored)  # what made nbgrader call the notebook invalid
    nbformat.validate(restored)
    assert nb == before  # the submission itself is left as it was
    assert status.tampering(restored, RELEASE) == []


def test_a_duplicated_test_keeps_its_last_copy_and_a_deleted_one_stays_deleted():
    def edit(nb):
        test = cell(nb, HIDDEN)
        duplicate = nbformat.from_dict(copy.deepcopy(test))
        duplicate["id"] = "copied-cell"  # as copy and paste in JupyterLab makes it
        nb.cells.insert(nb.cells.index(test), duplicate)
        nb.cells.remove(cell(nb, "test_is_distribution_details"))

    restored, findings = metadata.restore(submitted(edit), RELEASE)
    assert findings == [f"{HIDDEN} duplicated"]
    ids = [grade_id for grade_id, _, _ in graded_cells(restored)]
    assert ids.count(HIDDEN) == 1 and "test_is_distribution_details" not in ids
    assert status.tampering(restored, RELEASE) == ["test_is_distribution_details deleted"]


def test_a_notebook_stripped_of_metadata_gets_none_back():
    def strip(nb):
        for c in nb.cells:
            c.metadata.pop("nbgrader", None)

    restored, findings = metadata.restore(submitted(strip), RELEASE)
    assert findings == [] and graded_cells(restored) == []
    assert status.tampering(restored, RELEASE)[0].startswith("none of the lesson's test cells is there")


def test_another_lessons_notebook_is_one_finding():
    other = COURSE.learner_notebook("06_masking", {})
    ours = {c.metadata.nbgrader.grade_id for c in RELEASE.cells if "nbgrader" in c.metadata}
    foreign = sum("nbgrader" in c.metadata and c.metadata.nbgrader.grade_id not in ours for c in other.cells)
    restored, findings = metadata.restore(other, RELEASE)
    assert foreign > 10 and findings == [
        f"{foreign} cells with grade metadata the release does not have, and none of its tests"
    ]
    assert [grade_id for grade_id, _, _ in graded_cells(restored)] == ["setup"]  # both lessons have one


def test_two_unreadable_cells_in_one_gap_are_not_guessed():
    def edit(nb):
        for grade_id in (PUBLIC, HIDDEN):  # neighbours: neither place is certain
            cell(nb, grade_id).metadata["nbgrader"] = 7

    restored, findings = metadata.restore(submitted(edit), RELEASE)
    assert findings == [
        f"cell {place(PUBLIC)}: its nbgrader metadata is a number, not a mapping",
        f"cell {place(HIDDEN)}: its nbgrader metadata is a number, not a mapping",
    ]
    assert status.tampering(restored, RELEASE) == [
        f"{PUBLIC} deleted",
        f"{HIDDEN} deleted",
        f"{PUBLIC} lost its nbgrader metadata",
        f"{HIDDEN} lost its nbgrader metadata",  # its release text (the line naming its hidden tests) is there
    ]


def test_points_written_as_a_float_and_a_checksum_are_no_edit():
    def edit(nb):
        cell(nb, PUBLIC).metadata.nbgrader["points"] = 2.0
        cell(nb, PUBLIC).metadata.nbgrader["checksum"] = "0" * 32  # a cell released before a change of its source

    assert metadata.restore(submitted(edit), RELEASE)[1] == []


def test_findings_are_bounded_and_quote_little():
    def edit(nb):
        for _ in range(50):
            fake = {"nbgrader": {"grade": True, "grade_id": "x" * 10_000}}
            nb.cells.append(nbformat.v4.new_code_cell("", metadata=fake))

    _, findings = metadata.restore(submitted(edit), RELEASE)
    assert len(findings) == metadata.MOST_FINDINGS + 1 and findings[-1].startswith("and 38 more")
    assert max(len(finding) for finding in findings) < 200

    def large_and_deep(nb):
        cell(nb, PUBLIC).metadata.nbgrader["points"] = list(range(100_000))
        cell(nb, HIDDEN).metadata.nbgrader["points"] = json.loads("[" * 400 + "]" * 400)

    restored, findings = metadata.restore(submitted(large_and_deep), RELEASE)
    assert graded_cells(restored) == graded_cells(RELEASE)
    assert [finding.split(" (")[0] for finding in findings] == [
        f"{PUBLIC}: points [0, 1, 2, 3, 4, 5, ...]",
        f"{HIDDEN}: points [[[[[[[...]]]]]]]",
    ]


def test_a_cell_python_cannot_parse_is_a_reason_and_is_found_uncompilable():
    def edit(nb):
        nb.cells.insert(5, nbformat.v4.new_code_cell(LONG))
        nb.cells.insert(6, nbformat.v4.new_code_cell("def broken(:\n    pass"))  # a typo is no reason

    nb = submitted(edit)
    assert suspicious.reasons(nb) == ["cell 5 could not be read"]
    assert suspicious.uncompilable(nb) == [5]
    assert suspicious.reasons(submitted()) == [] and suspicious.uncompilable(submitted()) == []


def test_duplicate_ids_are_dropped_whatever_the_metadata_holds():
    nb = submitted(list_metadata)
    kept = sandbox.without_duplicate_ids(nb)
    assert kept.cells[place(PUBLIC)].metadata["nbgrader"] == ["grade", True] and graded_cells(kept) == graded_cells(nb)
