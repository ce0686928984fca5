"""Unit tests for grader/learner/checks.py, the helpers that the lessons' test cells call.

The tests cover compare()'s dtype-aware tolerance (property-based, with hypothesis),
the failure messages a learner sees, and the promise that nothing is written to stderr,
because nbgrader gives a test cell 0 points if it writes to stderr. The last section
holds edge cases that once broke the helpers (warnings, keyword inputs, odd answers).
"""

from __future__ import annotations

import json
import re
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from grader.learner import hints
from grader.learner.checks import (
    ULPS,
    CheckFailed,
    Mistake,
    check_answer,
    check_call,
    check_frequencies,
    check_quiet,
    check_raises,
    check_values,
    compare,
    passed,
    tolerance,
)
from grader.learner.hints import Misconception
from grader.proof import catalogue, fingerprints
from grader.proof.catalogue import Misconception as CataloguedMistake

pytestmark = pytest.mark.fast  # make test-fast: starts no kernel and runs no nbgrader

# --------------------------------------------------------------------------- helpers


def f(x):
    """A correct 'learner' function: doubles its input into a new float array."""
    return np.asarray(x, dtype=float) * 2


def normalize(scores):
    """A correct naive normalisation (row sums over the last axis)."""
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)


def failure_message(check, *args, **kwargs) -> str:
    """Run a check that must fail and return its message."""
    with pytest.raises(CheckFailed) as info:
        check(*args, **kwargs)
    return str(info.value)


def _print_warning(message, category, filename, lineno, file=None, line=None):
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@pytest.fixture
def warnings_to_stderr():
    """Show warnings as a notebook does: printed to stderr. (pytest records them instead.)"""
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = _print_warning  # catch_warnings restores it on exit
        yield


# --------------------------------------------------------------------------- tolerance


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tolerance_is_64_ulps_of_the_float_dtype(dtype):
    assert ULPS == 64
    assert tolerance(dtype) == pytest.approx(64 * np.finfo(dtype).eps, rel=1e-12)


def test_tolerance_of_float32_is_much_looser_than_float64():
    assert tolerance(np.float32) > 1e8 * tolerance(np.float64)


@pytest.mark.parametrize("dtype", [np.int64, np.bool_])
def test_tolerance_of_non_float_dtype_falls_back_to_float64(dtype):
    assert tolerance(dtype) == tolerance(np.float64)


# --------------------------------------------------------------------------- compare: values


def test_compare_returns_none_for_equal_arrays():
    a = np.array([[0.25, 0.75], [0.5, 0.5]])
    assert compare(a.copy(), a) is None
    assert compare(a.copy(), a.tolist()) is None


FLOAT_WIDTH = {np.float32: 32, np.float64: 64}


@st.composite
def answer_and_perturbation(draw, dtype, scale):
    """A float array of `dtype`, plus the same array perturbed by up to `scale` tolerances."""
    elements = st.floats(-1e6, 1e6, width=FLOAT_WIDTH[dtype], allow_nan=False)
    exact = draw(hnp.arrays(dtype, hnp.array_shapes(max_dims=3, max_side=4), elements=elements))
    fraction = draw(hnp.arrays(np.float64, exact.shape, elements=st.floats(-1.0, 1.0)))
    wide = exact.astype(np.float64)
    shifted = wide + scale * fraction * tolerance(dtype) * (1 + np.abs(wide))
    return exact, shifted.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@given(data=st.data())
def test_compare_accepts_errors_within_half_the_tolerance(dtype, data):
    exact, got = data.draw(answer_and_perturbation(dtype, scale=0.5))
    assert compare(got, exact) is None
    assert compare(got, exact.astype(np.float64)) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@given(data=st.data())
def test_compare_rejects_an_error_of_ten_tolerances_and_names_its_index(dtype, data):
    elements = st.floats(-1e6, 1e6, width=FLOAT_WIDTH[dtype], allow_nan=False)
    exact = data.draw(hnp.arrays(dtype, hnp.array_shapes(max_dims=3, max_side=4), elements=elements))
    index = tuple(data.draw(st.integers(0, n - 1)) for n in exact.shape)
    sign = data.draw(st.sampled_from([-1.0, 1.0]))
    got = exact.copy()
    x = float(exact[index])
    got[index] = x + sign * 10 * tolerance(dtype) * (1 + abs(x))

    message = compare(got, exact)
    assert message is not None
    assert f"at index {index}" in message
    assert f"1 of {exact.size} entries differ" in message


def test_a_float32_error_too_big_for_float64_passes_only_as_a_float32_answer():
    expected = np.array([1.0, 2.0])
    error = 1e-6  # about 8 float32 ulps, but billions of float64 ulps
    assert compare((expected + error).astype(np.float32), expected) is None
    assert compare(expected + error, expected) is not None


def test_compare_message_names_the_largest_error_and_where_it_is():
    expected = np.zeros((2, 2))
    got = np.array([[0.0, 1e-3], [2e-3, 0.0]])
    message = compare(got, expected)
    assert "largest error 0.002 at index (1, 0)" in message
    assert "2 of 4 entries differ" in message


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_compare_matches_nan_and_infinities_with_themselves(value):
    assert compare(np.array([1.0, value]), [1.0, value]) is None


@pytest.mark.parametrize(
    "got, expected",
    [
        (np.inf, -np.inf),
        (-np.inf, np.inf),
        (np.nan, 1.0),
        (1.0, np.nan),
        (np.inf, 1e300),
        (np.nan, np.inf),
    ],
)
def test_compare_rejects_mismatched_special_values(got, expected):
    message = compare(np.array([0.5, got]), [0.5, expected])
    assert message is not None
    assert "at index (1,)" in message
    assert f"got {got}" in message and f"where {expected} was expected" in message


# --------------------------------------------------------------------------- compare: types and shapes


def test_compare_shape_mismatch_mentions_both_shapes():
    message = compare(np.zeros(3), np.zeros((3, 1)))
    assert "(3, 1)" in message and "(3,)" in message


def test_compare_dtype_requirement_mentions_both_dtypes():
    message = compare(np.ones(2, dtype=np.float64), [1.0, 1.0], dtype=np.float32)
    assert message is not None
    assert "float32" in message and "float64" in message
    assert compare(np.ones(2, dtype=np.float32), [1.0, 1.0], dtype=np.float32) is None


