# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 08 — Log-softmax: work with log-weights, never take the log of a weight
#
# **By the end of this lesson you will be able to**
# - show an input where `log(softmax(x))` returns `-inf` although the true log-weight is an
#   ordinary number like `-800`, and say where the information was lost;
# - compute log-sum-exp with the max shift, and say why the max must be added back;
# - write `logsumexp`, `log_softmax` and `cross_entropy` (from logits, per row);
# - optionally, in the appendix after the lesson: measure the error of a floating-point result
#   in *units in the last place* (ulps) against a high-precision reference, and tell an
#   accurate formula from a broken one.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess *before* you
# run the cell that computes the answer. Some predictions are graded (a point each): write the
# guess in the cell under the question and run it and its check; the cell that computes the
# answer commits it before it shows the answer, and a guess changed afterwards earns nothing.
# Each explanation is folded under the answer: open it once you have answered.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt
import mpmath

from grader.learner.checks import check_answer, check_call, check_quiet, check_values, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.stubs import point_at_stubs

np.set_printoptions(precision=4, suppress=True)
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# ## 1. Why log-weights?
#
# A language model is trained to make the probability of the right next token large. It
# does not multiply probabilities (a product of thousands of numbers below 1 underflows to 0);
# it adds their **logs**, and minimises the *negative* log-probability of the right token,
# the **cross-entropy loss**. So what training needs is not `softmax(x)` but
# `log(softmax(x))`, the **log-softmax**. The obvious recipe computes the weights and then
# takes their log. Here it is, built on lesson 05's stable softmax:

# %%
# << reference stable_softmax from 05_stable_softmax >>


def log_of_softmax(scores):
    """The obvious log-softmax: the weights first, then their log (this one breaks)."""
    return np.log(stable_softmax(scores))


print("softmax([1, 2]):", stable_softmax(np.array([1.0, 2.0])))
print("log(softmax([1, 2])):", log_of_softmax(np.array([1.0, 2.0])))
print("their difference:", np.diff(log_of_softmax(np.array([1.0, 2.0])))[0])

# %% [markdown]
# Score 2 gets weight 0.7311, and `log(0.7311) = -0.3133`; score 1 gets `log(0.2689) = -1.3133`.
# The two log-weights differ by 1 (up to the last digit: floats round), the gap between the
# scores. That is no accident: `log softmax(x)_i = x_i - log(sum_j exp(x_j))` exactly, so every
# log-weight is its score minus **one number shared by the whole row**.

# %% [markdown]
# ## 2. What is the log of a tiny weight?
#
# **Predict (graded).** The scores `[200, 0]` are far apart: the second weight is
# `exp(-200) / (1 + exp(-200))`, about `1.4e-87`. Its log-weight is `-200 - log(1 + exp(-200))`,
# which is `-200` to far more digits than a float holds. What does `log(softmax(x))` give for
# that second entry in float32, the usual dtype on a GPU? (a) `-200`, (b) `-inf`, (c) `nan`,
# (d) `0`. Write the letter. (And in float64? Not graded: the same cell shows it.)
#
# (The cell after the check prints a warning on purpose: NumPy complains about `log(0)`.)

