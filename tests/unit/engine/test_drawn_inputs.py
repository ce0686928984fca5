"""Hidden generated inputs are drawn per submission (grader.engine.testrunner.submission_salt, checks.salted_draws):
the same submission graded again gets the same inputs and score, any change of its code gets others, so a table of
the answers an earlier feedback showed fails them."""

from __future__ import annotations

import re

import pytest

from grader.engine import sandbox, testrunner
from grader.learner import checks
from testbed.hostile.lesson import LESSON
from testbed.hostile.lookup import lookup_table
from testbed.hostile.payloads import NAIVE
from tests.support import COURSE, run_apart

pytestmark = pytest.mark.xdist_group("drawn-inputs")  # its tests share a module-scoped fixture (tests/conftest.py)

ROWS = "test_naive_normalize_rows"  # its hand-picked inputs, then 12 drawn with seed 101
SEED = re.compile(r"drawn at random \(seed (\d+)\)")


def graded(naive_normalize: str):
    """The report of lesson 01 graded with this naive_normalize (the reference's is_distribution)."""
    nb = COURSE.learner_notebook(LESSON, {**COURSE.reference_answers(LESSON), NAIVE: naive_normalize})
    return run_apart(lambda: sandbox.autograde_sandboxed(COURSE, LESSON, nb).report), nb


def rows_test(report):
    return next(t for t in report.tests if t.grade_id == ROWS)


def drawn_seed(message: str) -> int:
    return int(SEED.search(message).group(1))


@pytest.fixture(scope="module")
def earlier():
    """A lookup table of the inputs every grading drew before each submission drew its own (seed 101's) and the
    hand-picked ones, with a wrong formula otherwise: it passes those, and its feedback shows the first input drawn
    for it alone that it fails."""
    return graded(lookup_table())


def test_a_table_of_the_inputs_every_grading_draws_fails_those_drawn_for_its_submission(earlier):
    table, _ = earlier
    assert [t.grade_id for t in table.tests if not t.passed] == [ROWS], [(t.grade_id, t.message) for t in table.tests]
    assert drawn_seed(rows_test(table).message) != 101


def test_a_submission_graded_again_gets_the_same_inputs_and_score(earlier):
    first, nb = earlier
    again, _ = graded(next(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == NAIVE))
    assert again == first


def test_any_change_of_the_code_draws_other_inputs(earlier):
    first, nb = earlier
    source = next(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == NAIVE)
    changed, _ = graded(source + "\n# one comment more\n")
    assert drawn_seed(rows_test(changed).message) != drawn_seed(rows_test(first).message)
    assert changed.score == first.score  # the same table: the seed alone names other draws


def test_the_seed_a_message_names_draws_the_same_inputs_outside_a_grading(earlier):
    first, nb = earlier
    with checks.salted_draws(testrunner.submission_salt(nb)):
        fixed, salted = checks.drawn_seeds(101)
    assert fixed == 101 and drawn_seed(rows_test(first).message) == salted


def test_a_lookup_table_of_what_an_earlier_feedback_showed_fails_the_drawn_inputs(earlier):
    """The table holds every input the tests of naive_normalize called the earlier submission with, the ones drawn
    for it included, and the reference's answers: what pages that showed each failed test's input and expected
    value would have handed over. Handed in, it passes every hand-picked test and fails the drawn inputs, which are
    new."""
    first, before = earlier
    table, _ = graded(lookup_table(testrunner.submission_salt(before)))
    assert [t.grade_id for t in table.tests if not t.passed] == [ROWS], [(t.grade_id, t.message) for t in table.tests]
    assert drawn_seed(rows_test(table).message) not in (101, drawn_seed(rows_test(first).message))
