"""nbgrader's metadata check in the sandbox's autograde steps, kept per distinct metadata."""

from __future__ import annotations

import nbformat
import pytest
from nbgrader.nbgraderformat import ValidationError

from grader.course.nbgrader_calls import quiet_stderr
from grader.engine import sandbox
from tests.support import COURSE

# nbgrader's metadata check, run once per distinct grading metadata


def lesson_notebook():
    return nbformat.read(COURSE.release_notebook("01_naive_division"), as_version=4)


def test_metadata_that_passed_is_not_checked_again_but_any_change_is(monkeypatch):
    checked = []
    original = sandbox.CheckCellMetadata.preprocess
    monkeypatch.setattr(
        sandbox.CheckCellMetadata, "preprocess", lambda self, nb, r: checked.append(1) or original(self, nb, r)
    )
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "passed", {})
    step = sandbox.CheckCellMetadataOnce()
    step.preprocess(lesson_notebook(), {})
    step.preprocess(lesson_notebook(), {})
    assert checked == [1]  # the same metadata: nbgrader's verdict kept
    changed = lesson_notebook()
    graded = next(c for c in changed.cells if "nbgrader" in c.metadata)
    graded.metadata.nbgrader["points"] = 7
    step.preprocess(changed, {})
    assert checked == [1, 1]
    text_only = lesson_notebook()
    text_only.cells[0].source += "\nanother line"  # not read by the check
    assert sandbox.metadata_digest(text_only) == sandbox.metadata_digest(lesson_notebook())


def test_bad_metadata_fails_every_time_after_good_metadata_passed(monkeypatch):
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "passed", {})
    sandbox.CheckCellMetadataOnce().preprocess(lesson_notebook(), {})
    duplicated = lesson_notebook()
    ids = [c for c in duplicated.cells if c.metadata.get("nbgrader", {}).get("grade_id")]
    ids[1].metadata.nbgrader["grade_id"] = ids[0].metadata.nbgrader["grade_id"]
    for _ in range(2):
        with pytest.raises(ValidationError, match="failed to validate"), quiet_stderr():
            sandbox.CheckCellMetadataOnce().preprocess(duplicated, {})
    assert len(sandbox.CheckCellMetadataOnce.passed) == 1


def test_the_kept_verdicts_are_bounded(monkeypatch):
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "passed", {})
    monkeypatch.setattr(sandbox.CheckCellMetadataOnce, "KEPT", 3)
    for points in range(5):
        nb = lesson_notebook()
        next(c for c in nb.cells if "nbgrader" in c.metadata).metadata.nbgrader["points"] = points + 1
        sandbox.CheckCellMetadataOnce().preprocess(nb, {})
    assert len(sandbox.CheckCellMetadataOnce.passed) == 3


# nbgrader's OverwriteKernelspec and OverwriteCells, asking the lesson's gradebook read once


def tampered_notebook():
    """The release with every kind of change OverwriteCells puts right or reports: a test cell's code, its points,
    its lock and its type, a grade id the gradebook does not know; and no kernelspec."""
    nb = lesson_notebook()
    del nb.metadata["kernelspec"]
    graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    graded[0].source = "pass  # the hidden tests taken out"
    graded[1].metadata.nbgrader["points"] = 99
    graded[2].metadata.nbgrader["locked"] = not graded[2].metadata.nbgrader.get("locked", False)
    graded[3].cell_type = "markdown"
    del graded[3]["outputs"], graded[3]["execution_count"]
    graded[4].metadata.nbgrader["grade_id"] = "not_in_the_gradebook"
    return nb


def test_the_lesson_record_overwrites_a_notebook_as_nbgrader_does_from_the_gradebook():
    from grader.course.gradebook import lesson_gradebook

    lesson = "01_naive_division"
    db_url = f"sqlite:///{sandbox.readable_gradebook(lesson_gradebook(COURSE, lesson))}"
    resources = {"nbgrader": {"notebook": lesson, "assignment": lesson, "db_url": db_url}}
    config = COURSE.nbgrader_settings()
    with quiet_stderr():
        theirs, ours = tampered_notebook(), tampered_notebook()
        for step in (sandbox.OverwriteKernelspec, sandbox.OverwriteCells):
            theirs, _ = step(config=config)(theirs, resources)
        for step in (sandbox.OverwriteKernelspecFromRecord, sandbox.OverwriteCellsFromRecord):
            ours, _ = step(config=config)(ours, resources)
    assert ours == theirs != tampered_notebook()
    assert ours.metadata.kernelspec == lesson_notebook().metadata.kernelspec
    record = sandbox.lesson_record(db_url, lesson, lesson)
    with pytest.raises(sandbox.MissingEntry):
        record.find_source_cell("not_in_the_gradebook", lesson, lesson)
    with pytest.raises(sandbox.MissingEntry):
        record.find_graded_cell(next(iter(record.graded_cells)), lesson, "another_lesson")
