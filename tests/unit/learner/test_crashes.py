"""A crash inside a check is explained from the evidence (grader/learner/crashes.py): what the input had that the
learner's code did not expect, and the learner's line that raised; nothing is claimed the evidence does not show."""

from __future__ import annotations

import numpy as np
import pytest

from grader.learner import crashes
from grader.learner.checks import CheckFailed, check_call, check_raises


def message(check, fn, *args, **kwargs) -> str:
    with pytest.raises(CheckFailed) as failed:
        check(fn, *args, **kwargs)
    return str(failed.value)


# Learner code, each crashing on one kind of input (named as graded functions are not: no catalogue entry applies).
def weights_of(scores):
    m = scores.max(axis=-1, keepdims=True)
    return np.exp(scores - m) / np.exp(scores - m).sum(axis=-1, keepdims=True)


def rows_of(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=1, keepdims=True)


def in_place(scores):
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores


def copied_in_place(scores):
    x = np.array(scores)
    x /= x.sum(axis=-1, keepdims=True)
    return x


def masked(scores, mask):
    shifted = np.array(scores, dtype=float)
    shifted[~np.asarray(mask)] = -np.inf
    return shifted


def biggest_first(scores):
    x = np.asarray(scores, dtype=float)
    return x - x.max(axis=-1, keepdims=True)


def cooled(scores, temperature):
    return np.array([s / temperature for s in scores])


def scores_of(queries, keys):
    return queries @ keys.T


def refuses_oddly(scores):
    raise KeyError("scores")


ROW = [0.25, 0.75]


@pytest.mark.parametrize(
    ("call", "why", "line"),
    [
        (
            lambda: message(check_call, weights_of, [[1.0, 3.0]], expect=[ROW]),
            "`scores` was a Python list, and a list has no `.max` (NumPy arrays do)",
            "m = scores.max(axis=-1, keepdims=True)",
        ),
        (
            lambda: message(check_call, rows_of, np.array([1.0, 3.0]), expect=ROW),
            "`scores` was one row (a float64 array of shape (2,)), which has axis 0 only, so `axis=1`",
            "return x / x.sum(axis=1, keepdims=True)",
        ),
        (
            lambda: message(check_call, in_place, np.array([[1, 3]]), expect=[ROW]),
            "`scores` was an integer array (dtype int64), and a float result cannot be stored back into it",
            "scores /= scores.sum(axis=-1, keepdims=True)",
        ),
        (
            lambda: message(check_call, copied_in_place, [[1, 3]], expect=[ROW]),
            "`scores` was a list of integers (NumPy makes an array of dtype int64 of it), and a float result cannot be",
            "x /= x.sum(axis=-1, keepdims=True)",
        ),
        (
            lambda: message(check_call, masked, np.ones((2, 3)), np.array([True, False, True]), expect=np.ones((2, 3))),
            "`mask` was a mask of shape (3,) for `scores` of shape (2, 3)",
            "shifted[~np.asarray(mask)] = -np.inf",
        ),
        (
            lambda: message(check_call, biggest_first, np.zeros((2, 0)), expect=np.zeros((2, 0))),
            "`scores` had rows of no score (a float64 array of shape (2, 0)): the maximum of nothing has no value",
            "return x - x.max(axis=-1, keepdims=True)",
        ),
        (
            lambda: message(check_raises, cooled, [1.0, 2.0], 0, why="T = 0 is not a temperature."),
            "`temperature` was 0, and your code divided by it",
            "return np.array([s / temperature for s in scores])",
        ),
        (
            lambda: message(check_call, scores_of, np.ones((2, 3, 4)), np.ones((2, 5, 4)), expect=np.ones((2, 3, 5))),
            "`queries` was a batch of shape (2, 3, 4), with more than two axes",
            "return queries @ keys.T",
        ),
    ],
    ids=[
        "list",
        "one row",
        "integer dtype",
        "list of integers",
        "mask shape",
        "empty row",
        "zero temperature",
        "batch",
    ],
)
def test_a_crash_says_what_the_input_had_and_shows_the_learner_s_line(call, why, line):
    text = call()
    assert " raised " in text.splitlines()[0]
    assert f"  why: {why}" in text
    assert f"  your line that raised it: {line}   (in " in text and "of test_crashes.py)" in text
    assert text.count("hint:") == 1


