# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 05 — Stable softmax: subtract each row's max before exp
#
# **By the end of this lesson you will be able to**
# - show the two inputs where the plain `exp / sum` recipe returns `nan`, and say why
#   (overflow for huge scores, `0 / 0` for very negative ones);
# - explain why subtracting one constant from a row of scores leaves its softmax unchanged;
# - write `stable_softmax`, which shifts **each row by its own max**, accepts a temperature,
#   keeps float32 as float32 and never warns;
# - say why a batch must be shifted and normalised row by row, not as one big matrix.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess *before* you
# run them: the surprise is where the learning is. Three predictions are graded (a point
# each): write the guess in the cell under the question and run it and its check; the cell
# that computes the answer commits it before it shows the answer, and a guess changed
# afterwards earns nothing. Each explanation is folded under the answer: open it once you have
# answered.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt

from grader.learner.checks import check_call, check_generated, check_quiet, check_values, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.stubs import point_at_stubs

np.set_printoptions(precision=4, suppress=True)
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# ## 1. The softmax we have so far
#
# Lesson 03 turned a row of scores into weights: take `exp` of every score (positive
# evidence), then divide by the total evidence of the row. Here is that recipe again, with
# no extra care, so that we can push it until it breaks.

# %%
def naive_softmax(scores):
    """exp / sum of exp over the last axis, with no shift (lesson 03's recipe)."""
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / evidence.sum(axis=-1, keepdims=True)


print("naive softmax of [1, 2]:", naive_softmax([1.0, 2.0]))

# %% [markdown]
# Score 2 is one unit above score 1, so it has `e ≈ 2.718` times more evidence and gets
# `e / (1 + e) = 0.7311` of the weight.

# %% [markdown]
# ## 2. What do huge scores do?
#
# Scores as large as 1000 are easy to reach: lesson 04 divided `[2, 0, -1]` by `T = 0.002`
# and got `[1000, 0, -500]`. And, as this section ends by showing, the narrower number
# formats that models run in overflow at far smaller scores.
#
# **Predict (graded).** `[1000, 1001]` is `[1, 2]` plus 999. The gap between the two scores
# is still 1. What will `naive_softmax` return? Write "a" for `[0.2689, 0.7311]` as for
# `[1, 2]`, "b" for `[0, 1]`, "c" for weights that are not numbers at all (`nan`).
#
# (The cell after your guess prints a warning on purpose.)