def test_compare_says_when_it_got_a_python_list():
    message = compare([0.25, 0.75], [0.25, 0.75])
    assert message is not None and "Python list" in message


def test_compare_rejects_an_int_array_where_floats_are_expected():
    got = np.array([1, 0])
    message = compare(got, [1.0, 0.0])
    assert message is not None
    assert "float" in message and str(got.dtype) in message


def test_compare_accepts_a_float_answer_for_an_int_expectation():
    assert compare(np.array([1.0, 2.0]), [1, 2]) is None


def test_compare_boolean_arrays_exactly():
    expected = np.array([[True, False], [False, True]])
    assert compare(expected.copy(), expected) is None
    message = compare(np.array([[True, False], [True, True]]), expected)
    assert message == "1 of 4 entries differ, first at index (1, 0)"


def test_compare_rejects_numbers_where_booleans_are_expected():
    message = compare(np.array([1, 0]), [True, False])
    assert message is not None and "boolean" in message


# --------------------------------------------------------------------------- check_call


def test_check_call_passes_silently_for_a_correct_function(capfd):
    assert check_call(f, [1, 2], expect=[2.0, 4.0]) is None
    assert check_call(normalize, [[1, 3], [2, 2]], expect=[[0.25, 0.75], [0.5, 0.5]]) is None
    assert capfd.readouterr() == ("", "")


def test_check_failed_is_an_assertion_error():
    assert issubclass(CheckFailed, AssertionError)
    with pytest.raises(AssertionError):
        check_call(f, [1, 2], expect=[1.0, 2.0])


def test_check_call_failure_shows_the_call_the_expected_and_the_answer():
    message = failure_message(check_call, f, [1, 2], expect=[1.0, 2.0])
    assert "f([1, 2])" in message
    assert "expected:" in message and "got:" in message
    assert "[2., 4.]" in message  # what came back


def test_check_call_shows_keyword_arguments_and_array_dtypes():
    def scale(x, factor=1.0):
        return np.asarray(x, dtype=float) * factor

    scores = np.array([1, 2], dtype=np.int32)
    message = failure_message(check_call, scale, scores, factor=3, expect=[1.0, 2.0])
    assert "scale(np.array([1, 2], dtype=int32), factor=3)" in message


def test_check_call_names_the_matching_mistake_and_its_hint():
    whole_array = Mistake(
        "divided by the total of the whole array", "sum over the last axis only", [[0.125, 0.375], [0.25, 0.25]]
    )
    columns = Mistake("summed down the columns", "use axis=-1", [[1 / 3, 0.6], [2 / 3, 0.4]])

    def divide_by_grand_total(scores):
        x = np.asarray(scores, dtype=float)
        return x / x.sum()

    message = failure_message(
        check_call,
        divide_by_grand_total,
        [[1, 3], [2, 2]],
        expect=[[0.25, 0.75], [0.5, 0.5]],
        mistakes=[columns, whole_array],
    )
    assert "likely mistake: divided by the total of the whole array" in message
    assert "hint: sum over the last axis only" in message
    assert "summed down the columns" not in message


def test_check_call_names_no_mistake_when_none_matches():
    unrelated = Mistake("forgot to double", "multiply by 2", [1.0, 2.0])
    message = failure_message(check_call, f, [1, 2], expect=[3.0, 6.0], mistakes=[unrelated])
    assert "likely mistake:" not in message
    assert "multiply by 2" not in message


def test_a_graded_name_bound_to_what_is_no_function_names_no_catalogued_mistake():
    """A notebook that binds the function's name to something else (a module, say: the grader gets a stand-in with
    no name) fails with what calling it raised; no mistake of any lesson's catalogue is named for it."""

    class StandIn:
        def __repr__(self):
            return "<module numpy.f2py.__main__>"

    message = failure_message(check_call, StandIn(), [1, 2, 1], expect=[0.25, 0.5, 0.25])
    assert "not callable" in message and "likely mistake:" not in message and "hint:" not in message


def test_check_call_rejects_a_function_that_changes_its_input_array():
    def normalize_in_place(scores):
        scores /= scores.sum()
        return scores

    scores = np.array([1.0, 3.0])
    message = failure_message(check_call, normalize_in_place, scores, expect=[0.25, 0.75])
    assert "changed its input in place" in message


def test_check_call_rejects_a_function_that_changes_its_input_list():
    def sort_in_place(scores):
        scores.sort()
        return np.asarray(scores, dtype=float)

    message = failure_message(check_call, sort_in_place, [3, 1, 2], expect=[1.0, 2.0, 3.0])
    assert "changed its input in place" in message


def test_a_check_words_its_call_only_for_a_failure_and_as_the_call_was_made(monkeypatch):
    from grader.learner import checks

    worded = []
    describe = checks.describe_call
    monkeypatch.setattr(checks, "describe_call", lambda *a: worded.append(a) or describe(*a))
    check_values(lambda x: x / x.sum(), np.array([1.0, 3.0]), expect=[0.25, 0.75])
    check_answer(lambda x: bool(x.sum() > 1), np.array([1.0, 3.0]), expect=True)
    assert worded == []  # passing checks (most of them) never word their arrays

    def wrong_and_in_place(scores):
        scores *= 2
        return scores

    for check, expect in ((check_values, [0.25, 0.75]), (check_answer, 0.25)):
        message = failure_message(check, lambda x: wrong_and_in_place(x).sum(), np.array([1.0, 3.0]), expect=expect)
        assert "<lambda>(np.array([1., 3.]))" in message  # its input as it was before the call changed it
    assert len(worded) == 2


def test_check_call_accepts_an_input_containing_nan_left_unchanged():
    assert check_call(f, np.array([1.0, np.nan]), expect=[2.0, np.nan]) is None


def test_check_call_says_an_unwritten_function_is_not_written_yet():
    def stub(scores):
        raise NotImplementedError

    message = failure_message(check_call, stub, [1, 2], expect=[0.5, 0.5])
    assert "stub([1, 2])" in message and "not written yet" in message


def test_check_call_reports_the_type_of_an_exception_the_function_raised():
    def broken(scores):
        return {}["total"]

    message = failure_message(check_call, broken, [1, 2], expect=[0.5, 0.5])
    assert "broken([1, 2]) raised KeyError" in message
    assert "'total'" in message