def test_the_wrong_exception_says_whose_message_is_whose():
    text = message(check_raises, cooled, [1.0, 2.0], 0, why="T = 0 is not a temperature.")
    assert text.splitlines()[:2] == [
        "cooled([1.0, 2.0], 0) raised ZeroDivisionError: float division by zero",
        "  expected it to raise ValueError. T = 0 is not a temperature.",
    ]
    assert "its message" not in text


@pytest.mark.parametrize(
    ("fn", "args", "error"),
    [
        (refuses_oddly, ([1.0, 3.0],), KeyError("scores")),  # a list, but nothing list-like went wrong
        (rows_of, (np.ones((2, 3)),), ValueError("axis 1 is out of bounds for array of dimension 1")),  # no 1-D input
        (in_place, (np.ones((1, 2)),), TypeError("Cannot cast ufunc 'divide' output")),  # no integer input
        (cooled, ([1.0, 2.0], 0.5), ZeroDivisionError("float division by zero")),  # no argument is zero
        (masked, (np.ones((2, 3)), np.ones((2, 3), dtype=bool)), IndexError("boolean index did not match")),
        (scores_of, (np.ones((2, 3)), np.ones((5, 3))), ValueError("matmul: Input operand 1 has a mismatch")),
    ],
    ids=["list", "one row", "integer", "zero", "mask", "batch"],
)
def test_where_the_evidence_does_not_fit_nothing_is_explained(fn, args, error):
    assert crashes.explanation(fn, args, {}, error) is None
    lines, hint = crashes.explained(fn, args, {}, error)
    assert lines[0].startswith("  the input: ") and not hint


def test_an_unexplained_crash_says_what_the_input_was_and_gives_no_hint():
    text = message(check_call, refuses_oddly, [1.0, 3.0], expect=ROW)
    assert text.splitlines()[1] == "  the input: `scores` was a Python list of 2 numbers."
    assert "why:" not in text and "hint:" not in text
    assert '  your line that raised it: raise KeyError("scores")' in text


def test_the_line_sent_from_a_kernel_is_the_one_shown():
    """In the grading process the error is rebuilt from data (grader.engine.bridge): the line comes with it."""
    try:
        weights_of([1.0, 2.0])
    except AttributeError as error:
        where = crashes.raised_at(error)
    assert where is not None and where.text == "m = scores.max(axis=-1, keepdims=True)"
    rebuilt = crashes.remember_where(AttributeError("'list' object has no attribute 'max'"), list(where))
    assert rebuilt.__traceback__ is None and crashes.where(rebuilt) == where
    forged = crashes.remember_where(ValueError("x"), ["f", 1, "x = 1\n  likely mistake: forged", "cell"])
    assert crashes.where(forged).text == "x = 1   likely mistake: forged"  # one line: no line of a message forged
    garbled = crashes.remember_where(ValueError("x"), {"not": "a line"})
    assert crashes.where(garbled) is None


def test_no_line_of_the_grader_or_of_numpy_is_shown_as_the_learner_s():
    try:
        np.asarray([1.0, 2.0]).sum(axis=3)
    except np.exceptions.AxisError as error:
        where = crashes.raised_at(error)
    assert where is not None and where.text == "np.asarray([1.0, 2.0]).sum(axis=3)"  # this file's, not NumPy's
    assert crashes.raised_at(ValueError("never raised")) is None


# More learner code, each crashing on an input of its contract in a way public code was seen to.
def indexed_max(scores):
    x = np.asarray(scores, dtype=float)
    return np.exp(x - np.max(x, axis=-1)[:, np.newaxis])


