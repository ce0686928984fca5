"""The lessons' PyTorch cells while grading: they print one line and never import torch, under `grader grade` and
under plain `nbgrader autograde` alike, and the scores are those of every other graded cell.

With torch installed (as in the test environment) they print the comparison, not the install line: test_notebooks.py
reads that from its run of each lesson (without torch, that test fails; it does not skip).
"""

from __future__ import annotations

import nbformat

from grader.engine import status
from grader.engine.grade import grade_outcome
from grader.learner.pytorch import SKIPPED_LINE
from tests.plain_class import (
    GROUP,
    TORCH_LESSON,
    TORCH_STUDENT,
    graded_class,
    plain_autograded,
    plain_scores,
    torch_probe,
)
from tests.support import COURSE, LESSONS_WITH_TORCH, printed_by, run_apart, torch_cells

GRADED_LESSON = TORCH_LESSON


def test_some_lesson_compares_with_pytorch():
    assert GRADED_LESSON in LESSONS_WITH_TORCH


def graded_in_kernel(lesson: str, nb: nbformat.NotebookNode) -> tuple[dict[str, float], list[str]]:
    """`grader grade`'s grading of one submission: its score per graded cell, and what its torch cells and its
    last cell printed."""
    outcome = run_apart(lambda: grade_outcome(COURSE, lesson, nbformat.writes(nb), None, []))
    assert outcome.status == status.GRADED, outcome.detail
    assert outcome.result is not None and outcome.result.executed is not None
    executed = outcome.result.executed
    texts = [printed_by(executed.cells[index]) for index in torch_cells(executed)] + [printed_by(executed.cells[-1])]
    return {cell: score for cell, (score, _) in outcome.result.grades.items()}, texts


def test_a_graded_submission_never_imports_torch_and_keeps_full_marks():
    nb = torch_probe()
    scores, texts = graded_in_kernel(GRADED_LESSON, nb)
    *torch_texts, probe = texts
    assert torch_texts and all(text == f"{SKIPPED_LINE}\n" or text == "" for text in torch_texts), torch_texts
    assert torch_texts[0] == f"{SKIPPED_LINE}\n"  # the cell that calls torch_or_none: one line, the rest silent
    assert probe == "torch imported in this kernel: False\n"
    report = nbformat.read(COURSE.source_notebook(GRADED_LESSON), as_version=4)
    points = {
        cell.metadata.nbgrader.grade_id: float(cell.metadata.nbgrader.points)
        for cell in report.cells
        if cell.metadata.get("nbgrader", {}).get("grade", False)
    }
    assert scores == points  # every graded cell its full points


@GROUP
def test_plain_nbgrader_autograde_skips_the_torch_cells_too_with_the_same_scores(tmp_path_factory):
    """benchmarks/autograde.py compares the two tools on the same work: nbgrader sets NBGRADER_EXECUTION itself.
    The notebook is graded in a plain `nbgrader autograde` run shared with other tests (tests.plain_class)."""
    folder = graded_class(tmp_path_factory)
    executed = nbformat.read(plain_autograded(folder, TORCH_STUDENT, GRADED_LESSON), as_version=4)
    assert printed_by(executed.cells[torch_cells(executed)[0]]) == f"{SKIPPED_LINE}\n"
    assert printed_by(executed.cells[-1]) == "torch imported in this kernel: False\n"
    plain = {cell: score for (_, _, cell), score in plain_scores(folder, [TORCH_STUDENT], [GRADED_LESSON]).items()}
    ours, _ = graded_in_kernel(GRADED_LESSON, torch_probe())
    assert plain == ours
