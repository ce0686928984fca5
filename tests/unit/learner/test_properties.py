"""A wrong answer no catalogued mistake explains names a promised property it breaks, on the smallest input found
(grader/learner/properties.py); a wrong answer that breaks none of them names nothing. The promised properties are
the lessons' contracts, generated into the learner room (grader/learner/contracts.py)."""

from __future__ import annotations

import numpy as np
import pytest

from grader.course import contract
from grader.learner import contracts, properties
from grader.learner.checks import CheckFailed, check_call
from tests.support import COURSE


def softmax_rows(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# Wrong implementations nobody catalogued, each breaking one property.
def leaks(scores):  # rows do not sum to 1
    e = np.exp(np.asarray(scores, dtype=float))
    return e / (e.sum(axis=-1, keepdims=True) + 1)


def squares(scores):  # adding a constant to a row changes it
    x = np.asarray(scores, dtype=float)
    return (x * x + 1) / (x * x + 1).sum(axis=-1, keepdims=True)


def shared_scale(scores):  # a row depends on another row
    x = np.asarray(scores, dtype=float)
    return softmax_rows(x / np.abs(x).max())


def reversed_weights(scores):  # not monotone in the scores
    return softmax_rows(-np.asarray(scores, dtype=float))


def first_is_special(scores):  # reordering the scores does not reorder the weights
    x = np.array(scores, dtype=float)
    x[..., 0] *= 2
    return softmax_rows(x)


def overflows(scores):  # nan where the answer is finite
    e = np.exp(np.asarray(scores, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)


def as_list(scores):  # not an array
    return softmax_rows(scores).tolist()


def flattened(scores):  # the wrong shape
    return softmax_rows(scores).reshape(-1)


def sharper(scores):  # wrong (a temperature of 1/2) but keeps every property judged here
    return softmax_rows(2 * np.asarray(scores, dtype=float))


SOFTMAX = contracts.PROPERTIES["softmax"]
STABLE = contracts.PROPERTIES["stable_softmax"]


@pytest.mark.parametrize(
    ("fn", "scores", "promised", "named", "evidence"),
    [
        (
            leaks,
            [[1.0, 3.0], [2.0, 2.0]],
            SOFTMAX,
            "value",
            "leaks([1.0, 2.0]) returned [0.2447, 0.6652]: the row sums",
        ),
        (squares, np.array([[1.0, 3.0], [2.0, 2.0]]), SOFTMAX, "shift", "squares(np.array([1., 2.])) returned"),
        (
            shared_scale,
            np.array([[1.0, 3.0, 0.5], [20.0, 2.0, 1.0]]),
            STABLE,
            "rows",
            "shared_scale(np.array([[1., 2.]]))",
        ),
        (reversed_weights, np.array([1.0, 3.0]), ("compete",), "compete", "score 0 raised by 1"),
        (first_is_special, np.array([1.0, 3.0]), ("permutation",), "permutation", "the same scores reversed"),
        (overflows, np.array([[1.0, 1000.0]]), STABLE, "extremes, value", "nan at index (1,)"),
        (as_list, np.array([[1.0, 3.0]]), STABLE, "dtype", "as_list(np.array([1., 2.])) returned a list"),
        (flattened, np.array([[1.0, 3.0], [2.0, 2.0]]), STABLE, "shapes", "returned shape (4,) for scores of shape"),
    ],
    ids=["rows sum to 1", "shift", "rows", "compete", "permutation", "finite", "returns an array", "shape"],
)
def test_a_broken_property_is_named_and_shown_on_a_small_input(fn, scores, promised, named, evidence):
    got = fn(scores)
    broken = properties.broken(fn, (scores,), {}, got, softmax_rows(scores), promised)
    assert broken is not None and broken.property == named
    lines = broken.lines()
    assert lines[0].startswith(f"  broken property ({named}): ")
    assert any(evidence in line for line in lines), lines
    assert lines[-1].startswith("  hint: ") and sum(line.strip().startswith("hint:") for line in lines) == 1


def test_the_smallest_input_found_comes_first():
    """Small integer rows before the failing input's own: the message shows two numbers, not the batch."""
    scores = np.random.default_rng(0).normal(size=(5, 7))
    broken = properties.broken(leaks, (scores,), {}, leaks(scores), softmax_rows(scores), SOFTMAX)
    assert broken.evidence == ["leaks(np.array([1., 2.])) returned [0.2447, 0.6652]: the row sums to 0.909969, not 1."]


def test_a_wrong_answer_that_keeps_every_property_names_none():
    scores = np.array([[1.0, 3.0], [2.0, 2.0]])
    assert properties.broken(sharper, (scores,), {}, sharper(scores), softmax_rows(scores), STABLE) is None


def test_a_property_the_function_does_not_promise_is_never_named():
    scores = np.array([[1.0, 3.0], [2.0, 2.0]])
    assert properties.broken(squares, (scores,), {}, squares(scores), softmax_rows(scores), ("value", "dtype")) is None
    assert properties.broken(squares, (scores,), {}, squares(scores), softmax_rows(scores), ()) is None


def test_a_failed_check_shows_the_property_when_no_catalogued_mistake_is_named():
    squares.__name__ = "softmax"  # a graded function: its catalogue is tried first, and names nothing here
    try:
        with pytest.raises(CheckFailed) as failed:
            check_call(squares, np.array([[1.0, 3.0], [2.0, 2.0]]), expect=softmax_rows([[1.0, 3.0], [2.0, 2.0]]))
    finally:
        squares.__name__ = "squares"
    text = str(failed.value)
    assert failed.value.mistakes == ()  # data for the report: a property is no catalogued mistake
    assert "  broken property (shift): adding one number to every score of a row leaves its weights" in text
    assert "    softmax(np.array([1., 2.])) returned [0.2857, 0.7143]," in text
    assert "    but softmax(np.array([2., 3.])), the same scores plus 1, returned [0.3333, 0.6667]." in text
    assert text.count("hint:") == 1 and "likely mistake" not in text


def test_the_learner_room_s_contracts_are_the_lessons_own():
    """grader/learner/contracts.py is generated (python -m grader.course.contract): it must not drift."""
    assert {f: tuple(sorted(p)) for f, p in contract.course_properties(COURSE).items()} == contracts.PROPERTIES
    assert (COURSE.root / contract.LEARNER_CONTRACTS).read_text() == contract.learner_contracts(COURSE)


def additive_mask(n):  # a mask of numbers (0 and -inf), as attention code often builds it, not of booleans
    return np.triu(np.full((n, n), -np.inf), k=1)


def test_a_mask_of_numbers_breaks_the_boolean_dtype_shown_on_the_call_itself():
    expected = np.tril(np.ones((3, 3), dtype=bool))
    broken = properties.broken(additive_mask, (3,), {}, additive_mask(3), expected, promised=("dtype", "value"))
    assert broken is not None and broken.property == "dtype"
    assert broken.evidence == ["additive_mask(3) returned an array of dtype float64."]
    assert properties.broken(additive_mask, (3,), {}, additive_mask(3), expected, promised=("value",)) is None
    right = expected.copy()
    right[0, 0] = False  # a boolean answer with a wrong entry: its dtype is not what is broken
    assert properties.broken(additive_mask, (3,), {}, right, expected, promised=("dtype",)) is None


def test_an_answer_written_into_the_input_names_the_unchanged_property():
    def softmax(scores):
        scores -= scores.max(axis=-1, keepdims=True)
        return softmax_rows(scores)

    with pytest.raises(CheckFailed) as failed:
        check_call(softmax, np.array([[1.0, 2.0]]), expect=softmax_rows([[1.0, 2.0]]))
    assert "  broken property (unchanged): the caller's input is never changed." in str(failed.value)


def log_softmax_whole_array(scores):  # shifts and normalises by the whole array's log-sum-exp: rows compete
    x = np.asarray(scores, dtype=float)
    return x - x.max() - np.log(np.exp(x - x.max()).sum())


def test_log_weights_whose_exp_does_not_sum_to_one_break_value():
    x = [[1001.0, 1002.0], [4.0, 3.0]]
    right = np.asarray(x) - np.log(np.exp(np.asarray(x) - np.max(x, axis=-1, keepdims=True)).sum(-1, keepdims=True))
    right -= np.max(x, axis=-1, keepdims=True)
    broken = properties.broken(
        log_softmax_whole_array, (x,), {}, log_softmax_whole_array(x), right, promised=("value", "shift")
    )
    assert broken is not None and broken.property == "value"
    assert broken.promise == "the exp of each row's log-weights sums to 1."
    assert "log_softmax_whole_array([[1.0, 2.0], [1.0, 3.0]]) returned" in broken.evidence[0]


def chunked_without_guard(chunks):  # an online softmax whose first all -inf chunk makes exp(-inf - -inf) = nan
    best, total, seen = -np.inf, 0.0, []
    for chunk in chunks:
        chunk = np.asarray(chunk, dtype=float)
        new = max(best, chunk.max())
        total = total * np.exp(best - new) + np.exp(chunk - new).sum()
        best = new
        seen.append(chunk)
    return np.exp(np.concatenate(seen) - best) / total


@pytest.mark.parametrize(
    ("chunks", "named"),
    [
        ([np.array([-np.inf, -np.inf]), np.array([1.0, 2.0])], "masked"),
        ([np.array([1000.0, -np.inf]), np.array([1.0, 2.0])], "extremes"),
    ],
    ids=["-inf beside moderate scores", "-inf beside huge ones"],
)
def test_nan_where_the_answer_is_finite_is_named_on_the_call_itself_even_for_a_stream(chunks, named):
    with np.errstate(all="ignore"):
        got = chunked_without_guard(chunks)
    flat = np.concatenate(chunks)
    right = np.exp(flat - flat.max()) / np.exp(flat - flat.max()).sum()
    got = got if not np.all(np.isfinite(got)) else np.full_like(got, np.nan)  # the huge case: nan as such code gives
    broken = properties.broken(chunked_without_guard, (chunks,), {}, got, right, promised=("masked", "extremes"))
    assert broken is not None and broken.property == named
    assert "returned nan at index (0,), where " in broken.evidence[0]
    assert properties.broken(chunked_without_guard, (chunks,), {}, got, right, promised=("value",)) is None