def test_warnings_fixture_really_prints_warnings_to_stderr(warnings_to_stderr, capfd):
    """Control for the tests below: without the checks, a numpy warning does reach stderr."""
    normalize([1, -1, 0])
    assert "RuntimeWarning" in capfd.readouterr().err


def test_check_call_keeps_numpy_floating_point_warnings_off_stderr(warnings_to_stderr, capfd):
    check_call(normalize, [1, -1, 0], expect=[np.inf, -np.inf, np.nan])
    with pytest.raises(CheckFailed):
        check_call(normalize, [1, -1, 0], expect=[1.0, 1.0, 1.0])
    assert capfd.readouterr().err == ""


def test_check_raises_keeps_numpy_floating_point_warnings_off_stderr(warnings_to_stderr, capfd):
    def normalize_then_validate(scores):
        weights = normalize(scores)
        if not np.isfinite(weights).all():
            raise ValueError("scores sum to zero")
        return weights

    check_raises(normalize_then_validate, [1, -1, 0], error=ValueError)
    assert capfd.readouterr().err == ""


# --------------------------------------------------------------------------- check_answer


def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        return False
    return bool(np.all(np.abs(w.sum(axis=-1) - 1.0) <= atol))


def test_check_answer_accepts_python_and_numpy_bools(capfd):
    check_answer(is_distribution, [0.25, 0.75], expect=True)
    check_answer(is_distribution, [-1, 2], expect=False)
    check_answer(lambda w: np.all(np.asarray(w) >= 0), [0.5, 0.5], expect=True)  # np.bool_
    assert capfd.readouterr() == ("", "")


@pytest.mark.parametrize("answer", [1, 1.0, np.int64(1), "True", np.array([True])])
def test_check_answer_requires_a_bool_for_a_yes_no_question(answer):
    message = failure_message(check_answer, lambda w: answer, [0.5, 0.5], expect=True)
    assert "should return True or False" in message
    assert type(answer).__name__ in message


def test_check_answer_rejects_the_wrong_bool():
    message = failure_message(check_answer, is_distribution, [0.5, 0.5], expect=False)
    assert "expected: False" in message and "got:      True" in message


@pytest.mark.parametrize("answer", [True, np.True_])
def test_check_answer_names_the_mistake_for_a_wrong_bool(answer):
    exact_sum = Mistake("compared the sum with 1 exactly", "allow |sum - 1| <= atol", True)
    unrelated = Mistake("something else", "not this one", False)
    message = failure_message(check_answer, lambda w: answer, [0.5, 0.6], expect=False, mistakes=[unrelated, exact_sum])
    assert "likely mistake: compared the sum with 1 exactly" in message
    assert "hint: allow |sum - 1| <= atol" in message
    assert "not this one" not in message


def test_check_answer_compares_numbers_with_the_float64_tolerance():
    check_answer(lambda: 0.1 + 0.2, expect=0.3)
    check_answer(lambda: np.float64(2.0), expect=2)
    message = failure_message(check_answer, lambda: 0.3 + 1e-9, expect=0.3)
    assert "expected: 0.3" in message


def test_check_answer_rejects_a_list_for_a_number():
    message = failure_message(check_answer, lambda: [0.5], expect=0.5)
    assert "got:      [0.5]" in message


# --------------------------------------------------------------------------- check_raises


class ScoresError(ValueError):
    """A subclass of the expected exception."""


def _raiser(exception):
    def validate(scores):
        raise exception("bad scores")

    return validate


def test_check_raises_passes_for_the_expected_exception(capfd):
    assert check_raises(_raiser(ValueError), [1, 2]) is None
    assert check_raises(_raiser(TypeError), [1, 2], error=TypeError) is None
    assert capfd.readouterr() == ("", "")


def test_check_raises_passes_for_a_subclass_of_the_expected_exception():
    assert check_raises(_raiser(ScoresError), [1, 2], error=ValueError) is None


def test_check_raises_fails_when_nothing_is_raised_and_says_what_came_back():
    message = failure_message(check_raises, normalize, [1, 3], error=ValueError, why="negative scores must be rejected")
    assert "normalize([1, 3]) returned [0.25, 0.75]" in message
    assert "expected it to raise ValueError" in message
    assert message.endswith("negative scores must be rejected")


def test_check_raises_fails_for_a_different_exception_type():
    message = failure_message(check_raises, _raiser(TypeError), [1, 2], error=ValueError)
    assert "raised TypeError: bad scores\n  expected it to raise ValueError." in message


def test_check_raises_does_not_accept_a_parent_of_the_expected_exception():
    message = failure_message(check_raises, _raiser(ValueError), [1, 2], error=ScoresError)
    assert "raised ValueError: bad scores\n  expected it to raise ScoresError." in message


def test_check_raises_says_an_unwritten_function_is_not_written_yet():
    message = failure_message(
        check_raises, _raiser(NotImplementedError), [1, 2], error=RuntimeError
    )  # NotImplementedError is a RuntimeError
    assert "not written yet" in message


# --------------------------------------------------------------------------- passed and stderr


def test_passed_prints_one_line_naming_the_function(capfd):
    passed("naive_normalize")
    out, err = capfd.readouterr()
    assert err == ""
    assert out.count("\n") == 1 and out.endswith("\n")
    assert "naive_normalize" in out and "Hidden tests" in out


def test_passing_checks_write_nothing_to_stderr(warnings_to_stderr, capfd):
    check_call(normalize, [1, 2, 1], expect=[0.25, 0.5, 0.25])
    check_call(normalize, [1, -1, 0], expect=[np.inf, -np.inf, np.nan])
    check_call(lambda x: x * 2, np.array([1.0, 2.0], dtype=np.float32), expect=[2.0, 4.0], dtype=np.float32)
    check_answer(is_distribution, [0.7, 0.2, 0.1], expect=True)
    check_answer(is_distribution, [np.nan, 1.0], expect=False)
    check_raises(_raiser(ValueError), [1, 2])
    passed("normalize")
    out, err = capfd.readouterr()
    assert err == ""
    assert out.count("\n") == 1


# ----------------------------------------------------- edge cases found while writing these tests


