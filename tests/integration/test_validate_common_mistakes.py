"""nbgrader's Validate never says "Success" for a catalogued common mistake.

Each notebook is the lesson's release with the reference filled in and one misconception in place of its function, as
a learner would have it; nbgrader's own Validator checks it as the learner's Validate button does (nbgrader's
validate_assignment server extension, with the course's settings), and the dialog's rule (nbgrader's lab extension)
says whether it shows "Success! Your notebook passes all the tests.". The sample spans the lessons and holds mistakes
the public checks did not see before (forgetting keepdims in lesson 01 first of all).
"""

from __future__ import annotations

import nbformat
import pytest
from nbgrader.validator import Validator

from grader.proof import catalogue, prove, public
from tests.support import COURSE

COMMON = [
    "naive_drops_keepdims",
    "dist_returns_numpy_bool",
    "normalize_global_max",
    "softmax_axis1",
    "swt_accepts_nan",
    "snt_new_generator",
    "stable_shift_by_first_score",
    "masked_nan_for_empty_row",
    "aw_default_mask_square",
    "cross_entropy_via_log_of_softmax",
    "online_skips_masked_chunks",
]
ENTRIES = {m.id: m for m in catalogue.misconceptions()}


def validate(lesson: str, answers: dict[str, str], folder) -> dict:
    """What nbgrader's Validate finds in the release of `lesson` with `answers` filled in."""
    path = folder / lesson / f"{lesson}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(COURSE.learner_notebook(lesson, answers), path)
    return Validator(config=COURSE.nbgrader_settings()).validate(str(path))


def says_success(found: dict) -> bool:
    """The Validate dialog's rule: "Success! Your notebook passes all the tests." unless a cell changed type or
    source, or a test failed."""
    return not any(key in found for key in ("type_changed", "changed", "passed", "failed"))


def with_entry(entry_id: str) -> tuple[str, dict[str, str]]:
    entry = ENTRIES[entry_id]
    lesson = catalogue.lesson_of(entry)
    answers = COURSE.reference_answers(lesson)
    answers[entry.function] = prove.as_notebook_code(entry.source)
    return lesson, answers


@pytest.mark.parametrize("entry_id", COMMON)
def test_validate_does_not_say_success_for_a_common_mistake(entry_id, tmp_path):
    assert entry_id not in public.LEFT_TO_HIDDEN_TESTS
    lesson, answers = with_entry(entry_id)
    found = validate(lesson, answers, tmp_path)
    assert not says_success(found) and "failed" in found, found
    assert any(ENTRIES[entry_id].function in cell["source"] for cell in found["failed"]), found


def test_validate_says_success_for_the_reference(tmp_path):
    found = validate("01_naive_division", COURSE.reference_answers("01_naive_division"), tmp_path)
    assert says_success(found), found


def test_validate_agrees_with_prove_on_a_mistake_left_to_the_hidden_tests(tmp_path):
    """The measure `prove` reports counts this one as passing every public check, and so does Validate."""
    assert "naive_int_sum_wraps" in public.LEFT_TO_HIDDEN_TESTS
    found = validate(*with_entry("naive_int_sum_wraps"), tmp_path)
    assert says_success(found), found
