"""Every lesson through real nbgrader autograde: the reference gets full marks, the
untouched release (stubs) gets zero, and a deleted test cell keeps its points in the total.

The third way, known-wrong and correct alternative implementations, is proven for every
catalogue entry in test_prove.py.
"""
import pytest

from tests.conftest import COURSE, learner_notebook, solution_sources

LESSONS = COURSE.lesson_ids()


@pytest.mark.parametrize("lesson", LESSONS)
def test_reference_gets_full_marks(lesson, grade):
    report = grade(learner_notebook(lesson, solution_sources(lesson)))
    assert report.max_score > 0
    assert report.score == report.max_score, [t for t in report.tests if not t.passed]


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_stub_gets_zero(lesson, grade):
    report = grade(learner_notebook(lesson, {}))
    assert report.max_score > 0 and report.score == 0
    assert all("not written yet" in t.message for t in report.tests)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_deleted_test_cell_scores_zero_and_keeps_its_points_in_the_total(lesson, grade):
    nb = learner_notebook(lesson, solution_sources(lesson))
    tests = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    nb.cells.remove(tests[-1])
    report = grade(nb)
    missing = report.tests[-1]
    assert missing.grade_id == tests[-1].metadata.nbgrader.grade_id
    assert missing.points == 0 and not missing.passed and "missing" in missing.message
    assert report.score == report.max_score - missing.max_points
    assert report.max_score == sum(c.metadata.nbgrader.points for c in tests)