def test_warnings_from_numpy_functions_stay_off_stderr(warnings_to_stderr, capfd):
    def softmax_with_nanmax(scores):
        x = np.asarray(scores, dtype=float)
        shifted = np.exp(x - np.nanmax(x, axis=-1, keepdims=True))
        return shifted / shifted.sum(axis=-1, keepdims=True)

    check_call(softmax_with_nanmax, [[np.nan, np.nan]], expect=[[np.nan, np.nan]])
    assert capfd.readouterr().err == ""


def test_in_place_change_of_a_keyword_argument_is_detected():
    def normalize_in_place(scores):
        scores /= scores.sum()
        return scores

    message = failure_message(check_call, normalize_in_place, scores=np.array([1.0, 3.0]), expect=[0.25, 0.75])
    assert "changed its input in place" in message


def test_a_list_of_arrays_as_input_is_checked():
    rows = [np.array([1.0, 3.0]), np.array([2.0, 2.0])]
    check_call(normalize, rows, expect=[[0.25, 0.75], [0.5, 0.5]])


def test_an_array_answer_to_a_number_question_fails_cleanly():
    def mean_loss(probs):
        return -np.log(np.asarray(probs))  # forgot the mean: one loss per row

    message = failure_message(
        check_answer,
        mean_loss,
        [0.5, 0.25],
        expect=1.0397,
        mistakes=[Mistake("summed instead of averaging", "use mean", 2.0794)],
    )
    assert "got:" in message


def test_a_string_does_not_pass_as_a_number():
    failure_message(check_answer, lambda: "0.5", expect=0.5)


def test_a_non_numeric_string_fails_cleanly():
    failure_message(check_answer, lambda: "half", expect=0.5)


def test_a_correct_number_as_a_0d_array_is_accepted():
    check_answer(lambda: np.squeeze(np.array([0.5])), expect=0.5)


def test_numeric_mistakes_match_within_tolerance():
    message = failure_message(
        check_answer, lambda: 0.1 + 0.2, expect=1.0, mistakes=[Mistake("added the wrong terms", "check the sum", 0.3)]
    )
    assert "likely mistake: added the wrong terms" in message


def test_float64_answer_passes_against_a_float32_expectation():
    def third(x):
        return np.asarray(x, dtype=float) / 3

    check_call(third, [1.0, 2.0], expect=np.array([1 / 3, 2 / 3], dtype=np.float32))


# ----------------------------------------------------- warnings, errors with a named mistake, sampling


def test_check_raises_names_what_a_wrong_function_returned_instead():
    def uniform_instead_of_error(scores):
        return np.full(len(scores), 1 / len(scores))

    message = failure_message(
        check_raises,
        uniform_instead_of_error,
        [1, 2],
        error=ValueError,
        mistakes=[Mistake("filled with a large negative number", "raise instead", [0.5, 0.5])],
    )
    assert "returned [0.5, 0.5]\n  expected it to raise ValueError." in message
    assert "likely mistake: filled with a large negative number" in message


def test_check_quiet_reports_a_warning_without_printing_it(capfd):
    def overflowing(scores):
        x = np.exp(np.asarray(scores, dtype=float))
        return x / x.sum()

    message = failure_message(check_quiet, overflowing, [1000.0, 1001.0])
    assert "warned: RuntimeWarning" in message and "overflow" in message
    assert capfd.readouterr().err == ""


def test_check_quiet_passes_a_function_without_warnings(capfd):
    assert check_quiet(np.exp, np.array([0.0, 1.0])) is None
    assert capfd.readouterr().err == ""


def draw(probs, rng):
    return rng.choice(len(probs), p=probs)


def test_check_frequencies_accepts_a_fair_sampler():
    probs = [0.2, 0.5, 0.3]
    assert check_frequencies(draw, probs, np.random.default_rng(0), expect=probs) is None


def test_check_frequencies_names_a_sampler_that_always_takes_the_argmax():
    def draw(probs, rng):
        return 1

    probs = [0.2, 0.5, 0.3]
    message = failure_message(
        check_frequencies,
        draw,
        probs,
        np.random.default_rng(0),
        expect=probs,
        why="T = 1",
        mistakes=[Mistake("always took the largest", "draw with rng", [0, 1, 0])],
    )
    assert "draw([0.2, 0.5, 0.3], rng) (T = 1)" in message
    assert "wrong frequencies" in message and "likely mistake: always took the largest" in message


def test_check_frequencies_rejects_an_index_out_of_range():
    message = failure_message(check_frequencies, lambda: 3, expect=[0.5, 0.5])
    assert "expected an index from 0 to 1" in message


def test_a_random_generator_argument_is_not_taken_for_a_changed_input():
    def noisy_zeros(scores, rng):
        rng.random()  # advances the generator's state, as any sampler does
        return np.zeros(len(scores))

    assert check_call(noisy_zeros, [1.0, 2.0], np.random.default_rng(0), expect=[0.0, 0.0]) is None


# ----------------------------------------------------- diagnosis from the catalogue's fingerprints

