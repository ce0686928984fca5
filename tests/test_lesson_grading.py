"""Every graded exercise, three ways, through real nbgrader autograde.

The reference gets full marks, the untouched release (stubs) gets zero, and each known
wrong implementation loses points on the tests that target it, with the mistake named.
"""
import pytest

from grader import course
from tests.conftest import learner_notebook, solution_sources
from tests import lessons

LESSONS = course.lesson_ids()
WRONG = [(lesson, wrong) for lesson in LESSONS for wrong in lessons.load(lesson).WRONG]


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
def test_every_lesson_has_wrong_implementations(lesson):
    wrong = lessons.load(lesson).WRONG
    for function in solution_sources(lesson):
        assert sum(w.function == function for w in wrong) >= 3, f"{function} needs 3 known-wrong versions"
    assert len(wrong) >= 5


@pytest.mark.parametrize("lesson, wrong", WRONG, ids=[f"{lesson}-{w.id}" for lesson, w in WRONG])
def test_wrong_implementation_loses_points(lesson, wrong, grade):
    answers = solution_sources(lesson)
    assert wrong.function in answers
    answers[wrong.function] = wrong.source
    report = grade(learner_notebook(lesson, answers))
    results = {t.grade_id: t for t in report.tests}
    assert report.score < report.max_score
    for test_id in wrong.loses:
        assert not results[test_id].passed, f"{test_id} should catch {wrong.id}"
    if wrong.named:
        feedback = "\n".join(t.message for t in report.tests if not t.passed)
        assert wrong.named in feedback, feedback


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
