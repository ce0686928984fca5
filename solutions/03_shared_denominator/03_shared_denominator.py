# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 03 — Softmax: evidence over total evidence
#
# **By the end of this lesson you will be able to**
# - compute softmax weights by hand: evidence for each score, the total evidence, each share;
# - say what `axis=-1` means, and why a function over rows of choices uses it;
# - write `softmax(scores)` so that every row of a batch is normalised on its own;
# - say whether softmax can give a negative weight, and when float64 gives exactly 0;
# - explain why raising one score lowers **every** other weight (one shared denominator);
# - predict the weights of equal scores, whatever their level.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess
# *before* you run the cell that computes the answer, in the cell under the question: the
# surprise is where the learning is. Three of them are graded, a point each: write the
# guess, run its check (it says only that your guess is written down, not whether it is
# right), and then run on. Their explanations are folded: open one once you have answered.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt

from grader.learner.checks import check_call, check_values, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.stubs import point_at_stubs

np.set_printoptions(precision=4, suppress=True)
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# ## 1. Two steps you already know
#
# Lesson 01 turned positive numbers into shares by dividing each by their total; it broke
# on negative scores. Lesson 02 turned *any* score into positive **evidence** with `exp`.
# Put the two steps together and you have **softmax**: for a row of scores $x_1, \dots, x_n$,
#
# $$\text{weight}_i = \frac{e^{x_i}}{e^{x_1} + e^{x_2} + \dots + e^{x_n}}
#   = \frac{\text{evidence for choice } i}{\text{total evidence}}.$$
#
# No weight can be negative (evidence is positive), and the weights of a row add up to 1
# (they are shares of one total; in float64, up to rounding). The bottom of the fraction is
# the same for every choice in the row: keep an eye on that, it is the idea of this lesson.
#
# To print weights with a fixed number of decimals we use this small helper.

# %%
def as_text(values, digits=4):
    """A row of numbers as text with a fixed number of decimals, e.g. [0.1240, 0.5000]."""
    return "[" + ", ".join(f"{v:.{digits}f}" for v in values) + "]"


# %% [markdown]
# ## 2. The journey sentence, by hand
#
# Back to *Your journey starts with one step* and the scores that "journey" gives the six
# tokens. First the evidence for each token, then the total.

