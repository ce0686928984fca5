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
# *before* you run them: the surprise is where the learning is.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt

from grader.checks import check_answer, check_call, passed
from grader.figures import PALETTE, show

np.set_printoptions(precision=4, suppress=True)

# %% [markdown]
# ## 1. Scores and weights
#
# A dot product gives raw **scores**: how well a query matches each of several choices.
# Scores can be any real numbers. What we want are **weights**: numbers that are
# nonnegative and sum to one over a *stated set of choices*.
#
# The set of choices matters. In attention, the choices are the source positions of a
# sentence: a weight of 0.5 on a word says "take half of this token's information", not
# "there is a 50% chance this is the next word". In next-token prediction the choices are
# the symbols of a vocabulary. Same arithmetic, different questions.

# %% [markdown]
# ## 2. The journey sentence
#
# Take the sentence *Your journey starts with one step*. The word "journey" scores each of
# the six tokens (itself included) with a dot product; here are those attention scores.

# %%
tokens = ["Your", "journey", "starts", "with", "one", "step"]
journey_scores = np.array([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
print("sum of the scores:", round(journey_scores.sum(), 4))

# %% [markdown]
# **Predict.** The simplest way to make weights: divide every score by the total. Which
# token will get the largest weight, and roughly how large will it be? Write down your
# guess, then run the next cell.

# %%
naive_journey = journey_scores / journey_scores.sum()
for token, weight in zip(tokens, naive_journey):
    print(f"{token:>8}: {weight:.4f}")
print("weight on 'journey':", round(naive_journey[1], 4), "| total:", round(naive_journey.sum(), 4))

# %% [markdown]
# "journey" gets 1.4950 / 6.5617 = **0.2278**, the largest share, and the weights add up
# to 1. For positive scores, division by the sum does what we asked.

# %% [markdown]
# ## 3. Exercise: `naive_normalize`
#
# Write `naive_normalize(scores)`: divide the scores by their sum **over the last axis**.
# A 1-D input is one row of scores; a 2-D input is a batch of rows, and each row must be
# divided by *its own* total. Accept lists and integer arrays, always return a new float
# NumPy array, and never change the array you were given.
#
# Hint: `x.sum(axis=-1, keepdims=True)` keeps the summed axis with length 1, so the
# division broadcasts row by row.

# %% nbgrader="solution" grade_id="naive_normalize"
def naive_normalize(scores):
    """Divide scores by their sum over the last axis (this one is meant to break)."""
    ### BEGIN SOLUTION
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_naive_normalize_public" points=2
check_call(naive_normalize, [1, 2, 1], expect=[0.25, 0.5, 0.25])
check_call(naive_normalize, np.array([3.0, 1.0]), expect=[0.75, 0.25])
check_call(naive_normalize, [[1, 3], [2, 2]], expect=[[0.25, 0.75], [0.5, 0.5]])
passed("naive_normalize")

# %% nbgrader="tests" grade_id="test_naive_normalize_rows" points=2
### BEGIN HIDDEN TESTS
_rows = np.array([[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]])
check_call(naive_normalize, _rows, expect=[[0.125, 0.25, 0.625], [0.4, 0.4, 0.2]])
_batch = np.arange(1.0, 13.0).reshape(2, 2, 3)
check_call(naive_normalize, _batch, expect=_batch / _batch.sum(axis=-1, keepdims=True))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_naive_normalize_inputs" points=2
### BEGIN HIDDEN TESTS
check_call(naive_normalize, [2, 6], expect=[0.25, 0.75])
check_call(naive_normalize, np.array([1, 1, 2]), expect=[0.25, 0.25, 0.5])
check_call(naive_normalize, np.array([[2, 2], [1, 3]]), expect=[[0.5, 0.5], [0.25, 0.75]])
check_call(naive_normalize, np.array([0.5, 1.5]), expect=[0.25, 0.75])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_naive_normalize_breaks" points=1
### BEGIN HIDDEN TESTS
# Meant to break: negative scores pass straight through, a zero sum gives inf and nan.
check_call(naive_normalize, [-2, 0, 3], expect=[-2.0, 0.0, 3.0])
check_call(naive_normalize, [1, -1, 0], expect=[np.inf, -np.inf, np.nan])
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Exercise: `is_distribution`
#
# Weights form a probability distribution over a row of choices when **every entry is
# finite and at least 0** and **the row sums to 1**.
#
# **Predict.** Is `0.7 + 0.2 + 0.1 == 1.0` true in floating point?

# %%
print(0.7 + 0.2 + 0.1, "| equal to 1.0?", 0.7 + 0.2 + 0.1 == 1.0)

# %% [markdown]
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


# %% nbgrader="tests" grade_id="test_is_distribution_public" points=2
check_answer(is_distribution, [0.25, 0.5, 0.25], expect=True)
check_answer(is_distribution, [0.7, 0.2, 0.1], expect=True)
check_answer(is_distribution, [0.5, 0.6], expect=False)
check_answer(is_distribution, [-2, 0, 3], expect=False)
passed("is_distribution")

# %% nbgrader="tests" grade_id="test_is_distribution_rejects" points=2
### BEGIN HIDDEN TESTS
check_answer(is_distribution, [1.5, -0.5], expect=False)
check_answer(is_distribution, [0.5, np.nan, 0.5], expect=False)
check_answer(is_distribution, [np.nan, np.nan], expect=False)
check_answer(is_distribution, [np.inf, 0.0], expect=False)
check_answer(is_distribution, [[0.5, 0.5], [0.9, 0.9]], expect=False)
check_answer(is_distribution, [[0.5, 0.5], [1.2, -0.2]], expect=False)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_is_distribution_rows_and_atol" points=1
### BEGIN HIDDEN TESTS
check_answer(is_distribution, [[0.5, 0.5], [0.25, 0.75]], expect=True)
check_answer(is_distribution, np.full((2, 3, 4), 0.25), expect=True)
check_answer(is_distribution, [0, 1, 0], expect=True)
check_answer(is_distribution, [0.5, 0.5 + 1e-9], expect=True)
check_answer(is_distribution, [0.5, 0.5 + 1e-6], expect=False)
check_answer(is_distribution, [0.5, 0.5 + 1e-6], atol=1e-5, expect=True)
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Where dividing by the sum breaks: negative scores
#
# Scores from a dot product can be negative. **Predict.** `[-2, 0, 3]` sums to 1. What
# does `naive_normalize` return for it, and is that a distribution?

# %%
negative_scores = np.array([-2.0, 0.0, 3.0])
naive_negative = naive_normalize(negative_scores)
print("sum of scores:", negative_scores.sum())
print("naive weights:", naive_negative)
print("is it a distribution?", is_distribution(naive_negative))

# %% [markdown]
# The sum is exactly 1, so division changes nothing: we get a "probability" of **-2**.
# A negative weight has no meaning as a share of attention or as a chance.

# %% [markdown]
# ## 6. Where it breaks harder: a zero sum
#
# **Predict.** `[1, -1]` sums to 0. What happens when we divide by 0?
#
# NumPy would print a `RuntimeWarning` here; we silence it with `np.errstate` so that only
# the result speaks.

# %%
with np.errstate(divide="ignore", invalid="ignore"):
    print("[1, -1]    ->", naive_normalize([1, -1]))
    print("[1, -1, 0] ->", naive_normalize([1, -1, 0]))

# %% [markdown]
# Division by zero gives `inf` (and `0 / 0` gives `nan`): no weights at all.

# %% [markdown]
# ## 7. Picture it
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
# Dividing by the sum makes weights only when every score is positive. Negative scores
# give negative "probabilities", and scores that cancel give a division by zero. Lesson 02
# fixes the sign problem first: `exp` turns **any** score into positive evidence.
