# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 01 — From scores to weights by dividing by the sum
#
# **By the end of this lesson you will be able to**
# - say what a set of *weights* is, and over which choices it is taken;
# - turn a row of scores into weights by dividing by their sum (`naive_normalize`);
# - test whether numbers form a probability distribution (`is_distribution`);
# - show the two inputs where dividing by the sum breaks, and say why.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess
# *before* you run the cell that computes the answer: the surprise is where the learning is.
# Some predictions are graded (a point each). Write the guess in the cell under the question
# and run it and its check. The cell that computes the answer then shows it, and only then:
# it commits your guess first, in a line the notebook keeps. The point goes to a right guess
# committed before the answer showed; a guess changed afterwards earns nothing, so peeking
# gains nothing, and a wrong guess you can explain is worth more than a lucky one. Each
# explanation is folded under the answer: open it once you have read the answer.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt

from grader.learner.checks import check_answer, check_call, check_values, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.stubs import point_at_stubs

np.set_printoptions(precision=4, suppress=True)
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# ## 1. Scores and weights
#
# A dot product gives raw **scores**: how well a query matches each of several choices.
# Scores can be any real numbers. What we want are **weights**: numbers that are
# nonnegative and sum to one over a *stated set of choices*.
#
# %% [markdown]
# ## 2. A distribution needs a stated set of choices
#
# **Predict.** Here are three weights: `[0.2, 0.3, 0.5]`. What does the third entry, 0.5,
# mean? (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
weights = np.array([0.2, 0.3, 0.5])
readings = {
    "attention over the source words ['I', 'like', 'tea']": "take half of the information of 'tea'",
    "next-token prediction over the vocabulary ['cat', 'dog', 'fish']": "a 50% chance that the next word is 'fish'",
}
for choices, meaning in readings.items():
    print(f"third entry {weights[2]} in {choices}: {meaning}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# The numbers alone do not say: a weight is a weight *over a stated set of choices*, and the
# same `[0.2, 0.3, 0.5]` means different things over different choices. In attention the
# choices are the source positions of a sentence, and 0.5 says "take half of this
# position's information", not "there is a 50% chance this is the next word". In next-token
# prediction the choices are the symbols of a vocabulary, and 0.5 is a chance. Same
# arithmetic, different questions: whenever you meet weights, ask over which choices.
#
# </details>

# %% [markdown]
# ## 3. The journey sentence
#
# Take the sentence *Your journey starts with one step*. The word "journey" scores each of
# the six tokens (itself included) with a dot product; here are those attention scores.

# %%
tokens = ["Your", "journey", "starts", "with", "one", "step"]
journey_scores = np.array([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
print("sum of the scores:", round(journey_scores.sum(), 4))

# %% [markdown]
# **Predict (graded).** The simplest way to make weights: divide every score by the total.
# "journey" has the largest score, 1.4950. About how large will its weight be?
# (a) about 0.1, (b) about 0.2, (c) about 0.5, (d) about 1.5. Write the letter.

# %% nbgrader="guess" grade_id="guess_journey_weight" prediction="predict_journey_weight"
guess_journey_weight = ""  # your guess: "a", "b", "c" or "d"
### BEGIN SOLUTION
guess_journey_weight = "b"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_journey_weight" points=1
check_guess("predict_journey_weight", guess_journey_weight, choices=["a", "b", "c", "d"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_journey_weight", guess_journey_weight, "cf5fb56c60ff3655")
### END HIDDEN TESTS

# %%
reveal("predict_journey_weight", guess_journey_weight)
naive_journey = journey_scores / journey_scores.sum()
for token, weight in zip(tokens, naive_journey):
    print(f"{token:>8}: {weight:.4f}")
print("weight on 'journey':", round(naive_journey[1], 4), "| total:", round(naive_journey.sum(), 4))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# The six scores add up to 6.5617, so a score near 1 gets a share near 1 / 6.5 ≈ 0.15, and
# the largest a little more: "journey" gets 1.4950 / 6.5617 = **0.2278**, answer (b). The
# weights add up to 1. For positive scores, division by the sum does what we asked.
#
# </details>

# %% [markdown]
# ## 4. Check your source
#
# These scores come from the notes this course grew from, which go on (as lesson 03 will)
# to turn each score into *evidence* e^score and divide by the total evidence. The notes
# give that total as **18.751** and the weight of "Your" as 0.1385. Numbers copied from a
# source are worth checking: `np.exp` computes e^score (lesson 02 is about why).
#
# **Predict.** Is 18.751 right, and if not, does the weight 0.1385 still hold? (Not graded:
# write your guess below, then run on.)

# %%
# Your guess (not graded):

# %%
journey_evidence = np.exp(journey_scores)
true_total = journey_evidence.sum()
print("evidence of 'Your':", round(journey_evidence[0], 4))
print("total evidence:", round(true_total, 3), "| the notes say 18.751, off by", round(18.751 - true_total, 3))
for total in (true_total, 18.751):
    weight = journey_evidence[0] / total
    print(f"weight of 'Your' with the total {total:.3f}: {weight:.6f}, rounded {weight:.4f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# The true total is **18.745**: the notes are off by 0.006, a slip in copying or rounding.
# It happens not to matter here, since the weight of "Your" rounds to **0.1385** either way
# (2.5971 / 18.745 and 2.5971 / 18.751 first differ in the fifth decimal). It could have mattered,
# and only computing it told us.
#
# </details>

# %% [markdown]
# ## 5. Exercise: `naive_normalize`
#
# Write `naive_normalize(scores)`: divide the scores by their sum **over the last axis**.
# A 1-D input is one row of scores; a 2-D input is a batch of rows, and each row must be
# divided by *its own* total. Accept lists and integer arrays, always return a new float
# NumPy array (float64 for lists and integers), and never change the array you were given.
#
# Hint: each row needs its own total, and that total has to line up with its row when you
# divide. NumPy's sums can add along one axis only, and can keep that axis (with length 1)
# so that the result still lines up: look up the arguments of `np.sum`.

# %% nbgrader="solution" grade_id="naive_normalize"
def naive_normalize(scores):
    """Divide scores by their sum over the last axis (this one is meant to break)."""
    ### BEGIN SOLUTION
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_naive_normalize_public" points=2 function="naive_normalize"
check_values(naive_normalize, np.array([1.0, 2.0, 1.0]), expect=[0.25, 0.5, 0.25])
check_values(naive_normalize, np.array([3.0, 1.0]), expect=[0.75, 0.25])
check_values(naive_normalize, np.array([[1.0, 3.0], [2.0, 2.0]]), expect=[[0.25, 0.75], [0.5, 0.5]])
# rows with different totals
check_values(naive_normalize, np.array([[1.0, 3.0], [2.0, 6.0], [4.0, 4.0]]), expect=[[0.25, 0.75], [0.25, 0.75], [0.5, 0.5]])
check_values(naive_normalize, np.array([[2.0, 6.0]]), expect=[[0.25, 0.75]])  # a batch of one row stays a batch
# a batch of shape (2, 3, 4): 6 rows
check_values(naive_normalize, np.ones((2, 3, 4)), expect=np.full((2, 3, 4), 0.25))
passed("naive_normalize")

# %% nbgrader="tests" grade_id="test_naive_normalize_rows" points=1 function="naive_normalize"
### BEGIN HIDDEN TESTS
from grader.learner.checks import check_generated

# property value: each row is divided by its own sum over the last axis (hand-picked and generated rows)
_rows = np.array([[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]])
check_values(naive_normalize, _rows, expect=[[0.125, 0.25, 0.625], [0.4, 0.4, 0.2]])
_batch = np.arange(1.0, 13.0).reshape(2, 2, 3)
check_values(naive_normalize, _batch, expect=_batch / _batch.sum(axis=-1, keepdims=True))


def _naive_reference(scores):
    _x = np.asarray(scores, dtype=float)
    return _x / _x.sum(axis=-1, keepdims=True)


def _positive_rows(rng, size):
    """Positive scores, any leading dimensions, rows of up to 7 scores whose sizes differ by up to 1e60."""
    _shape = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(0, 1 + min(size, 9) // 3)))
    _shape += (int(rng.integers(1, 2 + min(size, 6))),)
    _level = 10.0 ** rng.integers(-30, 31, size=_shape[:-1] + (1,))
    return rng.uniform(0.1, 10.0, size=_shape) * _level


check_generated(naive_normalize, _positive_rows, reference=_naive_reference, seed=101, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_naive_normalize_shapes" points=1 function="naive_normalize"
### BEGIN HIDDEN TESTS
# property shapes: any number of leading dimensions, one score per row, a batch of one row (1, n) and (k, 1, n), a column (n, 1)
for _scores in (np.array([[2.0, 6.0]]), np.array([[[1.0, 3.0]], [[2.0, 2.0]]]), np.array([[4.0], [2.0], [5.0]]),
                np.array([7.0]), np.arange(1.0, 25.0).reshape(2, 1, 3, 4), np.array([[[2.0, 1.0, 1.0], [1.0, 1.0, 8.0]]])):
    check_values(naive_normalize, _scores, expect=_scores / _scores.sum(axis=-1, keepdims=True))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_naive_normalize_details" points=1 function="naive_normalize"
# details: a list of integers gives float64, and the answer is a NumPy array
check_call(naive_normalize, [1, 2, 1], expect=[0.25, 0.5, 0.25], dtype=np.float64)
check_call(naive_normalize, [[1, 3], [2, 2]], expect=[[0.25, 0.75], [0.5, 0.5]])
check_call(naive_normalize, [[1, 3], [2, 6], [4, 4]], expect=[[0.25, 0.75], [0.25, 0.75], [0.5, 0.5]])
### BEGIN HIDDEN TESTS
# property dtype: lists, tuples, integer arrays of any width and float64 give float64 (integers are summed as floats, so huge ones do not wrap around); float32 gives a float array
check_call(naive_normalize, [2, 6], expect=[0.25, 0.75], dtype=np.float64)
check_call(naive_normalize, (1, 3), expect=[0.25, 0.75], dtype=np.float64)
check_call(naive_normalize, [[1, 2.5], [3, 1]], expect=[[1 / 3.5, 2.5 / 3.5], [0.75, 0.25]], dtype=np.float64)
check_call(naive_normalize, np.array([1, 1, 2]), expect=[0.25, 0.25, 0.5], dtype=np.float64)
check_call(naive_normalize, np.array([[2, 2], [1, 3]], dtype=np.int8), expect=[[0.5, 0.5], [0.25, 0.75]], dtype=np.float64)
check_call(naive_normalize, np.array([6, 2], dtype=np.uint16), expect=[0.75, 0.25], dtype=np.float64)
check_call(naive_normalize, np.array([4 * 10**18, 4 * 10**18, 8 * 10**18]), expect=[0.25, 0.25, 0.5], dtype=np.float64)
check_call(naive_normalize, np.array([0.5, 1.5]), expect=[0.25, 0.75], dtype=np.float64)
_single = np.array([[0.1, 0.3], [2.0, 6.0]], dtype=np.float32)
check_call(naive_normalize, _single, expect=_single.astype(float) / _single.astype(float).sum(axis=-1, keepdims=True))
check_call(naive_normalize, [-2, 0, 3], expect=[-2.0, 0.0, 3.0])
check_call(naive_normalize, [1, -1, 0], expect=[np.inf, -np.inf, np.nan])
check_call(naive_normalize, np.array([[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]]), expect=[[0.125, 0.25, 0.625], [0.4, 0.4, 0.2]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_naive_normalize_unchanged" points=1 function="naive_normalize"
### BEGIN HIDDEN TESTS
# property unchanged: the caller's array (float64, float32, any shape) is never changed
for _scores in (np.array([1.0, 3.0]), np.array([[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]]),
                np.arange(1.0, 13.0).reshape(2, 2, 3), np.array([[3.0, 1.0]], dtype=np.float32)):
    check_values(naive_normalize, _scores, expect=_scores.astype(float) / _scores.astype(float).sum(axis=-1, keepdims=True))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_naive_normalize_breaks" points=1 function="naive_normalize"
### BEGIN HIDDEN TESTS
# property meant_to_break: no guard, row by row: negative scores pass straight through and a zero-sum row gives inf and nan
check_values(naive_normalize, np.array([-2.0, 0.0, 3.0]), expect=[-2.0, 0.0, 3.0])
check_values(naive_normalize, np.array([1.0, -1.0, 0.0]), expect=[np.inf, -np.inf, np.nan])
check_values(naive_normalize, np.array([[1.0, 3.0], [2.0, -2.0], [-1.0, 2.0]]),
           expect=[[0.25, 0.75], [np.inf, -np.inf], [-1.0, 2.0]])
### END HIDDEN TESTS

# %% [markdown]
# ## 6. Exercise: `is_distribution`
#
# Weights form a probability distribution over a row of choices when **every entry is
# finite and at least 0** and **the row sums to 1**.
#
# **Predict (graded).** Is `0.7 + 0.2 + 0.1 == 1.0` true in floating point? Write "yes" or "no".

# %% nbgrader="guess" grade_id="guess_float_sum" prediction="predict_float_sum"
guess_float_sum = ""  # your guess: "yes" or "no"
### BEGIN SOLUTION
guess_float_sum = "no"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_float_sum" points=1
check_guess("predict_float_sum", guess_float_sum, choices=["yes", "no"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_float_sum", guess_float_sum, "80cd2f53a33c462e")
### END HIDDEN TESTS

# %%
reveal("predict_float_sum", guess_float_sum)
print(0.7 + 0.2 + 0.1, "| equal to 1.0?", 0.7 + 0.2 + 0.1 == 1.0)
print("the float just below 1.0?", 0.7 + 0.2 + 0.1 == np.nextafter(1.0, 0.0))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# No: none of 0.7, 0.2 and 0.1 has an exact binary fraction, so each is stored a little off,
# and the sum comes out as 0.9999999999999999, one step below 1.0.
#
# </details>
#
# Rounding means a computed sum is often not exactly 1.0, so allow a difference of at most
# `atol`.
#
# Write `is_distribution(weights, atol=1e-8)`: return `True` if *every* row over the last
# axis is a distribution, else `False`. Return a plain `bool`.

# %% nbgrader="solution" grade_id="is_distribution"
def is_distribution(weights, atol=1e-8):
    """True iff every entry is finite and >= 0 and every row sums to 1 within atol."""
    ### BEGIN SOLUTION
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        return False
    return bool(np.all(np.abs(w.sum(axis=-1) - 1.0) <= atol))
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_is_distribution_public" points=2 function="is_distribution"
check_answer(is_distribution, np.array([0.25, 0.5, 0.25]), expect=True)
check_answer(is_distribution, np.array([0.7, 0.2, 0.1]), expect=True)
check_answer(is_distribution, np.array([0.5, 0.6]), expect=False)
check_answer(is_distribution, np.array([-2.0, 0.0, 3.0]), expect=False)
check_answer(is_distribution, np.array([1.0 + 1e-9, -1e-9], dtype=float), expect=False)  # no entry below 0, however little
check_answer(is_distribution, np.array([0.5, np.nan, 0.5]), expect=False)  # nan is not a weight
# nor is inf, however loose atol
check_answer(is_distribution, np.array([0.0, np.inf]), atol=np.inf, expect=False)
check_answer(is_distribution, np.array([[0.5, 0.5], [0.25, 0.75]]), expect=True)  # every row sums to 1
check_answer(is_distribution, np.array([[0.25, 0.75], [0.6, 0.6]]), expect=False)  # the second row does not
check_answer(is_distribution, np.array([[0.2, 0.9], [0.6, 0.3]]), expect=False)  # nor does either row here
# a batch of shape (2, 2, 2): 4 rows
check_answer(is_distribution, np.full((2, 2, 2), 0.5), expect=True)
check_answer(is_distribution, np.array([0.5, 0.5 + 1e-6], dtype=float), expect=False)  # off by more than atol=1e-8
check_answer(is_distribution, np.array([0.5, 0.25]), atol=0.25, expect=True)  # off by exactly atol counts
passed("is_distribution")

# %% nbgrader="tests" grade_id="test_is_distribution_rejects" points=1 function="is_distribution"
### BEGIN HIDDEN TESTS
# property negatives: a negative entry anywhere gives False, even when its row sums to 1
check_answer(is_distribution, np.array([1.5, -0.5]), expect=False)
check_answer(is_distribution, np.array([1.0 + 1e-12, -1e-12], dtype=float), expect=False)
check_answer(is_distribution, np.array([[0.5, 0.5], [1.2, -0.2]]), expect=False)
# property finite: a nan or an infinite entry anywhere gives False, whatever atol is
check_answer(is_distribution, np.array([0.5, np.nan, 0.5]), expect=False)
check_answer(is_distribution, np.array([np.nan, np.nan]), expect=False)
check_answer(is_distribution, np.array([np.inf, 0.0]), expect=False)
check_answer(is_distribution, np.array([[0.5, 0.5], [np.nan, 1.0]]), expect=False)
check_answer(is_distribution, np.array([np.inf, 0.0]), atol=np.inf, expect=False)
check_answer(is_distribution, np.array([0.5, -np.inf, np.inf]), atol=np.inf, expect=False)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_is_distribution_rows_and_atol" points=1 function="is_distribution"
### BEGIN HIDDEN TESTS
from grader.learner.checks import check_generated

# property every_row: every row over the last axis must sum to 1, in any number of leading dimensions
check_answer(is_distribution, np.array([[0.5, 0.5], [0.25, 0.75]]), expect=True)
check_answer(is_distribution, np.array([[0.5, 0.5], [0.9, 0.9]]), expect=False)
check_answer(is_distribution, np.array([[0.5, 0.5], [0.3, 0.3]]), expect=False)
check_answer(is_distribution, np.array([[0.5, 0.7], [0.5, 0.3]]), expect=False)  # the rows' errors cancel in the grand total
check_answer(is_distribution, np.full((2, 3, 4), 0.25), expect=True)
_last_row_off = np.full((2, 3, 4), 0.25)
_last_row_off[1, 2] = [0.5, 0.5, 0.5, 0.0]
check_answer(is_distribution, _last_row_off, expect=False)
# property atol: a row counts when |sum - 1| <= atol, the atol given (boundary included, nothing relative)
check_answer(is_distribution, np.array([0.0, 1.0, 0.0]), expect=True)
check_answer(is_distribution, np.array([0.5, 0.5 + 1e-9], dtype=float), expect=True)
check_answer(is_distribution, np.array([0.5, 0.5 + 1e-6], dtype=float), expect=False)
check_answer(is_distribution, np.array([0.5, 0.5 + 1e-6], dtype=float), atol=1e-5, expect=True)
check_answer(is_distribution, np.array([0.25, 0.5]), atol=0.25, expect=True)
check_answer(is_distribution, np.array([0.75, 0.75]), atol=0.5, expect=True)
check_answer(is_distribution, np.array([0.75, 0.875]), atol=0.5, expect=False)
check_answer(is_distribution, np.array([0.25, 0.75]), atol=np.inf, expect=True)
# property shapes: one row, a batch of one row (1, n) and (k, 1, n), rows of one entry (n, 1), any leading dimensions
check_answer(is_distribution, np.array([1.0]), expect=True)
check_answer(is_distribution, np.array([[0.25, 0.75]]), expect=True)
check_answer(is_distribution, np.full((3, 1, 2), 0.5), expect=True)
check_answer(is_distribution, np.array([[1.0], [1.0], [1.0]]), expect=True)
check_answer(is_distribution, np.array([[1.0], [0.5]]), expect=False)
check_answer(is_distribution, np.full((2, 1, 2, 5), 0.2), expect=True)


# property value: True exactly when every entry is finite and >= 0 and every row sums to 1 within atol (generated)
def _dist_reference(weights, atol=1e-8):
    _w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(_w)) and np.all(_w >= 0) and np.all(np.abs(_w.sum(axis=-1) - 1.0) <= atol))


def _weights_or_not(rng, size):
    """Rows of weights, any leading dimensions; most inputs then get one flaw (a negative, a nan or inf, a row off)."""
    _shape = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(0, 1 + min(size, 9) // 3)))
    _shape += (int(rng.integers(1, 2 + min(size, 6))),)
    _w = rng.uniform(0.0, 1.0, size=_shape) * (rng.random(_shape) < 0.8) + 1e-3
    _w = _w / _w.sum(axis=-1, keepdims=True)
    _rows = _w.reshape(-1, _shape[-1])
    _row, _col = int(rng.integers(len(_rows))), int(rng.integers(_shape[-1]))
    _flaw = size % 5
    if _flaw == 1 and _shape[-1] > 1:  # a negative entry in a row that still sums to 1
        _rows[_row, (_col + 1) % _shape[-1]] += _rows[_row, _col] + 0.25
        _rows[_row, _col] = -0.25
    elif _flaw == 2:
        _rows[_row, _col] = [np.nan, np.inf, -np.inf][size % 3]
    elif _flaw == 3:
        _rows[_row] *= 1.0 + [1e-6, -1e-6, 1e-10, -1e-10][size % 4]
    return _rows.reshape(_shape)


check_generated(is_distribution, _weights_or_not, reference=_dist_reference, seed=102, examples=10)
check_generated(is_distribution, _weights_or_not, reference=_dist_reference, atol=1e-3,
                seed=103, examples=6)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_is_distribution_details" points=1 function="is_distribution"
# details: a list is read as the array it holds, and the answer is a plain Python bool
check_answer(is_distribution, [0.25, 0.5, 0.25], expect=True)
check_answer(is_distribution, [-2, 0, 3], expect=False)
check_answer(is_distribution, [[0.25, 0.75], [0.6, 0.6]], expect=False)
check_answer(is_distribution, [0.0, np.inf], atol=np.inf, expect=False)
from grader.learner.checks import Mistake, shown_as


@shown_as("type(is_distribution({})) is bool")
def returns_plain_bool(weights):
    """Whether is_distribution answers with Python's own True or False."""
    return type(is_distribution(weights)) is bool


_numpy_bool = Mistake("answered with a NumPy bool (np.True_ or np.False_, which np.all gives, or an array of them) "
                      "instead of a plain Python bool",
                      "NumPy's comparisons and np.all give NumPy bools: turn the final answer into Python's own bool",
                      False)
for _weights in ([0.5, 0.5], [0.5, 0.6], np.array([[0.25, 0.75], [1.0, 0.0]])):
    check_answer(returns_plain_bool, _weights, expect=True, mistakes=[_numpy_bool])
### BEGIN HIDDEN TESTS
# property dtype: lists, tuples, integer (summed without wrapping around), float32 and float64 arrays; the answer is a plain Python bool
check_answer(is_distribution, (0.5, 0.5), expect=True)
check_answer(is_distribution, np.array([0, 1, 0]), expect=True)
check_answer(is_distribution, np.array([[1, 0], [0, 2]], dtype=np.int8), expect=False)
check_answer(is_distribution, np.array([0.25, 0.5, 0.25], dtype=np.float32), expect=True)
check_answer(is_distribution, np.array([0.5, 0.625], dtype=np.float32), expect=False)
check_answer(is_distribution, np.array([2**62, 2**62, 2**62, 2**62, 1]), expect=False)


# property unchanged: the caller's array is never changed, nan and inf entries included
for _weights, _answer in ((np.array([0.5, np.nan, 0.5]), False), (np.array([[0.5, 0.5], [np.inf, 0.0]]), False),
                          (np.array([1.5, -0.5]), False), (np.array([[0.25, 0.75]]), True)):
    check_answer(is_distribution, _weights, expect=_answer)
check_answer(is_distribution, [[0.5, 0.5], [1.2, -0.2]], expect=False)
check_answer(is_distribution, [[0.5, 0.7], [0.5, 0.3]], expect=False)
check_answer(is_distribution, [0.5, 0.5 + 1e-6], atol=1e-5, expect=True)
### END HIDDEN TESTS

# %% [markdown]
# ## 7. What does dividing by the sum do with a negative score?
#
# Scores from a dot product can be negative. **Predict (graded).** `[-2, 0, 3]` sums to 1.
# What weight does `naive_normalize` give its first choice, the score -2? Write a whole number.

# %% nbgrader="guess" grade_id="guess_negative_weight" prediction="predict_negative_weight"
guess_negative_weight = ""  # your guess: a whole number
### BEGIN SOLUTION
guess_negative_weight = -2
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_negative_weight" points=1
check_guess("predict_negative_weight", guess_negative_weight, choices=range(-10, 11))
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_negative_weight", guess_negative_weight, "8e9c52362071773a")
### END HIDDEN TESTS

# %%
reveal("predict_negative_weight", guess_negative_weight)
negative_scores = np.array([-2.0, 0.0, 3.0])
naive_negative = naive_normalize(negative_scores)
print("sum of scores:", negative_scores.sum())
print("naive weights:", naive_negative)
print("is it a distribution?", is_distribution(naive_negative))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# The sum is exactly 1, so division changes nothing: we get a "probability" of **-2**, and
# `is_distribution` says no. A negative weight has no meaning as a share of attention or as
# a chance.
#
# </details>

# %% [markdown]
# ## 8. What if the sum is zero?
#
# **Predict.** `[1, -1]` sums to 0. What happens when we divide by 0? (Not graded: write
# your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %% [markdown]
# NumPy would print a `RuntimeWarning` here; we silence it with `np.errstate` so that only
# the result speaks.

# %%
with np.errstate(divide="ignore", invalid="ignore"):
    print("[1, -1]    ->", naive_normalize([1, -1]))
    print("[1, -1, 0] ->", naive_normalize([1, -1, 0]))

# %% [markdown]
# Division by zero gives `inf` (and `0 / 0` gives `nan`): no weights at all.

# %% [markdown]
# ## 9. Unstable for very large values?
#
# You may read that dividing by the sum is "numerically unstable for very large values".
#
# **Predict.** Do `[1e300, 2e300, 3e300]` get the same weights as `[1, 2, 3]`? (Not graded:
# write your guess below, then run on.)

# %%
# Your guess (not graded):

# %%
small = naive_normalize([1, 2, 3])
for scale in (1e6, 1e300, 1e-300):
    scaled = naive_normalize(np.array([1.0, 2.0, 3.0]) * scale)
    print(f"[1, 2, 3] * {scale:g} -> {scaled} | the same as for [1, 2, 3]? {np.array_equal(scaled, small)}")
with np.errstate(over="ignore"):
    print("[1e308, 1e308] -> its sum is", np.sum([1e308, 1e308]), "->", naive_normalize([1e308, 1e308]))
print("the largest float64:", np.finfo(np.float64).max)
for scores in ([1, -0.9999], [1, -1.0001]):
    print(scores, "->", naive_normalize(scores))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Yes, the very same numbers: multiplying every score by one factor multiplies the sum by it
# too, and dividing cancels it, with no more rounding than for `[1, 2, 3]`. Size is not the
# problem. The sum can only overflow when it passes the largest float64, about 1.8e308: two
# scores of 1e308 give an infinite sum and weights of 0. What makes division by the sum
# unstable is a sum **near zero**, which mixed signs allow: `[1, -0.9999]` gives
# `[10000, -9999]`, and nudging the second score to -1.0001 flips the signs to
# `[-10000, 10001]`. Negative scores and sums at or near zero are the problem, not large ones.
#
# </details>

# %% [markdown]
# ## 10. Picture it
#
# Positive scores give sensible shares; the scores `[-2, 0, 3]` give a negative bar.

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2), gridspec_kw={"width_ratios": [2, 1]})
left.bar_label(left.bar(tokens, naive_journey, color=PALETTE[0]), fmt="%.4f", fontsize=8)
left.set(title="Journey scores / their sum", xlabel="token attended to", ylabel="naive weight", ylim=(0, 0.3))
right.bar_label(right.bar(["A", "B", "C"], naive_negative, color=[PALETTE[3], PALETTE[1], PALETTE[1]]), fmt="%g")
right.axhline(0, color="black", linewidth=0.8)
right.set(title="[-2, 0, 3] / its sum", xlabel="choice", ylabel="naive weight")
show(fig, alt="Two bar charts. Left: the six journey tokens get naive weights between 0.11 and 0.23, "
              "all positive, largest for 'journey'. Right: scores -2, 0, 3 give weights -2, 0 and 3, "
              "one bar below zero.")

# %% [markdown]
# ## What carries forward
#
# Dividing by the sum makes weights only when no score is negative and the sum is above 0.
# Negative scores give negative "probabilities", scores that cancel give a division by zero,
# and a sum near zero makes the weights swing wildly; large scores are no problem. Lesson 02
# fixes the sign problem first: `exp` turns **any** score into positive evidence.
