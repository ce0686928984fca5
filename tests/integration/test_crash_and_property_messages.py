"""Grading a lesson, whose learner's functions run in an isolated kernel and cross to the checks through the bridge
(grader/engine/bridge.py, kernelside.py): a crash's message still says what the input had that the code did not
expect and shows the learner's line (sent as plain text), and a wrong answer no catalogued mistake explains names
the property it breaks, on a small input run in that kernel."""

from __future__ import annotations

import pytest

from grader.engine import sandbox
from tests.support import COURSE

CRASHES_ON_ONE_ROW = """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
"""
LEAKS = """
def softmax(scores):
    e = np.exp(np.asarray(scores, dtype=float))
    return e / (e.sum(axis=-1, keepdims=True) + 1)
"""


def graded(code: str) -> dict[str, str]:
    lesson = "03_shared_denominator"
    nb = COURSE.learner_notebook(lesson, {**COURSE.reference_answers(lesson), "softmax": code})
    report = sandbox.autograde_sandboxed(COURSE, lesson, nb, warm=True).report
    return {test.grade_id: test.message for test in report.tests if not test.passed}


@pytest.mark.parametrize("code", [CRASHES_ON_ONE_ROW, LEAKS], ids=["crash", "property"])
def test_the_first_failure_explains_itself_through_the_bridge(code):
    messages = graded(code)
    first = messages["test_softmax_public"]
    if code is CRASHES_ON_ONE_ROW:
        assert "raised AxisError: axis 1 is out of bounds for array of dimension 1" in first
        assert "  why: the input was one row (a float64 array of shape (4,)), which has axis 0 only" in first
        assert "  your line that raised it: e = np.exp(x - x.max(axis=1, keepdims=True))   (in softmax, line " in first
    else:
        assert "  broken property (value): the weights of each row sum to 1." in first
        assert "    softmax(np.array([1., 2.])) returned [0.2447, 0.6652]: the row sums to 0.909969, not 1." in first
    assert first.count("hint:") == 1, first