GLOBAL_MAX = CataloguedMistake(
    "global_max",
    "rowwise",
    "took the max over the whole array, not each row",
    "use x.max(axis=-1, keepdims=True)",
    """
def rowwise(scores):
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max())
    return e / e.sum(axis=-1, keepdims=True)
""",
)
NO_EXP = CataloguedMistake(
    "no_exp",
    "rowwise",
    "divided the raw scores by their sum",
    "take exp first",
    """
def rowwise(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
""",
)
ASSERTS = CataloguedMistake(
    "asserts",
    "rowwise",
    "used assert instead of raising ValueError",
    "raise ValueError",
    """
def rowwise(scores):
    assert len(scores) > 0, "no scores"
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
)
IN_PLACE = CataloguedMistake(
    "in_place",
    "rowwise",
    "subtracted the max from the caller's array",
    "copy first",
    """
def rowwise(scores):
    scores -= np.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
""",
)
WARNS = CataloguedMistake(
    "no_shift",
    "rowwise",
    "did not shift before exp",
    "subtract the row max",
    """
def rowwise(scores):
    e = np.exp(np.asarray(scores, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
""",
)
ARGMAX = CataloguedMistake(
    "argmax",
    "pick",
    "always took the largest weight",
    "draw with rng.choice",
    """
def pick(weights, rng):
    return int(np.argmax(weights))
""",
)
GLOBAL_STATE = CataloguedMistake(
    "global_state",
    "pick",
    "drew from NumPy's global random state",
    "draw with the rng you are given",
    """
def pick(weights, rng):
    return int(np.random.choice(len(weights), p=weights))
""",
)


def rowwise(scores):
    """The correct function the entries above get wrong: a row-wise stable softmax that refuses no scores."""
    if len(scores) == 0:
        raise ValueError("no scores")
    x = np.asarray(scores, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def pick(weights, rng):
    """The correct sampler ARGMAX and GLOBAL_STATE get wrong."""
    return int(rng.choice(len(weights), p=weights))


ROWWISE_PROBES = [
    (([[1000.0, 1001.0], [1.0, 2.0]],), {}),  # rows far apart: the global max leaves a row of zeros
    (([1.0, 3.0],), {}),
    (([],), {}),
    ((np.array([1.0, 3.0]),), {}),  # an array the function may change
    (([1000.0, 1001.0],), {}),  # exp overflows unshifted
]
PICK_PROBES = [(([0.2, 0.5, 0.3], np.random.default_rng(1)), {})]


def catalogue_of(monkeypatch, entries, probes):
    """The learner room's catalogue made of `entries` (records with code, grader.proof.catalogue's), with the
    fingerprints grader.proof.fingerprints computes from their code on `probes` ({function: [probe, ...]})."""
    references = {"rowwise": rowwise, "pick": pick}
    prints = {
        function: {
            ident: {int(index): outcome for index, outcome in found.items()}
            for ident, found in fingerprints.fingerprints_of(
                references[function],
                {e.id: catalogue.implementation(e) for e in entries if e.function == function},
                function_probes,
            ).items()
        }
        for function, function_probes in probes.items()
    }
    records = [Misconception(e.id, e.function, e.description, e.hint) for e in entries]
    monkeypatch.setattr(
        hints,
        "misconceptions",
        lambda function=None, lesson=None: [e for e in records if function in (None, e.function)],
    )
    monkeypatch.setattr(hints, "probes", lambda function: probes.get(function, []))
    monkeypatch.setattr(hints, "fingerprints", lambda function: prints.get(function, {}))


@pytest.fixture
def catalogued(monkeypatch):
    """Replace the catalogue with the entries above and their fingerprints."""
    entries = [GLOBAL_MAX, NO_EXP, ASSERTS, IN_PLACE, WARNS, ARGMAX, GLOBAL_STATE]
    catalogue_of(monkeypatch, entries, {"rowwise": ROWWISE_PROBES, "pick": PICK_PROBES})


def test_a_learner_mistake_written_differently_is_named_from_the_catalogue(catalogued):
    def rowwise(scores):  # the learner's own way of taking the global max
        if len(scores) == 0:
            raise ValueError("no scores")
        x = np.array(scores, dtype=np.float64)
        biggest = np.max(x)
        return np.exp(x - biggest) / np.sum(np.exp(x - biggest), axis=-1, keepdims=True)

    rows = [[1000.0, 1001.0], [1.0, 2.0]]
    message = failure_message(check_call, rowwise, rows, expect=_reference_rows(rows))
    assert "likely mistake: took the max over the whole array, not each row" in message
    assert "hint: use x.max(axis=-1, keepdims=True)" in message
    assert message.count("likely mistake:") == 1


def _reference_rows(rows):
    return rowwise(rows)


def test_a_mistake_is_named_from_the_probes_whatever_the_failing_input(catalogued):
    """The catalogue's code is not there to run on the failing input: the learner's function is run on the probes,
    so a mistake is named even where the input that failed tells nothing of it (one row: its max is the global)."""

    def rowwise(scores):
        x = np.asarray(scores, dtype=float)
        return x / x.sum(axis=-1, keepdims=True)

    message = failure_message(check_call, rowwise, [[1.0, 3.0]], expect=_reference_rows([[1.0, 3.0]]))
    assert "likely mistake: divided the raw scores by their sum" in message
    assert "took the max over the whole array" not in message


def test_a_wrong_answer_that_matches_no_misconception_names_none(catalogued):
    message = failure_message(check_call, lambda scores: np.zeros(2), [1.0, 2.0], expect=[0.5, 0.5])
    assert "likely mistake" not in message


def test_a_misconception_must_match_the_dtype_too(catalogued):
    def rowwise(scores):
        x = np.asarray(scores, dtype=np.float32)
        return x / x.sum(axis=-1, keepdims=True)

    message = failure_message(check_call, rowwise, [1.0, 3.0], expect=_reference_rows([1.0, 3.0]))
    assert "likely mistake" not in message


def test_the_same_exception_type_is_named(catalogued):
    def rowwise(scores):
        if not len(scores):
            raise AssertionError("empty")
        x = np.asarray(scores, dtype=float)
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    message = failure_message(check_raises, rowwise, [], error=ValueError)
    assert "raised AssertionError" in message and "likely mistake: used assert instead of raising" in message

    def rowwise(scores):
        return scores[0]  # IndexError on an empty list: no catalogued mistake does that

    assert "likely mistake" not in failure_message(check_raises, rowwise, [], error=ValueError)


def test_an_in_place_change_is_named_when_a_misconception_makes_it_too(catalogued):
    def rowwise(scores):
        if len(scores) == 0:
            raise ValueError("no scores")
        scores -= np.max(scores, axis=-1, keepdims=True)
        return np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True)

    message = failure_message(check_call, rowwise, np.array([1.0, 3.0]), expect=_reference_rows([1.0, 3.0]))
    assert "changed its input in place" in message
    assert "likely mistake: subtracted the max from the caller's array" in message


def test_check_quiet_names_a_misconception_that_warns_the_same_way(catalogued, capfd):
    def rowwise(scores):
        e = np.exp(np.asarray(scores, dtype=float))
        return e / np.sum(e, axis=-1, keepdims=True)

    message = failure_message(check_quiet, rowwise, np.array([1000.0, 1001.0]))
    assert "likely mistake: did not shift before exp" in message
    assert capfd.readouterr().err == ""


def test_check_frequencies_names_a_catalogued_sampler(catalogued):
    def pick(weights, rng):
        return max(range(len(weights)), key=lambda i: weights[i])

    message = failure_message(
        check_frequencies, pick, [0.2, 0.5, 0.3], np.random.default_rng(1), expect=[0.2, 0.5, 0.3]
    )
    assert "likely mistake: always took the largest weight" in message
    assert "global random state" not in message


def test_check_own_generator_names_a_catalogued_sampler_by_what_it_draws_from(catalogued):
    from grader.learner.checks import check_own_generator

    def pick(weights, rng):
        return int(np.random.default_rng(np.random.randint(2**31)).choice(len(weights), p=weights))

    message = failure_message(check_own_generator, pick, [0.2, 0.3, 0.5], np.random.default_rng(1))
    assert "likely mistake: drew from NumPy's global random state" in message
    assert "always took the largest" not in message


def test_no_catalogue_code_reaches_the_learners_side(catalogued):
    """What the learner room holds of a misconception is its record and its fingerprint: plain data."""
    assert not {"source", "implementation", "compiled"} & (set(dir(hints)) | set(vars(hints.Misconception)))
    for function in ("rowwise", "pick"):
        for prints in hints.fingerprints(function).values():
            assert json.loads(json.dumps(prints, allow_nan=False)) == {str(i): p for i, p in prints.items()}


# --------------------------------------------------------------------------- one mistake or none

ZERO_FILL = CataloguedMistake(
    "zero_fill",
    "rowwise",
    "gave forbidden scores 0",
    "use -inf",
    """
def rowwise(scores):
    x = np.nan_to_num(np.asarray(scores, dtype=float), neginf=0.0)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
)
ONE_FILL = CataloguedMistake(
    "one_fill",
    "rowwise",
    "gave forbidden scores 1",
    "use -inf",
    """
def rowwise(scores):
    x = np.asarray(scores, dtype=float)
    x = np.where(np.isneginf(x), 1.0, x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
)
FILL_AND_ASSERT = CataloguedMistake(
    "fill_and_assert",
    "rowwise",
    "gave forbidden scores 0 and used assert for no scores",
    "use -inf, and raise ValueError",
    """
def rowwise(scores):
    assert len(scores) > 0
    x = np.nan_to_num(np.asarray(scores, dtype=float), neginf=0.0)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""",
)
ALL_FORBIDDEN = (([-np.inf, -np.inf],), {})  # both fills give [0.5, 0.5]
TELLS_FILLS_APART = (([2.0, -np.inf],), {})


def learners_fill():
    """A learner's way of giving -inf a score of 0, in their `rowwise`."""

    def rowwise(scores):
        if len(scores) == 0:
            raise ValueError("no scores")
        x = np.asarray(scores, dtype=float).copy()
        x[np.isinf(x)] = 0
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    return rowwise


def test_mistakes_the_probes_cannot_tell_apart_are_not_named(monkeypatch):
    """Two fingerprints that both fit: no "likely mistake" rather than two competing ones."""
    catalogue_of(monkeypatch, [ZERO_FILL, ONE_FILL], {"rowwise": [ALL_FORBIDDEN]})
    message = failure_message(check_call, learners_fill(), [-np.inf, -np.inf], expect=[0.25, 0.75])
    assert "likely mistake" not in message and "hint:" not in message


def test_a_probe_that_tells_them_apart_names_the_one_the_learner_made(monkeypatch):
    catalogue_of(monkeypatch, [ZERO_FILL, ONE_FILL], {"rowwise": [ALL_FORBIDDEN, TELLS_FILLS_APART]})
    message = failure_message(check_call, learners_fill(), [-np.inf, -np.inf], expect=[0.25, 0.75])
    assert "likely mistake: gave forbidden scores 0" in message and "scores 1" not in message
    assert message.count("hint:") == 1


def test_of_nested_fingerprints_that_both_fit_the_wider_is_named(monkeypatch):
    """FILL_AND_ASSERT does all ZERO_FILL does, and more: a learner who makes both mistakes fits both fingerprints,
    and is told the one that says all; a learner who makes one fits ZERO_FILL's alone."""
    catalogue_of(monkeypatch, [ZERO_FILL, FILL_AND_ASSERT], {"rowwise": [TELLS_FILLS_APART, (([],), {})]})
    both = catalogue.implementation(FILL_AND_ASSERT)
    message = failure_message(check_call, both, [2.0, -np.inf], expect=[1.0, 0.0])
    assert "likely mistake: gave forbidden scores 0 and used assert" in message and message.count("hint:") == 1
    message = failure_message(check_call, learners_fill(), [2.0, -np.inf], expect=[1.0, 0.0])
    assert "likely mistake: gave forbidden scores 0\n" in message and "used assert" not in message


def test_two_of_the_checks_own_mistakes_that_fit_name_neither(catalogued):
    same = [Mistake("divided by the total", "sum each row", [0.25, 0.75]), Mistake("other", "no", [0.25, 0.75])]
    message = failure_message(
        check_call, lambda scores: np.array([0.25, 0.75]), [1.0, 3.0], expect=[0.5, 0.5], mistakes=same
    )
    assert "likely mistake" not in message


def test_the_checks_own_mistake_that_fits_is_the_one_named(catalogued):
    """It fits the very input that failed: the catalogue is not asked as well, so the failure has one hint."""

    def rowwise(scores):
        x = np.asarray(scores, dtype=float)
        return x / x.sum(axis=-1, keepdims=True)  # NO_EXP's fingerprint fits too

    own = Mistake("forgot exp on this input", "take exp first", [0.25, 0.75])
    message = failure_message(check_call, rowwise, [1.0, 3.0], expect=_reference_rows([1.0, 3.0]), mistakes=[own])
    assert "likely mistake: forgot exp on this input" in message and message.count("likely mistake:") == 1


def test_a_log_sum_exp_softmax_on_large_scores_is_within_the_scaled_tolerance():
    def rowwise_lse(scores):
        x = np.asarray(scores, dtype=float)
        top = x.max(axis=-1, keepdims=True)
        return np.exp(x - (top + np.log(np.exp(x - top).sum(axis=-1, keepdims=True))))

    rows = np.array([[1000.0, 1001.3, 999.1], [-1000.5, -1000.0, -1003.25]])
    expected = rowwise(rows)
    check_call(rowwise_lse, rows, expect=expected)
    assert tolerance(np.float64, scale=1000) > 100 * tolerance(np.float64)


def test_an_array_subclass_that_claims_equality_is_not_trusted():
    class AlwaysEqual(np.ndarray):
        def __eq__(self, other):
            return np.ones(self.shape, dtype=bool)

        def __sub__(self, other):
            return np.zeros(self.shape)

        def astype(self, *args, **kwargs):
            return self

    message = failure_message(check_call, lambda x: np.zeros(2).view(AlwaysEqual), [1.0, 2.0], expect=[0.5, 0.5])
    assert "expected a plain NumPy array, got a AlwaysEqual (a subclass of it)" in message


# --------------------------------------------------------------------------- generated inputs, generators, streams


def _draw_rows(rng, size):
    rows = 1 + size // 4
    return (rng.normal(size=(rows, 1 + size % 4)) * 10.0 ** rng.integers(0, 4, size=(rows, 1)),)


def test_check_generated_passes_a_correct_function_on_every_drawn_input():
    from grader.learner.checks import check_generated

    check_generated(rowwise, _draw_rows, reference=rowwise, seed=3, examples=30)


def test_check_generated_names_the_smallest_failing_input_and_the_seed():
    from grader.learner.checks import check_generated

    def global_max(scores):
        x = np.asarray(scores, dtype=float)
        e = np.exp(x - x.max())
        return e / e.sum(axis=-1, keepdims=True)

    global_max.__name__ = "rowwise"
    message = failure_message(check_generated, global_max, _draw_rows, reference=rowwise, seed=3, examples=30)
    first = message.splitlines()[0]
    assert first.startswith("Input ") and "(seed 3)" in first and "smallest that fails" in first
    number = int(first.split()[1])
    for size in range(1, number):  # every smaller input passes
        check_call(global_max, *_draws_at(size, seed=3), expect=rowwise(*_draws_at(size, seed=3)))


def _draws_at(size, seed):
    rng = np.random.default_rng(seed)
    for n in range(1, size + 1):
        args = _draw_rows(rng, n)
    return args


def test_check_generated_draws_more_inputs_under_each_salt_and_names_the_seed_that_draws_them_again():
    """A grading mixes a digest of the submission into the seed (salted_draws): besides the seed's own inputs, another
    salt draws other inputs, the same salt the same ones, and the seed a failure names draws them again outside a
    grading. A table of the seed's own inputs passes those only."""
    from grader.learner.checks import check_generated, salted_draws

    table = {_draws_at(size, seed=3)[0].tobytes(): rowwise(*_draws_at(size, seed=3)) for size in range(1, 31)}

    def looked_up(scores):
        return table.get(np.asarray(scores).tobytes(), np.zeros(np.shape(scores)))

    looked_up.__name__ = "rowwise"

    def failed(seed=3):
        return failure_message(check_generated, looked_up, _draw_rows, reference=rowwise, seed=seed, examples=30)

    check_generated(looked_up, _draw_rows, reference=rowwise, seed=3, examples=30)  # no salt: the seed's inputs only
    messages = {}
    for salt in ("one submission", "another submission", "one submission"):
        with salted_draws(salt):
            messages.setdefault(salt, set()).add(failed())
    assert all(len(found) == 1 for found in messages.values())  # the same salt, the same draws
    first, other = (found.pop() for found in messages.values())
    seed = int(re.search(r"\(seed (\d+)\)", first).group(1))
    assert seed != 3 and first != other
    assert failed(seed) == first  # outside a grading, the seed it names draws the same inputs


def test_check_generated_requires_the_reference_s_error_where_it_refuses():
    from grader.learner.checks import check_generated

    def reference(scores):
        if np.asarray(scores).shape[-1] > 2:
            raise ValueError("too long")
        return rowwise(scores)

    message = failure_message(check_generated, rowwise, _draw_rows, reference=reference, seed=1, examples=10)
    assert "expected it to raise ValueError" in message


def test_check_generated_with_same_dtype_requires_the_reference_s_dtype():
    from grader.learner.checks import check_generated

    def draw(rng, size):
        return (rng.normal(size=size).astype(np.float32),)

    message = failure_message(
        check_generated,
        rowwise,
        draw,
        reference=lambda x: rowwise(x).astype(np.float32),
        seed=0,
        examples=3,
        same_dtype=True,
    )
    assert "Input 1 of 3" in message and "expected dtype float32, got dtype float64" in message


def test_check_values_judges_the_values_alone_where_check_call_also_judges_the_type_and_dtype():
    """A meaning check (check_values) passes a list answer, another float dtype or 0/1 for a boolean mask when the
    values are right, and fails wrong values; check_call, the details cells' check, fails the same answers."""
    x = np.array([[1.0, 3.0], [2.0, 2.0]])
    as_list = lambda v: rowwise(v).tolist()  # noqa: E731
    as_float32 = lambda v: rowwise(v).astype(np.float32)  # noqa: E731
    for fn in (as_list, as_float32):
        check_values(fn, x, expect=rowwise(x))
    check_values(lambda n: np.tri(n), 2, expect=np.tri(2, dtype=bool))
    assert "expected a NumPy array, got a Python list" in failure_message(check_call, as_list, x, expect=rowwise(x))
    assert "expected dtype float64" in failure_message(check_call, as_float32, x, expect=rowwise(x), dtype=np.float64)
    assert "is not right" in failure_message(check_values, lambda v: (rowwise(v) + 0.01).tolist(), x, expect=rowwise(x))


def test_check_generated_with_values_only_passes_a_list_answer_of_the_right_values():
    from grader.learner.checks import check_generated

    def draw(rng, size):
        return (rng.normal(size=(2, size)),)

    check_generated(lambda v: rowwise(v).tolist(), draw, reference=rowwise, seed=0, examples=3, values_only=True)
    message = failure_message(
        check_generated, lambda v: rowwise(v).tolist(), draw, reference=rowwise, seed=0, examples=3
    )
    assert "Input 1 of 3" in message and "Python list" in message


def test_check_own_generator_accepts_a_function_that_draws_from_its_generator_only():
    from grader.learner.checks import check_own_generator

    def pick(weights, rng):
        return int(rng.choice(len(weights), p=weights))

    check_own_generator(pick, [0.2, 0.3, 0.5], np.random.default_rng(1))


@pytest.mark.parametrize(
    "body,what",
    [
        ("return int(np.random.choice(len(weights), p=weights))", "global random state"),
        ("import random\n    return random.choices(range(len(weights)), weights)[0]", "global random state"),
        ("return int(np.random.default_rng().choice(len(weights), p=weights))", "other than the given generator"),
        (
            "return int(np.random.default_rng(0).integers(len(weights)) + 0 * len(weights))",
            "does not draw from the generator",
        ),
    ],
)
def test_check_own_generator_rejects_other_random_sources(body, what):
    from grader.learner.checks import check_own_generator

    namespace = {"np": np}
    exec(f"def pick(weights, rng):\n    {body}\n", namespace)
    message = failure_message(check_own_generator, namespace["pick"], [0.2, 0.3, 0.5], np.random.default_rng(1))
    assert what in message


def test_check_own_generator_without_varies_accepts_a_function_that_ignores_its_generator():
    from grader.learner.checks import check_own_generator

    def greedy(weights, rng):
        return int(np.argmax(weights))

    check_own_generator(greedy, [0.2, 0.3, 0.5], np.random.default_rng(1), varies=False)
    assert "does not draw" in failure_message(check_own_generator, greedy, [0.2, 0.3, 0.5], np.random.default_rng(1))


def test_one_pass_streams_hand_out_each_chunk_once_and_can_reuse_one_buffer():
    from grader.learner.checks import OnePass

    fresh = OnePass([[1.0, 2.0], [3.0]])
    assert [c.tolist() for c in fresh] == [[1.0, 2.0], [3.0]] and list(fresh) == []
    reused = OnePass([[1.0, 2.0], [3.0, 4.0]], reuse_buffer=True)
    first, second = next(reused), next(reused)
    assert np.shares_memory(first, second) and first.tolist() == [3.0, 4.0]
    import copy

    copied = copy.deepcopy(OnePass([[1.0], [2.0]], reuse_buffer=True))
    assert [float(c[0]) for c in copied] == [1.0, 2.0]


def test_an_approximate_answer_is_judged_within_its_own_tolerance():
    """A finite difference is right to about 1e-10, not to 64 ulps: `within` sets the tolerance, both ways."""
    from grader.learner.checks import Formula

    def central(f, x):
        return np.array([(f(x + 1e-5) - f(x - 1e-5)) / 2e-5])

    def one_sided(f, x):
        return np.array([(f(x + 1e-5) - f(x)) / 1e-5])

    cube = Formula("cubic", (1,), 1.0, 0.0, 0.0)
    with pytest.raises(CheckFailed):
        check_call(central, cube, np.array([1.0]), expect=[3.0])  # off by 1e-10: far more than 64 ulps
    check_call(central, cube, np.array([1.0]), expect=[3.0], within=1e-8)
    with pytest.raises(CheckFailed, match="is not right"):
        check_call(one_sided, cube, np.array([1.0]), expect=[3.0], within=1e-8)  # off by 3e-5
    from grader.learner.checks import describe_call

    assert "f(x) = sum(a*x**3 + b*x**2 + c*x), for x of shape (1,)" in describe_call(central, (cube, 1.0), {})


def test_magnitude_widens_the_tolerance_only_up_to_a_cap():
    from grader.learner.checks import SCALE_CAP

    assert tolerance(np.float64, 1e300) == tolerance(np.float64, SCALE_CAP) < 1e-8
    message = failure_message(check_call, lambda x: np.array([0.5, 0.5]), [1e300, 0.0], expect=[1.0, 0.0])
    assert "largest error 0.5" in message


def test_a_number_answer_is_judged_in_its_own_dtype_and_with_the_inputs_magnitude():
    lse = lambda x: float(np.max(x) + np.log(np.sum(np.exp(np.asarray(x) - np.max(x)))))  # noqa: E731
    rounded = lambda x: lse(x) + 2e-13  # noqa: E731 - off by about two ulps of 1000
    check_answer(rounded, [1000.0, 999.0], expect=lse([1000.0, 999.0]))
    in_float32 = lambda x: np.float32(lse(x)) * np.float32(1 + 2e-7)  # noqa: E731
    check_answer(in_float32, np.array([1.0, 2.0], dtype=np.float32), expect=lse([1.0, 2.0]))
    assert "largest error" in failure_message(check_answer, lambda x: lse(x) + 1e-6, [1.0, 2.0], expect=lse([1.0, 2.0]))


def test_lists_of_arrays_of_different_lengths_are_compared_piece_by_piece():
    from grader.learner.checks import same_answer

    pieces = [np.array([0.5, 0.5]), np.array([1.0])]
    assert same_answer(pieces, [np.array([0.5, 0.5]), np.array([1.0])])
    assert not same_answer(pieces, [np.array([0.5, 0.5]), np.array([0.9])])
    assert not same_answer(pieces, pieces[:1])


# --------------------------------------------------------------------------- the learner's call, one hint


def test_a_test_cell_s_helper_is_shown_as_the_learner_s_own_call():
    from grader.learner.checks import describe_call, shown_as

    def is_distribution(weights):
        return np.bool_(True)

    @shown_as("type(is_distribution({})) is bool")
    def returns_plain_bool(weights):
        return type(is_distribution(weights)) is bool

    assert describe_call(returns_plain_bool, ([0.5, 0.5],), {}) == "type(is_distribution([0.5, 0.5])) is bool"
    message = failure_message(check_answer, returns_plain_bool, [0.5, 0.5], expect=True)
    assert message.startswith("type(is_distribution([0.5, 0.5])) is bool is not right: wrong answer.")
    assert "returns_plain_bool" not in message


def test_a_change_in_place_that_a_catalogued_mistake_explains_shows_the_mistake_s_hint_not_the_check_s():
    def naive_normalize(scores):
        x = np.asarray(scores, dtype=float)
        x /= x.sum(axis=-1, keepdims=True)
        return x

    message = failure_message(check_call, naive_normalize, np.array([1.0, 3.0]), expect=[0.25, 0.75])
    assert "changed its input in place" in message and "put results in a new array" not in message
    assert "likely mistake: divided the caller's array in place" in message
    assert message.count("hint:") == message.count("likely mistake:")


def test_a_change_in_place_nothing_explains_still_gets_the_check_s_hint():
    def shares(scores):
        scores /= scores.sum()
        return scores

    message = failure_message(check_call, shares, np.array([1.0, 3.0]), expect=[0.25, 0.75])
    assert message.count("hint:") == 1 and "hint: put results in a new array" in message
