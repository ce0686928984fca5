"""Every lesson through real nbgrader autograde: the reference gets full marks, the
untouched release (stubs) gets zero, and a deleted test cell keeps its points in the total.

The three notebooks of every lesson are graded once per run, in one batch (the
`lesson_reports` fixture). The third way, known-wrong and correct alternative
implementations, is proven for every catalogue entry in test_prove.py.
"""

import pytest

from tests.support import COURSE, graded_cells_of, learner_notebook, solution_sources

LESSONS = COURSE.lesson_ids()


@pytest.mark.parametrize("lesson", LESSONS)
def test_reference_gets_full_marks(lesson, lesson_reports):
    report = lesson_reports[lesson]["reference"]
    assert report.max_score > 0
    assert report.score == report.max_score, [t for t in report.tests if not t.passed]


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_stub_gets_zero(lesson, lesson_reports):
    report = lesson_reports[lesson]["stub"]
    assert report.max_score > 0 and report.score == 0
    assert all("not written yet" in t.message for t in report.tests)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_deleted_test_cell_scores_zero_and_keeps_its_points_in_the_total(lesson, lesson_reports):
    tests = graded_cells_of(learner_notebook(lesson, solution_sources(lesson)))
    report = lesson_reports[lesson]["deleted"]
    missing = report.tests[-1]
    assert missing.grade_id == tests[-1].metadata.nbgrader.grade_id
    assert missing.points == 0 and not missing.passed and "missing" in missing.message
    assert report.score == report.max_score - missing.max_points
    assert report.max_score == sum(c.metadata.nbgrader.points for c in tests)