# %% nbgrader="guess" grade_id="guess_naive_overflow" prediction="predict_naive_overflow"
guess_naive_overflow = ""  # your guess: "a", "b" or "c"
### BEGIN SOLUTION
guess_naive_overflow = "c"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_naive_overflow" points=1
check_guess("predict_naive_overflow", guess_naive_overflow, choices=["a", "b", "c"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_naive_overflow", guess_naive_overflow, "e819e10d4e2ac7bc")
### END HIDDEN TESTS

# %% tags=["expect-warning"]
reveal("predict_naive_overflow", guess_naive_overflow)
print("naive softmax of [1000, 1001]:", naive_softmax([1000.0, 1001.0]))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# "c": both weights are `nan`. `exp(1000)` is too large for a float64, so it becomes `inf`,
# the total is `inf`, and `inf / inf` has no value. The cells below show how large
# `exp(1000)` really is, and where each number format gives up.
#
# </details>

# %% [markdown]
# NumPy warned twice. The first warning, **overflow encountered in exp**, is about the size
# of `exp(1000)`. Python's `decimal` module computes with as many digits as we ask for and
# no largest number, so it can tell us the true value:

# %%
from decimal import Decimal

print(f"exp(1000) = {Decimal(1000).exp():.3e}")
print(f"largest float64 = {np.finfo(np.float64).max:.3e}")

# %% [markdown]
# `exp(1000)` is about `2 × 10^434`, far beyond the largest float64 (about `1.8 × 10^308`),
# so it became `inf`. Then **invalid value encountered in divide**: each weight is now
# `inf / inf`, which has no value, so it is `nan`. Both weights are lost, although the answer
# should plainly be the same as for `[1, 2]`.
#
# How large may a score be before `exp` overflows? `log` of the largest number of a format
# tells us. NumPy knows float64, float32 and float16 (half precision). It has no
# **bfloat16**, the 16-bit format many models are trained in, but its largest number follows
# from its layout: 8 exponent bits as in float32, and 7 fraction bits, so
# `(2 - 2^-7) · 2^127`. The same rule with float16's 5 and 10 bits, `(2 - 2^-10) · 2^15`,
# gives NumPy's answer for float16, which checks the rule.

# %%
largest = {"float64": float(np.finfo(np.float64).max), "float32": float(np.finfo(np.float32).max),
           "bfloat16": (2 - 2.0**-7) * 2.0**127, "float16": float(np.finfo(np.float16).max)}
print("the layout rule gives float16's largest number:", (2 - 2.0**-10) * 2.0**15 == largest["float16"])
for name, top in largest.items():
    print(f"exp overflows {name:>8} above {np.log(top):.2f} (largest number {top:.4g})")
with np.errstate(over="ignore"):
    print("in float16: exp(11) =", np.exp(np.float16(11.0)).item(), "| exp(11.1) =", np.exp(np.float16(11.1)).item())

# %% [markdown]
# float32 overflows above a score of **88.72**, bfloat16 just below it (near 88.7: 88.72
# too, to two decimals), and float16 above **11.09**: in float16, `exp(11)` is still 59872
# and `exp(11.1)` is already `inf`. A score of 11 is not extreme at all: lesson 04's
# `[2, 0, -1]` at `T = 0.1` is already `[20, 0, -10]`. This is why the shift of this lesson
# matters today: models often run in float16 or bfloat16 to save memory and time, and
# frameworks then compute softmax in float32 anyway (PyTorch's automatic mixed precision on
# a GPU, for one, runs `softmax` in float32), shifted by the max as below.

# %% [markdown]
# ## 3. And very negative scores?
#
# **Predict.** Now `[-1000, -1001]`. `exp` of a very negative number is tiny but positive
# (lesson 02). What do you expect here?
#
# We silence NumPy's warning with `np.errstate` this time, so that only the numbers speak.

# %%
# Your guess (not graded):

# %%
tiny = np.array([-1000.0, -1001.0])
print("exp of the scores:", np.exp(tiny), "| their total:", np.exp(tiny).sum())
with np.errstate(invalid="ignore"):
    print("naive softmax of [-1000, -1001]:", naive_softmax(tiny))
print(f"exp(-1000) = {Decimal(-1000).exp():.3e}")
print(f"smallest positive float64 = {np.finfo(np.float64).smallest_subnormal:.3e}")

# %% [markdown]
# `exp(-1000)` is about `5 × 10^-435`, far below the smallest positive float64 (about `5 × 10^-324`),
# so it **underflows** to exactly 0. Every evidence value is 0, the total is 0, and each
# weight is `0 / 0 = nan`. The true answer is perfectly ordinary: the first score is one
# unit larger, so it should get 0.7311.

# %% [markdown]
# ## 4. What does shifting a row change?
#
# Subtract the same constant `c` from every score of a row. Each evidence value becomes
# `exp(s - c) = exp(s) · exp(-c)`: **every** numerator and the denominator (their sum) are
# multiplied by the same factor `exp(-c)`, and the factor cancels in the division.
#
# **Predict.** For the scores `[1, 2, 3]` and the shifts `c = 0, 3, -10, 100`, which of
# the printed numbers will change, and which will stay the same?

# %%
# Your guess (not graded):

# %%
scores = np.array([1.0, 2.0, 3.0])
for c in [0.0, 3.0, -10.0, 100.0]:
    shifted_evidence = np.exp(scores - c)
    weights = shifted_evidence / shifted_evidence.sum()
    shown = ", ".join(f"{v:.4g}" for v in shifted_evidence)
    print(f"c = {c:6.1f}: evidence [{shown}], factor exp(-c) = {np.exp(-c):.4g}, weights {weights}")

# %% [markdown]
# The evidence swings from about `10^-43` to about `4 × 10^5`: its **range** is all that moved.
# The weights `[0.0900, 0.2447, 0.6652]` do not change, up to rounding in float64's last digit.
# So we are free to choose any shift we like.
#
# The useful choice is **the row's maximum**. After subtracting it, the largest score is
# exactly 0 and every other score is negative, so
# - every evidence value is at most `exp(0) = 1`: nothing can overflow;
# - the largest evidence value is exactly 1, so the total is at least 1: no `0 / 0`.

# %% [markdown]
# ## 5. Shift by the max
#
# **Predict.** After subtracting its max, what does `[1000, 1001]` look like? And `[-1000, -1001]`?

# %%
# Your guess (not graded):

# %%
for row in ([1000.0, 1001.0], [-1000.0, -1001.0]):
    shifted = np.array(row) - max(row)
    evidence = np.exp(shifted)
    label = f"[{row[0]:.0f}, {row[1]:.0f}]"
    print(f"{label}: shifted {shifted}, evidence {evidence}")
    print(f"stable softmax of {label}: {evidence / evidence.sum()}")

# %% [markdown]
# `[1000, 1001]` becomes `[-1, 0]`, the same row as `[1, 2]` shifted by 2, and gives
# **[0.2689, 0.7311]**. `[-1000, -1001]` becomes `[0, -1]` and gives **[0.7311, 0.2689]**.
# No warning, no `nan`, and the answers we expected all along.

# %% [markdown]
# ## 6. A batch: whose max?
#
# In attention each query (each row of the scores matrix) has its own distribution over the
# source positions. Take two rows with very different levels: `[[1001, 1002], [3, 4]]`.
# Each row has a gap of 1 between its two scores, so each row should be `[0.2689, 0.7311]`.
#
# **Predict (graded).** A tempting shortcut is to subtract the largest score of the *whole
# matrix*, `1002`, from everything. What happens to the second row? Write "a" if it still
# gets `[0.2689, 0.7311]`, "b" for `[0, 0]`, "c" for `nan`.

# %% nbgrader="guess" grade_id="guess_global_max" prediction="predict_global_max"
guess_global_max = ""  # your guess: "a", "b" or "c"
### BEGIN SOLUTION
guess_global_max = "c"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_global_max" points=1
check_guess("predict_global_max", guess_global_max, choices=["a", "b", "c"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_global_max", guess_global_max, "4f86fcb061969be7")
### END HIDDEN TESTS

# %%
reveal("predict_global_max", guess_global_max)
batch = np.array([[1001.0, 1002.0], [3.0, 4.0]])
with np.errstate(invalid="ignore"):
    global_evidence = np.exp(batch - batch.max())
    global_weights = global_evidence / global_evidence.sum(axis=-1, keepdims=True)
print("shifted by the global max 1002:")
print(batch - batch.max())
print("weights, row 1:", global_weights[0])
print("weights, row 2:", global_weights[1])

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# "c". Row 2 became `[-999, -998]`: its evidence underflows to 0 and its weights are
# `0 / 0 = nan`, exactly the failure of section 3.
#
# </details>

# %% [markdown]
# One global shift cannot suit rows whose levels differ by a thousand. The fix is for you to write in the exercise below: every row needs a max of its
# own (here 1002 for row 1 and 4 for row 2), and each row must be shifted by its own max only.
#
# **Think** before you write it: a batch of shape `(2, 2)` has two row maxima. In which shape
# must you hold them so that NumPy's broadcasting subtracts each one from its own row, and
# not from a column? (Lesson 03 met the same question for the row totals.)

# %% [markdown]
# ## 7. Exercise: `stable_softmax`
#
# Write `stable_softmax(scores, temperature=1.0)`: the softmax of `scores / temperature`
# over the **last axis**, computed without overflow or `0 / 0`:
#
# - divide the scores by `temperature` (lesson 04; here you may assume `temperature > 0`);
# - subtract **each row's own max**, then `exp`, then divide by each row's total;
# - work for a single row (1-D), a batch of rows (2-D) and any number of leading axes;
# - accept lists and integer arrays (they become float64);
# - **float32 stays float32**: a float32 input must give a float32 output;
# - never change the caller's array, and never emit a warning.
#
# One trap for the float32 rule hides in `np.asarray(scores, dtype=float)`. **Predict** the
# dtype it gives for float32 scores, then run:

# %%
# Your guess (not graded):

# %%
scores32 = np.array([1000.0, 1001.0], dtype=np.float32)
print("np.asarray(float32 scores, dtype=float) has dtype", np.asarray(scores32, dtype=float).dtype)
print("np.asarray(float32 scores) has dtype", np.asarray(scores32).dtype)

# %% [markdown]
# So convert only input that is not floating already, and leave a float input's dtype as it
# is. A second trap: when `scores` is already a float array, `np.asarray` returns that very
# array, not a copy, so any in-place change (`-=`, `/=`) would change the caller's scores.
# Compute each step into a new array instead.
#
# Hint: write the steps in the order a careful person would do them by hand for one row,
# then ask, step by step, which axis each one works along and what shape its result needs.

# %% nbgrader="solution" grade_id="stable_softmax"
def stable_softmax(scores, temperature=1.0):
    """Softmax of scores / temperature over the last axis, each row shifted by its own max."""
    ### BEGIN SOLUTION
    x = np.asarray(scores)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    z = x / temperature
    z = z - z.max(axis=-1, keepdims=True)
    evidence = np.exp(z)
    return evidence / evidence.sum(axis=-1, keepdims=True)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_stable_softmax_public" points=2 function="stable_softmax"
_low, _high = 0.2689414213699951, 0.7310585786300049
check_values(stable_softmax, np.array([1.0, 2.0]), expect=[_low, _high])
check_values(stable_softmax, np.array([1000.0, 1001.0]), expect=[_low, _high])
check_values(stable_softmax, np.array([-1000.0, -1001.0]), expect=[_high, _low])
check_values(stable_softmax, np.array([[1001.0, 1002.0], [3.0, 4.0]]), expect=[[_low, _high], [_low, _high]])
check_values(stable_softmax, np.array([1000.0, 1001.0], dtype=np.float32), expect=[_low, _high])
# scores / T, the scores left alone
check_values(stable_softmax, np.array([2.0, 4.0]), temperature=2, expect=[_low, _high])
check_values(stable_softmax, np.array([0.0, 2000.0]), expect=[0.0, 1.0])  # one score far above the others
# exp of each score is finite, their total is not
check_values(stable_softmax, np.array([709.5, 709.5]), expect=[0.5, 0.5])
check_values(stable_softmax, np.array([[1.0, 2.0]]), expect=[[_low, _high]])  # a batch of one row stays a batch
# a batch of shape (2, 3, 4): 6 rows
check_values(stable_softmax, np.zeros((2, 3, 4)), expect=np.full((2, 3, 4), 0.25))
passed("stable_softmax")

# %% nbgrader="tests" grade_id="test_stable_softmax_extremes" points=2 function="stable_softmax"
### BEGIN HIDDEN TESTS
# property extremes: finite scores of any magnitude up to about 1e300 (rows far apart in one batch, float32 near its limit) and -inf entries beside finite ones give the right weights, never nan
def _expected(scores, temperature=1.0):
    """The weights computed in float64, each row shifted by its own max, in the dtype the contract promises."""
    with np.errstate(all="ignore"):
        x = np.asarray(scores)
        z = x.astype(np.float64) / temperature
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype if x.dtype.kind == "f" else np.float64)


check_values(stable_softmax, np.array([-800.0, 0.0]), expect=[0.0, 1.0])
check_values(stable_softmax, np.array([1e4, 1e4 + 1, 1e4 - 1]), expect=_expected([-1.0, 0.0, -2.0]))
check_values(stable_softmax, np.array([-1e4, -1e4 - 2]), expect=_expected([0.0, -2.0]))
check_values(stable_softmax, np.array([1000.0, -1000.0, 0.0]), expect=[1.0, 0.0, 0.0])
check_values(stable_softmax, np.array([709.0, 709.0, 709.0]), expect=[1 / 3, 1 / 3, 1 / 3])
check_values(stable_softmax, np.array([-740.0, -741.0]), expect=_expected([1.0, 0.0]))
check_values(stable_softmax, np.array([1e300, 0.0, -1e300]), expect=[1.0, 0.0, 0.0])
check_values(stable_softmax, np.array([-1e300, -5e299]), expect=[0.0, 1.0])
_far = np.array([[1e300, 0.0, -1e300], [1.0, 2.0, 3.0], [-1e300, -5e299, -1e300],
                 [5e5 + 1, 5e5, 5e5 - 1], [-1e6 - 2, -1e6, -1e6 - 1]])
check_values(stable_softmax, _far, expect=np.array([[1.0, 0.0, 0.0], _expected([1.0, 2.0, 3.0]), [0.0, 1.0, 0.0],
                                                  _expected([1.0, 0.0, -1.0]), _expected([-2.0, 0.0, -1.0])]))
check_values(stable_softmax, np.array([[1e300, -1e300], [-1e300, 1e300]]), temperature=0.5, expect=[[1.0, 0.0], [0.0, 1.0]])
check_values(stable_softmax, np.array([-np.inf, 0.0, 1.0]), expect=[0.0, *_expected([0.0, 1.0])])
check_values(stable_softmax, np.array([[-np.inf, 5.0, -np.inf], [2.0, -np.inf, 1e300]]), expect=[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
check_values(stable_softmax, np.array([3.0, -np.inf, 1.0]), temperature=2.0, expect=[*_expected([1.5, 0.5])[:1], 0.0, *_expected([1.5, 0.5])[1:]])
check_values(stable_softmax, np.array([1e38, 0.0, -1e38], dtype=np.float32), expect=[1.0, 0.0, 0.0])
check_values(stable_softmax, np.array([[80.0, 81.0], [-1e4, -1e4 - 1]], dtype=np.float32),
           expect=_expected(np.array([[0.0, 1.0], [1.0, 0.0]], dtype=np.float32)))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_stable_softmax_rows" points=1 function="stable_softmax"
### BEGIN HIDDEN TESTS
# property rows: every row is shifted by its own max and divided by its own total: rows of a batch never compete
# property unchanged: never changes the caller's array (float64 or float32, with or without a temperature)
def _rowwise(x):
    _ev = np.exp(x - x.max(axis=-1, keepdims=True))
    return _ev / _ev.sum(axis=-1, keepdims=True)


_rows = np.array([[1001.0, 1002.0, 1000.0], [3.0, 4.0, 2.0], [-1000.0, -999.0, -1001.0]])
check_values(stable_softmax, _rows, expect=_rowwise(_rows))
_mixed = np.array([[0.0, 1.0, 2.0, 3.0], [3.0, 0.0, 1.0, -2.0]])
check_values(stable_softmax, _mixed, expect=_rowwise(_mixed))
_base = np.array([0.5, -1.0, 2.0, 0.0])
_batch = _base + np.array([[0.0, 900.0, -900.0], [50.0, -2000.0, 3000.0]])[:, :, None]
check_values(stable_softmax, _batch, expect=np.broadcast_to(_rowwise(_base), _batch.shape))
check_values(stable_softmax, _mixed.astype(np.float32), temperature=0.5, expect=_rowwise(_mixed / 0.5))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_stable_softmax_shapes" points=1 function="stable_softmax"
### BEGIN HIDDEN TESTS
# property shapes: the answer has the scores' shape, whatever the leading axes: (n,), (1, n), (k, 1, n), (n, 1), (1, 1, n), four axes
_q = np.exp(np.array([-2.0, 0.0, -1.0]))
_q = _q / _q.sum()
check_values(stable_softmax, np.array([[7.0, 9.0, 8.0]]), expect=[_q])
check_values(stable_softmax, np.array([[[1.0, 3.0, 2.0]], [[-4.0, -2.0, -3.0]], [[500.0, 502.0, 501.0]]]),
           expect=[[_q], [_q], [_q]])
check_values(stable_softmax, np.array([[5.0], [-3.0], [1e300]]), expect=[[1.0], [1.0], [1.0]])
check_values(stable_softmax, np.array([4.0]), expect=[1.0])
check_values(stable_softmax, np.array([[[1.0, 3.0, 2.0]]]), expect=[[_q]])
_four = np.array([1.0, 3.0, 2.0]) + np.arange(12.0).reshape(2, 1, 3, 2)[..., :1] * 100
check_values(stable_softmax, _four, expect=np.broadcast_to(_q, _four.shape))
check_values(stable_softmax, np.array([[[2.0, 4.0, 3.0]], [[0.0, 2.0, 1.0]]], dtype=np.float32), temperature=1.0,
           expect=[[_q], [_q]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_stable_softmax_temperature" points=1 function="stable_softmax"
### BEGIN HIDDEN TESTS
# property temperature: the scores are divided by the temperature before the softmax (T < 1 sharpens, T > 1 flattens)
# property unchanged
def _softmax_of(z):
    _ev = np.exp(np.asarray(z, dtype=np.float64) - np.max(z, axis=-1, keepdims=True))
    return _ev / _ev.sum(axis=-1, keepdims=True)


_abc = np.array([2.0, 0.0, -1.0])
check_values(stable_softmax, _abc, expect=_softmax_of(_abc))
check_values(stable_softmax, _abc, temperature=1.0, expect=_softmax_of(_abc))
for _t in (0.5, 0.3, 2.0):
    check_values(stable_softmax, _abc, temperature=_t, expect=_softmax_of(np.divide(_abc, _t)))
_hot = np.array([[1000.0, 1001.0], [3.0, 4.0], [-1000.0, -1004.0]])
for _t in (0.25, 4.0):
    check_values(stable_softmax, _hot, temperature=_t, expect=_softmax_of(_hot / _t))
check_values(stable_softmax, np.array([1.0, 2.0, 4.0]), 0.5, expect=_softmax_of([2.0, 4.0, 8.0]))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_stable_softmax_shift" points=1 function="stable_softmax"
### BEGIN HIDDEN TESTS
# property shift: adding one constant to every score of a row (a different one for each row, up to about 5e5 either way) leaves the row's weights as they were
_base = np.array([[0.5, -1.25, 2.0, 0.0], [3.0, 3.0, -2.5, 1.0], [-0.125, 0.25, 0.0, -4.0]])
for _c in ([[0.0], [2.0 ** 19], [-2.0 ** 19]], [[3.0 * 2 ** 17], [-1000.0], [745.0]]):
    check_values(stable_softmax, _base + np.array(_c), expect=_expected(_base))
check_values(stable_softmax, _base + np.array([[-2.0 ** 18], [0.0], [2.0 ** 18]]), temperature=0.5,
           expect=_expected(_base / 0.5))
_c32 = np.array([[1024.0], [-1024.0], [96.0]])
check_values(stable_softmax, (_base + _c32).astype(np.float32), expect=_expected(_base.astype(np.float32)))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_stable_softmax_permutation" points=1 function="stable_softmax"
### BEGIN HIDDEN TESTS
# property permutation: reordering the choices of a row reorders its weights the same way
_row = np.array([0.0, 800.0, -5.0, 2.0])
_orders = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 1, 0], [3, 2, 0, 1], [1, 2, 3, 0], [2, 0, 1, 3]])
check_values(stable_softmax, _row[_orders], expect=_expected(_row)[_orders])
_mid = np.array([1.5, -0.5, 3.0, 0.25, 2.0])
check_values(stable_softmax, _mid[[4, 2, 0, 3, 1]], expect=_expected(_mid)[[4, 2, 0, 3, 1]])
_three = np.array([[3.0, 1.0, 2.0], [1.0, 2.0, 3.0], [2.0, 3.0, 1.0]])
check_values(stable_softmax, _three, expect=_expected(_three))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_stable_softmax_generated" points=1 function="stable_softmax"
### BEGIN HIDDEN TESTS
# property value: equals softmax(scores / temperature) computed in float64, on inputs drawn at random: any leading axes, size-1 axes, magnitudes up to about 1e5, rows far apart, -inf entries, float64 and float32 arrays, several temperatures (int and list input: the details)
# property shapes
def _draw(rng, size):
    lead = tuple(int(d) for d in rng.integers(1, 4, size=int(rng.integers(0, 2 + size // 8))))
    shape = lead + (int(rng.integers(1, 3 + size // 3)),)
    kind = ("float64", "float32", "int", "list")[size % 4]
    top = 2.0 if kind == "float32" else min(1.0 + size / 5, 3.0)
    x = rng.normal(size=shape) * 10.0 ** rng.uniform(-1, top)
    x = x + rng.normal(size=lead + (1,)) * 10.0 ** rng.uniform(0, top + 2)  # rows far apart: up to ~1e5
    if kind == "int":
        x = np.round(x).astype(rng.choice([np.int64, np.int32]))
    elif rng.random() < 0.4:
        x[(rng.random(shape) < 0.3) & (x < x.max(axis=-1, keepdims=True))] = -np.inf
    temperature = float(rng.choice([1.0, 1.0, 0.5, 2.0, 0.25, 3.0]))
    if kind == "float32":
        return x.astype(np.float32), temperature
    return (x.tolist() if kind == "list" else x), temperature


def _draw_arrays(rng, size):
    """_draw's inputs, an int array or a list as the float64 array of its values: their type is a detail."""
    x, temperature = _draw(rng, size)
    x = np.asarray(x)
    return (x if x.dtype.kind == "f" else x.astype(np.float64)), temperature


check_generated(stable_softmax, _draw_arrays, reference=_expected, seed=5, examples=24, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_stable_softmax_details" points=1 function="stable_softmax"
# details: a list or integer scores give float64, float32 stays float32, and the answer is a NumPy array
check_call(stable_softmax, [1.0, 2.0], expect=[_low, _high], dtype=np.float64)
check_call(stable_softmax, [-1000, -1001], expect=[_high, _low], dtype=np.float64)
check_call(stable_softmax, [[1001, 1002], [3, 4]], expect=[[_low, _high], [_low, _high]], dtype=np.float64)
check_call(stable_softmax, np.array([1000.0, 1001.0], dtype=np.float32), expect=[_low, _high], dtype=np.float32)
check_call(stable_softmax, [0.0, 2000.0], expect=[0.0, 1.0], dtype=np.float64)
### BEGIN HIDDEN TESTS
# property quiet: never warns (no overflow, no 0 / 0, no invalid value), whatever the scores' magnitude or the temperature
# property dtype: lists and integer arrays give float64, float32 stays float32 (with any temperature), float64 stays float64, and the answer is always a NumPy array
# no warning, whatever the scores' magnitude or the temperature
check_quiet(stable_softmax, [1000.0, 1001.0])
check_quiet(stable_softmax, [-1000.0, -1001.0])
check_quiet(stable_softmax, [[1001.0, 1002.0], [3.0, 4.0]])
check_quiet(stable_softmax, np.array([[100.0, 99.0], [-100.0, -101.0]], dtype=np.float32))
check_quiet(stable_softmax, [[1000.0, 1001.0], [-1000.0, -1001.0]], temperature=0.5)
check_quiet(stable_softmax, [[1e300, 0.0, -1e300], [-1e300, -5e299, 0.0], [709.0, 709.0, 709.0]])
check_quiet(stable_softmax, np.array([[-np.inf, 0.0, 3.0], [2.0, -np.inf, -np.inf]]))
check_quiet(stable_softmax, np.array([1e38, 0.0, -1e38], dtype=np.float32))
check_quiet(stable_softmax, np.array([[-1e300, 1e300]]), temperature=0.25)
# float32 stays float32, with any temperature
_x32 = np.array([1000.0, 1001.0], dtype=np.float32)
check_call(stable_softmax, _x32, expect=[0.2689414213699951, 0.7310585786300049], dtype=np.float32)
check_call(stable_softmax, np.ones((2, 3, 4), dtype=np.float32), expect=np.full((2, 3, 4), 0.25), dtype=np.float32)
_e32 = np.exp(np.array([0.0, -100.0, -200.0]))
_e32b = np.exp(np.array([-2.0, -1.0, 0.0]))
check_call(stable_softmax, np.array([[100.0, 0.0, -100.0], [1.0, 2.0, 3.0]], dtype=np.float32),
           expect=[_e32 / _e32.sum(), _e32b / _e32b.sum()], dtype=np.float32)
_b32 = (np.array([1.0, 3.0, 2.0]) + np.array([[0.0], [-500.0], [4000.0]])).astype(np.float32)
_eb = np.exp(np.array([-2.0, 0.0, -1.0]))
check_call(stable_softmax, _b32, expect=np.broadcast_to(_eb / _eb.sum(), (3, 3)), dtype=np.float32)
_t32 = np.array([[2.0, 0.0, -1.0], [1.0, 1.0, 0.0]], dtype=np.float32)
for _t in (0.5, 2, 3.0):
    check_call(stable_softmax, _t32, temperature=_t, expect=_expected(_t32, _t), dtype=np.float32)
# lists, tuples and integer arrays of any width give float64
_q = np.exp(np.array([-2.0, 0.0, -1.0]))
_q = _q / _q.sum()
check_call(stable_softmax, [[1, 3, 2], [-3, -1, -2]], expect=[_q, _q], dtype=np.float64)
check_call(stable_softmax, np.array([1000, 1001]), expect=[0.2689414213699951, 0.7310585786300049],
           dtype=np.float64)
check_call(stable_softmax, np.array([[5, 7, 6], [0, 2, 1]]), expect=[_q, _q], dtype=np.float64)
check_call(stable_softmax, np.array([[5, 7, 6]], dtype=np.int32), temperature=1.0, expect=[_q], dtype=np.float64)
check_call(stable_softmax, (1.0, 3.0, 2.0), expect=_q, dtype=np.float64)
check_call(stable_softmax, [[[1, 3, 2]], [[4, 6, 5]]], temperature=2, expect=[[_expected([1, 3, 2], 2)]] * 2,
           dtype=np.float64)
check_call(stable_softmax, np.array([[7.0, 9.0, 8.0], [1.0, 3.0, 2.0]]), temperature=1.0, expect=[_q, _q],
           dtype=np.float64)
# the meaning cells' calls with their dtype pinned, or with lists and integers
check_call(stable_softmax, np.array([1e38, 0.0, -1e38], dtype=np.float32), expect=[1.0, 0.0, 0.0], dtype=np.float32)
check_call(stable_softmax, np.array([[80.0, 81.0], [-1e4, -1e4 - 1]], dtype=np.float32),
           expect=_expected(np.array([[0.0, 1.0], [1.0, 0.0]], dtype=np.float32)), dtype=np.float32)
check_call(stable_softmax, [-800.0, 0.0], expect=[0.0, 1.0], dtype=np.float64)
check_call(stable_softmax, [4.0], expect=[1.0], dtype=np.float64)
check_call(stable_softmax, [[[1, 3, 2]]], expect=[[_q]], dtype=np.float64)
check_call(stable_softmax, np.array([[[2.0, 4.0, 3.0]], [[0.0, 2.0, 1.0]]], dtype=np.float32), temperature=1.0,
           expect=[[_q], [_q]], dtype=np.float32)
check_call(stable_softmax, [2.0, 0.0, -1.0], temperature=0.5, expect=_softmax_of([4.0, 0.0, -2.0]), dtype=np.float64)
check_call(stable_softmax, (_base + _c32).astype(np.float32), expect=_expected(_base.astype(np.float32)),
           dtype=np.float32)
check_call(stable_softmax, [[3, 1, 2], [1, 2, 3], [2, 3, 1]], expect=_expected([[3, 1, 2], [1, 2, 3], [2, 3, 1]]),
           dtype=np.float64)
check_generated(stable_softmax, _draw, reference=_expected, seed=5, examples=24, same_dtype=True)
### END HIDDEN TESTS

# %% [markdown]
# With your function, the batch of section 6, shifted row by row:

# %%
print("row-wise shift, row 1:", stable_softmax(batch)[0])
print("row-wise shift, row 2:", stable_softmax(batch)[1])

# %% [markdown]
# Both rows give **[0.2689, 0.7311]**: each row was shifted by its own max (1002 and 4)
# and divided by its own total.
#
# ### The same in PyTorch
#
# PyTorch's `torch.softmax(x, dim=-1)` does this shift inside (`dim=-1` is PyTorch's name
# for NumPy's `axis=-1`, the last axis). On the scores that broke the plain recipe it
# agrees with your `stable_softmax`, although `torch.exp` of 1000 alone is `inf`, and in
# float16 it handles `[11, 12]`, whose `exp(12)` overflows:

# %%
from grader.learner.pytorch import torch_or_none

torch = torch_or_none()
if torch:
    for scores_shown in ([1000.0, 1001.0], [-1000.0, -1001.0], [[1001.0, 1002.0], [3.0, 4.0]]):
        theirs = torch.softmax(torch.tensor(scores_shown, dtype=torch.float64), dim=-1).numpy()
        ours = stable_softmax(np.array(scores_shown))
        print(f"{scores_shown}: torch.softmax {theirs.ravel()}, stable_softmax {ours.ravel()}, "
              f"largest difference {np.abs(theirs - ours).max():.1e}")
    print("torch.exp(1000.0) alone:", torch.exp(torch.tensor(1000.0, dtype=torch.float64)).item())
    scores16 = torch.tensor([11.0, 12.0], dtype=torch.float16)
    theirs16, ours16 = torch.softmax(scores16, dim=-1).numpy(), stable_softmax(scores16.numpy())
    print(f"float16: torch.exp {torch.exp(scores16).numpy()}, torch.softmax {theirs16} ({theirs16.dtype}), "
          f"stable_softmax {ours16} ({ours16.dtype}), largest difference {np.abs(theirs16 - ours16).max():.1e}")
    print("torch.finfo(torch.bfloat16).max follows the layout rule:", torch.finfo(torch.bfloat16).max == largest["bfloat16"])

# %% [markdown]
# Without PyTorch this cell prints one line saying how to add it. With it, every pair agrees
# to the last digits of float64; in float16 the two differ by one step of float16 (about
# 0.00024 near 0.27), while `exp(12)` alone is `inf`. And PyTorch's largest bfloat16 is the
# number the layout rule gave above.

# %% [markdown]
# ### Which float16 answer is right: 0.2688 or 0.2690?
#
# With PyTorch installed, the float16 line above shows `0.2688` from your `stable_softmax` and
# `0.269` from `torch.softmax` for the first weight of `[11, 12]`: two float16 numbers one step
# apart. The true weight is 1 / (1 + e), and the right float16 answer is the float16 number
# nearest to it, the **correctly rounded** one. Follow the steps of the recipe in float16, where
# every step rounds its result to float16:

# %%
scores16 = np.array([11.0, 12.0], dtype=np.float16)
evidence16 = np.exp(scores16 - scores16.max())
total16 = evidence16.sum()
print(f"float16 exp(-1) = {evidence16[0].item():.6f} (true {np.exp(-1.0):.6f}), "
      f"total = {total16.item():.6f} (true {1 + np.exp(-1.0):.6f})")
print(f"their quotient {evidence16[0].item() / total16.item():.6f} rounds to the float16 "
      f"{(evidence16[0] / total16).item():.4f}; your stable_softmax gives {stable_softmax(scores16)[0].item():.4f}")
true_weight = 1 / (1 + np.e)
nearest16 = np.float16(true_weight)
below16 = np.nextafter(nearest16, np.float16(0))
print(f"true weight {true_weight:.6f}: between the float16 numbers {below16.item():.6f} and "
      f"{nearest16.item():.6f}, halfway {(below16.item() + nearest16.item()) / 2:.6f}; nearest {nearest16.item():.4f}")
once16 = stable_softmax(scores16.astype(np.float32)).astype(np.float16)
print(f"computed in float32, rounded once to float16: {once16[0].item():.4f}")

# %% [markdown]
# PyTorch's `0.2690` is the right one. Every float16 step of the recipe rounds: `exp(-1)`
# comes out 0.367920 instead of 0.367879, and the total 1.368164 instead of 1.367879. Those
# two small errors move the quotient to 0.268915, just below the halfway point 0.268921
# between the two float16 numbers, so it rounds down to 0.2688, one float16 step from the
# nearest. Computed in float32, the intermediate errors are thousands of times smaller than a
# float16 step, and rounding once, at the end, gives the nearest float16, 0.2690. That is what
# PyTorch does for float16 input, and what your function does when handed float32.

# %% [markdown]
# ### Why do frameworks add up in float32?
#
# The total is where a narrow format hurts most, because it grows with the row. Take a row of
# 4096 equal float16 scores: every evidence value is exactly 1, so the total should be 4096 and
# every weight 1 / 4096. A kernel that adds the values one at a time into a float16 total:

# %%
flat16 = np.zeros(4096, dtype=np.float16)
flat_evidence = np.exp(flat16 - flat16.max())
running16 = np.cumsum(flat_evidence)[-1]  # one at a time, the total kept in float16
running32 = np.cumsum(flat_evidence, dtype=np.float32)[-1]  # one at a time, the total kept in float32
print(f"4096 evidence values of 1 added one at a time: float16 total {running16.item():g}, "
      f"float32 total {running32.item():g}")
print(f"float16 numbers near 2048 are {np.spacing(np.float16(2048)).item():g} apart: "
      f"2048 + 1 in float16 = {(np.float16(2048) + np.float16(1)).item():g}")
weights16 = (flat_evidence / running16).astype(np.float16)
weights32 = (flat_evidence.astype(np.float32) / running32).astype(np.float16)  # cast at the end
print(f"weights from the float16 total sum to {weights16.astype(float).sum():g}; "
      f"from the float32 total, cast to float16 at the end, to {weights32.astype(float).sum():g}")
print(f"NumPy's own float16 sum: {flat_evidence.sum().item():g}")

# %% [markdown]
# The float16 total stops at 2048: there float16's numbers are 2 apart, 2048 + 1 falls halfway
# and rounds back to 2048 (a tie goes to the even neighbour), and so does every later + 1. Each
# weight comes out twice too large and the row sums to 2. Kept in float32, the total is 4096, and
# the weights, cast to float16 only at the end, sum to 1. That is the rule libraries follow:
# read float16 or bfloat16, **accumulate in float32**, cast the result at the end. (NumPy's own
# `sum` adds in pairs rather than one at a time, which happens to hide the problem here; a
# hand-written loop, or a GPU kernel with one running total per row, does not.)

# %% [markdown]
# ### How many digits does a bfloat16 weight keep?
#
# bfloat16 keeps float32's 8 exponent bits, hence its range, but only 8 bits of significand (7
# stored and a leading 1), where float16 has 11 and float32 24. NumPy has no bfloat16, but a
# bfloat16 is the top half of a float32's 32 bits, so we can round by hand: add half of what
# the lower 16 bits can hold (a tie rounds to even), then clear them.

# %%
def to_bfloat16(values):
    """The float32 values rounded to the nearest bfloat16 (ties to even), kept in a float32 array."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    bits = bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))
    return (bits & np.uint32(0xFFFF0000)).view(np.float32)


journey32 = np.array([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865], dtype=np.float32)
journey_weights = stable_softmax(journey32)
journey_bf16 = to_bfloat16(journey_weights)
print("journey weights, float32: ", journey_weights)
print("the same in bfloat16:     ", journey_bf16)
print(f"largest relative error {np.max(np.abs(journey_bf16 - journey_weights) / journey_weights):.4f}, "
      f"at most 2^-8 = {2.0**-8:.4f}; the bfloat16 weights sum to {journey_bf16.astype(float).sum():.5f}")
print(f"8 bits of significand are worth 8 × log10(2) = {8 * np.log10(2):.2f} decimal digits")

# %%
if torch:
    as_torch = torch.from_numpy(journey_weights).to(torch.bfloat16).float().numpy()
    print("torch's bfloat16 rounds the journey weights to the same numbers:", np.array_equal(as_torch, journey_bf16))

# %% [markdown]
# Rounding by hand gives what PyTorch's bfloat16 holds (with PyTorch installed, the cell above
# compares them). Each weight keeps 8 bits, 2.41 decimal digits: it is right to about 3
# significant digits (0.2379 becomes 0.2383, 0.1082 becomes 0.1084), with an error of up to
# 2^-8, 1 part in 256. The six rounded weights no longer sum to 1 but to 1.00098.
# bfloat16 is fine for storing weights and activations; a softmax's max, exp and total belong in
# float32, for the two reasons of the sections above.

# %% [markdown]
# ## 8. What if the whole matrix were one row?
#
# The shift must be per row. What about the **sum**?
#
# **Predict (graded).** If we treat the whole matrix `[[1001, 1002], [3, 4]]` as one long row
# of four choices, what weights do the two entries of row 2 get? Write "a" for
# `[0.2689, 0.7311]`, "b" for `[0, 0]`, "c" for `nan`.

# %% nbgrader="guess" grade_id="guess_whole_matrix" prediction="predict_whole_matrix"
guess_whole_matrix = ""  # your guess: "a", "b" or "c"
### BEGIN SOLUTION
guess_whole_matrix = "b"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_whole_matrix" points=1
check_guess("predict_whole_matrix", guess_whole_matrix, choices=["a", "b", "c"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_whole_matrix", guess_whole_matrix, "6cce9d9ad043765f")
### END HIDDEN TESTS

# %%
reveal("predict_whole_matrix", guess_whole_matrix)
def whole_matrix_softmax(scores):
    """Softmax over ALL entries together (the mistake), stable shift included."""
    x = np.asarray(scores, dtype=float)
    evidence = np.exp(x - x.max())
    return evidence / evidence.sum()


whole = whole_matrix_softmax(batch)
print("whole matrix at once, row 1:", whole[0], "| row 2:", whole[1])
print("whole matrix at once, row sums:", whole.sum(axis=-1))
print("stable_softmax,       row sums:", stable_softmax(batch).sum(axis=-1))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# "b": row 2 gets nothing. Shifted by the max 1002, its scores are `[-999, -998]`, whose
# evidence is 0 in float64; but the total is shared with row 1, which holds an evidence
# value of exactly 1, so there is no `0 / 0`: row 1 takes all the mass and row 2 sums to 0
# instead of 1.
#
# </details>

# %% [markdown]
# Row 2 gets nothing. The two rows are different queries with
# different sets of choices; they must never compete. With smaller scores the damage is
# quieter but just as wrong:

# %%
calm = np.array([[1.0, 2.0], [0.0, 1.0]])
print("stable_softmax:      ", stable_softmax(calm).ravel())
print("whole matrix at once:", whole_matrix_softmax(calm).ravel())
print("whole matrix at once, row sums:", whole_matrix_softmax(calm).sum(axis=-1))

# %% [markdown]
# Row by row, both queries put 0.7311 on their second choice. Normalised together, row 1
# takes 73% of all the weight and row 2 only 27%, just because its scores happen to be
# lower: a difference that means nothing across two separate rows.

# %% [markdown]
# ## 9. Picture it

# %%
def grouped_bars(ax, matrix, title):
    labels = ["row 1\nchoice A", "row 1\nchoice B", "row 2\nchoice A", "row 2\nchoice B"]
    positions = np.arange(len(labels))
    for offset, weights, name, colour in ((-0.2, stable_softmax(matrix), "each row on its own", PALETTE[0]),
                                          (0.2, whole_matrix_softmax(matrix), "whole matrix at once", PALETTE[1])):
        bars = ax.bar(positions + offset, weights.ravel(), width=0.4, color=colour, label=name)
        ax.bar_label(bars, fmt="%.3f", fontsize=8)
    ax.axvline(1.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set(title=title, xticks=positions, xticklabels=labels, ylim=(0, 0.85), ylabel="weight")
    ax.set_xlabel("entry of the scores matrix")


fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
grouped_bars(left, batch, "scores [[1001, 1002], [3, 4]]")
grouped_bars(right, calm, "scores [[1, 2], [0, 1]]")
handles, names = left.get_legend_handles_labels()
fig.legend(handles, names, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 1.06), frameon=False)
show(fig, alt="Two grouped bar charts comparing row-wise softmax with softmax over the whole matrix. "
              "Row-wise, every row gets 0.269 and 0.731 in both panels. Over the whole matrix, "
              "for scores [[1001, 1002], [3, 4]] row 2 gets 0 and 0; for [[1, 2], [0, 1]] row 1 "
              "gets 0.197 and 0.534 while row 2 gets only 0.072 and 0.197.")

# %% [markdown]
# ## What carries forward
#
# `stable_softmax` is, in essence, the softmax that libraries compute (PyTorch's among them):
# divide by the temperature, subtract **each row's own max**, exponentiate, and divide by
# **each row's own total**.
# The shift changes only the range of the evidence, never the weights, and it keeps every
# evidence value between 0 and 1 with the largest exactly 1.
#
# Lesson 06 builds on exactly that: to forbid a choice (a future token, a padding
# position) we set its score to `-inf` before this softmax. `exp(-inf)` is exactly 0, so
# the forbidden choice gets weight exactly 0.0, and because each row is still shifted by
# its own max, the allowed choices stay safe. It also asks what to do with a row in
# which *every* choice is forbidden, where there is no max left to shift by.
