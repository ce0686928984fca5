# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 09 — The softmax gradient, the gradient that trains, and softmax over a long row
#
# **By the end of this lesson you will be able to**
# - write the Jacobian of softmax, `diag(p) - p pᵀ`, and check it against finite differences;
# - say why each of its rows and columns sums to zero;
# - show that the Jacobian vanishes when one score dominates (saturation), say when that stalls
#   learning (attention, hence its `1 / √d_k`) and when it need not;
# - derive and write the gradient that training uses, `softmax(z) - onehot(y)`, and walk
#   downhill with it;
# - compute the max and the sum of a long row in **one pass** over its chunks, with a running
#   max and a rescaled running sum, and say what that saves: two passes instead of three, and
#   in attention, where the weights are used at once, one pass and no stored weights, as
#   FlashAttention does tile by tile.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess
# *before* you run them.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt

from grader.learner.checks import check_call, check_quiet, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.pytorch import torch_or_none
from grader.learner.stubs import point_at_stubs

np.set_printoptions(precision=4, suppress=True)
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# Lesson 05's `stable_softmax` and lesson 08's `cross_entropy`, given: we compare everything in
# this lesson with them.

# %%
# << reference stable_softmax from 05_stable_softmax >>


# << reference cross_entropy from 08_log_softmax >>


# %% [markdown]
# ## 1. How does a weight move when a score moves?
#
# A model learns by nudging its scores. To know which way to nudge, it needs to know how each
# weight `p_i` changes when one score `s_j` changes: the derivative `∂p_i / ∂s_j`. All of
# them together form an `n × n` matrix, the **Jacobian** `J`, with `J[i, j] = ∂p_i / ∂s_j`.
#
# Start from `p_i = exp(s_i) / Z` with `Z = Σ_k exp(s_k)`, and note that `∂Z / ∂s_j = exp(s_j)`.
#
# - **Its own score** (`i = j`): by the quotient rule,
#   `∂p_i / ∂s_i = (exp(s_i) · Z - exp(s_i) · exp(s_i)) / Z² = p_i - p_i²`.
# - **Another score** (`i ≠ j`): only the denominator depends on `s_j`, so
#   `∂p_i / ∂s_j = -exp(s_i) · exp(s_j) / Z² = -p_i p_j`.
#
# Both cases in one line: `J[i, j] = p_i (δ_ij - p_j)`, where `δ_ij` is 1 when `i = j` and 0
# otherwise. As matrices: the diagonal matrix `diag(p)` minus the **outer product** `p pᵀ`
# (the `n × n` matrix of all products `p_i p_j`):
#
# $$J = \operatorname{diag}(p) - p\,p^\top$$
#
# The Jacobian needs only the weights `p`, not the scores: softmax's derivative is written in
# terms of its own output, which is why frameworks keep `p` from the forward pass.
#
# **Predict.** For `p = [0.5, 0.5]`, what are the four entries of `J`? Which are positive?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %% [markdown]
# ## 2. Exercise: `softmax_jacobian`
#
# Write `softmax_jacobian(p)`: `p` is a 1-D probability vector (a list or an array, the
# output of a softmax); return the `(n, n)` float array `diag(p) - p pᵀ`.
#
# Hint: the formula's two pieces are `n × n` matrices made from `p` alone, and NumPy has a
# function for each: look up how it builds a diagonal matrix from a vector, and an outer
# product. Careful: on a 1-D array `p.T` is `p` itself, so `p @ p.T` is the *dot product*,
# a single number, and not the outer product.

# %% nbgrader="solution" grade_id="softmax_jacobian"
def softmax_jacobian(p):
    """Jacobian of softmax from its output p: J[i, j] = d p_i / d s_j = p_i (delta_ij - p_j)."""
    ### BEGIN SOLUTION
    p = np.asarray(p, dtype=float)
    return np.diag(p) - np.outer(p, p)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_softmax_jacobian_public" points=1 function="softmax_jacobian"
check_call(softmax_jacobian, np.array([0.5, 0.5]), expect=[[0.25, -0.25], [-0.25, 0.25]])
check_call(softmax_jacobian, np.array([0.2, 0.3, 0.5]),
           expect=[[0.16, -0.06, -0.10], [-0.06, 0.21, -0.15], [-0.10, -0.15, 0.25]])
check_call(softmax_jacobian, [0.25, 0.75], expect=[[0.1875, -0.1875], [-0.1875, 0.1875]])  # a list
# integers give floats
check_call(softmax_jacobian, np.array([0, 1]), expect=[[0.0, 0.0], [0.0, 0.0]], dtype=np.float64)
check_call(softmax_jacobian, np.array([1.0]), expect=[[0.0]])  # one weight: a (1, 1) matrix
passed("softmax_jacobian")

# %% nbgrader="tests" grade_id="test_softmax_jacobian_values" points=2 function="softmax_jacobian"
### BEGIN HIDDEN TESTS
# property value: J[i, j] = p_i (delta_ij - p_j), the matrix diag(p) - p p^T, for any probability vector p
# property unchanged: never changes p, given as an array or a list
from grader.learner.checks import check_generated


def _jacobian_by_entries(q):
    q = np.asarray(q, dtype=float)
    return np.array([[q[i] * ((i == j) - q[j]) for j in range(len(q))] for i in range(len(q))])


for _seed, _n in ((1, 4), (2, 6), (3, 9)):
    _ev = np.exp(np.random.default_rng(_seed).normal(size=_n))
    _p = _ev / _ev.sum()
    check_call(softmax_jacobian, _p, expect=_jacobian_by_entries(_p))
