"""What the public checks alone catch (grader/proof/public.py): the figure `prove` reports, read from its run
(every misconception fails a public check unless recorded as left to the hidden tests, with the reason), the
public copy of the course, and how the figure is shown."""

from __future__ import annotations

import pytest

from grader.course import read_cached
from grader.course.contract import BEGIN
from grader.engine.pool import grade_many
from grader.engine.testrunner import is_test_cell
from grader.learner import hints
from grader.proof import catalogue, prove, public
from grader.proof.prove import Proof, Proven
from tests.support import COURSE, by_id

MISCONCEPTIONS = hints.misconceptions()


@pytest.mark.parametrize("entry", MISCONCEPTIONS, ids=[m.id for m in MISCONCEPTIONS])
def test_misconception_fails_a_public_check_unless_left_to_the_hidden_tests(entry, proofs):
    proof = by_id(proofs)[entry.id]
    assert proof["public"] is (entry.id not in public.LEFT_TO_HIDDEN_TESTS), proof


def test_public_checks_catch_nine_in_ten_misconceptions(proofs):
    assert proofs["public_rate"] >= 0.9
    assert {p["entry"] for p in proofs["left_to_hidden_tests"]} == set(public.LEFT_TO_HIDDEN_TESTS)
    assert all(p["reason"] for p in proofs["left_to_hidden_tests"])


def test_every_record_names_a_catalogued_misconception_and_a_reason():
    ids = {m.id for m in MISCONCEPTIONS}
    assert set(public.LEFT_TO_HIDDEN_TESTS) <= ids
    assert all(len(reason) > 40 for reason in public.LEFT_TO_HIDDEN_TESTS.values())
    assert len(public.LEFT_TO_HIDDEN_TESTS) <= 0.1 * len(MISCONCEPTIONS)


@pytest.mark.parametrize("lesson", COURSE.lesson_ids())
def test_the_public_copy_grades_with_the_release_test_cells(lesson):
    """Its source notebook's test cells are the release's, with their points: no hidden test is left in them."""
    checks = public.public_course(COURSE, [lesson])
    tests = lambda nb: {c.metadata.nbgrader.grade_id: c for c in nb.cells if is_test_cell(c)}  # noqa: E731
    copied = tests(read_cached(checks.source_notebook(lesson)))
    released = tests(read_cached(COURSE.release_notebook(lesson)))
    source = tests(read_cached(COURSE.source_notebook(lesson)))
    assert copied.keys() == released.keys() == source.keys()
    assert any(BEGIN in cell.source for cell in source.values())
    for grade_id, cell in copied.items():
        assert cell.source == released[grade_id].source and BEGIN not in cell.source
        assert cell.metadata.nbgrader.points == source[grade_id].metadata.nbgrader.points


def test_the_public_checks_catch_forgotten_keepdims_and_pass_the_reference():
    """Graded by nbgrader with the release's test cells: the reference passes; forgetting keepdims (rows with
    equal totals hid it) fails a public check, and a mistake left to the hidden tests does not."""
    lesson = "01_naive_division"
    entries = {m.id: m for m in catalogue.misconceptions(lesson=lesson)}
    notebooks = [(lesson, COURSE.learner_notebook(lesson, COURSE.reference_answers(lesson)))]
    for entry_id in ("naive_drops_keepdims", "naive_int_sum_wraps"):
        answers = COURSE.reference_answers(lesson)
        answers["naive_normalize"] = prove.as_notebook_code(entries[entry_id].source)
        notebooks.append((lesson, COURSE.learner_notebook(lesson, answers)))
    reference, keepdims, wraps = grade_many(public.public_course(COURSE, [lesson]), notebooks, jobs=2)
    assert public.caught(reference) is False and reference.score == reference.max_score
    assert public.caught(keepdims) is True
    # the details cell's visible lines repeat the public cell's list calls, so Validate fails there too
    assert [t.grade_id for t in keepdims.tests if not t.passed] == [
        "test_naive_normalize_public",
        "test_naive_normalize_details",
    ]
    assert public.caught(wraps) is False and "naive_int_sum_wraps" in public.LEFT_TO_HIDDEN_TESTS


def _proof(entry: str, public_check: bool | None) -> Proof:
    return Proof(
        "01_naive_division",
        "naive_normalize",
        entry,
        "misconception",
        "it",
        5.0,
        9.0,
        4.0,
        True,
        ["t"],
        public=public_check,
    )


def test_the_table_lists_each_one_left_to_the_hidden_tests_with_its_reason():
    proven = Proven(
        [_proof("naive_drops_keepdims", True), _proof("naive_int_sum_wraps", False), _proof("naive_new", False)],
        graded={"01_naive_division": ["naive_normalize", "is_distribution"]},
    )
    table = prove.render_table(proven)
    assert "01_naive_division  naive_normalize  1/3 (33%)" in table
    assert f"naive_int_sum_wraps  (naive_normalize): {public.LEFT_TO_HIDDEN_TESTS['naive_int_sum_wraps']}" in table
    assert "naive_new  (naive_normalize): NO REASON RECORDED" in table
    assert "1/3 (33%) fail a public check" in table
    assert proven.problems() == [
        "naive_new: passes every public check (Validate says Success), and LEFT_TO_HIDDEN_TESTS does not say why"
    ]
    assert "| 1/3 |" in prove.render_markdown(proven)


def test_a_record_of_a_mistake_the_public_checks_catch_is_a_problem():
    proven = Proven([_proof("naive_int_sum_wraps", True)])
    assert proven.problems() == [
        "naive_int_sum_wraps: recorded in LEFT_TO_HIDDEN_TESTS, but a public check fails for it"
    ]
    assert not proven.ok


def test_a_run_without_the_measure_shows_no_public_table():
    assert "Public checks" not in prove.render_table(Proven([_proof("naive_drops_keepdims", None)]))