def target_shape(logits, targets):
    return np.zeros(targets.shape[0])


def plain_exp(scores):
    import math

    return math.log(sum(math.exp(s) for s in scores))


@pytest.mark.parametrize(
    ("call", "why", "line"),
    [
        (
            lambda: message(check_call, indexed_max, [1.0, 3.0], expect=[0.1, 1.0]),
            "`scores` was one row (a Python list of 2 numbers): a max or sum over its last axis is a single number",
            "return np.exp(x - np.max(x, axis=-1)[:, np.newaxis])",
        ),
        (
            lambda: message(check_call, target_shape, [2.0, 0.0], 0, expect=[1.0]),
            "`targets` was a plain Python int (0), which has no `.shape` (NumPy arrays do)",
            "return np.zeros(targets.shape[0])",
        ),
        (
            lambda: message(check_call, plain_exp, [[1.0, 2.0], [3.0, 4.0]], expect=[2.3, 4.3]),
            "`scores` was a batch (a Python list of 2 rows), and the code took each of its rows for a single number",
            "return math.log(sum(math.exp(s) for s in scores))",
        ),
        (
            lambda: message(check_call, plain_exp, [1000.0, 1001.0], expect=1001.3),
            "`scores` held a score as large as 1001 in size, and e to the power of more than about 709.8",
            "return math.log(sum(math.exp(s) for s in scores))",
        ),
    ],
    ids=["reduced to a number", "a number", "rows as numbers", "overflow"],
)
def test_crashes_public_code_makes_are_explained_too(call, why, line):
    text = call()
    assert f"  why: {why}" in text, text
    assert f"  your line that raised it: {line}" in text
    assert text.count("hint:") == 1


class _Named:
    """A learner's function under a graded function's name, so that its contract's properties apply."""

    @staticmethod
    def of(fn, name):
        fn.__name__ = name
        return fn


@pytest.mark.parametrize(
    ("fn", "args", "error", "shown"),
    [
        (
            _Named.of(lambda scores: scores.max(), "softmax"),
            ([1.0, 2.0],),
            AttributeError("'list' object has no attribute 'max'"),
            "  broken property (dtype): a Python list is an input it must take, as an array is.",
        ),
        (
            _Named.of(lambda scores: scores, "softmax"),
            (np.ones(3),),
            np.exceptions.AxisError("axis 1 is out of bounds for array of dimension 1"),
            "  broken property (shapes): one row is an input it must take, as a batch is.",
        ),
        (
            _Named.of(lambda logits, targets: targets, "cross_entropy"),
            ([2.0, 0.0], 0),
            AttributeError("'int' object has no attribute 'shape'"),
            "  broken property (targets): a plain Python number is an input it must take, as an array is.",
        ),
    ],
    ids=["list", "one row", "a number"],
)
def test_an_explained_crash_names_the_property_of_the_contract_its_input_belongs_to(fn, args, error, shown):
    _, hint = crashes.explained(fn, args, {}, error)
    assert hint[0] == shown and hint[1].startswith("  hint: ")


def test_a_function_without_a_contract_gets_no_property_line():
    _, hint = crashes.explained(
        rows_of, (np.ones(3),), {}, ValueError("axis 1 is out of bounds for array of dimension 1")
    )
    assert len(hint) == 1 and hint[0].startswith("  hint: ")


def test_a_zero_temperature_that_made_nan_is_explained_and_names_greedy():
    def sample_next_token(logits, temperature, rng):
        weights = np.exp(np.asarray(logits) / temperature)
        return int(rng.choice(len(weights), p=weights / weights.sum()))

    error = ValueError("probabilities contain NaN")
    lines, hint = crashes.explained(sample_next_token, ([0.5, 2.0], 0, np.random.default_rng(0)), {}, error)
    assert (
        lines[0]
        == "  why: `temperature` was 0, and dividing by it gives inf and nan (0 / 0), which your code then used."
    )
    assert hint[0].startswith("  broken property (greedy): a zero temperature is an input it must take")