_journey = np.exp([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
check_call(softmax_jacobian, _journey / _journey.sum(), expect=_jacobian_by_entries(_journey / _journey.sum()))
check_call(softmax_jacobian, [0.1, 0.6, 0.3], expect=_jacobian_by_entries([0.1, 0.6, 0.3]))


def _probabilities(rng, size):
    """A probability vector of 1 to `size` weights: spread out, peaked, with exact zeros, or one-hot."""
    n = int(rng.integers(1, size + 1))
    kind = int(rng.integers(4))
    if kind == 0:
        w = np.exp(rng.normal(scale=(0.5, 3.0, 12.0)[int(rng.integers(3))], size=n))
    elif kind == 1:
        w = rng.random(n) * (rng.random(n) < 0.6)
    elif kind == 2:
        w = np.zeros(n)
        w[int(rng.integers(n))] = 1.0
    else:
        w = rng.random(n) ** 6
    w[int(rng.integers(n))] += 0.0 if w.sum() > 0 else 1.0
    p = w / w.sum()
    return (p.tolist() if rng.random() < 0.3 else p,)


check_generated(softmax_jacobian, _probabilities, reference=_jacobian_by_entries, seed=909, examples=16)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_jacobian_saturated" points=1 function="softmax_jacobian"
### BEGIN HIDDEN TESTS
# property saturated: a one-hot p (a saturated softmax) gives the zero matrix, a weight of 0 gives a zero row and column, and tiny weights give tiny entries
check_call(softmax_jacobian, np.array([0.0, 1.0, 0.0]), expect=np.zeros((3, 3)))
check_call(softmax_jacobian, [0, 0, 1, 0], expect=np.zeros((4, 4)), dtype=np.float64)
check_call(softmax_jacobian, np.array([1]), expect=[[0.0]], dtype=np.float64)
check_call(softmax_jacobian, np.array([0.5, 0.0, 0.5]), expect=[[0.25, 0.0, -0.25], [0.0, 0.0, 0.0], [-0.25, 0.0, 0.25]])
_top = 1 - 2e-6
check_call(softmax_jacobian, np.array([1e-6, _top, 1e-6]),
           expect=[[1e-6 - 1e-12, -1e-6 * _top, -1e-12],
                   [-1e-6 * _top, _top * 2e-6, -1e-6 * _top],
                   [-1e-12, -1e-6 * _top, 1e-6 - 1e-12]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_jacobian_details" points=1 function="softmax_jacobian"
### BEGIN HIDDEN TESTS
# property dtype: a float array for every input: float64 for integer arrays, lists (of ints or floats) and float64 arrays; a float32 p may stay float32 or become float64 (judged to float32's accuracy)
# property returns_array: returns a NumPy array, not a nested list
# a float array for every input, always a NumPy array
check_call(softmax_jacobian, np.array([0, 1]), expect=np.zeros((2, 2)), dtype=np.float64)
check_call(softmax_jacobian, [1, 0, 0], expect=np.zeros((3, 3)), dtype=np.float64)
check_call(softmax_jacobian, [0.25, 0.75], expect=[[0.1875, -0.1875], [-0.1875, 0.1875]], dtype=np.float64)
check_call(softmax_jacobian, np.array([0.25, 0.75], dtype=np.float64),
           expect=[[0.1875, -0.1875], [-0.1875, 0.1875]], dtype=np.float64)
_p32 = np.array([0.2, 0.3, 0.5], dtype=np.float32)
_q = _p32.astype(np.float64)
check_call(softmax_jacobian, _p32, expect=(np.diag(_q) - np.outer(_q, _q)).astype(np.float32))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_jacobian_shapes" points=1 function="softmax_jacobian"
### BEGIN HIDDEN TESTS
# property shapes: a 1-D p of n weights gives an (n, n) array, n = 1 included (one weight of 1 gives [[0.0]]), from an array or a list
check_call(softmax_jacobian, np.array([1.0]), expect=[[0.0]])
check_call(softmax_jacobian, [1.0], expect=[[0.0]])
check_call(softmax_jacobian, np.array([0.5, 0.5]), expect=[[0.25, -0.25], [-0.25, 0.25]])
_uniform = np.full(40, 1 / 40)
check_call(softmax_jacobian, _uniform, expect=np.diag(_uniform) - 1 / 1600)
_ramp = np.arange(1, 65) / np.arange(1, 65).sum()
check_call(softmax_jacobian, _ramp, expect=np.diag(_ramp) - _ramp[:, None] * _ramp[None, :])
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Check it against finite differences
#
# A derivative is a slope, so we can *measure* it: nudge score `j` up and down by a small `h`
# and see how the weights move. The **central difference**
# `(softmax(s + h e_j) - softmax(s - h e_j)) / 2h` approximates column `j` of `J` with an
# error that shrinks like `h²`.
#
# **Predict.** With `h = 1e-5`, how close will the measured slopes come to your formula at
# the journey scores of lessons 01 and 03: 1e-2? 1e-6? 1e-10?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
journey_scores = np.array([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
journey_weights = stable_softmax(journey_scores)
J = softmax_jacobian(journey_weights)

h = 1e-5
measured = np.empty_like(J)
for j in range(len(journey_scores)):
    nudge = np.zeros_like(journey_scores)
    nudge[j] = h
    measured[:, j] = (stable_softmax(journey_scores + nudge) - stable_softmax(journey_scores - nudge)) / (2 * h)

print(J)
largest = np.abs(J - measured).max()
print(f"largest difference from central differences: {largest:.1e}")
print("formula and measurement agree within 1e-9:", bool(largest < 1e-9))

# %% [markdown]
# The largest difference is 2.4e-12: the measurement's own error (rounding in the nudged
# softmax, and the `h²` term), not the formula's. Read
# row 1, "journey": raising its own score raises its weight (`+0.1813`), and raising any
# other score takes weight from it (every other entry of the row is negative), the
# competition through one shared denominator that lesson 03 showed.

# %% [markdown]
# ## 4. What do the rows and columns of `J` sum to?
#
# **Predict (graded).** What is the sum of each column of `J`, to four decimal places? Write a
# whole number.

# %% nbgrader="guess" grade_id="guess_column_sums" prediction="predict_column_sums"
guess_column_sums = ""  # your guess: a whole number
### BEGIN SOLUTION
guess_column_sums = 0
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_column_sums" points=1
check_guess("predict_column_sums", guess_column_sums, choices=range(-3, 4))
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_column_sums", guess_column_sums, "812479aca2b2871a")
### END HIDDEN TESTS

# %%
reveal("predict_column_sums", guess_column_sums)
print("column sums:", J.sum(axis=0))
print("row sums:   ", J.sum(axis=1))
print("every row and column sums to 0 (within 1e-15):",
      bool(np.abs(J.sum(axis=0)).max() < 1e-15 and np.abs(J.sum(axis=1)).max() < 1e-15))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Every column sums to 0, and so does every row. (`-0.` is a tiny negative rounding error,
# shown with four decimals.)
#
# - **Columns.** Column `j` adds up how *every* weight responds to a nudge of score `j`.
#   The weights always sum to 1, whatever the scores, so their total cannot change:
#   `Σ_i ∂p_i / ∂s_j = ∂(Σ_i p_i) / ∂s_j = ∂1 / ∂s_j = 0`. Weight only moves between choices.
#   In the formula: `p_j - p_j Σ_i p_i = p_j - p_j = 0`.
# - **Rows.** Row `i` adds up how weight `i` responds when *every* score rises by the same
#   amount, and lesson 05 showed that a common shift changes nothing. (Here `J` is also
#   symmetric, `J[i, j] = J[j, i] = -p_i p_j`, so rows and columns agree.)
#
# A practical consequence: a gradient pushed back through softmax always sums to zero over the
# scores. Softmax cannot say "raise every score", only "raise these relative to those".
#
# </details>

# %% [markdown]
# ## 5. What happens when one score dominates?
#
# **Predict.** Two scores, `[gap, 0]`. As the gap grows from 0 to 40, what happens to the
# top weight, and to the largest entry of the Jacobian?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
for gap in (0, 2, 5, 10, 20, 40):
    p = stable_softmax([gap, 0.0])
    print(f"gap {gap:2d}: top weight {p[0]:.10f}, largest Jacobian entry {np.abs(softmax_jacobian(p)).max():.3g}")

# %% [markdown]
# At gap 0 the largest entry is `0.5 · 0.5 = 0.25`. By gap 10 it is `4.54e-05`, and by
# gap 40 it is `4.25e-18`: numerically nothing. Each entry is `p_i (δ_ij - p_j)`. When one
# weight is almost 1, its own entry `p(1 - p)` is almost 0, and every other entry carries a
# factor `p_i` or `p_j` that is almost 0. The softmax is **saturated**: nudging any score
# barely moves any weight.
#
# Does that stop learning? What reaches the scores is, by the chain rule, the Jacobian
# applied to the slope of whatever the weights feed into: `∂L/∂s = Jᵀ ∂L/∂p`. When that
# slope stays moderate, as in attention, where the weights only average value vectors
# (section 6), a vanishing Jacobian means a vanishing gradient and the scores stop learning.
# When the slope grows as a weight shrinks, as cross-entropy's `-1 / p_y` does, only the
# product tells: sections 7 to 10 work it out.
#
# The figure shows the largest entry for 2 choices and for 8 (one score `gap` above seven
# scores of 0). **Predict.** Which saturates sooner?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
gaps = np.linspace(0, 30, 121)
fig, ax = plt.subplots(figsize=(7, 3.8))
for n, colour, style in ((2, PALETTE[0], "-"), (8, PALETTE[1], "--")):
    largest_entry = [np.abs(softmax_jacobian(stable_softmax(np.r_[g, np.zeros(n - 1)]))).max() for g in gaps]
    ax.semilogy(gaps, largest_entry, color=colour, linestyle=style, linewidth=2,
                label=f"{n} choices: one score above the rest")
ax.set(title="Saturation: the largest Jacobian entry as one score dominates",
       xlabel="score gap (top score minus the others)", ylabel="largest |Jacobian entry| (log scale)",
       ylim=(1e-14, 1))
ax.legend(frameon=False)
ax.grid(True, which="major", alpha=0.3)
show(fig, alt="Line chart on a log scale of the largest Jacobian entry against the score gap from 0 to 30. "
              "For 2 choices (solid blue) it starts at 0.25 and falls in a straight line on the log "
              "scale to about 1e-13 at gap 30; for 8 choices (dashed orange) it starts near 0.11, "
              "rises to about 0.25 near gap 2, then falls with the same slope, about 7 times higher.")

# %%
def largest_entry(gap, n):
    """The largest |Jacobian entry| for one score `gap` above n - 1 scores of 0."""
    return np.abs(softmax_jacobian(stable_softmax(np.r_[gap, np.zeros(n - 1)]))).max()


print(f"one more unit of gap (20 to 21) divides the largest entry by {largest_entry(20, 2) / largest_entry(21, 2):.4f}"
      f" (e = {np.e:.4f})")
print(f"at gap 30, 8 choices run {largest_entry(30, 8) / largest_entry(30, 2):.2f} times higher than 2")
peak = max(gaps, key=lambda g: largest_entry(g, 8))
print(f"8 choices: {largest_entry(0, 8):.3f} at gap 0, highest ({largest_entry(peak, 8):.3f}) at gap {peak:.2f};"
      f" log 7 = {np.log(7):.2f}")

# %% [markdown]
# Both lines fall with the same slope: each extra unit of gap divides the largest entry by
# `e`. With seven rivals the top weight leaves about seven times more to share, so the
# 8-choice line runs 7 times higher and needs a gap about `log 7 = 1.95` larger to saturate
# as much. Either way, a gap of a few tens makes the Jacobian numerically zero.

# %% [markdown]
# ## 6. Why attention divides by √d_k
#
# Lesson 07 scaled the attention scores `q · k` by `1 / √d_k`. Here is the reason in
# gradient terms. In attention the weights only average the value vectors, `o = Σ_j p_j v_j`,
# so the slope after the softmax, `∂L/∂p_j = v_j · ∂L/∂o`, does not grow when a weight
# shrinks: the gradient that reaches the scores (and through them the query and key
# projections) is the Jacobian times a moderate vector, and it vanishes with the Jacobian.
# Saturation does stall attention.
#
# A dot product of two random vectors of width `d_k` (independent entries of mean 0 and
# variance 1) has a standard deviation of `√d_k`: wide vectors give large score gaps, and
# large gaps saturate the softmax.
#
# **Predict.** For one query and 8 random keys, how will the largest Jacobian entry change
# as `d_k` grows from 4 to 1024, without the scale and with it?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
rng, spread_rng = np.random.default_rng(9), np.random.default_rng(90)
widths = [4, 16, 64, 256, 1024]
median_unscaled, median_scaled = [], []
for d_k in widths:
    unscaled, scaled = [], []
    for _ in range(400):
        query, keys = rng.standard_normal(d_k), rng.standard_normal((8, d_k))
        scores = keys @ query
        unscaled.append(np.abs(softmax_jacobian(stable_softmax(scores))).max())
        scaled.append(np.abs(softmax_jacobian(stable_softmax(scores / np.sqrt(d_k)))).max())
    median_unscaled.append(np.median(unscaled))
    median_scaled.append(np.median(scaled))
    spread = np.std([spread_rng.standard_normal(d_k) @ spread_rng.standard_normal(d_k) for _ in range(2000)])
    print(f"d_k = {d_k:4d}: spread of q·k {spread:5.1f} (sqrt(d_k) = {np.sqrt(d_k):4.1f}); median largest entry "
          f"{median_unscaled[-1]:.1e} unscaled, {median_scaled[-1]:.2f} scaled by 1/sqrt(d_k)")

# %%
fig, ax = plt.subplots(figsize=(7, 3.6))
ax.loglog(widths, median_unscaled, "o-", color=PALETTE[3], linewidth=2, label="scores q·k (unscaled)")
ax.loglog(widths, median_scaled, "s--", color=PALETTE[0], linewidth=2, label="scores q·k / √d_k")
ax.set(title="Scaling by 1/√d_k keeps attention's softmax out of saturation",
       xlabel="key width d_k (log scale)", ylabel="median largest |Jacobian entry|")
ax.set_xticks(widths, [str(w) for w in widths])
ax.legend(frameon=False)
show(fig, alt="Log-log chart of the median largest Jacobian entry against the key width d_k from 4 to 1024, "
              "for one query and 8 random keys. Unscaled scores (vermillion circles) fall from about 0.2 "
              "at d_k = 4 to about 5e-7 at d_k = 1024; scores divided by the square root of d_k "
              "(blue squares, dashed) stay flat near 0.2.")

# %% [markdown]
# Unscaled, the spread of the scores grows like `√d_k` and the gradient collapses: at
# `d_k = 1024` the median largest entry is `5.4e-07` instead of `0.22`. Dividing by `√d_k`
# keeps the spread of the scores near 1 at every width, so the gradient stays healthy. That
# is the job of the fixed `1 / √d_k` factor: it is an architectural scale, not a temperature
# to tune.

# %% [markdown]
# ## 7. The gradient that training uses
#
# Training does not stop at the weights. A classifier, or a language model choosing its next
# token, scores its logits `z` with lesson 08's cross-entropy against the right class `y`:
# `L = LSE(z) - z_y`. To learn, it needs `∂L/∂z_j`, one number per logit.
#
# - `∂ LSE(z) / ∂z_j = exp(z_j) / Σ_k exp(z_k) = p_j`: the derivative of log-sum-exp is softmax.
# - `∂z_y / ∂z_j` is 1 for `j = y` and 0 for every other `j`: the "one-hot" vector of `y`.
#
# So the gradient of the loss is the weights minus the answer:
#
# $$\frac{\partial L}{\partial z} = \operatorname{softmax}(z) - \operatorname{onehot}(y)$$
#
# Every wrong class gets `p_j`, positive: lower its logit by as much weight as it took. The
# target gets `p_y - 1`, negative: raise its logit by as much weight as it still lacks. Like
# every gradient that passes through softmax, it sums to 0 over the logits (section 4).
#
# The same answer through the Jacobian: the loss is `-log p_y`, whose slope is `-1 / p_y` on
# `p_y` and 0 on every other weight. The chain rule multiplies it by row `y` of `J`,
# `p_y (δ_yj - p_j)`, and the factor `p_y` cancels:
# `-(1 / p_y) · p_y (δ_yj - p_j) = p_j - δ_yj`. The Jacobian shrinks with `p_y` exactly as
# fast as the loss's slope grows. Frameworks do not compute it that way, because `p_y` can be
# 0 in floating point (lesson 08) and `0 · (1 / 0)` is `nan`: they fuse softmax and
# cross-entropy and compute `p - onehot(y)` from the logits, one more reason PyTorch's
# `cross_entropy` takes logits.

# %% [markdown]
# ## 8. Exercise: `cross_entropy_grad`
#
# Write `cross_entropy_grad(logits, target)`: for every row, the gradient of that row's own
# cross-entropy loss with respect to its logits, `softmax(row) - onehot(target)`.
#
# - `logits` and `target` are what lesson 08's `cross_entropy` takes: the classes on the last
#   axis, and one integer class per row (a single integer for a single row; an integer array
#   or list of shape `logits.shape[:-1]` for a batch);
# - return an array **shaped like `logits`**: row `i` is the gradient of row `i`'s loss. Do not
#   divide by the number of rows: the gradient of the *mean* loss would, and that is one step
#   later, like the mean itself;
# - a confidently wrong row, such as `[1000, 0]` with target 1, must give its large gradient,
#   never `nan`; a row far from zero, such as `[1e12, 1e12 - 1]`, the same gradient as
#   `[1, 0]`; a logit of `-inf` (a class ruled out) gets gradient 0;
# - dtypes as in lesson 08: lists and integer logits give float64, float32 stays float32;
#   never change the inputs, never warn.
#
# Hint: the new piece is `onehot(target)` for a whole batch at once: for each row, a 1 in
# the target's column and 0 elsewhere. It is a grid of answers to one comparison, like
# lesson 06's padding mask: what is compared with what?

# %% nbgrader="solution" grade_id="cross_entropy_grad"
def cross_entropy_grad(logits, target):
    """Gradient of each row's cross-entropy with respect to its logits: softmax(row) - onehot(target)."""
    ### BEGIN SOLUTION
    x = np.asarray(logits)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    t = np.asarray(target)
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    weights = evidence / evidence.sum(axis=-1, keepdims=True)
    onehot = np.arange(x.shape[-1]) == t[..., np.newaxis]
    return weights - onehot
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_cross_entropy_grad_public" points=1 function="cross_entropy_grad"
check_call(cross_entropy_grad, [2.0, 0.0, -1.0], 0, expect=[-0.15620526551866054, 0.11419519938459449, 0.04201006613406605])
check_call(cross_entropy_grad, [[2.0, 0.0, -1.0], [0.0, 0.0, 0.0]], [2, 1],
           expect=[[0.8437947344813395, 0.11419519938459449, 0.04201006613406605 - 1.0], [1 / 3, 1 / 3 - 1.0, 1 / 3]])
# confidently wrong: about +1 and -1, never nan
check_call(cross_entropy_grad, [1000.0, 0.0], 1, expect=[1.0, -1.0])
# rows far apart
check_call(cross_entropy_grad, [[0.0, 0.0], [-1000.0, -1000.0]], [0, 0], expect=[[-0.5, 0.5], [-0.5, 0.5]])
# stays float32
check_call(cross_entropy_grad, np.array([1.0, 1.0], dtype=np.float32), 0, expect=[-0.5, 0.5], dtype=np.float32)
passed("cross_entropy_grad")

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_values" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property value: softmax(row) - onehot(target) for every row, as a float64 reference computes it (the journey scores, generated batches)
# property unchanged: neither the logits nor the targets are modified
# property shift: adding one constant to every logit of a row leaves its gradient unchanged, also constants far beyond exp's range
from grader.learner.checks import check_generated


def _grad_rows(x, t):
    """Reference gradient per row in float64, with a loop: exp(row - max) over its sum, minus 1 at the target."""
    x = np.asarray(x, dtype=np.float64)
    rows, targets = x.reshape(-1, x.shape[-1]), np.asarray(t).reshape(-1)
    out = []
    for _r, _k in zip(rows, targets):
        _e = np.exp(_r - _r.max())
        _g = _e / _e.sum()
        _g[_k] -= 1.0
        out.append(_g)
    return np.array(out).reshape(x.shape)


def _draw_batch(rng, size):
    """Logits with up to two leading axes, rows at their own levels and spreads, and a random target per row."""
    shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3))) + (int(rng.integers(1, 3 + size // 2)),)
    level = rng.uniform(-3000.0, 3000.0, size=shape[:-1] + (1,)) if len(shape) > 1 else 0.0
    x = level + 10.0 ** rng.uniform(-1.0, 1.5, size=shape[:-1] + (1,)) * rng.normal(size=shape)
    target = rng.integers(0, shape[-1], size=shape[:-1])
    return x, (int(target) if target.ndim == 0 else target)


_journey = np.array([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
for _k in range(6):
    check_call(cross_entropy_grad, _journey, _k, expect=_grad_rows(_journey, _k))
_logits = np.random.default_rng(9).normal(scale=3.0, size=(4, 5))
_targets = np.array([4, 0, 2, 2])
check_call(cross_entropy_grad, _logits, _targets, expect=_grad_rows(_logits, _targets))
# property shift
_base = np.array([0.5, -1.0, 2.0, 0.0])
_shifts = np.array([0.0, 1000.0, -1000.0, 4096.5, -123456.25])
check_call(cross_entropy_grad, _base + _shifts[:, None], np.array([0, 1, 2, 3, 1]),
           expect=_grad_rows(np.broadcast_to(_base, (5, 4)), [0, 1, 2, 3, 1]))
check_generated(cross_entropy_grad, _draw_batch, reference=_grad_rows, seed=931, examples=14)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_per_row" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property per_row: row i is the gradient of row i's own loss, from its own logits and its own target, never divided by the number of rows (that is the mean loss's gradient)
def _grad_rows(x, t):
    """Reference gradient per row in float64, with a loop: exp(row - max) over its sum, minus 1 at the target."""
    x = np.asarray(x, dtype=np.float64)
    rows, targets = x.reshape(-1, x.shape[-1]), np.asarray(t).reshape(-1)
    out = []
    for _r, _k in zip(rows, targets):
        _e = np.exp(_r - _r.max())
        _g = _e / _e.sum()
        _g[_k] -= 1.0
        out.append(_g)
    return np.array(out).reshape(x.shape)


_same = np.tile([2.0, 0.0, -1.0], (3, 1))
check_call(cross_entropy_grad, _same, np.array([0, 1, 2]), expect=_grad_rows(_same, [0, 1, 2]))
_sq = np.array([[3.0, 1.0], [0.0, 2.0]])
check_call(cross_entropy_grad, _sq, [1, 1], expect=_grad_rows(_sq, [1, 1]))
_tall = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [0.0, 5.0, 0.0], [1.0, 1.0, 1.0], [-2.0, 0.0, 2.0]])
check_call(cross_entropy_grad, _tall, np.array([2, 2, 0, 1, 0]), expect=_grad_rows(_tall, [2, 2, 0, 1, 0]))
_cube = np.random.default_rng(93).normal(scale=2.0, size=(2, 3, 4))
check_call(cross_entropy_grad, _cube, np.array([[0, 3, 1], [2, 2, 0]]), expect=_grad_rows(_cube, [[0, 3, 1], [2, 2, 0]]))
_vocabulary = np.random.default_rng(94).normal(scale=4.0, size=(2, 300))
check_call(cross_entropy_grad, _vocabulary, np.array([257, 3]), expect=_grad_rows(_vocabulary, [257, 3]))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_confident" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property confidently_wrong: a confidently wrong row gives about +1 on the class it favours and -1 on the target, the largest gradient a row can have, never nan, 0 or inf; a confidently right row gives about 0
# property signs: the target's entry lies between -1 and 0 and every other entry between 0 and 1, so that a step against the gradient raises the target's logit and lowers the others
check_call(cross_entropy_grad, [20.0, 0.0], 1, expect=[0.9999999979388463, 2.0611536181902033e-09 - 1.0])
check_call(cross_entropy_grad, [20.0, 0.0], 0, expect=[0.9999999979388463 - 1.0, 2.0611536181902033e-09])
check_call(cross_entropy_grad, np.array([[1000.0, 0.0], [0.0, 1000.0]]), np.array([1, 1]), expect=[[1.0, -1.0], [0.0, 0.0]])
check_call(cross_entropy_grad, np.array([0.0, 800.0, 0.0]), 2, expect=[0.0, 1.0, -1.0])
check_call(cross_entropy_grad, np.array([[4.0, 1.0, 0.0, 1.0]]), np.array([2]),
           expect=[[0.8945425763836083, 0.044536652408375864, 0.016384118799640083 - 1.0, 0.044536652408375864]])
check_call(cross_entropy_grad, np.array([0.5, 0.25]), 0, expect=[0.5621765008857981 - 1.0, 0.4378234991142019])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_extremes" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property extremes: logits up to about ±1e300, rows far apart from each other, rows far from zero (near ±1e12) with gaps of about 1, and -inf logits of other classes (gradient 0 there) give the right gradient, never inf or nan
_inf = np.inf
check_call(cross_entropy_grad, [[1000.0, 1001.0], [-1000.0, -1001.0]], [0, 0],
           expect=[[-0.7310585786300049, 0.7310585786300049], [-0.2689414213699951, 0.2689414213699951]])
check_call(cross_entropy_grad, np.array([[1e300, 0.0, -1e300]] * 3), np.array([0, 1, 2]),
           expect=[[0.0, 0.0, 0.0], [1.0, -1.0, 0.0], [1.0, 0.0, -1.0]])
_masked = np.array([[-_inf, 2.0, 0.0, -_inf], [5.0, -_inf, -_inf, -_inf], [-1e12, -_inf, 1e12, 0.0]])
check_call(cross_entropy_grad, _masked, np.array([1, 0, 0]),
           expect=[[0.0, 0.8807970779778823 - 1.0, 0.11920292202211755, 0.0], [0.0, 0.0, 0.0, 0.0],
                   [-1.0, 0.0, 1.0, 0.0]])
_huge32 = np.array([[1e30, 0.0, -1e30], [-1e30, -_inf, -2e30]], dtype=np.float32)
check_call(cross_entropy_grad, _huge32, [2, 0], expect=[[1.0, 0.0, -1.0], [0.0, 0.0, 0.0]], dtype=np.float32)
check_call(cross_entropy_grad, [-1e300, -_inf, -1e300 * 1.5], 2, expect=[1.0, 0.0, -1.0])
check_call(cross_entropy_grad, np.array([[-1e12, -1e12 - 1.0], [3.0, 1e12]]), np.array([1, 0]),
           expect=[[0.7310585786300049, -0.7310585786300049], [-1.0, 1.0]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_shapes" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property shapes: the logits' own shape, for any leading axes, axes of length 1, a batch of one row, a single row and rows of one class (gradient 0)
from grader.learner.checks import check_generated


def _grad_rows(x, t):
    """Reference gradient per row in float64, with a loop: exp(row - max) over its sum, minus 1 at the target."""
    x = np.asarray(x, dtype=np.float64)
    rows, targets = x.reshape(-1, x.shape[-1]), np.asarray(t).reshape(-1)
    out = []
    for _r, _k in zip(rows, targets):
        _e = np.exp(_r - _r.max())
        _g = _e / _e.sum()
        _g[_k] -= 1.0
        out.append(_g)
    return np.array(out).reshape(x.shape)


def _draw_shapes(rng, size):
    """Logits with one to four axes, many of them of length 1, and a target per row."""
    shape = tuple(int(rng.choice([1, 1, 2, 3])) for _ in range(int(rng.integers(1, 5))))
    target = rng.integers(0, shape[-1], size=shape[:-1])
    return rng.normal(scale=3.0, size=shape), (int(target) if target.ndim == 0 else target)


check_call(cross_entropy_grad, [[2.0, 0.0, -1.0]], np.array([0]), expect=_grad_rows([[2.0, 0.0, -1.0]], [0]))
check_call(cross_entropy_grad, np.array([[[2.0, 0.0, -1.0]], [[0.0, 0.0, 0.0]]]), np.array([[0], [1]]),
           expect=_grad_rows([[[2.0, 0.0, -1.0]], [[0.0, 0.0, 0.0]]], [[0], [1]]))
check_call(cross_entropy_grad, np.array([[5.0], [-3.0], [0.25]]), np.zeros(3, dtype=int), expect=[[0.0], [0.0], [0.0]])
check_call(cross_entropy_grad, [7.0], 0, expect=[0.0])
check_call(cross_entropy_grad, np.array([1.0, 3.0]), 1, expect=_grad_rows([1.0, 3.0], 1))
_four = np.arange(24.0).reshape(1, 2, 3, 4) / 8
check_call(cross_entropy_grad, _four, np.array([[[0, 1, 2], [3, 3, 0]]]),
           expect=_grad_rows(_four, [[[0, 1, 2], [3, 3, 0]]]))
check_generated(cross_entropy_grad, _draw_shapes, reference=_grad_rows, seed=932, examples=10)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_details" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property dtype: float32 logits give float32, float64 give float64; lists and integer logits of any width (unsigned ones too) give float64
# property targets: targets of any integer dtype, given as a Python int, a NumPy integer, a list or an array
# property quiet: no warning (overflow, divide by zero, invalid value) on any input the contract allows
# property returns_array: returns a NumPy array, for a single row too, never a list or a number
# float32 stays float32; lists and integer logits of any width give float64; always a NumPy array
def _grad_rows(x, t):
    """Reference gradient per row in float64, with a loop: exp(row - max) over its sum, minus 1 at the target."""
    x = np.asarray(x, dtype=np.float64)
    rows, targets = x.reshape(-1, x.shape[-1]), np.asarray(t).reshape(-1)
    out = []
    for _r, _k in zip(rows, targets):
        _e = np.exp(_r - _r.max())
        _g = _e / _e.sum()
        _g[_k] -= 1.0
        out.append(_g)
    return np.array(out).reshape(x.shape)


_abc = [[2.0, 0.0, -1.0], [0.5, 1.5, -0.5]]
check_call(cross_entropy_grad, np.array(_abc, dtype=np.float32), [2, 1], expect=_grad_rows(_abc, [2, 1]),
           dtype=np.float32)
check_call(cross_entropy_grad, np.array(_abc), [2, 1], expect=_grad_rows(_abc, [2, 1]), dtype=np.float64)
check_call(cross_entropy_grad, np.array([200.0, 0.0], dtype=np.float32), 1, expect=[1.0, -1.0], dtype=np.float32)
check_call(cross_entropy_grad, _abc, [0, 2], expect=_grad_rows(_abc, [0, 2]), dtype=np.float64)
check_call(cross_entropy_grad, [[1, 2, 3], [0, 0, 1]], [2, 0], expect=_grad_rows([[1, 2, 3], [0, 0, 1]], [2, 0]),
           dtype=np.float64)
for _dtype, _ints in ((np.int8, [[-100, 100], [3, 4]]), (np.uint8, [[0, 200], [3, 4]]),
                      (np.int16, [[-30000, 30000], [7, 7]]), (np.uint16, [[0, 60000], [5, 9]]),
                      (np.int32, [[-5, 5], [1, 2]]), (np.int64, [[2, 0], [0, 2]])):
    check_call(cross_entropy_grad, np.array(_ints, dtype=_dtype), [0, 1], expect=_grad_rows(_ints, [0, 1]),
               dtype=np.float64)
# property targets
for _dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.intp):
    check_call(cross_entropy_grad, np.array(_abc), np.array([2, 1], dtype=_dtype), expect=_grad_rows(_abc, [2, 1]))
check_call(cross_entropy_grad, [2.0, 0.0, -1.0], np.int64(1), expect=_grad_rows([2.0, 0.0, -1.0], 1))
check_call(cross_entropy_grad, np.array([2.0, 0.0, -1.0]), np.uint8(2), expect=_grad_rows([2.0, 0.0, -1.0], 2))
check_call(cross_entropy_grad, np.array([2.0, 0.0, -1.0]), np.array(0, dtype=np.int16),
           expect=_grad_rows([2.0, 0.0, -1.0], 0))
# no warning on any input the contract allows
from grader.learner.checks import check_quiet

check_quiet(cross_entropy_grad, [[1000.0, 0.0], [-1000.0, -1001.0]], [1, 0])
check_quiet(cross_entropy_grad, np.array([[1e300, 0.0, -1e300], [-np.inf, 1.0, -np.inf]]), np.array([0, 1]))
check_quiet(cross_entropy_grad, np.array([[200.0, 0.0], [-np.inf, -1e30]], dtype=np.float32), [1, 1])
check_quiet(cross_entropy_grad, np.array([[-1e300, -np.inf], [-1e12, 1e12]]), np.array([0, 0]))
check_quiet(cross_entropy_grad, [0.0, -1000.0, 1000.0], 1)
### END HIDDEN TESTS

# %% [markdown]
# ## 9. Check it against finite differences
#
# Measure the slope as in section 3, now of the loss: nudge logit `j` by `±h` and divide the
# change in `cross_entropy` by `2h`. Take the journey scores as logits, and say that the right
# answer for "journey" is "step" (class 5).
#
# **Predict.** Which entries of the gradient are negative? What do they sum to?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
tokens = ["Your", "journey", "starts", "with", "one", "step"]
target = 5
gradient = cross_entropy_grad(journey_scores, target)
measured = np.empty_like(journey_scores)
for j in range(len(journey_scores)):
    nudge = np.zeros_like(journey_scores)
    nudge[j] = h
    measured[j] = (cross_entropy(journey_scores + nudge, target) - cross_entropy(journey_scores - nudge, target)) / (2 * h)
print("gradient:", gradient)
print(f"largest difference from central differences: {np.abs(gradient - measured).max():.1e}")
print("formula and measurement agree within 1e-9:", bool(np.abs(gradient - measured).max() < 1e-9))
print(f"sum of the gradient: {gradient.sum():.1e}")
print(f"weight of 'step' {stable_softmax(journey_scores)[target]:.4f}, minus 1: {stable_softmax(journey_scores)[target] - 1:.4f}")

# %% [markdown]
# One entry is negative, the target's: `-0.8419`, the weight "step" has (0.1581) minus the 1
# it should have. Every other entry is that token's weight, `0.1385` for "Your", and so on.
# The entries sum to 0 (up to rounding): the gradient moves weight between the choices and
# never raises every logit at once.

# %% [markdown]
# ## 10. Does a saturated softmax still learn?
#
# **Predict (graded).** Logits `[20, 0]`, and the right answer is class 1: the softmax is
# saturated, and wrong. Its Jacobian is tiny (section 5). Is the gradient of the loss tiny
# too? Write "yes" or "no".

# %% nbgrader="guess" grade_id="guess_saturated_gradient" prediction="predict_saturated_gradient"
guess_saturated_gradient = ""  # your guess: "yes" or "no"
### BEGIN SOLUTION
guess_saturated_gradient = "no"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_saturated_gradient" points=1
check_guess("predict_saturated_gradient", guess_saturated_gradient, choices=["yes", "no"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_saturated_gradient", guess_saturated_gradient, "4869c95474adb336")
### END HIDDEN TESTS

# %%
reveal("predict_saturated_gradient", guess_saturated_gradient)
confidently_wrong = np.array([20.0, 0.0])
weights = stable_softmax(confidently_wrong)
print(f"weights: [{weights[0]:.10f}, {weights[1]:.1e}]")
print(f"largest Jacobian entry: {np.abs(softmax_jacobian(weights)).max():.1e}")
print("gradient of the loss, target 1 (wrong):", cross_entropy_grad(confidently_wrong, 1))
print(f"gradient of the loss, target 0 (right): {cross_entropy_grad(confidently_wrong, 0)[0]:.1e} on the target")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# No. The Jacobian's largest entry is `2.1e-09`, and yet the gradient of the loss is `[1, -1]`,
# the largest a gradient of cross-entropy can be: every entry lies between -1 and 1. The
# gradient of cross-entropy vanishes only when the model is right and sure (`-2.1e-09` for
# target 0). Section 5's saturation stalls learning when the slope after the softmax stays
# moderate. A squared error on the weights, `Σ (p - onehot(y))²`, is such a loss: its gradient
# is the Jacobian times `2 (p - onehot(y))`, a vector of at most 2.
#
# </details>

# %% [markdown]
# **Predict.** Starting from `[20, 0]` with target 1, 100 steps downhill (each step subtracts
# the gradient): what weight does class 1 reach with each loss?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
def walk_downhill(logits, gradient_of, steps=100, learning_rate=1.0):
    """The logits after `steps` steps of gradient descent, each subtracting learning_rate * gradient."""
    for _ in range(steps):
        logits = logits - learning_rate * gradient_of(logits)
    return logits


def squared_error_grad(logits, target):
    """Gradient of sum((p - onehot)**2) with respect to the logits: the Jacobian times 2 (p - onehot)."""
    p = stable_softmax(logits)
    return softmax_jacobian(p).T @ (2 * (p - np.eye(len(p))[target]))


for name, gradient_of in (("cross-entropy", lambda z: cross_entropy_grad(z, 1)),
                          ("squared error", lambda z: squared_error_grad(z, 1))):
    after = walk_downhill(confidently_wrong, gradient_of)
    print(f"{name:13}: logits after 100 steps {after}, weight of class 1 {stable_softmax(after)[1]:.4g}")

# %% [markdown]
# Cross-entropy walks out: class 1 ends with weight `0.9945`. The squared error barely moves
# (class 1 keeps its weight of `2.061e-09`): its steps are as small as the Jacobian. That is
# one reason classifiers and language models are trained with cross-entropy on the logits.

# %% [markdown]
# ### Side by side with PyTorch
#
# PyTorch computes gradients by automatic differentiation (`loss.backward()`). Its
# `cross_entropy` averages over the batch by default (`reduction="mean"`); summed over the
# rows (`reduction="sum"`), each row's gradient is that row's own, the gradient your function
# returns. (Without PyTorch installed, this cell prints one line saying how to add it.)

# %%
torch = torch_or_none()
if torch:
    batch_logits = np.array([[8.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 8.0], [20.0, 0.0, -1.0]])
    batch_targets = np.array([0, 1, 0, 1])
    for reduction in ("sum", "mean"):
        z = torch.tensor(batch_logits, dtype=torch.float64, requires_grad=True)
        torch.nn.functional.cross_entropy(z, torch.tensor(batch_targets), reduction=reduction).backward()
        ours = cross_entropy_grad(batch_logits, batch_targets) / (len(batch_logits) if reduction == "mean" else 1)
        print(f"reduction={reduction!r}: autograd's gradient matches cross_entropy_grad"
              f"{' / 4' if reduction == 'mean' else ''}:", np.allclose(z.grad.numpy(), ours, rtol=1e-12, atol=1e-15))

# %% [markdown]
# ## 11. Measure wrong, walk downhill
#
# Put the two together: the loss measures how wrong the scores are, its gradient says which
# way is downhill. Start from the journey scores with target "step" and take small steps
# against the gradient, `scores ← scores - 0.5 · cross_entropy_grad(scores, 5)`.
#
# **Predict.** Will the loss reach 0? Will the sum of the six scores change?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
scores = journey_scores.copy()
losses = [cross_entropy(scores, target)]
for step in range(60):
    scores = scores - 0.5 * cross_entropy_grad(scores, target)
    losses.append(cross_entropy(scores, target))
print(f"loss at the start: {losses[0]:.4f} (weight of 'step' {stable_softmax(journey_scores)[target]:.4f})")
print(f"after 10 steps: {losses[10]:.4f}; after 60 steps: {losses[-1]:.4f} "
      f"(weight of 'step' {stable_softmax(scores)[target]:.4f})")
print("scores after 60 steps:", scores)
print(f"sum of the scores: {journey_scores.sum():.4f} at the start, {scores.sum():.4f} after 60 steps")

# %%
fig, ax = plt.subplots(figsize=(7, 3.6))
ax.plot(range(len(losses)), losses, color=PALETTE[0], linewidth=2, label="cross-entropy of the journey scores")
ax.axhline(0, color=PALETTE[3], linewidth=1, linestyle=":", label="a loss of 0 (weight 1 on 'step')")
ax.set(title="Measure wrong, walk downhill: the loss falls step by step",
       xlabel="gradient-descent step (learning rate 0.5)", ylabel="loss for target 'step'", ylim=(-0.05, 2.0))
ax.legend(frameon=False)
ax.grid(True, alpha=0.3)
show(fig, alt="Line chart of the cross-entropy loss against the gradient-descent step, from 0 to 60, for the "
              "journey scores with target 'step'. The solid blue line starts at 1.84, falls steeply to "
              "0.24 after 10 steps, then ever more slowly, to 0.03 after 60 steps, approaching but never "
              "touching the dotted vermillion line at 0.")

# %% [markdown]
# The loss falls quickly at first, from 1.8444 to 0.2395 in 10 steps, while "step" still
# lacks most of its weight, then more and more slowly, to 0.0305 after 60 steps (weight
# 0.9699): the step on the target's score is `0.5 (1 - p)`, and that shrinks as the weight
# of "step" grows. It never reaches 0, which would take an infinite gap between the scores.
# The sum of the scores stays where it was, because every gradient sums to 0: training
# moves the scores apart, never all up or all down.

# %% [markdown]
# ## 12. A row too long to hold at once
#
# Now the forward pass. Lesson 05's stable softmax needs the row's max *before* it can start
# the sum, so it reads the row three times: once for the max, once for the sum of
# `exp(x - max)`, once to write the weights. In attention over a long context, one query's
# row has a score per key, perhaps 100,000 of them, computed tile by tile in a small, fast
# memory on the GPU. Reading it three times, or storing it whole, is what we want to avoid.
#
# Maxim Milakov and Natalia Gimelshein (*Online normalizer calculation for softmax*, 2018)
# get the max and the sum in **one** pass. Keep a running max `m` and a running sum
# `s = Σ exp(x - m)` over the scores seen so far. When a new chunk raises the max from `m_old` to `m_new`, every term already
# in `s` was measured against the old max, `exp(x - m_old)`, and should now be
# `exp(x - m_new) = exp(x - m_old) · exp(m_old - m_new)`. One multiplication fixes them all:
#
# $$s \leftarrow s \cdot e^{\,m_{old} - m_{new}} + \sum_{x \in \text{chunk}} e^{\,x - m_{new}}$$
#
# The factor `exp(m_old - m_new)` is at most 1 (the max only grows), so nothing can overflow.
#
# **Predict.** The row `[1, 2, 5, 0, 3, 4]` arrives in three chunks: `[1, 2]`, `[5, 0]`,
# `[3, 4]`. By what factor is `s` multiplied when the second chunk arrives?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
row_chunks = [np.array([1.0, 2.0]), np.array([5.0, 0.0]), np.array([3.0, 4.0])]
m, s = -np.inf, 0.0
for chunk in row_chunks:
    m_new = max(m, chunk.max())
    factor = np.exp(m - m_new)
    s = s * factor + np.exp(chunk - m_new).sum()
    m = m_new
    print(f"chunk {chunk}: rescale by {factor:.4f}, running max {m:.0f}, running sum {s:.4f}")
whole_row = np.concatenate(row_chunks)
print(f"one sum over the whole row, sum(exp(x - 5)): {np.exp(whole_row - whole_row.max()).sum():.4f}")

# %% [markdown]
# The first chunk is rescaled by `exp(-inf) = 0` (there is nothing to rescale yet). The second
# raises the max from 2 to 5, so the sum so far, 1.3679, is multiplied by `exp(2 - 5) = 0.0498`
# before the new chunk's evidence is added. The third does not raise the max: factor 1. The
# final `m` and `s` are exactly the max and the total of the whole row, found in one pass.
# The weights themselves are not written yet: that needs the final `m` and `s` (section 14).

# %% [markdown]
# ## 13. Two ways to get the rescaling wrong
#
# **Predict.** What final sum do you get if you never rescale `s`? If you rescale by
# `exp(m_new - m_old)`, the wrong way round?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
def running_sum(chunks, rescale):
    m, s = -np.inf, 0.0
    for chunk in chunks:
        m_new = max(m, chunk.max())
        s = (s * rescale(m, m_new) if s > 0 else 0.0) + np.exp(chunk - m_new).sum()
        m = m_new
    return s


print(f"rescaled by exp(m_old - m_new): {running_sum(row_chunks, lambda old, new: np.exp(old - new)):.4f}")
print(f"never rescaled:                 {running_sum(row_chunks, lambda old, new: 1.0):.4f}")
print(f"rescaled by exp(m_new - m_old): {running_sum(row_chunks, lambda old, new: np.exp(new - old)):.4f}")
print(f"the first chunk's sum, 1 + exp(-1) = {1 + np.exp(-1.0):.4f}, should shrink by exp(2 - 5) to "
      f"{(1 + np.exp(-1.0)) * np.exp(-3.0):.4f}; the wrong way round multiplies it by exp(3) = {np.exp(3.0):.2f}")
with np.errstate(over="ignore"):
    jump = [np.array([0.0, 1.0]), np.array([1000.0, 999.0])]
    print(f"with a jump of the max by 999: {running_sum(jump, lambda old, new: np.exp(new - old))} the wrong way round")

# %% [markdown]
# Never rescaling leaves `1 + exp(-1) = 1.3679` from the first chunk at full size when it
# should have shrunk to 0.0681, so the total is too large and every weight too small. The wrong
# direction multiplies by `exp(3) = 20.09` instead of dividing, and the error grows with every
# jump of the max; a jump of 999 overflows the sum to `inf`. On this row both mistakes are
# silent: nothing warns, the sum is simply wrong. (The overflow does warn; the cell above
# hides that warning to show the `inf`.)

# %% [markdown]
# ## 14. Can a chunk be read twice?
#
# Chunks often come from a **generator**: they are computed or loaded one at a time and are
# gone once read.
#
# **Predict (graded).** The next cell loops twice over the same generator of the six scores
# above. How many scores does the second loop see? Write a whole number.

# %% nbgrader="guess" grade_id="guess_second_loop" prediction="predict_second_loop"
guess_second_loop = ""  # your guess: a whole number from 0 to 12
### BEGIN SOLUTION
guess_second_loop = 0
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_second_loop" points=1
check_guess("predict_second_loop", guess_second_loop, choices=range(0, 13))
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_second_loop", guess_second_loop, "8f7d57a9abf82f0b")
### END HIDDEN TESTS

# %%
reveal("predict_second_loop", guess_second_loop)
def chunks_of(row, size):
    """Yield the row in pieces of `size` scores, one at a time."""
    for start in range(0, len(row), size):
        yield row[start:start + size]


stream = chunks_of(whole_row, 2)
print("first loop sees", sum(len(chunk) for chunk in stream), "scores")
print("second loop sees", sum(len(chunk) for chunk in stream), "scores")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# None: a generator runs once. A function that loops over its chunks twice (once for the max,
# once for the sum) works on a list and silently gets nothing on a generator.
#
# </details>

# %% [markdown]
# So how do we write the weights at the end, once the final `m` and `s` are known? Keep, for
# each chunk, its evidence `exp(x - m_then)` against the running max **at the time**, and that
# max. At the end, rescale each kept piece by `exp(m_then - m)` and divide by `s`.
#
# That end is a **second pass**, over what we kept: one number of evidence per score, as large
# as the row itself. So your `online_softmax` reads its input once, but it is not softmax in
# one pass. Milakov and Gimelshein turn lesson 05's three passes into two (max and sum
# together, then the weights), and no trick removes the second while the weights themselves
# are the output: no weight is known before the last chunk has set the final max and sum.
# Section 17 shows the one case where it goes away.

# %% [markdown]
# ## 15. Exercise: `online_softmax`
#
# Write `online_softmax(chunks)`:
#
# - `chunks` is a list **or an iterator** (such as a generator) of 1-D arrays or lists of
#   scores, each holding at least one score; together, in order, they form **one row**;
# - loop over `chunks` **exactly once**, keeping a running max and a running sum rescaled by
#   `exp(m_old - m_new)` whenever the max grows, and the pieces you need for the output;
# - return the softmax of the whole row as **one** 1-D float64 array (the same numbers
#   `stable_softmax(np.concatenate(chunks))` gives);
# - scores may be `-inf` (forbidden, lesson 06), and a chunk may be **all** `-inf`, even the
#   first one. The row as a whole has at least one finite score. Careful:
#   `-inf - (-inf)` is `nan`, so a chunk can add no evidence until a finite max exists;
# - a stream may hand you every chunk in **one reused buffer** that the next chunk overwrites
#   (as a reader that fills one buffer from a file does): keep what you compute from a chunk,
#   or a copy of it, never the chunk itself;
# - never warn, and never change the chunks you are given.
#
# The checks pass your function a list of chunks and a one-pass stream of chunks that
# behaves like a generator (a second loop over it sees nothing); the hidden tests also pass
# streams that reuse one buffer, float32 and integer chunks, and scores far outside the range
# where `exp` is finite.

# %% nbgrader="solution" grade_id="online_softmax"
def online_softmax(chunks):
    """Softmax of one row given in chunks, reading each chunk once: running max, rescaled running sum."""
    ### BEGIN SOLUTION
    running_max, running_sum = -np.inf, 0.0
    pieces = []  # (evidence against the running max at the time, that max)
    for chunk in chunks:
        x = np.asarray(chunk, dtype=float)
        new_max = max(running_max, x.max())
        if new_max == -np.inf:  # no finite score yet: this chunk adds no evidence
            pieces.append((np.zeros_like(x), new_max))
            continue
        evidence = np.exp(x - new_max)
        running_sum = running_sum * np.exp(running_max - new_max) + evidence.sum()
        running_max = new_max
        pieces.append((evidence, new_max))
    return np.concatenate([e * np.exp(m - running_max) for e, m in pieces]) / running_sum
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_online_softmax_public" points=1 function="online_softmax"
class _Stream:
    """One pass over the chunks, like a generator: a second loop sees nothing."""

    def __init__(self, *chunks):
        self.chunks, self.read = [np.asarray(c, dtype=float) for c in chunks], 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.read == len(self.chunks):
            raise StopIteration
        self.read += 1
        return self.chunks[self.read - 1]

    def __repr__(self):
        return f"<generator of {len(self.chunks)} chunks>"


_w = [0.08714431874203257, 0.23688281808991013, 0.6439142598879724, 0.03205860328008499]
check_call(online_softmax, [np.array([1.0, 2.0]), np.array([3.0, 0.0])], expect=_w)
check_call(online_softmax, [np.array([1.0, 2.0, 3.0, 0.0])], expect=_w)
check_call(online_softmax, _Stream([1.0, 2.0], [3.0, 0.0]), expect=_w)
check_call(online_softmax, [[1.0, 2.0], [3.0, 0.0]], expect=_w)  # chunks given as lists
# float32 chunks give float64 weights (as accurate as float32)
check_call(online_softmax, [np.array([1.0, 2.0], dtype=np.float32)], dtype=np.float64,
           expect=np.array([0.2689414213699951, 0.7310585786300049], dtype=np.float32))
# a later score far above the first
check_call(online_softmax, [np.array([0.0]), np.array([1000.0])], expect=[0.0, 1.0])
# far below 0
check_call(online_softmax, [np.array([-1000.0, -1001.0])], expect=[0.7310585786300049, 0.2689414213699951])
# -inf first
check_call(online_softmax, [np.array([-np.inf, -np.inf]), np.array([0.0, 0.0])], expect=[0.0, 0.0, 0.5, 0.5])
# -inf is below even -1e12
check_call(online_softmax, [np.array([-1e12]), np.array([-np.inf])], expect=[1.0, 0.0])
# no warning on any of these
check_quiet(online_softmax, [np.array([-np.inf]), np.array([0.0]), np.array([1000.0])])
passed("online_softmax")

# %% nbgrader="tests" grade_id="test_online_softmax_growing_max" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property value: the weights are the softmax of the whole row, the numbers stable_softmax(np.concatenate(chunks)) gives
# property unchanged: never changes the chunks it is given, arrays or lists
# property chunking
def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


_rng = np.random.default_rng(90)
_rising = [_rng.normal(size=5) + 1.5 * _k for _k in range(6)]
check_call(online_softmax, _rising, expect=_softmax_of_row(_rising))
_late = [_rng.normal(size=50) for _ in range(19)] + [np.r_[_rng.normal(size=49), 9.0]]
check_call(online_softmax, _late, expect=_softmax_of_row(_late))
_uneven = [np.array([0.5]), np.array([-1.0, 2.0, 0.0]), np.array([4.0, 3.5]), np.array([1.0, 6.0, -2.0, 5.0])]
check_call(online_softmax, _uneven, expect=_softmax_of_row(_uneven))
_as_lists = [[0.5, 2.0], [-1.0], [3.0, 1.0, 2.5]]
check_call(online_softmax, _as_lists, expect=_softmax_of_row(_as_lists))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_generated" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property value
# property chunking: the weights do not depend on how the row is cut into chunks (one chunk, a chunk per score, chunks of any sizes)
# property masked
# property one_pass
# property reused_buffer
from grader.learner.checks import OnePass, check_generated


def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


def _row_in_chunks(rng, size):
    """A row cut at random into 1 to `size` chunks of 1 to 3 scores, some -inf, handed over one of four ways."""
    spread, drift = (0.5, 2.0, 6.0)[int(rng.integers(3))], (-1.5, 0.0, 1.5)[int(rng.integers(3))]
    chunks = []
    for _k in range(int(rng.integers(1, size + 1))):
        _x = rng.normal(scale=spread, size=int(rng.integers(1, 4))) + drift * _k
        _x[rng.random(_x.size) < 0.15] = -np.inf
        if rng.random() < 0.15:
            _x[:] = -np.inf
        chunks.append(_x)
    if all(np.isneginf(_c).all() for _c in chunks):
        chunks[int(rng.integers(len(chunks)))][0] = rng.normal()
    how = int(rng.integers(4))
    if how == 1:
        return ([_c.tolist() for _c in chunks],)
    return (OnePass(chunks),) if how == 2 else (OnePass(chunks, reuse_buffer=True),) if how == 3 else (chunks,)


check_generated(online_softmax, _row_in_chunks, reference=_softmax_of_row, seed=2018, examples=24)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_large_scores" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property extremes: right for scores of any finite size up to about 1e300, for rows whose every score is far below zero (below -745, where exp underflows unless shifted, down to -1e300), and for chunks far apart
def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


_rng = np.random.default_rng(91)
_jump = [_rng.normal(size=40) for _ in range(5)] + [1000.0 + _rng.normal(size=40) for _ in range(5)]
check_call(online_softmax, _jump, expect=_softmax_of_row(_jump))
_high_then_higher = [np.array([-1000.0, -1001.0, -999.5]), np.array([1000.0, 1001.0, 999.0])]
check_call(online_softmax, _high_then_higher, expect=_softmax_of_row(_high_then_higher))
_falling = [np.array([1000.0, 999.0]), np.array([998.0, 997.5]), np.array([0.0, -1000.0])]
check_call(online_softmax, _falling, expect=_softmax_of_row(_falling))
_below = [np.array([-1000.0, -1001.0]), np.array([-999.5, -1002.0]), np.array([-1000.25, -998.75])]
check_call(online_softmax, _below, expect=_softmax_of_row(_below))
_apart = [np.array([1e6, 1e6 - 1.0]), np.array([-1e6, -1e6 + 3.0])]
check_call(online_softmax, _apart, expect=_softmax_of_row(_apart))
_apart_rising = [np.array([-1e6, -1e6 + 2.0]), np.array([1e6 - 0.5, 1e6])]
check_call(online_softmax, _apart_rising, expect=_softmax_of_row(_apart_rising))
check_call(online_softmax, [np.array([-1e300, 0.0]), np.array([1e300]), np.array([3.0, -5.0, 1e299])],
           expect=[0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
check_call(online_softmax, [np.array([-1e12]), np.array([-1e12 - 1e4, -1e13])], expect=[1.0, 0.0, 0.0])
check_call(online_softmax, [np.array([-2e300]), np.array([-1e300, -3e300])], expect=[0.0, 1.0, 0.0])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_shift" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property shift: adding one constant to every score leaves the weights as they were, also for constants far beyond exp's range (800, 1e5)
from grader.learner.checks import OnePass


def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


_base = [np.array([0.25, -1.5, 2.0]), np.array([0.75, -np.inf, 1.25]), np.array([-0.5, 3.0, 1.0])]
_expected = _softmax_of_row(_base)
for _c in (-2.5, 800.0, -800.0, 1e5, -1e5):
    check_call(online_softmax, [_x + _c for _x in _base], expect=_expected)
check_call(online_softmax, OnePass([_x - 20.0 for _x in _base]), expect=_expected)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_details" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property quiet: never warns (no overflow, invalid value or division by zero), on huge scores, scores far below zero and chunks of nothing but -inf
# property reused_buffer: right weights when every chunk arrives in one buffer that the next chunk overwrites (what is kept must be computed from a chunk, or a copy of it, never the chunk itself)
# property dtype: one float64 array for chunks of float64, float32 (judged to float32's accuracy), integers or Python lists, and for a tuple of chunks
# property returns_array: returns one NumPy array for the whole row, not a list of pieces
# no warning, on huge scores, scores far below zero and chunks of nothing but -inf
from grader.learner.checks import OnePass, check_quiet

_inf = np.inf
check_quiet(online_softmax, [np.array([-_inf, -_inf]), np.array([-_inf]), np.array([1000.0, -_inf]),
                             np.array([-_inf, -_inf]), np.array([1001.0, 999.0]), np.array([-_inf])])
check_quiet(online_softmax, OnePass([[-_inf, -_inf, -_inf], [-1000.0, -1001.0], [-_inf], [-999.0]]))
check_quiet(online_softmax, [np.full(64, -_inf), np.full(6, -_inf), np.array([1.0, 2.0]), np.full(40, -_inf)])
check_quiet(online_softmax, [np.array([-1e300, 0.0]), np.array([1e300]), np.array([3.0, 1e299])])
check_quiet(online_softmax, [np.array([-1e12]), np.array([-1e12 - 1e4, -_inf])])
check_quiet(online_softmax, [np.array([0.0, 5.0]), np.array([1000.0])])


def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


# every chunk in one buffer that the next chunk overwrites
_parts = [np.array([3.0, 1.0, 2.0, 0.5]), np.array([0.25]), np.array([-1.0, 2.5]), np.array([1.5, -0.5, 0.0])]
check_call(online_softmax, OnePass(_parts, reuse_buffer=True), expect=_softmax_of_row(_parts))
_rng = np.random.default_rng(93)
_many = [_rng.normal(scale=2.0, size=int(_rng.integers(1, 7))) for _ in range(10)]
check_call(online_softmax, OnePass(_many, reuse_buffer=True), expect=_softmax_of_row(_many))
_masked = [[-np.inf, -np.inf, -np.inf], [2.0], [-np.inf, 1.0]]
check_call(online_softmax, OnePass(_masked, reuse_buffer=True), expect=_softmax_of_row(_masked))
# float64 weights, in one NumPy array, whatever the chunks are made of
check_call(online_softmax, [[3], [3], [3], [3]], expect=[0.25, 0.25, 0.25, 0.25], dtype=np.float64)
check_call(online_softmax, [[1, 2], [0]], expect=_softmax_of_row([[1, 2], [0]]), dtype=np.float64)
check_call(online_softmax, OnePass([[1, 2], [3], [0, -1]]), expect=_softmax_of_row([[1, 2], [3], [0, -1]]),
           dtype=np.float64)
check_call(online_softmax, (np.array([2.0, 1.0]), np.array([0.0])), expect=_softmax_of_row([[2.0, 1.0], [0.0]]),
           dtype=np.float64)
_c32 = [np.array([1.0, 2.5], dtype=np.float32), np.array([-np.inf, 0.5], dtype=np.float32), np.array([3.0], dtype=np.float32)]
check_call(online_softmax, _c32, expect=_softmax_of_row(_c32).astype(np.float32), dtype=np.float64)
check_call(online_softmax, OnePass(_c32), expect=_softmax_of_row(_c32).astype(np.float32), dtype=np.float64)
_mixed = [np.array([1, 2]), [0.5, -1.0], np.array([3.0], dtype=np.float32)]
check_call(online_softmax, _mixed, expect=_softmax_of_row(_mixed).astype(np.float32), dtype=np.float64)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_one_pass" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property one_pass: reads a one-pass stream of chunks (a second loop over it finds nothing) once, and gives the weights a list of the same chunks gives
from grader.learner.checks import OnePass


def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


_rng = np.random.default_rng(92)
_parts = [_rng.normal(size=8) + _k for _k in range(12)]
check_call(online_softmax, OnePass(_parts), expect=_softmax_of_row(_parts))
_small = [[2.0, 1.0], [0.5], [3.0, -1.0, 2.5]]
check_call(online_softmax, OnePass(_small), expect=_softmax_of_row(_small))
check_call(online_softmax, OnePass([[4.0, -2.0, 1.0]]), expect=_softmax_of_row([[4.0, -2.0, 1.0]]))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_masked" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property masked: a score of -inf gets weight 0 and a chunk of nothing but -inf adds nothing, wherever it comes (first, in the middle, last, several in a row); the other weights are the softmax of the finite scores, also when those are far below zero
from grader.learner.checks import OnePass


def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


_inf = np.inf
_holes = [np.array([0.5, -_inf, 2.0]), np.array([-_inf, 3.0, 1.0]), np.array([2.5, -_inf, -_inf])]
check_call(online_softmax, _holes, expect=_softmax_of_row(_holes))
_masked_tile = [np.array([1.0, 0.0]), np.array([-_inf, -_inf]), np.array([0.5, 2.0])]
check_call(online_softmax, _masked_tile, expect=_softmax_of_row(_masked_tile))
_masked_first = [np.array([-_inf, -_inf, -_inf]), np.array([2.0, -_inf]), np.array([1.0, 3.0])]
check_call(online_softmax, _masked_first, expect=_softmax_of_row(_masked_first))
_runs = [[-_inf, -_inf], [-_inf], [1.0, -_inf], [-_inf, -_inf], [-_inf], [2.0, 0.5], [-_inf], [-_inf, -_inf]]
check_call(online_softmax, [np.array(_c) for _c in _runs], expect=_softmax_of_row(_runs))
check_call(online_softmax, OnePass(_runs), expect=_softmax_of_row(_runs))
check_call(online_softmax, [np.array([-_inf]), np.array([-_inf, 3.0]), np.array([-_inf])], expect=[0.0, 0.0, 1.0, 0.0])
check_call(online_softmax, [np.array([-_inf, -1e12]), np.array([-1e12 - 2e4])], expect=[0.0, 1.0, 0.0])
# any number of leading -inf scores, in chunks of any size: a row that begins with 70 of them, 64 in one chunk
check_call(online_softmax, [np.full(64, -_inf), np.full(6, -_inf), np.array([1.0, 2.0])],
           expect=np.r_[np.zeros(70), _softmax_of_row([[1.0, 2.0]])])
from grader.learner.checks import check_generated


def _leading_minus_inf(rng, size):
    """A row that begins with 1 to about 70 -inf scores, then finite scores with -inf among them and chunks of
    nothing but -inf anywhere, cut into chunks of 1 to 12 scores, as a list of arrays or a one-pass stream (lists
    and reused buffers have tests of their own)."""
    _lead = int(rng.integers(1, 5 + 4 * size))
    _rest = rng.normal(scale=3.0, size=int(rng.integers(1, 3 + size)))
    _rest[1:][rng.random(_rest.size - 1) < 0.3] = -_inf
    _row = np.r_[np.full(_lead, -_inf), _rest]
    _cuts = np.cumsum(rng.integers(1, 13, size=_row.size))
    chunks = [_c for _c in np.split(_row, _cuts[_cuts < _row.size]) if _c.size]
    for _k in range(int(rng.integers(0, 3))):  # chunks of nothing but -inf in the middle or at the end
        chunks.insert(int(rng.integers(1, len(chunks) + 1)), np.full(int(rng.integers(1, 9)), -_inf))
    return (OnePass(chunks),) if rng.random() < 0.5 else (chunks,)


check_generated(online_softmax, _leading_minus_inf, reference=_softmax_of_row, seed=2019, examples=16)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_shapes" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property shapes: one 1-D array with a weight per score, in the row's order, for a single chunk, a single score, chunks of one score, chunks all of one size and uneven chunks
from grader.learner.checks import OnePass


def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


check_call(online_softmax, [np.array([7.0])], expect=[1.0])
check_call(online_softmax, OnePass([[-3.0]]), expect=[1.0])
_equal = [np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([0.0, -1.0])]
check_call(online_softmax, _equal, expect=_softmax_of_row(_equal))
check_call(online_softmax, OnePass(_equal), expect=_softmax_of_row(_equal))
_singles = [[0.5], [1.5], [-1.0], [2.0], [0.0]]
check_call(online_softmax, [np.array(_c) for _c in _singles], expect=_softmax_of_row(_singles))
_long = [np.linspace(-3.0, 3.0, 300)]
check_call(online_softmax, _long, expect=_softmax_of_row(_long))
### END HIDDEN TESTS

# %% [markdown]
# ## 16. A long row, one pass
#
# **Predict.** 100,000 scores from a generator, in chunks of 1,024, with the largest score
# arriving in the very last chunk. Will `online_softmax` match `stable_softmax` of the whole
# row?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
long_rng = np.random.default_rng(2018)
long_row = long_rng.normal(scale=3.0, size=100_000)
long_row[-5] = 40.0   # the max arrives late
online = online_softmax(chunks_of(long_row, 1024))
reference = stable_softmax(long_row)
chunk_maxima = [chunk.max() for chunk in chunks_of(long_row, 1024)]
records = sum(top > max(chunk_maxima[:k], default=-np.inf) for k, top in enumerate(chunk_maxima))
print("chunks:", len(chunk_maxima), "| weights:", online.shape, online.dtype,
      f"| the running max grew in {records} of the chunks")
print(f"the first from -inf, with nothing to rescale: the running sum was rescaled {records - 1} times")
print(f"largest difference from stable_softmax: {np.abs(online - reference).max():.1e}")
print("online_softmax matches stable_softmax:", bool(np.allclose(online, reference, rtol=1e-12, atol=1e-15)))

# %% [markdown]
# The running max grew in 6 chunks along the way (every chunk that held a new record, the
# last one among them). The first of them only set it, from `-inf`, when the sum was still
# empty; each of the other 5 rescaled the running sum. The result matches
# the three-pass stable softmax to rounding. The same holds with forbidden positions, a
# single chunk, or a chunk per score:

# %%
masked_row = np.where(long_rng.random(2_000) < 0.3, -np.inf, long_rng.normal(size=2_000))
masked_row[:300] = -np.inf   # a whole masked tile at the start, as under a causal mask
for size in (1, 7, 256, 2_000):
    same = np.allclose(online_softmax(chunks_of(masked_row, size)), stable_softmax(masked_row),
                       rtol=1e-12, atol=1e-15)
    print(f"chunks of {size:4d}: matches stable_softmax: {same}")

# %% [markdown]
# **How often is the row read, and how much is kept?** The next cell counts the scores each
# way reads from its source, and measures with Python's `tracemalloc` the most memory
# `online_softmax` holds at once while it runs.
#
# **Predict.** Will `online_softmax` hold less memory than the row itself?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
import tracemalloc


def counted(row, size, tally):
    """The chunks of `row`, adding the number of scores handed out to tally[0]."""
    for chunk in chunks_of(row, size):
        tally[0] += len(chunk)
        yield chunk


three_pass = [0]
top = max(chunk.max() for chunk in counted(long_row, 1024, three_pass))                   # pass 1: the max
total = sum(np.exp(chunk - top).sum() for chunk in counted(long_row, 1024, three_pass))   # pass 2: the sum
three_pass_weights = np.concatenate([np.exp(chunk - top) / total for chunk in counted(long_row, 1024, three_pass)])
one_read = [0]
tracemalloc.start()
online = online_softmax(counted(long_row, 1024, one_read))
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(f"three-pass stable softmax: reads the row {three_pass[0] / len(long_row):.0f} times")
print(f"online_softmax: reads the row {one_read[0] / len(long_row):.0f} time")
print(f"the row: {long_row.nbytes:,} bytes; online_softmax held up to {peak:,} bytes at once")
print("online_softmax held at least as much as the row:", peak >= long_row.nbytes)

# %% [markdown]
# One read instead of three, but not less memory: the evidence kept for the second pass is as
# large as the row (and the weights it returns are as large again). When the weights are the
# output, this is the best there is.

# %% [markdown]
# ## 17. Per tile, as FlashAttention does
#
# In attention we rarely need the weights themselves: we need the **weighted sum of the
# value vectors**, `o = Σ_i p_i v_i`. Then the second pass goes too: the weights are used as
# they are made, and nothing of them is stored. Keep a running max `m`, a running sum `s`, and
# a running **accumulator** `acc = Σ exp(x_i - m) v_i` (one vector of width `d_v`). When a
# tile of keys raises the max, rescale *both* `s` and `acc` by `exp(m_old - m_new)`; at the
# end, divide once: `o = acc / s`.
#
# **FlashAttention** (Dao et al., *FlashAttention: Fast and Memory-Efficient Exact Attention
# with IO-Awareness*, 2022) computes attention this way, loading tiles of keys and values into
# fast on-chip memory and never writing out the matrix of weights. The form above, an
# *unnormalised* accumulator divided once at the end, is **FlashAttention-2**'s (Dao,
# *FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning*, 2023).
# FlashAttention-1 keeps its output normalised after every tile: it multiplies the output so
# far by `s_old · exp(m_old - m_new) / s_new` and adds the new tile's evidence times its values,
# divided by `s_new`. The same numbers, with a division of the whole output in every tile.

# %%
def online_attention_row(query, keys, values, tile=64):
    """One query's attention output, reading keys and values tile by tile (weights never stored)."""
    m, s, acc = -np.inf, 0.0, np.zeros(values.shape[1])
    for start in range(0, len(keys), tile):
        scores = keys[start:start + tile] @ query / np.sqrt(len(query))
        m_new = max(m, scores.max())
        evidence = np.exp(scores - m_new)
        factor = np.exp(m - m_new)
        s = s * factor + evidence.sum()
        acc = acc * factor + evidence @ values[start:start + tile]
        m = m_new
    return acc / s


att_rng = np.random.default_rng(7)
query, keys, values = att_rng.normal(size=16), att_rng.normal(size=(5_000, 16)), att_rng.normal(size=(5_000, 4))
tiled = online_attention_row(query, keys, values)
full = stable_softmax(keys @ query / np.sqrt(16)) @ values
print("tiled output:", tiled)
print("full output: ", full)
print("tiled attention matches the full computation:", bool(np.allclose(tiled, full, rtol=1e-12, atol=1e-14)))


def normalised_attention_row(query, keys, values, tile=64):
    """FlashAttention-1's form: the output kept normalised, rescaled by s_old exp(m_old - m_new) / s_new per tile."""
    m, s, out, divisions = -np.inf, 0.0, np.zeros(values.shape[1]), 0
    for start in range(0, len(keys), tile):
        scores = keys[start:start + tile] @ query / np.sqrt(len(query))
        m_new = max(m, scores.max())
        evidence = np.exp(scores - m_new)
        s_new = s * np.exp(m - m_new) + evidence.sum()
        out = (out * (s * np.exp(m - m_new)) + evidence @ values[start:start + tile]) / s_new
        m, s, divisions = m_new, s_new, divisions + out.size
    return out, divisions


normalised, divisions = normalised_attention_row(query, keys, values)
tiles = -(-len(keys) // 64)
print("FlashAttention-1's normalised form matches too:", bool(np.allclose(normalised, full, rtol=1e-12, atol=1e-14)))
print(f"divisions of the output: {divisions} ({tiles} tiles of 64 keys, d_v = {values.shape[1]}) normalised per tile, "
      f"{values.shape[1]} divided once at the end")

# %% [markdown]
# Same output, in one pass over the keys and values, with only `m`, `s` and a 4-number
# accumulator kept between tiles instead of 5,000 weights. FlashAttention does this for a
# block of queries at once. Under a causal mask it skips the tiles wholly above the diagonal
# and masks the tiles that straddle it with `-inf`; padding can make a whole tile `-inf` (the
# first tiles of a left-padded sequence, say), which is why a chunk of nothing but `-inf` had
# to work in your `online_softmax`.
#
# **Predict.** What does this save in memory, per query and for a whole attention head?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
d_v, n_tokens = values.shape[1], len(keys)
print(f"kept between tiles, per query: {2 + d_v} numbers (m, s and d_v = {d_v}), whether there are "
      f"{n_tokens:,} keys or ten times as many")
print(f"one head over N = {n_tokens:,} tokens: the weights would be N² = {n_tokens ** 2:,} numbers; "
      f"m and s of every query are 2N = {2 * n_tokens:,}")

# %% [markdown]
# Per query, the memory grows with `d_v`, not with the length of the context. For a whole head
# the `N × N` matrix of weights (25,000,000 numbers here) is never stored: besides its inputs
# and its output, FlashAttention keeps a number or two per query (the max and the sum, or
# FlashAttention-2's log-sum-exp, for the backward pass), memory that grows like `N` instead
# of `N²`.

# %% [markdown]
# ## What carries forward
#
# - Softmax's Jacobian is `diag(p) - p pᵀ`: positive on the diagonal, negative elsewhere, and
#   every row and column sums to zero because the weights always sum to 1 (and a common shift
#   of the scores changes nothing).
# - When one score dominates, every entry goes to zero. That stalls learning where the slope
#   after the softmax stays moderate, as in attention, whose `1 / √d_k` keeps its scores'
#   spread near 1 at any width.
# - It does not stall cross-entropy: the gradient of `LSE(z) - z_y` is `softmax(z) - onehot(y)`,
#   largest when the model is confidently wrong and 0 only when it is right and sure.
#   Measure wrong, walk downhill: that is training.
# - A running max and a running sum rescaled by `exp(m_old - m_new)` give softmax's
#   normaliser in one pass over the chunks of a row: two passes instead of three, with
#   evidence kept as large as the row. Add a rescaled accumulator of value vectors and the
#   weights are used as they are made: one pass, nothing stored but `m`, `s` and `d_v`
#   numbers per query, the inner loop of FlashAttention.
#
# The same `m + log(s)` that the online pass ends with is the log-sum-exp of lesson 08: the
# log of the total evidence, found without ever forming a number that overflows.