# %% nbgrader="guess" grade_id="guess_float32_log_weight" prediction="predict_float32_log_weight"
guess_float32_log_weight = ""  # your guess: "a", "b", "c" or "d"
### BEGIN SOLUTION
guess_float32_log_weight = 'b'
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_float32_log_weight" points=1
check_guess("predict_float32_log_weight", guess_float32_log_weight, choices=["a", "b", "c", "d"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_float32_log_weight", guess_float32_log_weight, "ecd43b411d0a24bb")
### END HIDDEN TESTS

# %% tags=["expect-warning"]
reveal("predict_float32_log_weight", guess_float32_log_weight)
print("the true second weight of [200, 0]:", mpmath.nstr(mpmath.exp(-200) / (1 + mpmath.exp(-200)), 5))
far32 = np.array([200.0, 0.0], dtype=np.float32)
print("float32: log(softmax([200, 0])) =", log_of_softmax(far32), "| weights:", stable_softmax(far32))
far64 = np.array([200.0, 0.0])
print("float64: log(softmax([200, 0])) =", log_of_softmax(far64), "| weights:", stable_softmax(far64))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# (b) `-inf`. The smallest positive float32 is about `1.4e-45`, so `exp(-200)` **underflows**
# to exactly 0, and `log(0) = -inf`: the weight is lost before the log is taken. float64 still
# holds `1.4e-87`, so its log comes back as `-200`.
#
#
# </details>

# %% [markdown]
# To be exact about "underflows": a result below the smallest positive
# float rounds to it or to 0, whichever is nearer, so `exp(x)` is 0 only below **half** the
# smallest positive float: `7e-46 = exp(-103.97)` in float32, `2.5e-324 = exp(-745.13)` in
# float64. float64 survives `[200, 0]`, but not a row whose gap is larger than 745.13:

# %%
with np.errstate(divide="ignore"):
    print("float64: log(softmax([800, 0])) =", log_of_softmax(np.array([800.0, 0.0])))
for dtype in (np.float32, np.float64):
    smallest = np.finfo(dtype).smallest_subnormal
    below = (np.log2(smallest) - 1) * np.log(2.0)  # log of half the smallest positive float, in float64
    print(f"{dtype.__name__}: smallest positive {smallest:.2g} = exp({np.log(np.float64(smallest)):.2f}); "
          f"exp(x) is 0 below x = {below:.2f}: exp({below - 0.01:.2f}) = {np.exp(dtype(below - 0.01))}, "
          f"exp({below + 0.01:.2f}) = {np.exp(dtype(below + 0.01)):.2g}")
    print(f"  half the smallest positive {dtype.__name__}: {mpmath.nstr(mpmath.mpf(float(smallest)) / 2, 2)}")

# %% [markdown]
# The true answer for `[800, 0]` is `[-0.0000, -800]` (the first entry is `-log(1 + e^-800)`,
# a tiny negative number). `-800` is a perfectly ordinary float. The information was lost in
# the **weight**, which cannot hold `e^-800`, not in the log. The cure is to never form the
# weight: compute `x_i - log(sum_j exp(x_j))` directly. The shared number
# `log(sum_j exp(x_j))` has a name: **log-sum-exp**.

# %% [markdown]
# ## 3. Log-sum-exp, naively
#
# **Predict.** `LSE(x) = log(sum(exp(x)))` for the scores `[1000, 1001]`, and for
# `[-1000, -1001]`? (Lesson 05 met both rows.) Not graded: write your guess in the one-line
# cell below, then run on.

# %%
# Your guess (not graded):

# %%
def naive_logsumexp(scores):
    """log(sum(exp)) over the last axis, with no shift."""
    return np.log(np.sum(np.exp(scores), axis=-1))


with np.errstate(over="ignore", divide="ignore"):
    print("naive LSE of [1, 2]:", naive_logsumexp(np.array([1.0, 2.0])))
    print("naive LSE of [1000, 1001]:", naive_logsumexp(np.array([1000.0, 1001.0])))
    print("naive LSE of [-1000, -1001]:", naive_logsumexp(np.array([-1000.0, -1001.0])))
print(f"LSE of [1000, 1001] lies between 1001 and 1001 + log 2 = {1001 + np.log(2.0):.2f}")

# %% [markdown]
# `exp(1000)` overflows to `inf`, and `log(inf) = inf`; `exp(-1000)` underflows to 0, and
# `log(0) = -inf`. Yet the answers are ordinary numbers: LSE is a **soft maximum**, never below
# the largest score and never more than `log(n)` above it (n scores), so LSE of `[1000, 1001]`
# lies between 1001 and `1001 + log 2 = 1001.69`.

# %% [markdown]
# ## 4. Shift by the max, then add it back
#
# Take `m = max(x)` out of the sum: `exp(x_j) = exp(m) · exp(x_j - m)`, so
#
# `LSE(x) = log(exp(m) · sum_j exp(x_j - m)) = m + log(sum_j exp(x_j - m))`.
#
# After the shift the largest term is `exp(0) = 1`: the sum lies between 1 and n, so it can
# neither overflow nor be 0, and its log is between 0 and `log n`. In lesson 05 the shift
# cancelled in the division; **here nothing cancels**, so `m` must be added back.
#
# **Predict (graded).** Which whole number is the LSE of `[1000, 1001]` closest to? (Then, not
# graded: what do the shifted sum and its log come to?)

# %% nbgrader="guess" grade_id="guess_lse_nearest" prediction="predict_lse_nearest"
guess_lse_nearest = ""  # your guess: a whole number, such as 1000
### BEGIN SOLUTION
guess_lse_nearest = 1001
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_lse_nearest" points=1
check_guess("predict_lse_nearest", guess_lse_nearest, choices=range(990, 1011))
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_lse_nearest", guess_lse_nearest, "20efb719afb4b51e")
### END HIDDEN TESTS

# %%
reveal("predict_lse_nearest", guess_lse_nearest)
for row in ([1000.0, 1001.0], [-1000.0, -1001.0]):
    x = np.array(row)
    m = x.max()
    shifted_sum = np.sum(np.exp(x - m))
    print(f"[{row[0]:.0f}, {row[1]:.0f}]: m = {m:.0f}, sum of exp(x - m) = {shifted_sum:.4f}, "
          f"its log = {np.log(shifted_sum):.4f}, LSE = {m + np.log(shifted_sum):.4f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# 1001. LSE of `[1000, 1001]` is **1001.3133**: a soft maximum, a little above the largest
# score, and of `[-1000, -1001]` it is **-999.6867**. Forget to add `m` back and you get 0.3133
# for both rows: the LSE of `[-1, 0]`, not of your scores.
#
#
# </details>

# %% [markdown]
# In a batch, each row needs **its own** max, for the reason lesson 05 gave: shift
# `[[1001, 1002], [3, 4]]` by the global max 1002 and row 2 becomes `[-999, -998]`, whose
# `exp` underflows to 0 and whose log is `-inf`:

# %%
batch = np.array([[1001.0, 1002.0], [3.0, 4.0]])
shifted = batch - batch.max()
with np.errstate(divide="ignore"):
    print("shifted by the global max:", shifted[1], "| exp:", np.exp(shifted[1]),
          "| log of the sum:", np.log(np.exp(shifted[1]).sum()))

# %% [markdown]
# ## 5. A row with every score `-inf`
#
# Lesson 06 gave forbidden choices the score `-inf`. A choice at `-inf` adds `exp(-inf) = 0`
# to the sum, so it changes nothing. But if **every** score of a row is `-inf`, the max is
# `-inf` and the shift computes `-inf - (-inf) = nan`:

# %%
masked_row = np.array([-np.inf, -np.inf])
with np.errstate(invalid="ignore"):
    print("x - max(x) for a row of -inf:", masked_row - masked_row.max())
print("exp(-inf) =", np.exp(-np.inf), "so the true sum is 0 and LSE = log(0) = -inf")
print("np.logaddexp.reduce of that row:", np.logaddexp.reduce(masked_row))

# %% [markdown]
# The sum of no evidence at all is 0, and its log is `-inf`: that is the right LSE for such a
# row (it is what `np.logaddexp.reduce` returns). The trouble is only the shift: `-inf` is no
# use as a shift. Any finite shift gives the same LSE (lesson 05: a shift changes nothing but
# the range), and for such a row every term is `exp(-inf) = 0` whatever you shift by. And
# NumPy warns about `np.log(0)` even when `-inf` is the answer you want, so those rows need
# their `-inf` without asking `np.log` for it.

# %% [markdown]
# ## 6. Exercise: `logsumexp`
#
# Write `logsumexp(scores)`: `log(sum(exp(scores)))` over the **last axis**, computed with
# each row's own max shift:
#
# - the result has one number per row: its shape is `scores.shape[:-1]`, and for a single
#   row it is a single number (a NumPy scalar is fine);
# - a row whose scores are all `-inf` gives `-inf`, not `nan`, and no warning;
# - accept lists and integer arrays (they become float64); **float32 stays float32**;
# - never change the caller's array and never warn (no overflow, no `log(0)` warning).
#
# You may assume no score is `+inf` or `nan`. Section 5 says what an all-`-inf` row needs;
# how you give it that is yours to choose.

# %% nbgrader="solution" grade_id="logsumexp"
def logsumexp(scores):
    """log(sum(exp(scores))) over the last axis, shifted by each row's max so nothing overflows."""
    ### BEGIN SOLUTION
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0).astype(x.dtype)
    total = np.sum(np.exp(x - m), axis=-1)
    log_total = np.log(total, out=np.full_like(total, -np.inf), where=total > 0)
    return m[..., 0] + log_total
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_logsumexp_public" points=2 function="logsumexp"
check_answer(logsumexp, np.array([1.0, 2.0]), expect=2.3132616875182228)
check_answer(logsumexp, np.array([1000.0, 1001.0]), expect=1001.3132616875182)
check_answer(logsumexp, np.array([-1000.0, -1001.0]), expect=-999.6867383124818)
check_values(logsumexp, np.array([[1001.0, 1002.0], [3.0, 4.0]]), expect=[1002.3132616875182, 4.313261687518223])
check_answer(logsumexp, np.array([0.0, 1000.0]), expect=1000.0)  # a later score far above the first
# a batch of one row gives one LSE, shape (1,)
check_values(logsumexp, np.array([[1.0, 2.0]]), expect=[2.3132616875182228])
# float32 stays float32
check_values(logsumexp, np.array([[1.0, 2.0]], dtype=np.float32), expect=np.array([2.3132617], dtype=np.float32))  # to float32's accuracy
# a row of -inf scores: nothing to add up
check_answer(logsumexp, np.array([-np.inf, -np.inf]), expect=-np.inf)
passed("logsumexp")

# %% nbgrader="tests" grade_id="test_logsumexp_rows" points=1 function="logsumexp"
### BEGIN HIDDEN TESTS
# property value: log(sum(exp(row))) of every row, as a float64 reference computes it
# property unchanged: the caller's scores (an array or a list) are never modified
# property shift: adding c to every score of a row adds c to its LSE
# property permutation: reordering the scores of a row leaves its LSE unchanged
from grader.learner.checks import check_generated


def _lse_rows(x):
    """Reference LSE per row in float64: each row's max plus the log of a sum between 1 and n; -inf rows give -inf."""
    x = np.asarray(x, dtype=np.float64)
    m = x.max(axis=-1)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return m + np.log(np.exp(x - m[..., None]).sum(axis=-1))


def _draw_rows(rng, size):
    """Scores with up to two leading axes, each row at its own level and spread, so rows lie far apart."""
    shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3))) + (int(rng.integers(1, 3 + size // 2)),)
    level = rng.uniform(-3000.0, 3000.0, size=shape[:-1] + (1,))
    return level + 10.0 ** rng.uniform(-1.0, 2.5, size=shape[:-1] + (1,)) * rng.normal(size=shape)


# every call below hands over the caller's own float64 arrays and checks they come back unchanged
_levels = np.array([[1001.0, 1002.0, 1000.0], [3.0, 4.0, 2.0], [-1000.0, -999.0, -1001.0]])
check_values(logsumexp, _levels, expect=_lse_rows(_levels))
_square = np.array([[0.0, 1.0], [5.0, -2.0]])
check_values(logsumexp, _square, expect=_lse_rows(_square))
_base = np.array([0.5, -1.0, 2.0, 0.0])
_batch = _base + np.array([[0.0, 900.0, -900.0], [50.0, -2000.0, 3000.0]])[:, :, None]
check_values(logsumexp, _batch, expect=_lse_rows(_base) + _batch.max(axis=-1) - _base.max())
check_answer(logsumexp, np.array([0.0, 0.0, 0.0, 0.0]), expect=float(np.log(4.0)))
_wide = np.random.default_rng(80).normal(scale=10.0, size=(2, 1000))
check_values(logsumexp, _wide, expect=_lse_rows(_wide))
# property shift
_shifts = np.array([0.0, 1000.0, -1000.0, 4096.5, -123456.25])
check_values(logsumexp, _base + _shifts[:, None], expect=_lse_rows(_base) + _shifts)
# property permutation
_spread = np.array([0.0, 1000.0, -5.0, 999.0])
_orders = np.array([np.roll(_spread, k) for k in range(4)] + [_spread[::-1]])
check_values(logsumexp, _orders, expect=np.full(5, _lse_rows(_spread)))
check_generated(logsumexp, _draw_rows, reference=_lse_rows, seed=801, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_logsumexp_shapes" points=1 function="logsumexp"
### BEGIN HIDDEN TESTS
# property shapes: one LSE per row, of shape scores.shape[:-1], for any leading axes, axes of length 1 and batches of one row
from grader.learner.checks import check_generated


def _lse_rows(x):
    """Reference LSE per row in float64 (rows of finite scores)."""
    x = np.asarray(x, dtype=np.float64)
    m = x.max(axis=-1)
    return m + np.log(np.exp(x - m[..., None]).sum(axis=-1))


def _draw_shapes(rng, size):
    """Scores with one to four axes, many of them of length 1."""
    shape = tuple(int(rng.choice([1, 1, 2, 3])) for _ in range(int(rng.integers(1, 5))))
    return rng.normal(scale=5.0, size=shape)


check_values(logsumexp, np.array([[1.0, 2.0, 3.0]]), expect=[_lse_rows([1.0, 2.0, 3.0])])
check_values(logsumexp, np.zeros((3, 1, 4)), expect=np.full((3, 1), np.log(4.0)))
check_values(logsumexp, np.array([[5.0], [-3.0], [0.25]]), expect=[5.0, -3.0, 0.25])
_cube = np.arange(24.0).reshape(2, 3, 4) / 8
check_values(logsumexp, _cube, expect=_lse_rows(_cube))
check_values(logsumexp, np.ones((1, 1, 2)), expect=np.full((1, 1), 1.0 + np.log(2.0)))
check_answer(logsumexp, np.array([7.5]), expect=7.5)
check_generated(logsumexp, _draw_shapes, reference=_lse_rows, seed=802, examples=10, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_logsumexp_all_inf_rows" points=1 function="logsumexp"
### BEGIN HIDDEN TESTS
# property neg_inf: a score of -inf adds nothing to its row; a row of -inf scores gives -inf, not nan
from grader.learner.checks import check_generated


def _lse_rows(x):
    """Reference LSE per row in float64: each row's max plus the log of a sum between 1 and n; -inf rows give -inf."""
    x = np.asarray(x, dtype=np.float64)
    m = x.max(axis=-1)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return m + np.log(np.exp(x - m[..., None]).sum(axis=-1))


def _draw_masked(rng, size):
    """Scores with -inf entries and whole rows of -inf, with up to two leading axes."""
    shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3))) + (int(rng.integers(1, 3 + size // 2)),)
    x = np.where(rng.random(shape) < 0.4, -np.inf, rng.normal(scale=50.0, size=shape))
    return np.where(rng.random(shape[:-1] + (1,)) < 0.3, -np.inf, x)


check_values(logsumexp, np.array([[-np.inf, -np.inf, -np.inf], [0.0, 0.0, 0.0]]), expect=[-np.inf, np.log(3.0)])
check_values(logsumexp, np.array([[1000.0, 999.0], [-np.inf, -np.inf]]), expect=[1000.3132616875182, -np.inf])
check_values(logsumexp, np.array([[0.0, -np.inf, 1.0], [-np.inf, 2.0, -np.inf]]), expect=[_lse_rows([0.0, 1.0]), 2.0])
check_values(logsumexp, np.full((2, 1, 3), -np.inf), expect=np.full((2, 1), -np.inf))
check_answer(logsumexp, np.array([-np.inf, -np.inf]), expect=-np.inf)
check_values(logsumexp, np.array([[-np.inf, 5.0, -np.inf], [-np.inf, -np.inf, -np.inf]], dtype=np.float32),
           expect=[5.0, -np.inf])
check_generated(logsumexp, _draw_masked, reference=_lse_rows, seed=803, examples=10, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_logsumexp_details" points=1 function="logsumexp"
# details: lists and integer scores, the dtype of the answer, and no warning
check_call(logsumexp, [[1001, 1002], [3, 4]], expect=[1002.3132616875182, 4.313261687518223])
check_call(logsumexp, [[1.0, 2.0]], expect=[2.3132616875182228])
check_call(logsumexp, np.array([[1.0, 2.0]], dtype=np.float32), expect=[2.3132617], dtype=np.float32)
check_answer(logsumexp, [1.0, 2.0], expect=2.3132616875182228)
check_answer(logsumexp, [1000.0, 1001.0], expect=1001.3132616875182)
check_answer(logsumexp, [-1000, -1001], expect=-999.6867383124818)
check_answer(logsumexp, [0.0, 1000.0], expect=1000.0)
check_answer(logsumexp, [-np.inf, -np.inf], expect=-np.inf)
check_quiet(logsumexp, [-np.inf, -np.inf])
### BEGIN HIDDEN TESTS
# property dtype: float32 scores give float32 LSEs, float64 give float64; lists and integer arrays of any width give float64
# property quiet: no warning (overflow, divide by zero, invalid value) on any input the contract allows
# property returns_array: a batch of rows gives a NumPy array (a single row may give a plain number)
# float32 stays float32; lists and integer arrays of any width give float64; a batch's LSEs are a NumPy array
from grader.learner.checks import check_generated


def _lse_rows(x):
    """Reference LSE per row in float64 (rows of finite scores)."""
    x = np.asarray(x, dtype=np.float64)
    m = x.max(axis=-1)
    return m + np.log(np.exp(x - m[..., None]).sum(axis=-1))


def _draw_float32(rng, size):
    """float32 batches with one or two leading axes, rows at their own levels."""
    shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(1, 3))) + (int(rng.integers(1, 3 + size // 2)),)
    level = rng.uniform(-80.0, 80.0, size=shape[:-1] + (1,))
    return (level + 5.0 * rng.normal(size=shape)).astype(np.float32)


check_call(logsumexp, np.array([[100.0, 99.0], [-100.0, -101.0]], dtype=np.float32),
           expect=[100.31326168751822, -99.68673831248178], dtype=np.float32)
check_call(logsumexp, np.zeros((2, 3, 4), dtype=np.float32), expect=np.full((2, 3), np.log(4.0)), dtype=np.float32)
check_call(logsumexp, np.array([[-np.inf, -np.inf], [0.0, 0.0]], dtype=np.float32), expect=[-np.inf, np.log(2.0)],
           dtype=np.float32)
check_call(logsumexp, np.array([[1, 2], [1000, 1001]]), expect=[2.3132616875182228, 1001.3132616875182],
           dtype=np.float64)
for _dtype, _ints in ((np.int8, [[-100, 100], [3, 4]]), (np.uint8, [[0, 200], [3, 4]]),
                      (np.int16, [[-30000, 30000], [7, 7]]), (np.uint16, [[0, 60000], [5, 9]]),
                      (np.int32, [[-5, 5], [1, 2]])):
    check_call(logsumexp, np.array(_ints, dtype=_dtype), expect=_lse_rows(_ints), dtype=np.float64)
check_call(logsumexp, [[1, 2, 3]], expect=[_lse_rows([1.0, 2.0, 3.0])], dtype=np.float64)
check_call(logsumexp, [[0.5, -1.5], [2.0, 2.0]], expect=_lse_rows([[0.5, -1.5], [2.0, 2.0]]), dtype=np.float64)
check_generated(logsumexp, _draw_float32, reference=lambda x: _lse_rows(x).astype(np.float32), seed=804,
                examples=8, same_dtype=True)
# no warning on any input the contract allows
check_quiet(logsumexp, [1000.0, 1001.0])
check_quiet(logsumexp, [[1001.0, 1002.0], [-1000.0, -1001.0]])
check_quiet(logsumexp, np.array([[100.0, 99.0], [-200.0, -201.0]], dtype=np.float32))
check_quiet(logsumexp, np.array([[1e300, 0.0, -1e300], [-np.inf, -np.inf, -np.inf]]))
check_quiet(logsumexp, np.array([[1e30, -1e30], [-np.inf, -np.inf]], dtype=np.float32))
check_quiet(logsumexp, np.array([[-1e300, -np.inf], [-1e12, 1e12]]))
check_quiet(logsumexp, [-np.inf, -np.inf])
check_quiet(logsumexp, np.full((2, 1, 3), -np.inf))
check_quiet(logsumexp, np.array([[-np.inf, -np.inf], [1.0, 2.0]]))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_logsumexp_extremes" points=1 function="logsumexp"
### BEGIN HIDDEN TESTS
# property extremes: finite scores up to about ±1e300, -inf entries and rows far apart give the right LSE, never inf or nan
from grader.learner.checks import check_generated


def _lse_rows(x):
    """Reference LSE per row in float64: each row's max plus the log of a sum between 1 and n; -inf rows give -inf."""
    x = np.asarray(x, dtype=np.float64)
    m = x.max(axis=-1)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return m + np.log(np.exp(x - m[..., None]).sum(axis=-1))


def _draw_extreme(rng, size):
    """Rows led by one score of either sign up to 1e300 in size; the others at least half its size below it, or -inf."""
    lead = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3)))
    n = int(rng.integers(1, 3 + size // 2))
    top = rng.choice([-1.0, 1.0], size=lead + (1,)) * 10.0 ** rng.uniform(0.0, 300.0, size=lead + (1,))
    x = top - np.abs(top) * rng.uniform(0.5, 1.0, size=lead + (n,))
    x = np.where(rng.random(lead + (n,)) < 0.25, -np.inf, x)
    np.put_along_axis(x, rng.integers(0, n, size=lead + (1,)), top, axis=-1)
    return x


_huge = np.array([[1e300, 0.0, -1e300], [-1e300, -1.5e300, -np.inf], [1.0, 2.0, 0.5], [-np.inf, 3.0, 1e12]])
check_values(logsumexp, _huge, expect=_lse_rows(_huge))
check_values(logsumexp, np.array([[1e12, -1e12], [-1e12, -3e12], [0.0, -1e12]]), expect=[1e12, -1e12, 0.0])
check_answer(logsumexp, np.array([-1e300, -np.inf, -2e300]), expect=-1e300)
_huge32 = np.array([[1e30, 0.0, -1e30], [-1e30, -np.inf, -2e30], [50.0, 0.0, 49.0]], dtype=np.float32)
check_values(logsumexp, _huge32, expect=_lse_rows(_huge32))
_far = np.array([[800.0, 0.0, 1000.0], [-800.0, -1000.0, -745.5], [0.0, -760.0, -0.0]])
check_values(logsumexp, _far, expect=_lse_rows(_far))
check_generated(logsumexp, _draw_extreme, reference=_lse_rows, seed=805, examples=12, values_only=True)
### END HIDDEN TESTS

# %% [markdown]
# **Predict.** LSE of four equal scores? Of a row with one score far above the others? Not
# graded: write your guess in the one-line cell below, then run on.

# %%
# Your guess (not graded):

# %%
print("LSE of [0, 0, 0, 0] = log 4:", logsumexp([0.0, 0.0, 0.0, 0.0]))
print("LSE of [50, 0, 0, 0]:", logsumexp([50.0, 0.0, 0.0, 0.0]))
print("LSE per row of [[1001, 1002], [3, 4], [-inf, -inf]]:", logsumexp([[1001, 1002], [3, 4], [-np.inf, -np.inf]]))
print(f"what the three zeros add to 50: log(1 + 3 e^-50) = {np.log1p(3 * np.exp(-50.0)):.2g}; "
      f"the float64 spacing at 50: {np.spacing(50.0):.2g}")

# %% [markdown]
# Equal scores are the far end of the soft maximum: `max + log n`. With one score far ahead,
# LSE is that score: the others add about `5.8e-22`, far below the gap between neighbouring
# float64 numbers at 50, `7.1e-15`.

# %% [markdown]
# ## 7. Exercise: `log_softmax`
#
# Every log-weight is its score minus the row's LSE: `log_softmax(x) = x - LSE(x)`, with
# the row's LSE subtracted from **every** entry of that row. Write `log_softmax(scores)`:
#
# - same shape as `scores`, over the last axis, for any number of leading axes;
# - never form the weights and take their log; a score far below the others must give a
#   large negative number, not `-inf`;
# - a score of `-inf` (a forbidden choice) gives `-inf`; at least one score per row is finite;
# - lists and integer arrays become float64, float32 stays float32, no warnings, the
#   caller's array unchanged.
#
# Two ways are right. You may call your `logsumexp`: it returns one number per row, so think
# about how that shape lines up with the rows it is subtracted from (the optional appendix
# measures this way's accuracy). Or shift first and subtract the log of the shifted sum from the shifted
# scores, never forming `LSE` itself.

# %% nbgrader="solution" grade_id="log_softmax"
def log_softmax(scores):
    """log of the softmax over the last axis, as (x - max) - log(sum(exp(x - max))), never via log(weights)."""
    ### BEGIN SOLUTION
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_log_softmax_public" points=2 function="log_softmax"
_gap1 = float(np.log1p(np.exp(-1.0)))  # log(1 + e^-1): what the lower of two scores 1 apart loses
check_values(log_softmax, np.array([1.0, 2.0]), expect=[-1.0 - _gap1, -_gap1])
check_values(log_softmax, np.array([1000.0, 1001.0]), expect=[-1.0 - _gap1, -_gap1])
check_values(log_softmax, np.array([800.0, 0.0]), expect=[0.0, -800.0])
check_values(log_softmax, np.array([[1001.0, 1002.0], [4.0, 3.0]]), expect=[[-1.0 - _gap1, -_gap1], [-_gap1, -1.0 - _gap1]])
check_values(log_softmax, np.array([0.0, 1000.0]), expect=[-1000.0, 0.0])  # a later score far above the first
check_values(log_softmax, np.array([0.0, -np.inf]), expect=[0.0, -np.inf])  # -inf gets log-weight -inf
# stays float32
check_values(log_softmax, np.array([1.0, 2.0], dtype=np.float32), expect=[-1.0 - _gap1, -_gap1])
# a batch of shape (2, 3, 4): 6 rows
check_values(log_softmax, np.zeros((2, 3, 4)), expect=np.full((2, 3, 4), -np.log(4)))
passed("log_softmax")

# %% nbgrader="tests" grade_id="test_log_softmax_rows" points=1 function="log_softmax"
### BEGIN HIDDEN TESTS
# property value: x - LSE(row) for every entry, as a float64 reference computes it
# property unchanged: the caller's scores (an array or a list) are never modified
# property shift: adding c to every score of a row leaves its log-weights unchanged
# property permutation: reordering the scores of a row reorders its log-weights the same way
# property neg_inf: a score of -inf gets log-weight -inf and changes nothing else in its row
from grader.learner.checks import check_generated

_gap1 = float(np.log1p(np.exp(-1.0)))


def _log_softmax_rows(x):
    """Reference log-softmax per row in float64, from each row's max and a sum between 1 and n."""
    x = np.asarray(x, dtype=np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def _draw_rows(rng, size):
    """Scores with up to two leading axes, each row at its own level and spread, so rows lie far apart."""
    shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3))) + (int(rng.integers(1, 3 + size // 2)),)
    level = rng.uniform(-3000.0, 3000.0, size=shape[:-1] + (1,))
    return level + 10.0 ** rng.uniform(-1.0, 2.5, size=shape[:-1] + (1,)) * rng.normal(size=shape)


# every call below hands over the caller's own float64 arrays and checks they come back unchanged
_levels = np.array([[1001.0, 1002.0, 1000.0], [3.0, 4.0, 2.0], [-1000.0, -999.0, -1001.0]])
check_values(log_softmax, _levels, expect=_log_softmax_rows(_levels))
_square = np.array([[0.0, 1.0], [5.0, -2.0]])
check_values(log_softmax, _square, expect=_log_softmax_rows(_square))
_base = np.array([0.5, -1.0, 2.0, 0.0])
_batch = _base + np.array([[0.0, 900.0, -900.0], [50.0, -2000.0, 3000.0]])[:, :, None]
check_values(log_softmax, _batch, expect=np.broadcast_to(_log_softmax_rows(_base), _batch.shape))
check_values(log_softmax, np.array([[0.0, -np.inf, 1.0], [-np.inf, 2.0, 2.0]]),
           expect=[[-1.0 - _gap1, -np.inf, -_gap1], [-np.inf, -np.log(2.0), -np.log(2.0)]])
_wide = np.random.default_rng(80).normal(scale=10.0, size=(2, 1000))
check_values(log_softmax, _wide, expect=_log_softmax_rows(_wide))
# property shift
_shifts = np.array([0.0, 1000.0, -1000.0, 4096.5, -123456.25])
check_values(log_softmax, _base + _shifts[:, None], expect=np.broadcast_to(_log_softmax_rows(_base), (5, 4)))
# property permutation
_spread = np.array([0.0, 1000.0, -5.0, 999.0])
_orders = [np.roll(np.arange(4), k) for k in range(4)] + [np.arange(4)[::-1]]
check_values(log_softmax, np.array([_spread[o] for o in _orders]),
           expect=np.array([_log_softmax_rows(_spread)[o] for o in _orders]))
check_generated(log_softmax, _draw_rows, reference=_log_softmax_rows, seed=811, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_log_softmax_shapes" points=1 function="log_softmax"
### BEGIN HIDDEN TESTS
# property shapes: the scores' own shape, normalised over the last axis, for any leading axes, axes of length 1 and batches of one row
from grader.learner.checks import check_generated

_gap1 = float(np.log1p(np.exp(-1.0)))


def _log_softmax_rows(x):
    """Reference log-softmax per row in float64, from each row's max and a sum between 1 and n."""
    x = np.asarray(x, dtype=np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def _draw_shapes(rng, size):
    """Scores with one to four axes, many of them of length 1."""
    shape = tuple(int(rng.choice([1, 1, 2, 3])) for _ in range(int(rng.integers(1, 5))))
    return rng.normal(scale=5.0, size=shape)


check_values(log_softmax, np.array([[1.0, 2.0]]), expect=[[-1.0 - _gap1, -_gap1]])
check_values(log_softmax, np.zeros((3, 1, 4)), expect=np.full((3, 1, 4), -np.log(4.0)))
check_values(log_softmax, np.array([[5.0], [-3.0], [0.25]]), expect=np.zeros((3, 1)))
_cube = np.arange(24.0).reshape(2, 3, 4) / 8
check_values(log_softmax, _cube, expect=_log_softmax_rows(_cube))
check_values(log_softmax, np.array([[[2.0, 1.0]], [[0.0, 1.0]]]), expect=[[[-_gap1, -1.0 - _gap1]], [[-1.0 - _gap1, -_gap1]]])
check_values(log_softmax, np.array([7.5]), expect=[0.0])
check_generated(log_softmax, _draw_shapes, reference=_log_softmax_rows, seed=812, examples=10, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_log_softmax_far_apart" points=1 function="log_softmax"
### BEGIN HIDDEN TESTS
# property far_apart: a score far below the others gets its large negative log-weight, never -inf (no log of a weight)
# property extremes: finite scores up to about ±1e300, -inf entries and rows far apart give the right log-weights, never nan
# property neg_inf
from grader.learner.checks import check_generated


def _log_softmax_rows(x):
    """Reference log-softmax per row in float64, from each row's max and a sum between 1 and n."""
    x = np.asarray(x, dtype=np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def _draw_extreme(rng, size):
    """Rows led by one score of either sign up to 1e300 in size; the others at least half its size below it, or -inf."""
    lead = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3)))
    n = int(rng.integers(1, 3 + size // 2))
    top = rng.choice([-1.0, 1.0], size=lead + (1,)) * 10.0 ** rng.uniform(0.0, 300.0, size=lead + (1,))
    x = top - np.abs(top) * rng.uniform(0.5, 1.0, size=lead + (n,))
    x = np.where(rng.random(lead + (n,)) < 0.25, -np.inf, x)
    np.put_along_axis(x, rng.integers(0, n, size=lead + (1,)), top, axis=-1)
    return x


check_values(log_softmax, np.array([0.0, -1000.0, 1000.0]), expect=[-1000.0, -2000.0, 0.0])
check_values(log_softmax, np.array([[900.0, 0.0], [0.0, -900.0]]), expect=[[0.0, -900.0], [0.0, -900.0]])
_huge = np.array([[1e300, 0.0, -1e300], [-1e300, -np.inf, -1.5e300], [1.0, 2.0, 0.5], [-np.inf, 3.0, 1e12]])
check_values(log_softmax, _huge, expect=_log_softmax_rows(_huge))
check_values(log_softmax, np.array([[1e12, -1e12], [-1e12, -np.inf]]), expect=[[0.0, -2e12], [0.0, -np.inf]])
_huge32 = np.array([[1e30, 0.0, -1e30], [-1e30, -np.inf, -2e30], [50.0, -np.inf, 49.0]], dtype=np.float32)
check_values(log_softmax, _huge32, expect=_log_softmax_rows(_huge32))
check_generated(log_softmax, _draw_extreme, reference=_log_softmax_rows, seed=813, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_log_softmax_details" points=1 function="log_softmax"
# details: lists and integer scores, the dtype of the answer, and no warning
check_call(log_softmax, [1.0, 2.0], expect=[-1.0 - _gap1, -_gap1])
check_call(log_softmax, [800, 0], expect=[0.0, -800.0])
check_call(log_softmax, [[1001, 1002], [4, 3]], expect=[[-1.0 - _gap1, -_gap1], [-_gap1, -1.0 - _gap1]])
check_call(log_softmax, [0.0, 1000.0], expect=[-1000.0, 0.0])
check_call(log_softmax, [0.0, -np.inf], expect=[0.0, -np.inf])
check_call(log_softmax, np.array([1.0, 2.0], dtype=np.float32), expect=[-1.0 - _gap1, -_gap1], dtype=np.float32)
### BEGIN HIDDEN TESTS
# property dtype: float32 scores give float32 log-weights, float64 give float64; lists and integer arrays of any width give float64
# property quiet: no warning (overflow, divide by zero, invalid value) on any input the contract allows
# property returns_array: the log-weights come back as a NumPy array
# float32 stays float32; lists and integer arrays of any width give float64; the log-weights are a NumPy array
from grader.learner.checks import check_generated

_gap1 = float(np.log1p(np.exp(-1.0)))


def _log_softmax_rows(x):
    """Reference log-softmax per row in float64, from each row's max and a sum between 1 and n."""
    x = np.asarray(x, dtype=np.float64)
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def _draw_float32(rng, size):
    """float32 scores with up to two leading axes, rows at their own levels."""
    shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3))) + (int(rng.integers(1, 3 + size // 2)),)
    level = rng.uniform(-80.0, 80.0, size=shape[:-1] + (1,))
    return (level + 5.0 * rng.normal(size=shape)).astype(np.float32)


check_call(log_softmax, np.array([200.0, 0.0], dtype=np.float32), expect=[0.0, -200.0], dtype=np.float32)
check_call(log_softmax, np.array([[100.0, 101.0], [-100.0, -300.0]], dtype=np.float32),
           expect=[[-1.0 - _gap1, -_gap1], [0.0, -200.0]], dtype=np.float32)
check_call(log_softmax, np.zeros((2, 3, 4), dtype=np.float32), expect=np.full((2, 3, 4), -np.log(4.0)),
           dtype=np.float32)
check_call(log_softmax, np.array([[1, 2], [1000, 1001]]), expect=[[-1.0 - _gap1, -_gap1]] * 2, dtype=np.float64)
for _dtype, _ints in ((np.int8, [[-100, 100], [3, 4]]), (np.uint8, [[0, 200], [3, 4]]),
                      (np.int16, [[-30000, 30000], [7, 7]]), (np.uint16, [[0, 60000], [5, 9]]),
                      (np.int32, [[-5, 5], [1, 2]])):
    check_call(log_softmax, np.array(_ints, dtype=_dtype), expect=_log_softmax_rows(_ints), dtype=np.float64)
check_call(log_softmax, [[1, 2, 3]], expect=_log_softmax_rows([[1.0, 2.0, 3.0]]), dtype=np.float64)
check_call(log_softmax, [0.5, -1.5], expect=_log_softmax_rows([0.5, -1.5]), dtype=np.float64)
check_generated(log_softmax, _draw_float32, reference=lambda x: _log_softmax_rows(x).astype(np.float32), seed=814,
                examples=8, same_dtype=True)
# no warning on any input the contract allows
check_quiet(log_softmax, [[800.0, 0.0], [1000.0, 1001.0]])
check_quiet(log_softmax, np.array([[1e300, 0.0, -1e300], [-np.inf, 1.0, -np.inf]]))
check_quiet(log_softmax, np.array([[200.0, 0.0], [-np.inf, -1e30]], dtype=np.float32))
check_quiet(log_softmax, np.array([[-1e300, -np.inf], [-1e12, 1e12]]))
check_quiet(log_softmax, [0.0, -1000.0, 1000.0])
check_quiet(log_softmax, np.array([[800.0, 0.0], [1000.0, 1001.0]]))
### END HIDDEN TESTS

# %% [markdown]
# **Predict.** What do the weights `exp(log_softmax(x))` of `[800, 0]` come to? And do the
# log-weights of `[200, 0]` survive float32 now? Not graded: write your guess in the one-line
# cell below, then run on.

# %%
# Your guess (not graded):

# %%
print("log_softmax([800, 0]) =", log_softmax([800.0, 0.0]), "| its exp:", np.exp(log_softmax([800.0, 0.0])))
print("float32: log_softmax([200, 0]) =", log_softmax(far32), "| dtype:", log_softmax(far32).dtype)

# %% [markdown]
# The log-weight `-800` is right, even though its weight `e^-800` is 0 in float64 (exp
# underflows as soon as we leave the log domain). Stay in the log domain for as long as you
# can: add log-weights instead of multiplying weights. When you need the weights themselves,
# compute them with lesson 05's stable softmax rather than as `exp(log_softmax(x))`: section
# 11 shows why.

# %% [markdown]
# ## 8. Cross-entropy from logits
#
# A classifier (or a language model choosing the next token) outputs one score per class,
# its **logits**. Training wants the log-weight of the right class, the **target**, to be
# high. The **cross-entropy loss** of one row is the negative of that log-weight:
#
# `loss = -log_softmax(logits)[target]`.
#
# It is 0 when the model puts all its weight on the target, and it grows without bound the
# more weight the model takes away from it.
#
# **Predict.** For the logits `[2, 0, -1]` (lesson 04's choices A, B, C; weights
# `[0.8438, 0.1142, 0.0420]`), which target gives the smallest loss, and roughly how large is
# it? Not graded: write your guess in the one-line cell below, then run on.

# %%
# Your guess (not graded):

# %%
abc = np.array([2.0, 0.0, -1.0])
for target, name in enumerate("ABC"):
    print(f"target {name}: weight {stable_softmax(abc)[target]:.4f}, "
          f"loss = -log_softmax(abc)[{target}] = {-log_softmax(abc)[target]:.4f}")

# %% [markdown]
# The loss for target A is `-log(0.8438) = 0.1698`; for C, which the model thinks unlikely,
# it is `3.1698`. Now the case that matters: a model that is **confidently wrong**. Logits
# `[200, 0]` in float32, and the right answer is class 1. Computing the loss through
# `log(softmax)` gives:

# %%
with np.errstate(divide="ignore"):
    print("float32, -log(softmax([200, 0]))[1] =", -log_of_softmax(far32)[1])
print("float32, -log_softmax([200, 0])[1]  =", -log_softmax(far32)[1])

# %% [markdown]
# The true loss is `200 + log(1 + e^-200)`, 200 in any float: large, as it should be for a
# confident mistake, and finite. An infinite loss is no use for training, because training
# follows the loss's gradient. Through the weights, the chain rule multiplies the slope of
# `-log p` at `p = 0`, which is `-inf`, by the derivatives of the weight `p = softmax(x)[1]`
# with respect to the logits; each of those has the factor `p` itself (lesson 09 derives
# them), so they are all 0 here, and `-inf · 0` is `nan`:

# %%
weight = stable_softmax(far32)[1]
with np.errstate(divide="ignore", invalid="ignore"):
    slope = -1 / weight  # d(-log p)/dp at p = 0
    weight_derivatives = weight * (np.array([0.0, 1.0], dtype=np.float32) - stable_softmax(far32))
    print("slope of -log p:", slope, "| derivatives of p:", weight_derivatives,
          "| their product, the gradient:", slope * weight_derivatives)

# %% [markdown]
# A single `nan` in a gradient spreads to every parameter the update touches. That is why
# PyTorch's `F.cross_entropy` takes **logits**, not probabilities, and computes the loss from
# them in one step (section 10 puts it beside yours).

# %% [markdown]
# ## 9. Exercise: `cross_entropy`
#
# Write `cross_entropy(logits, target)`: the cross-entropy loss of **each row**,
# `-log_softmax(row)[target]`, computed from the logits.
#
# - `logits` has the classes on its last axis. `target` holds one integer class index per
#   row: a single integer for a single row, an integer array (or list) of shape
#   `logits.shape[:-1]` for a batch;
# - return **one loss per row**, shape `logits.shape[:-1]` (a single number for a single
#   row). Do **not** average over the batch: the training loss is
#   `cross_entropy(logits, target).mean()`, one step later;
# - compute from the logits with the max shift, never through `log(softmax)`;
# - a logit of `-inf` (a class ruled out) adds nothing to the row's LSE; the target's own logit is finite;
# - lists and integer logits become float64, float32 stays float32, nothing changed in place.
#
# Two things to work out first, on paper. A row's loss needs **one** of its log-weights, not
# all of them: write `-log_softmax(x)[t]` with section 1's formula and see what is left to
# compute. And every row has **its own** target: the loss of row `i` reads entry `target[i]` of
# row `i`, whatever the number of leading axes (NumPy can take one entry per row by index; a
# loop over the rows is right too).

# %% nbgrader="solution" grade_id="cross_entropy"
def cross_entropy(logits, target):
    """Loss of each row, -log_softmax(row)[target], from the logits (never through the weights)."""
    ### BEGIN SOLUTION
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    t = np.asarray(target)
    m = x.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(x - m, t[..., np.newaxis], axis=-1)[..., 0]
    return np.log(np.sum(np.exp(x - m), axis=-1)) - picked
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_cross_entropy_public" points=2 function="cross_entropy"
check_answer(cross_entropy, np.array([2.0, 0.0, -1.0]), 0, expect=0.16984601955628564)
check_answer(cross_entropy, np.array([2.0, 0.0, -1.0]), 2, expect=3.1698460195562856)
check_values(cross_entropy, np.array([[2.0, 0.0, -1.0], [2.0, 0.0, -1.0]]), [0, 1], expect=[0.16984601955628564, 2.1698460195562856])
# a confident mistake costs 1000, not inf
check_answer(cross_entropy, np.array([0.0, 1000.0]), 0, expect=1000.0)
# a class of logit -inf plays no part
check_answer(cross_entropy, np.array([0.0, 0.0, -np.inf]), 0, expect=np.log(2))
# float32 stays float32; a batch of one row gives one loss, shape (1,)
check_values(cross_entropy, np.array([[2.0, 0.0, -1.0]], dtype=np.float32), [0], expect=[0.16984601955628564])
passed("cross_entropy")

# %% nbgrader="tests" grade_id="test_cross_entropy_far_apart" points=1 function="cross_entropy"
### BEGIN HIDDEN TESTS
# property from_logits: a confident mistake costs its large finite loss, never inf (no log of a weight)
# property extremes: logits up to about ±1e300, -inf logits of other classes and rows far apart give the right loss, never inf or nan
from grader.learner.checks import check_generated


def _ce_rows(x, t):
    """Reference per-row cross-entropy in float64: each row's max plus the log of its shifted sum, minus the target's logit."""
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(t)
    m = x.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(x - m, t[..., None], axis=-1)[..., 0]
    return np.log(np.exp(x - m).sum(axis=-1)) - picked


def _draw_extreme(rng, size):
    """Batches of rows led by one logit of either sign up to 1e300 in size, the others far below it or -inf;
    finite targets."""
    lead = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(1, 3)))
    n = int(rng.integers(1, 3 + size // 2))
    top = rng.choice([-1.0, 1.0], size=lead + (1,)) * 10.0 ** rng.uniform(0.0, 300.0, size=lead + (1,))
    x = top - np.abs(top) * rng.uniform(0.5, 1.0, size=lead + (n,))
    x = np.where(rng.random(lead + (n,)) < 0.25, -np.inf, x)
    np.put_along_axis(x, rng.integers(0, n, size=lead + (1,)), top, axis=-1)
    return x, np.argmax(np.where(np.isfinite(x), rng.random(lead + (n,)), -1.0), axis=-1)


_gap1 = float(np.log1p(np.exp(-1.0)))
check_values(cross_entropy, np.array([[1000.0, 0.0], [0.0, 1000.0]]), np.array([1, 1]), expect=[1000.0, 0.0])
check_values(cross_entropy, np.array([[1000.0, 1001.0], [-1000.0, -1001.0]]), [0, 0], expect=[1.0 + _gap1, _gap1])
check_values(cross_entropy, np.array([[800.0, 0.0, -5.0]]), [2], expect=[805.0])
check_values(cross_entropy, np.array([[1e300, 0.0, -1e300]] * 3), np.array([0, 1, 2]), expect=[0.0, 1e300, 2e300])
_masked = np.array([[-np.inf, 2.0, 0.0, -np.inf], [5.0, -np.inf, -np.inf, -np.inf], [-1e12, -np.inf, 1e12, 0.0]])
check_values(cross_entropy, _masked, np.array([1, 0, 0]), expect=[np.log1p(np.exp(-2.0)), 0.0, 2e12])
_huge32 = np.array([[1e30, 0.0, -1e30], [-1e30, -np.inf, -2e30]], dtype=np.float32)
check_values(cross_entropy, _huge32, [2, 0], expect=_ce_rows(_huge32, [2, 0]))
check_answer(cross_entropy, np.array([1e300, -np.inf, -1e300]), 2, expect=2e300)
check_generated(cross_entropy, _draw_extreme, reference=_ce_rows, seed=821, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_batches" points=1 function="cross_entropy"
### BEGIN HIDDEN TESTS
# property value: LSE(row) - row[target] for every row, as a float64 reference computes it
# property per_row: one loss per row, each from its own row and its own target, never averaged over the batch
# property unchanged: neither the logits nor the targets are modified
# property shift: adding c to every logit of a row leaves its loss unchanged
from grader.learner.checks import check_generated


def _ce_rows(x, t):
    """Reference per-row cross-entropy in float64, with a loop so it shares nothing with vectorised code."""
    x = np.asarray(x, dtype=np.float64)
    rows, targets = x.reshape(-1, x.shape[-1]), np.asarray(t).reshape(-1)
    out = [np.log(np.exp(r - r.max()).sum()) - (r[k] - r.max()) for r, k in zip(rows, targets)]
    return np.array(out).reshape(x.shape[:-1])[()]


def _draw_batch(rng, size):
    """Logits with up to two leading axes, rows at their own levels and spreads (a single row: small logits),
    and a random target per row."""
    shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3))) + (int(rng.integers(1, 3 + size // 2)),)
    far = len(shape) > 1
    level = rng.uniform(-3000.0, 3000.0, size=shape[:-1] + (1,)) if far else 0.0
    x = level + 10.0 ** rng.uniform(-1.0, 2.5 if far else 0.5, size=shape[:-1] + (1,)) * rng.normal(size=shape)
    target = rng.integers(0, shape[-1], size=shape[:-1])
    return x, (int(target) if target.ndim == 0 else target)


# every call below hands over the caller's own float64 arrays and checks they come back unchanged
_logits = np.random.default_rng(8).normal(scale=3.0, size=(2, 3, 4))
_targets = np.array([[0, 3, 1], [2, 2, 0]])
check_values(cross_entropy, _logits, _targets, expect=_ce_rows(_logits, _targets))
_wide = np.array([[0.5, 3.0, -1.0, 2.0], [4.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
check_values(cross_entropy, _wide, [3, 0, 2], expect=_ce_rows(_wide, [3, 0, 2]))
_sq = np.array([[3.0, 1.0], [0.0, 2.0]])
check_values(cross_entropy, _sq, np.array([1, 1]), expect=_ce_rows(_sq, [1, 1]))
check_values(cross_entropy, np.array([[1.0, 2.0, 3.0]]), [0], expect=_ce_rows([[1.0, 2.0, 3.0]], [0]))
_vocabulary = np.random.default_rng(80).normal(scale=4.0, size=(2, 300))
check_values(cross_entropy, _vocabulary, np.array([257, 3]), expect=_ce_rows(_vocabulary, [257, 3]))
# property shift
_base = np.array([0.5, -1.0, 2.0, 0.0])
_shifts = np.array([0.0, 1000.0, -1000.0, 4096.5, -123456.25])
check_values(cross_entropy, _base + _shifts[:, None], np.array([0, 1, 2, 3, 1]),
           expect=_ce_rows(np.broadcast_to(_base, (5, 4)), [0, 1, 2, 3, 1]))
check_generated(cross_entropy, _draw_batch, reference=_ce_rows, seed=822, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_shapes" points=1 function="cross_entropy"
### BEGIN HIDDEN TESTS
# property shapes: one loss per row, of shape logits.shape[:-1], for any leading axes, axes of length 1 and batches of one row
from grader.learner.checks import check_generated


def _ce_rows(x, t):
    """Reference per-row cross-entropy in float64, with a loop so it shares nothing with vectorised code."""
    x = np.asarray(x, dtype=np.float64)
    rows, targets = x.reshape(-1, x.shape[-1]), np.asarray(t).reshape(-1)
    out = [np.log(np.exp(r - r.max()).sum()) - (r[k] - r.max()) for r, k in zip(rows, targets)]
    return np.array(out).reshape(x.shape[:-1])[()]


def _draw_shapes(rng, size):
    """Logits with one to four axes, many of them of length 1, and a target per row."""
    shape = tuple(int(rng.choice([1, 1, 2, 3])) for _ in range(int(rng.integers(1, 5))))
    target = rng.integers(0, shape[-1], size=shape[:-1])
    return rng.normal(scale=5.0, size=shape), (int(target) if target.ndim == 0 else target)


check_values(cross_entropy, np.array([[2.0, 0.0, -1.0]]), np.array([2]), expect=[3.1698460195562856])
check_values(cross_entropy, np.array([[[2.0, 0.0, -1.0]], [[0.0, 0.0, 0.0]]]), np.array([[0], [1]]),
           expect=[[0.16984601955628564], [np.log(3.0)]])
check_values(cross_entropy, np.array([[5.0], [-3.0], [0.25]]), np.zeros(3, dtype=int), expect=[0.0, 0.0, 0.0])
_cube = np.arange(24.0).reshape(2, 3, 4) / 8
check_values(cross_entropy, _cube, np.array([[0, 1, 2], [3, 3, 0]]), expect=_ce_rows(_cube, [[0, 1, 2], [3, 3, 0]]))
check_answer(cross_entropy, np.array([2.0, 0.0, -1.0]), np.int64(1), expect=2.1698460195562856)
check_generated(cross_entropy, _draw_shapes, reference=_ce_rows, seed=823, examples=10, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_details" points=1 function="cross_entropy"
# details: lists and integer scores, the dtype of the answer, and no warning
check_call(cross_entropy, [[2.0, 0.0, -1.0], [2.0, 0.0, -1.0]], [0, 1], expect=[0.16984601955628564, 2.1698460195562856])
check_call(cross_entropy, np.array([[2.0, 0.0, -1.0]], dtype=np.float32), [0], expect=[0.16984602], dtype=np.float32)
check_answer(cross_entropy, [2.0, 0.0, -1.0], 0, expect=0.16984601955628564)
check_answer(cross_entropy, [2, 0, -1], 2, expect=3.1698460195562856)
check_answer(cross_entropy, [0.0, 1000.0], 0, expect=1000.0)
check_answer(cross_entropy, [0.0, 0.0, -np.inf], 0, expect=np.log(2))
### BEGIN HIDDEN TESTS
# property dtype: float32 logits give float32 losses, float64 give float64; lists and integer logits of any width give float64
# property targets: targets of any integer dtype, given as a Python int, a list or an array
# property quiet: no warning (overflow, divide by zero, invalid value) on any input the contract allows
# property returns_array: a batch of rows gives a NumPy array of losses (a single row may give a plain number)
# float32 stays float32; lists and integer logits of any width give float64; a batch's losses are a NumPy array
def _ce_rows(x, t):
    """Reference per-row cross-entropy in float64, with a loop so it shares nothing with vectorised code."""
    x = np.asarray(x, dtype=np.float64)
    rows, targets = x.reshape(-1, x.shape[-1]), np.asarray(t).reshape(-1)
    out = [np.log(np.exp(r - r.max()).sum()) - (r[k] - r.max()) for r, k in zip(rows, targets)]
    return np.array(out).reshape(x.shape[:-1])[()]


check_call(cross_entropy, np.array([[200.0, 0.0], [0.0, 200.0]], dtype=np.float32), [1, 1], expect=[200.0, 0.0],
           dtype=np.float32)
check_call(cross_entropy, np.array([[2.0, 0.0, -1.0]], dtype=np.float32), np.array([2]),
           expect=[3.1698460195562856], dtype=np.float32)
check_call(cross_entropy, np.array([[2, 0, -1], [1000, 1001, 0]]), [0, 1],
           expect=[0.16984601955628564, 0.3132616875182228], dtype=np.float64)
for _dtype, _ints in ((np.int8, [[-100, 100], [3, 4]]), (np.uint8, [[0, 200], [3, 4]]),
                      (np.int16, [[-30000, 30000], [7, 7]]), (np.uint16, [[0, 60000], [5, 9]]),
                      (np.int32, [[-5, 5], [1, 2]])):
    check_call(cross_entropy, np.array(_ints, dtype=_dtype), [0, 1], expect=_ce_rows(_ints, [0, 1]), dtype=np.float64)
check_call(cross_entropy, [[1, 2, 3], [0, 0, 1]], [2, 0], expect=_ce_rows([[1, 2, 3], [0, 0, 1]], [2, 0]),
           dtype=np.float64)
# property targets
_abc = np.array([[2.0, 0.0, -1.0], [0.5, 1.5, -0.5]])
for _dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.intp):
    check_call(cross_entropy, _abc, np.array([2, 1], dtype=_dtype), expect=_ce_rows(_abc, [2, 1]))
check_call(cross_entropy, _abc, [0, 2], expect=_ce_rows(_abc, [0, 2]))
check_answer(cross_entropy, [2.0, 0.0, -1.0], 2, expect=3.1698460195562856)
check_answer(cross_entropy, np.array([2.0, 0.0, -1.0]), np.uint8(1), expect=2.1698460195562856)
check_answer(cross_entropy, np.array([2.0, 0.0, -1.0]), np.array(0, dtype=np.int16), expect=0.16984601955628564)
# no warning on any input the contract allows
check_quiet(cross_entropy, [[1000.0, 0.0], [-1000.0, -1001.0]], [1, 0])
check_quiet(cross_entropy, np.array([[1e300, 0.0, -1e300], [-np.inf, 1.0, -np.inf]]), np.array([2, 1]))
check_quiet(cross_entropy, np.array([[200.0, 0.0], [-np.inf, -1e30]], dtype=np.float32), [1, 1])
check_quiet(cross_entropy, np.array([[-1e300, -np.inf], [-1e12, 1e12]]), np.array([0, 0]))
check_quiet(cross_entropy, [0.0, -1000.0, 1000.0], 1)
check_quiet(cross_entropy, np.array([[1000.0, 0.0], [-1000.0, -1001.0]]), [1, 0])
### END HIDDEN TESTS

# %% [markdown]
# **Predict (graded).** A batch of three rows: (1) right and confident, (2) unsure, (3)
# confidently wrong. Which row contributes most of the mean loss? Write its number.

# %% nbgrader="guess" grade_id="guess_dominant_row" prediction="predict_dominant_row"
guess_dominant_row = ""  # your guess: 1, 2 or 3
### BEGIN SOLUTION
guess_dominant_row = 3
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_dominant_row" points=1
check_guess("predict_dominant_row", guess_dominant_row, choices=range(1, 4))
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_dominant_row", guess_dominant_row, "c4b0462acbe08d83")
### END HIDDEN TESTS

# %%
reveal("predict_dominant_row", guess_dominant_row)
batch_logits = np.array([[8.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 8.0]])
batch_targets = np.array([0, 1, 0])
losses = cross_entropy(batch_logits, batch_targets)
print("loss per row:", losses)
print(f"training loss (mean over the batch): {losses.mean():.4f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Row 3. The unsure row costs `log 3 = 1.0986`, the confident right one almost nothing, and
# the confident wrong one about 8: most of the mean. That is what makes the loss a good teacher.
#
#
# </details>

# %% [markdown]
# ### Why "cross"?
#
# Write the target as a distribution y over the classes: all of its weight on the target, a
# **one-hot** row such as `[0, 0, 1]` for class C. With the model's weights p = softmax(logits),
# the **cross-entropy** of p against y is
#
# H(y, p) = −Σ<sub>k</sub> y<sub>k</sub> log p<sub>k</sub>,
#
# the mean of −log p weighed by *another* distribution, y: one distribution's weights, the
# other's logs, hence "cross". With p = y it is the **entropy** of y, −Σ y log y. With a one-hot
# y, every term but the target's is 0, and what is left is −log p<sub>target</sub>, the loss
# your `cross_entropy` computes:

# %%
log_p = log_softmax(abc)
one_hot_c = np.array([0.0, 0.0, 1.0])
print(f"-sum(y * log p), y one-hot on C: {-np.sum(one_hot_c * log_p):.4f} | cross_entropy(abc, 2): "
      f"{cross_entropy(abc, 2):.4f}")

# %% [markdown]
# The formula does not need a one-hot y. A **soft label** is a whole distribution as the
# target: the weights of a larger "teacher" model, or *label smoothing*, which keeps 0.9 on the
# right class and spreads the rest over the others so that the model is never pushed towards
# infinite logits. The loss is still −Σ y log p, and it is never below the entropy of y, which
# it reaches when p = y:

# %%
soft = np.array([0.9, 0.05, 0.05])
soft_loss = -np.sum(soft * log_p)
soft_entropy = -np.sum(soft * np.log(soft))
print(f"soft label {soft}, model weights {np.exp(log_p)}: loss -sum(y * log p) = {soft_loss:.4f}")
print(f"entropy of the soft label, the loss if p were y: {soft_entropy:.4f} | the gap: {soft_loss - soft_entropy:.4f}")

# %% [markdown]
# The gap, 0.0254, is the *Kullback–Leibler divergence* of p from y: how far the model's
# weights are from the target's, 0 only when they are equal. Since the entropy of y does not
# depend on the model, minimising the cross-entropy minimises that gap.

# %% [markdown]
# ### What does minimising the mean loss maximise?
#
# A model that gives weight p<sub>i</sub> to the target of example i gives a whole batch of
# independent examples the probability p<sub>1</sub> · p<sub>2</sub> · … · p<sub>N</sub>: the
# **likelihood** of the data under the model. Its log is the sum of the log-weights, so the
# mean loss is −(1/N) times the log-likelihood. Cross-entropy with one-hot targets *is* the
# **negative log-likelihood**, and minimising it is maximum likelihood. On the batch above:

# %%
target_weights = np.array([weights[target] for weights, target in zip(stable_softmax(batch_logits), batch_targets)])
print("the weights of the targets:", target_weights)
print(f"the likelihood of the batch, their product: {np.prod(target_weights):.4e}")
print(f"exp(-(sum of the losses)):                  {np.exp(-losses.sum()):.4e}")

# %% [markdown]
# The same number, 1.1167e-04, twice. In practice the sum of logs is what is computed: a
# product of a million weights underflows to 0 (lesson 02's −745 is reached long before),
# while a sum of a million losses is an ordinary number.

# %% [markdown]
# ### What is perplexity?
#
# Language models report exp(mean loss), the **perplexity**. It reads as a number of choices: a
# model that spreads its weight evenly over V tokens gives every target the weight 1 / V, so
# its loss is log V and its perplexity V.
#
# **Predict.** The vocabulary of GPT-2 has 50257 tokens. What are the loss and the perplexity
# of a model that guesses uniformly among them? (Not graded.)

# %%
# Your guess (not graded):

# %%
for vocab_size in (3, 50257):
    uniform_loss = cross_entropy(np.zeros(vocab_size), 0)
    print(f"uniform over {vocab_size} tokens: loss {uniform_loss:.4f} = log {vocab_size}, "
          f"perplexity {np.exp(uniform_loss):.1f}")
print(f"the batch above: mean loss {losses.mean():.4f}, perplexity {np.exp(losses.mean()):.2f}")

# %% [markdown]
# The uniform guess over 50257 tokens costs log 50257 = 10.8249 per token and has perplexity
# 50257.0: the model is as unsure as if it drew from all of them. The batch above has
# perplexity 20.77: on average the model is as unsure as a uniform choice among about that many
# classes, although each row has only 3. That is the confidently wrong row's doing: its weight
# on the target, about 0.0003, counts in the geometric mean like any other.

# %% [markdown]
# ## 10. The same in PyTorch
#
# PyTorch has both functions in `torch.nn.functional`: `F.log_softmax(x, dim=-1)` (PyTorch's
# `dim` is NumPy's `axis`; `-1` counts from the end, the last axis) and
# `F.cross_entropy(logits, target)`, which takes **logits** and integer class indices, as
# yours does. Two differences to know: by default it returns the **mean** over the batch
# (`reduction="none"` gives one loss per row, as yours), and its class-index targets must be
# `torch.long` (64-bit integers) or `torch.uint8` (bytes): int32 raises, as the cells below
# show.
#
# **Predict.** Three rows: ordinary logits, logits near 1000, and a confident row with a class
# ruled out (`-inf`). Will PyTorch's numbers and yours agree to the last digits? Not graded:
# write your guess in the one-line cell below, then run on.
#
# (Without PyTorch the cell prints one line saying how to install it.)

# %%
# Your guess (not graded):

# %%
from grader.learner.pytorch import torch_or_none

torch = torch_or_none()
if torch:
    import torch.nn.functional as F

    logits = np.array([[2.0, 0.0, -1.0], [1000.0, 1001.0, 0.0], [200.0, 0.0, -np.inf]])
    targets = np.array([2, 0, 1])
    theirs, yours = F.log_softmax(torch.from_numpy(logits), dim=-1).numpy(), log_softmax(logits)
    print("F.log_softmax(x, dim=-1):", theirs.round(4).tolist())
    print("your log_softmax(x):     ", yours.round(4).tolist())
    finite = np.isfinite(theirs)
    print("same -inf entries:", np.array_equal(finite, np.isfinite(yours)),
          f"| largest difference elsewhere: {np.max(np.abs(theirs[finite] - yours[finite])):.1e}")

# %%
if torch:
    logits_t, targets_t = torch.from_numpy(logits), torch.from_numpy(targets)  # float64 and int64 tensors
    print("F.cross_entropy(x, t, reduction='none'):", F.cross_entropy(logits_t, targets_t, reduction="none").numpy())
    print("your cross_entropy(x, t):               ", cross_entropy(logits, targets))
    print(f"F.cross_entropy(x, t), its default: {F.cross_entropy(logits_t, targets_t).item():.4f} "
          f"= the mean of yours: {cross_entropy(logits, targets).mean():.4f}")

# %% [markdown]
# Both compute from the logits, so they agree; yours accepts any integer dtype as targets,
# PyTorch only `torch.long` (and bytes). The trap of `F.cross_entropy` is what it is given:
# it applies log-softmax itself, so handing it **probabilities** (the output of a softmax)
# gives a plausible-looking number that is simply wrong. And the gradient: PyTorch's autograd
# through `log(softmax)` meets the `-inf · 0` of section 8, while from the logits it is finite.

# %%
if torch:
    try:
        F.cross_entropy(logits_t, targets_t.int())
    except RuntimeError as error:
        print("int32 targets:", error)
    probabilities = torch.softmax(logits_t, dim=-1)
    print("F.cross_entropy(softmax(x), t), probabilities by mistake:",
          F.cross_entropy(probabilities, targets_t, reduction="none").numpy())
    confident = torch.tensor([200.0, 0.0], requires_grad=True)  # float32, target 1: section 8's mistake
    (-torch.log(torch.softmax(confident, dim=-1))[1]).backward()
    print("float32 gradient through log(softmax([200, 0]))[1]:", confident.grad.numpy())
    confident.grad = None
    F.cross_entropy(confident[None], torch.tensor([1])).backward()
    print("float32 gradient of F.cross_entropy([200, 0], 1):   ", confident.grad.numpy())

# %% [markdown]
# ## What carries forward
#
# - Never take the log of a weight: a weight that underflows to 0 has lost its log-weight for
#   good. Stay in the log domain: `log_softmax(x) = x - LSE(x)`, computed as
#   `(x - m) - log(sum(exp(x - m)))`.
# - `LSE(x) = m + log(sum(exp(x - m)))` with `m` each row's max: the sum lies between 1 and n,
#   so nothing overflows or vanishes. Unlike softmax, the shift does not cancel: add `m` back.
# - Cross-entropy is computed from the logits, `-log_softmax(row)[target]`, one loss per row;
#   the training loss is their mean. PyTorch's `F.cross_entropy` takes logits too, and
#   averages unless told `reduction="none"`.
#
# The next lesson differentiates softmax (its Jacobian, and the gradient of this lesson's
# loss); lesson 10 computes it in one pass over a long row, as FlashAttention does, with a
# running max that plays exactly the role of `m` here.
#
# How accurate are these formulas, and how would you measure it? The optional appendix below
# answers that.

# %% [markdown]
# ## Appendix (optional): measuring in ulps
#
# This appendix is optional: the lesson is complete without it, and nothing in it is graded.
# It adds a way to measure how accurate the formulas of this lesson are, in *units in the last
# place* against 60-digit arithmetic, and shows which correct-looking formula loses 256 ulps.
#
# "No `inf` and no `nan`" is not the same as "accurate". To measure accuracy we need the
# true answer, and a way to count how far off a float is.
#
# - **The true answer.** `mpmath` computes with as many digits as we ask for; at 60 significant
#   digits, its LSE of our (exactly representable) inputs is right far beyond float64's 16.
# - **Units in the last place.** Floats are spaced unevenly: near 1000 consecutive float64
#   numbers are `1.1e-13` apart, near 1 only `2.2e-16` (float32: `6.1e-05` and `1.2e-07`).
#   `np.spacing(y)` gives that gap, one *ulp* at `y`. An error of 0.5 ulp is the best any
#   float can do (correct rounding); a few ulps is excellent.

# %%
for y in (1.0, 1000.0):
    print(f"one ulp at {y:g}: float64 {np.spacing(y):.2g}, float32 {np.spacing(np.float32(y)):.2g}")

# %% [markdown]
# We count errors in ulps of `max(|y|, 1)`: for the LSE values here that is simply ulps of `y`;
# for a log-weight very close to 0 (the top choice of a row whose other scores are far below)
# it counts the error against 1, which is what matters when the log-weight is added to others.
#
# **What to expect.** Blanchard, Higham & Higham (*Accurately computing the log-sum-exp and
# softmax functions*, IMA Journal of Numerical Analysis 41(4), 2021) analyse these formulas.
# The shifted LSE is as accurate as the unshifted one wherever the unshifted one does not
# overflow: both error bounds are a modest multiple of the unit roundoff, scaled by the
# function's condition number (at most `max|x| / |LSE(x)|`: small unless LSE is close to 0).
# So we expect a few ulps from the shifted LSE, and outright failure (`inf`, `-inf`, `nan`)
# from the naive one on large or widely spread scores. A log-weight is another matter: it is
# a **difference**, `x_i - LSE(x)`, and how it is computed decides its accuracy.

# %%
mpmath.mp.dps = 60


def exact_logsumexp(rows):
    """LSE of each row with 60 significant digits; the inputs are taken exactly as stored."""
    return [mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(float(v))) for v in row)) for row in rows]


def ulp_errors(computed, exact, dtype):
    """|computed - exact| in units in the last place of max(|exact|, 1), at the precision of dtype."""
    computed = np.asarray(computed, dtype=np.float64).ravel()
    exact = list(np.ravel(np.asarray(exact, dtype=object)))
    nearest = np.abs(np.array([float(e) for e in exact]))
    unit = np.spacing(np.maximum(nearest, 1.0).astype(dtype)).astype(np.float64)
    error = [float(abs(mpmath.mpf(float(c)) - e)) if np.isfinite(c) else np.inf for c, e in zip(computed, exact)]
    return np.array(error) / unit


print("one example, [1000, 1001]:")
print("  mpmath:       ", mpmath.nstr(exact_logsumexp([[1000.0, 1001.0]])[0], 25))
print("  logsumexp:    ", repr(logsumexp([1000.0, 1001.0])))
print(f"  error: {ulp_errors([logsumexp([1000.0, 1001.0])], exact_logsumexp([[1000.0, 1001.0]]), np.float64)[0]:.2f} ulp")

# %% [markdown]
# Now four families of 200 random rows of 10 scores, in float32 and in float64:
#
# | family | scores | what it tests |
# |---|---|---|
# | ordinary | normal, mean 0, spread 1 | everyday scores |
# | near +1000 | the same plus 1000 | huge scores: `exp` overflows |
# | near -1000 | the same minus 1000 | very negative scores: `exp` underflows |
# | widely spread | normal, spread 300 | weights so small they underflow |
#
# For each we compare the naive LSE `log(sum(exp(x)))` with your `logsumexp`, and three
# log-softmaxes: `log(softmax(x))` (built on lesson 05's *stable* softmax), `x - LSE(x)` (the
# scores minus your `logsumexp`, one of section 7's two ways) and your `log_softmax`.
#
# The table shows the largest error of each formula in each family, or, when some results
# came out `inf`, `-inf` or `nan`, the share of results that did ("fails").
#
# **Predict.** The shifted form `(x - m) - log(sum(exp(x - m)))` stays within a few ulps.
# Near ±1000, does `x - LSE(x)` too? And which formulas fail, and on which families? Does
# `log(softmax)` fail on the huge scores, now that the softmax is stable?

# %%
# Your guess (not graded):

# %%
families = {"ordinary": (1.0, 0.0), "near +1000": (1.0, 1000.0), "near -1000": (1.0, -1000.0),
            "widely spread": (300.0, 0.0)}
methods = ["naive LSE", "your logsumexp", "log(softmax)", "x - LSE(x)", "your log_softmax"]
rng = np.random.default_rng(8)
results = {}  # (dtype name, family, method) -> array of errors in ulps
for dtype in (np.float32, np.float64):
    for family, (spread, offset) in families.items():
        x = (rng.normal(size=(200, 10)) * spread + offset).astype(dtype)
        lse = exact_logsumexp(x)
        exact_log_weights = [[mpmath.mpf(float(v)) - y for v in row] for row, y in zip(x, lse)]
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            computed = {"naive LSE": naive_logsumexp(x), "your logsumexp": logsumexp(x),
                        "log(softmax)": log_of_softmax(x), "x - LSE(x)": x - logsumexp(x)[..., np.newaxis],
                        "your log_softmax": log_softmax(x)}
        for method, values in computed.items():
            exact = lse if method in ("naive LSE", "your logsumexp") else exact_log_weights
            results[dtype.__name__, family, method] = ulp_errors(values, exact, dtype)

print(f"{'dtype':8} {'family':14}" + "".join(f"{m:>18}" for m in methods))
for (name, family) in dict.fromkeys(key[:2] for key in results):
    cells = []
    for method in methods:
        errors = results[name, family, method]
        broken = ~np.isfinite(errors)
        cells.append(f"fails {broken.mean():4.0%}" if broken.any() else f"max {errors.max():.2f} ulp")
    print(f"{name:8} {family:14}" + "".join(f"{c:>18}" for c in cells))
print(", ".join(f"{dtype.__name__}: exp overflows above {np.log(np.finfo(dtype).max.astype(np.float64)):.2f}"
                for dtype in (np.float32, np.float64)))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# No: near ±1000 `x - LSE(x)` is about 256 ulps off, the shifted form under 2. Read the table
# column by column:
#
# - **Naive LSE** is excellent on ordinary scores (under an ulp: the unshifted formula is fine
#   when it does not overflow, as the paper says) and fails on every row near ±1000, in both
#   precisions. On widely spread rows it fails whenever some score passes 88.72 (float32) or
#   709.78 (float64), where `exp` overflows.
# - **Your shifted `logsumexp`** stays within about 1 ulp everywhere, and within half an ulp
#   on large scores, where only the final rounding of `m + log(...)` counts: close to the
#   best a float can do.
# - **`log(softmax)`** survives large and very negative scores, because lesson 05's shift makes
#   the weights themselves fine. It fails on widely spread rows: a weight below half the
#   smallest positive float (`exp(-103.97)` in float32, `exp(-745.13)` in float64: section 2)
#   is 0, and its log is `-inf`.
# - **`x - LSE(x)`** never fails, and is as good as the rest on ordinary scores, but wherever
#   the LSE is large (near ±1000, and in the hundreds on widely spread rows) it is up to about
#   **256 ulps** off, in both precisions. The next cell shows why.
# - **The shifted form, `(x - m) - log(sum(exp(x - m)))`**, which the solution's
#   `log_softmax` uses, stays within 1.68 ulps everywhere: "a few ulps" holds for
#   this form of log-softmax, not for every correct one. If your `log_softmax` subtracts
#   your `logsumexp`, its column is the `x - LSE(x)` one.
#
#
# </details>

# %%
pair = np.array([1000.0, 1000.0])  # two equal scores: each true log-weight is -log 2
lse_float = logsumexp(pair)
lse_error = float(mpmath.mpf(float(lse_float)) - exact_logsumexp([pair])[0])
print(f"LSE of [1000, 1000] as a float: {lse_float!r}, off by {lse_error:.3g} "
      f"= {abs(lse_error) / np.spacing(1000.0):.2f} ulp at 1000")
print(f"half an ulp at 1000 is {np.spacing(1000.0) / 2:.3g} = {np.spacing(1000.0) / 2 / np.spacing(1.0):.0f} ulps at 1")
true_log_weights = [-mpmath.log(2)] * 2
print(f"x - LSE(x):              {pair - lse_float}, "
      f"{ulp_errors(pair - lse_float, true_log_weights, np.float64).max():.1f} ulps off")
shifted = pair - pair.max()
print(f"(x - m) - log(sum(...)): {shifted - np.log(np.exp(shifted).sum())}, "
      f"{ulp_errors(shifted - np.log(np.exp(shifted).sum()), true_log_weights, np.float64).max():.1f} ulps off")

# %% [markdown]
# `LSE(x) = m + log(sum(exp(x - m)))` is a number near 1000, and storing it as a float costs
# up to half an ulp **at 1000** (here 0.48 ulp): nothing for the LSE itself. But `x - LSE(x)`
# then subtracts two numbers near 1000 to get one near -0.69, and that subtraction keeps the
# LSE's rounding error whole: half an ulp at 1000 is 256 ulps at 1 (in float32 too: both
# spacings scale together). The shifted form never puts 1000 into a rounded sum: `x - m` is
# exact here (two floats within a factor 2 of each other subtract exactly) and
# `log(sum(exp(x - m)))` is a small number, rounded at its own small scale.
#
# The same care applies to the weights. `exp(log_softmax(x))` gives weights, but a log-weight
# off by `d` gives a weight off by a factor `exp(d)`, about `1 + d`: Blanchard, Higham & Higham
# warn that this form, `exp(x - LSE(x))`, is the less accurate way to compute softmax, and
# recommend dividing, as lesson 05's stable softmax does. The true weights, again for 200 rows
# near +1000, error in ulps of each weight:

# %%
near = np.random.default_rng(11).normal(size=(200, 10)) + 1000.0
exact_weights = [[mpmath.exp(mpmath.mpf(float(v)) - y) for v in row] for row, y in zip(near, exact_logsumexp(near))]


def weight_errors(weights):
    """The largest |computed - exact| over all weights, in ulps of each exact weight (float64)."""
    flat_exact = [w for row in exact_weights for w in row]
    return max(float(abs(mpmath.mpf(float(c)) - w)) / np.spacing(float(w)) for c, w in zip(np.ravel(weights), flat_exact))


for label, weights in (("stable_softmax (division)", stable_softmax(near)),
                       ("exp(your log_softmax)", np.exp(log_softmax(near))),
                       ("exp(x - LSE(x))", np.exp(near - logsumexp(near)[..., np.newaxis]))):
    print(f"{label:26} largest error {weight_errors(weights):6.2f} ulps")

# %% [markdown]
# Dividing keeps every weight within a few ulps; `exp(x - LSE(x))` loses about 500 (the 256
# ulps of its log-weights, counted now against weights below 1, whose ulps are smaller).
# Exponentiating the shifted log-weights is close to dividing, yet still a little worse. So:
# log-weights for losses and log-probabilities, division for weights.

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
ceiling = 1e4
width = 0.16
styles = {"naive LSE": (PALETTE[3], "//"), "your logsumexp": (PALETTE[0], ""),
          "log(softmax)": (PALETTE[1], "\\\\"), "x - LSE(x)": (PALETTE[4], "xx"), "your log_softmax": (PALETTE[2], "")}
for ax, name in zip(axes, ("float32", "float64")):
    positions = np.arange(len(families))
    for k, method in enumerate(methods):
        colour, hatch = styles[method]
        worst = np.array([results[name, family, method].max() for family in families])
        heights = np.where(np.isfinite(worst), np.maximum(worst, 1e-2), ceiling)
        bars = ax.bar(positions + (k - 2) * width, heights, width=width, color=colour, hatch=hatch,
                      edgecolor="black", linewidth=0.5, label=method)
        for bar, value in zip(bars, worst):
            if not np.isfinite(value):
                ax.text(bar.get_x() + bar.get_width() / 2, ceiling * 1.1, "fails", rotation=90,
                        ha="center", va="bottom", fontsize=8)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yscale("log")
    ax.set(title=f"{name}: largest error over 200 rows of 10 scores", ylim=(1e-2, ceiling * 30),
           xticks=positions, xticklabels=list(families), xlabel="family of random scores")
axes[0].set_ylabel("largest error (ulps; 'fails' = inf, -inf or nan)")
handles, names = axes[0].get_legend_handles_labels()
fig.legend(handles, names, loc="upper center", ncol=5, bbox_to_anchor=(0.5, 1.07), frameon=False)
show(fig, alt="Two bar charts, float32 and float64, of the largest error in ulps (log scale) of five "
              "formulas over four families of random scores: ordinary, near +1000, near -1000 and widely "
              "spread. The naive log-sum-exp is below 1 ulp on ordinary scores and fails (inf or -inf) on the "
              "other three families; log of the stable softmax is below 3 ulps except on widely spread scores, "
              "where it fails with -inf. The scores minus their log-sum-exp reach about 256 ulps near +1000 and "
              "-1000. The shifted logsumexp stays within about 1 ulp and the shifted log_softmax within about "
              "2 ulps in every family and both precisions; a dotted line marks 1 ulp.")

# %% [markdown]
# One fine point for the curious. For `[200, 0]` the top log-weight is `-log(1 + e^-200)`,
# about `-1.4e-87`. `(x - m) - log(sum(exp(x - m)))` computes `0 - log(1.0) = 0`: exact against
# 1 (the scale we measured on), but every digit of `-1.4e-87` is lost. The paper's remedy is
# `log1p`, which computes `log(1 + s)` accurately for tiny `s`: leave the max's own term (the 1)
# out of the sum.

# %%
row = np.array([200.0, 0.0])
others = np.exp(row[1:] - row[0]).sum()  # every term but the max's own exp(0) = 1
print("true top log-weight:    ", mpmath.nstr(mpmath.mpf(0) - mpmath.log1p(mpmath.exp(-200)), 6))
print("log_softmax gives:      ", log_softmax(row)[0])
print("-log1p(sum of the rest):", -np.log1p(others))

# %% [markdown]
# For a loss or a log-weight that is later added to others, an error of `1e-87` against 1 is
# nothing; both forms pass the checks. It matters when the tiny number itself is the answer.