# %%
tokens = ["Your", "journey", "starts", "with", "one", "step"]
journey_scores = np.array([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
journey_evidence = np.exp(journey_scores)
for token, score, ev in zip(tokens, journey_scores, journey_evidence):
    print(f"{token:>8}: score {score:.4f} -> evidence e^{score:.4f} = {ev:.3f}")
total_evidence = journey_evidence.sum()
print("total evidence:", round(total_evidence, 3))
print(f"sum of the raw scores: {journey_scores.sum():.4f}")

# %% [markdown]
# **Predict (graded).** Dividing the raw scores by their sum gave "Your" a weight of 0.1455
# in lesson 01 (0.9544 / 6.5617). Softmax divides its evidence by the total evidence
# instead. Before you do that division: will its softmax weight be larger or smaller than
# 0.1455? Write "larger" or "smaller". (And "journey", the largest score: larger or smaller
# than its naive 0.2278? Not graded.)

# %% nbgrader="guess" grade_id="guess_your_weight" prediction="predict_your_weight"
guess_your_weight = ""  # your guess: "larger" or "smaller"
### BEGIN SOLUTION
guess_your_weight = "smaller"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_your_weight" points=1
check_guess("predict_your_weight", guess_your_weight, choices=["larger", "smaller"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_your_weight", guess_your_weight, "1dbd3348cc57c803")
### END HIDDEN TESTS

# %%
reveal("predict_your_weight", guess_your_weight)
journey_weights = journey_evidence / total_evidence
naive_weights = journey_scores / journey_scores.sum()
print(f"first weight = e^{journey_scores[0]} / {total_evidence:.3f} = "
      f"{journey_evidence[0]:.3f} / {total_evidence:.3f} = {journey_weights[0]:.4f}")
print("softmax weights:", as_text(journey_weights))
print("naive weights:  ", as_text(naive_weights))
print("sum of the softmax weights:", round(journey_weights.sum(), 4))
gap = journey_scores[1] - journey_scores[0]
print(f"journey against Your: score ratio {journey_scores[1] / journey_scores[0]:.4f}, "
      f"evidence ratio e^{gap:.4f} = {np.exp(gap):.4f}")
print(f"scores 0.1 and 0.2: score ratio {0.2 / 0.1:.4f}, evidence ratio e^0.1 = {np.exp(0.1):.4f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Smaller: "Your" gets 2.597 / 18.745 = **0.1385**, a little *less* than its naive share, and
# "journey" gets **0.2379**, a little *more*. Softmax does not keep the proportions of
# the scores: it keeps the proportions of their evidence, and the ratio of two evidence
# values depends only on the *gap* between the scores. Naive division gave "journey"
# 1.5664 times the share of "Your" (the ratio of the scores); softmax gives it
# e<sup>0.5406</sup> = 1.7170 times (the gap 1.4950 − 0.9544 = 0.5406 turned into a
# factor). Here the factor is larger, so "journey" gains; for scores such as 0.1 and 0.2
# it would be smaller (e<sup>0.1</sup> = 1.1052 against a ratio of 2). The weights still add
# up to 1.
#
# </details>

# %% [markdown]
# These six weights are a distribution over the six tokens of this sentence, the stated
# set of choices of lesson 01: 0.2379 is the share of attention "journey" pays to itself,
# not a chance that "journey" is the next word.

# %% [markdown]
# ## 3. Rows live along the last axis: `axis=-1`
#
# A single row of scores is a 1-D array. A batch of rows, one per query token, is 2-D; a
# batch of such batches, 3-D. In every case the choices of one row lie along the **last**
# axis, and NumPy lets you name it without counting the dimensions: **a negative axis counts
# from the end**, so `axis=-1` is the last axis and `axis=-2` the one before it. PyTorch
# says `dim=-1` for the same thing.
#
# **Predict.** `batch` below has shape (2, 3, 4): 2 × 3 rows of 4 scores. What shape does
# `batch.sum(axis=-1)` have? And `batch.sum(axis=0)`? (Not graded: write your guess in the
# one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
batch = np.arange(24.0).reshape(2, 3, 4)
print("batch.shape:                           ", batch.shape)
print("batch.sum(axis=-1).shape:              ", batch.sum(axis=-1).shape, "= batch.sum(axis=2).shape:",
      batch.sum(axis=2).shape)
print("batch.sum(axis=0).shape:               ", batch.sum(axis=0).shape)
print("batch.sum(axis=-1, keepdims=True).shape:", batch.sum(axis=-1, keepdims=True).shape)
one_row = np.array([0.5, 1.0, 2.0])
print("one row: sum over axis -1 =", one_row.sum(axis=-1), "= sum over axis 0 =", one_row.sum(axis=0))

# %% [markdown]
# `axis=-1` adds up each row of 4 and leaves one total per row, shape (2, 3); for a (2, 3, 4)
# array it is axis 2, for a single row axis 0, which is why code over rows of choices says
# `-1`. `axis=0` adds up across the 2 blocks instead, mixing rows that have nothing to do
# with each other. `keepdims=True` keeps the summed axis with length 1, shape (2, 3, 1): an
# array of that shape lines up with the (2, 3, 4) array it came from, so that an operation
# between the two pairs each row with its own total (NumPy calls this *broadcasting*).

# %% [markdown]
# ## 4. Exercise: `softmax`
#
# Write `softmax(scores)`: the evidence of each score divided by the total evidence of
# **its row**, where a row runs along the **last axis**. A 1-D input is one row of scores;
# a 2-D input is a batch of rows (one per query token, say), a 3-D input a batch of
# batches, and each row must be divided by *its own* total. Accept lists and integer
# arrays, always return a new float NumPy array, and never change the array you were given.
#
# You do not need to protect against huge scores yet (lesson 05 does); the scores in this
# lesson stay between -100 and 100.
#
# Hint: section 2 did it for one row. For a batch, ask along which axis the choices of a row
# lie, and how each row can meet its own total (section 3).

# %% nbgrader="solution" grade_id="softmax"
def softmax(scores):
    """exp of the scores divided by the sum of exp over the last axis."""
    ### BEGIN SOLUTION
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / evidence.sum(axis=-1, keepdims=True)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_softmax_public" points=2 function="softmax"
check_values(softmax, np.array([0.0, 0.0, 0.0, 0.0]), expect=[0.25, 0.25, 0.25, 0.25])
check_values(softmax, np.array([0.0, np.log(2), np.log(3)]), expect=[1 / 6, 2 / 6, 3 / 6])
check_values(softmax, np.array([np.log(3), 0.0]), expect=[0.75, 0.25])  # the weights keep the scores' order
check_values(softmax, np.array([60.0, 60.0 + np.log(3)]), expect=[0.25, 0.75])  # large scores: no clipping
check_values(softmax, np.log(np.array([[1.0, 3.0], [2.0, 6.0]])), expect=[[0.25, 0.75], [0.25, 0.75]])
check_values(softmax, np.array([[1.0, 1.0]]), expect=[[0.5, 0.5]])  # a batch of one row stays a batch
# a batch of shape (2, 3, 4): 6 rows
check_values(softmax, np.zeros((2, 3, 4)), expect=np.full((2, 3, 4), 0.25))
passed("softmax")

# %% nbgrader="tests" grade_id="test_softmax_journey" points=2 function="softmax"
### BEGIN HIDDEN TESTS
from grader.learner.checks import check_generated, shown_as

# property value: the exp of each score over its row's total evidence (the journey rows; generated rows of any size, scores between -20 and 20)
def _softmax_reference(x):
    _ev = np.exp(np.asarray(x, dtype=float))
    return _ev / _ev.sum(axis=-1, keepdims=True)


for _scores in ([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865], [0.707, 0.0, 0.707], [-2.0, 0.0, 3.0]):
    check_values(softmax, np.array(_scores), expect=_softmax_reference(_scores))


def _moderate_scores(rng, size):
    _shape = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(0, 1 + min(size, 9) // 3)))
    _shape += (int(rng.integers(1, 2 + min(size, 6))),)
    return rng.uniform(-20.0, 20.0, size=_shape) * rng.choice([0.1, 1.0])


check_generated(softmax, _moderate_scores, reference=_softmax_reference, seed=301, examples=12, values_only=True)


@shown_as("np.log(softmax({}))")
def _log_of_softmax(scores):
    """log(softmax(scores)): tiny weights must be right to their last digits, not merely close to 0."""
    with np.errstate(divide="ignore"):
        return np.log(np.asarray(softmax(scores), dtype=float))


check_values(_log_of_softmax, np.array([[0.0, -40.0, -80.0], [60.0, 0.0, -40.0]]),
           expect=[[0.0, -40.0, -80.0], [0.0, -60.0, -100.0]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_rows" points=2 function="softmax"
### BEGIN HIDDEN TESTS
# property shapes: every row over the last axis on its own, any number of leading dimensions, a batch of one row (1, n) and (k, 1, n), rows of one score (n, 1)
def _softmax_reference(x):
    _ev = np.exp(np.asarray(x, dtype=float))
    return _ev / _ev.sum(axis=-1, keepdims=True)


_rows = np.array([[1.0, 2.0, 3.0], [0.5, 0.5, -1.0], [-3.0, 4.0, 0.0]])
_levels = np.array([[0.0, 1.0], [50.0, 51.0]])
_batch = np.linspace(-3.0, 3.0, 24).reshape(2, 3, 4)
for _scores in (_rows, _levels, _batch, _batch[:, :1, :], np.array([[0.5, -1.0, 2.0]]), np.array([[[1.0, 0.0]], [[-1.0, 2.0]]]),
                np.array([[3.0], [-3.0], [0.0]]), np.array([7.0]), np.linspace(-3.0, 3.0, 24).reshape(2, 1, 3, 4)):
    check_values(softmax, _scores, expect=_softmax_reference(_scores))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_details" points=2 function="softmax"
# details: a list of integers gives float64, and the answer is a NumPy array
check_call(softmax, [0, 0, 0, 0], expect=[0.25, 0.25, 0.25, 0.25], dtype=np.float64)
check_call(softmax, [np.log(3), 0.0], expect=[0.75, 0.25], dtype=np.float64)
check_call(softmax, [[1.0, 1.0]], expect=[[0.5, 0.5]], dtype=np.float64)
### BEGIN HIDDEN TESTS
# property dtype: lists, tuples, integer arrays of any width and float64 give float64 weights; float32 gives a float array
def _softmax_reference(x):
    _ev = np.exp(np.asarray(x, dtype=float))
    return _ev / _ev.sum(axis=-1, keepdims=True)


_float_scores = np.array([0.25, -0.5, 1.0])
for _scores in ([1, 2, 3], np.array([[2, 0], [0, 2]]), [[0.5, 1.5], [1.0, 1.0]], (1.0, 2.0),
                _float_scores, np.array([[0.3, -0.3], [1.2, 0.1]]), np.array([7.0]), np.array([1, -2, 3], dtype=np.int8),
                np.array([[40, 41], [-3, 0]], dtype=np.int16), np.array([2, 0, 1], dtype=np.uint8)):
    check_call(softmax, _scores, expect=_softmax_reference(_scores), dtype=np.float64)
_single = np.array([[0.5, -1.25, 3.0], [2.0, 2.0, 0.0]], dtype=np.float32)
check_call(softmax, _single, expect=_softmax_reference(_single))
check_call(softmax, [5, 5, 5], expect=[1 / 3, 1 / 3, 1 / 3], dtype=np.float64)
check_call(softmax, [[60.0, 61.0], [-61.0, -60.0]], expect=_softmax_reference([[0.0, 1.0], [-1.0, 0.0]]), dtype=np.float64)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_uniform" points=2 function="softmax"
### BEGIN HIDDEN TESTS
# property shift: adding the same number to every score of a row changes none of its weights, at any level from -100 to 100: equal scores give uniform weights, and rows far apart are each right
def _softmax_reference(x):
    _ev = np.exp(np.asarray(x, dtype=float))
    return _ev / _ev.sum(axis=-1, keepdims=True)


for _level in (0.0, 100.0, -100.0, 3.7):
    check_values(softmax, np.full(4, _level), expect=[0.25, 0.25, 0.25, 0.25])
check_values(softmax, np.array([5.0, 5.0, 5.0]), expect=[1 / 3, 1 / 3, 1 / 3])
check_values(softmax, np.array([[0.0] * 4, [100.0] * 4, [-100.0] * 4]), expect=np.full((3, 4), 0.25))
_x = np.array([1.0, -2.0, 3.0, 0.5])
for _shift in (0.0, 5.0, -20.0, 90.0, -90.0):
    check_values(softmax, _x + _shift, expect=_softmax_reference(_x))
_three = np.array([[0.0, 1.0, -1.0], [2.0, 0.5, 0.0], [-0.5, 0.5, 1.5]])
check_values(softmax, _three + np.array([[-95.0], [0.0], [95.0]]), expect=_softmax_reference(_three))
check_values(softmax, np.array([[60.0, 61.0], [-61.0, -60.0]]), expect=_softmax_reference([[0.0, 1.0], [-1.0, 0.0]]))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_properties" points=1 function="softmax"
### BEGIN HIDDEN TESTS
from grader.learner.checks import shown_as
def _softmax_reference(x):
    _ev = np.exp(np.asarray(x, dtype=float))
    return _ev / _ev.sum(axis=-1, keepdims=True)


# property compete: raising one score raises its own weight, lowers every other weight of its row, and leaves the other rows alone
@shown_as("np.sign(softmax(scores + 1 at index 2) - softmax(scores)) for scores = {}")
def _sign_of_each_change_when_score_2_rises(scores):
    """+1 where a weight rose, -1 where it fell, 0 where it stayed, when the score at index 2 of the first row goes up by 1."""
    _raised = np.array(scores, dtype=float)
    _raised[(0,) * (_raised.ndim - 1) + (2,)] += 1.0
    return np.sign(np.asarray(softmax(_raised), dtype=float) - np.asarray(softmax(scores), dtype=float))


check_values(_sign_of_each_change_when_score_2_rises, np.array([1.0, -2.0, 3.0, 0.5]), expect=[-1.0, -1.0, 1.0, -1.0])
check_values(_sign_of_each_change_when_score_2_rises, np.array([[1.0, -2.0, 3.0, 0.5], [0.0, 0.0, 0.0, 0.0]]),
           expect=[[-1.0, -1.0, 1.0, -1.0], [0.0, 0.0, 0.0, 0.0]])
# property permutation: reordering the scores of a row reorders its weights the same way
_mixed = np.array([[0.5, 3.0, -1.0, 2.0], [4.0, -2.0, 0.0, 1.0]])
for _order in ([3, 1, 0, 2], [1, 2, 3, 0], [2, 0, 3, 1], [0, 1, 2, 3]):
    check_values(softmax, _mixed[:, _order], expect=_softmax_reference(_mixed)[:, _order])
check_values(softmax, np.array([3.0, 1.0, 2.0, 0.0]), expect=_softmax_reference([3.0, 1.0, 2.0, 0.0]))


# property value
@shown_as("softmax({}).sum(axis=-1)")
def _row_sums_of_softmax(scores):
    return np.asarray(softmax(scores), dtype=float).sum(axis=-1)


_many = np.random.default_rng(3).normal(0.0, 3.0, size=(5, 7))
check_values(softmax, _many, expect=_softmax_reference(_many))
check_values(_row_sums_of_softmax, _many, expect=np.ones(5))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_unchanged" points=1 function="softmax"
### BEGIN HIDDEN TESTS
# property unchanged: the caller's array (float64 or float32, any shape) is never changed
def _softmax_reference(x):
    _ev = np.exp(np.asarray(x, dtype=float))
    return _ev / _ev.sum(axis=-1, keepdims=True)


for _scores in (np.array([1.0, -2.0, 3.0]), np.array([[1.0, 2.0], [0.5, -0.5]]), np.linspace(-3.0, 3.0, 24).reshape(2, 3, 4),
                np.array([[0.5, 1.0]], dtype=np.float32)):
    check_values(softmax, _scores, expect=_softmax_reference(_scores))
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Picture it: evidence, then shares
#
# Left, the evidence of each token; their heights add up to the total evidence. Right, each
# bar divided by that one total: the softmax weights, with "journey" itself (the token doing
# the attending) in green. Same shape, different scale: dividing by one shared number
# keeps every ratio between the bars.

# %%
journey_softmax = softmax(journey_scores)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.4))
left.bar_label(left.bar(tokens, journey_evidence, color=PALETTE[1]), fmt="%.3f", fontsize=8)
left.set(title=f"Evidence $e^{{score}}$ (total {total_evidence:.3f})", xlabel="token attended to",
         ylabel="evidence", ylim=(0, 5))
colors = [PALETTE[0] if token != "journey" else PALETTE[2] for token in tokens]
right.bar_label(right.bar(tokens, journey_softmax, color=colors), fmt="%.4f", fontsize=8)
right.set(title="Softmax weights = evidence / total", xlabel="token attended to",
          ylabel="softmax weight", ylim=(0, 0.28))
fig.tight_layout()
show(fig, alt="Two bar charts over the tokens Your, journey, starts, with, one, step. Left: evidence "
              "between 2.028 and 4.459, totalling 18.745. Right: softmax weights 0.1385, 0.2379, 0.2333, "
              "0.1240, 0.1082, 0.1581, the same shape scaled down, largest for 'journey'.")

# %% [markdown]
# ## 6. What weight does a zero score get?
#
# **Predict.** Two scores of 0.707 and one of 0 between them: `[0.707, 0, 0.707]`.
# Dividing by the sum would give `[0.5, 0, 0.5]`. What does softmax give the middle choice?
# (Not graded.)

# %%
# Your guess (not graded):

# %%
middle_zero = softmax([0.707, 0, 0.707])
print("softmax([0.707, 0, 0.707]) =", as_text(middle_zero, 3))
print("evidence:", as_text(np.exp([0.707, 0, 0.707]), 3), f"| total: {np.exp([0.707, 0, 0.707]).sum():.3f}")

# %% [markdown]
# The middle choice keeps **0.198**, about one fifth of the attention. A score of 0 is
# evidence e^0 = **1**, not nothing, and it takes its share of the total
# 2.028 + 1 + 2.028 = 5.056. In exact arithmetic every choice gets some weight, however low
# its score (the next section asks what float64 does); lesson 06 shows how to switch a choice
# off on purpose.

# %% [markdown]
# ## 7. Can softmax give a negative weight?
#
# **Predict (graded).** Can a softmax weight ever come out *negative*, a "negative chance"
# such as lesson 01's -2? Write "yes" or "no".

# %% nbgrader="guess" grade_id="guess_softmax_negative" prediction="predict_softmax_negative"
guess_softmax_negative = ""  # your guess: "yes" or "no"
### BEGIN SOLUTION
guess_softmax_negative = "no"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_softmax_negative" points=1
check_guess("predict_softmax_negative", guess_softmax_negative, choices=["yes", "no"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_softmax_negative", guess_softmax_negative, "5c794f1709e538ed")
### END HIDDEN TESTS

# %%
reveal("predict_softmax_negative", guess_softmax_negative)
many_rows = np.random.default_rng(3).uniform(-100.0, 100.0, size=(10_000, 6))
many_weights = softmax(many_rows)
print("10,000 random rows of scores in [-100, 100]: any negative weight?", bool((many_weights < 0).any()),
      "| any weight exactly 0?", bool((many_weights == 0).any()))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# No, never: `exp` never returns a negative number, not even in float64, and a total of
# numbers that are not negative is not negative either.
#
# </details>

# %% [markdown]
# **Predict.** Then can a weight come out *exactly* 0? Try a score 750 below the other one.
# (Not graded.)

# %%
# Your guess (not graded):

# %%
far_below = softmax([0.0, -750.0])
print("softmax([0, -750]) =", far_below, "| second weight is exactly 0:", bool(far_below[1] == 0.0))
half_smallest = np.log(np.finfo(float).smallest_subnormal) - np.log(2.0)
print(f"float64 rounds to 0 any weight below e^{half_smallest:.2f}, half the smallest positive float64")

# %% [markdown]
# Yes, exactly 0 is possible. A score more than about 745.13 below the top score of its row
# has a true weight below e<sup>-745.13</sup>, less than half the smallest positive float64
# (lesson 02, section 11), and it comes out as exactly 0.0: the score -750 above. So in
# float64, read "every weight is positive" as "no weight is negative"; lesson 06 makes a
# weight exactly 0 on purpose.

# %% [markdown]
# ## 8. What does one score do to the other weights?
#
# Every weight in a row is divided by the same total, and that total holds the evidence of
# every score in the row.
#
# **Predict (graded).** Raise the score of "with" from 0.8434 to 1.8434 and leave the others
# alone. Its weight goes up. What happens to the weight of "journey", whose score did not change?
# Write "rises", "falls" or "stays".

# %% nbgrader="guess" grade_id="guess_journey_after_raise" prediction="predict_journey_after_raise"
guess_journey_after_raise = ""  # your guess: "rises", "falls" or "stays"
### BEGIN SOLUTION
guess_journey_after_raise = "falls"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_journey_after_raise" points=1
check_guess("predict_journey_after_raise", guess_journey_after_raise, choices=["rises", "falls", "stays"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_journey_after_raise", guess_journey_after_raise, "bd730426f3df3524")
### END HIDDEN TESTS

# %%
reveal("predict_journey_after_raise", guess_journey_after_raise)
raised_scores = journey_scores.copy()
raised_scores[3] += 1.0
raised_softmax = softmax(raised_scores)
for token, before, after in zip(tokens, journey_softmax, raised_softmax):
    print(f"{token:>8}: {before:.4f} -> {after:.4f}  (x {after / before:.4f})")
others = np.arange(len(tokens)) != 3
print("every other weight fell:", bool(np.all(raised_softmax[others] < journey_softmax[others])))
print("new total evidence:", round(np.exp(raised_scores).sum(), 3))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# It falls. The weight of "with" more than doubles, and **every** other weight falls, although
# their scores did not move: the total evidence grew from 18.745 to 22.739, and each of the
# other five keeps the same evidence over a larger total. They all shrink by the *same*
# factor, 18.745 / 22.739 ≈ 0.8244, so their ratios to one another stay as they were. This
# is what "softmax weights compete" means: weight is a fixed budget of 1, and one choice
# can only gain what the others lose.
#
# </details>

# %% [markdown]
# The figure sweeps the score of "with" from -2 to 4 and plots all six weights.

# %%
sweep = np.linspace(-2.0, 4.0, 121)
swept_scores = np.tile(journey_scores, (sweep.size, 1))
swept_scores[:, 3] = sweep
swept_weights = softmax(swept_scores)
styles = ["-", "--", "-.", "-", ":", "--"]
fig, ax = plt.subplots(figsize=(8, 4))
for i, token in enumerate(tokens):
    ax.plot(sweep, swept_weights[:, i], color=PALETTE[i], linestyle=styles[i],
            linewidth=3 if token == "with" else 1.8, label=token)
ax.axvline(journey_scores[3], color="black", linewidth=0.8, linestyle=":")
ax.annotate("actual score of 'with'", (journey_scores[3], 0.85), xytext=(6, 0),
            textcoords="offset points", fontsize=9)
ax.set(title="Raise one score, watch the others fall", xlabel="score given to 'with' (others fixed)",
       ylabel="softmax weight", ylim=(0, 1), xlim=(-2, 4))
ax.legend(title="token", loc="upper left")
print(f"weight of 'with' at score -2: {swept_weights[0, 3]:.4f}, at score 4: {swept_weights[-1, 3]:.4f}")
show(fig, alt="Line chart of the six journey softmax weights as the score of 'with' sweeps from -2 to 4 "
              "while the other scores stay fixed. The weight of 'with' rises from 0.0082 to 0.7688; "
              "the five other weights all fall steadily at the same time, keeping their order.")

# %% [markdown]
# Only one line rises; the other five fall together. Push "with" high enough and it takes
# almost all the weight, whatever the others scored.

# %% [markdown]
# ## 9. What weights do equal scores get?
#
# **Predict.** Four choices with equal scores. What are the weights when all four scores
# are 0? When all are 100? When all are -100? (e^100 is about 2.7 × 10^43. Not graded.)

# %%
# Your guess (not graded):

# %%
for level in (0, 100, -100):
    print(f"all {level}:", as_text(softmax(np.full(4, float(level))), 2))
shifted = softmax(journey_scores + 10.0)
print("journey scores + 10, largest change in a weight:", f"{np.abs(shifted - journey_softmax).max():.1e}")
print(f"e^100 = {np.exp(100.0):.1e}; e^710 in float64:", end=" ")
with np.errstate(over="ignore"):  # it overflows; NumPy would warn
    print(np.exp(710.0))
print(f"a gap of 1 is a factor of e = {np.exp(1.0):.4f}; a gap of 5, {np.exp(5.0):.1f}")

# %% [markdown]
# **0.25** each, every time. Adding the same number c to every score multiplies every
# piece of evidence by e^c, the total included, and e^c cancels between the top and the
# bottom of the fraction. So softmax only sees the **differences** between scores in a
# row: equal scores, whatever their level, give a uniform row, and adding 10 to all the
# journey scores changes no weight beyond rounding.
#
# A warning for later: the cancellation is exact in algebra, but e^710 already overflows
# a float64 to `inf` (and e^-750 is exactly 0, section 7). Lesson 05 turns the cancellation
# into a strength.

# %% [markdown]
# ## What carries forward
#
# Softmax is evidence over total evidence: `exp` makes every score positive, and one
# shared denominator per row turns the evidence into weights that sum to 1. Because the
# denominator is shared, the choices compete: raising one score lowers every other weight.
# Only differences between scores matter, so equal scores give uniform weights.
#
# If only differences matter, their *size* decides how peaked the weights are: a gap of 1
# between two scores is a factor of e in evidence, a gap of 5 a factor of about 148.4.
# Lesson 04 adds one knob for that size, the **temperature** T: divide the scores by T
# before softmax, and T < 1 sharpens the weights while T > 1 flattens them. The
# `softmax` you wrote here is the function it builds on.
