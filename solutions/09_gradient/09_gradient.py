# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 09 — The softmax gradient, and the gradient that trains
#
# **By the end of this lesson you will be able to**
# - derive the Jacobian of softmax, `diag(p) - p pᵀ`, and measure any gradient with a
#   finite-difference check you write yourself, `numerical_gradient`;
# - say why each row and column of the Jacobian sums to zero;
# - show that the Jacobian vanishes when one score dominates (saturation), and say when that
#   stalls learning and when it need not;
# - compute what the backward pass needs, `Jᵀ g`, without building `J` (`softmax_vjp`);
# - derive from it the gradient that training uses, `softmax(z) - onehot(y)`, and write it;
# - carry it back by the chain rule to the parameters that make the scores, and walk downhill:
#   first one number that learns how sure to be, then a small matrix `W` that classifies points.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess
# *before* you run them.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt

from grader.learner.checks import check_call, check_quiet, check_values, passed
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
# The formula is one line of NumPy, given here: `np.diag` builds the diagonal matrix from a
# vector, `np.outer` the matrix of all products. (On a 1-D array `p.T` is `p` itself, so
# `p @ p.T` would be the dot product, one number, not the outer product.)

# %% nbgrader="readonly" grade_id="given_softmax_jacobian"
def softmax_jacobian(p):
    """Jacobian of softmax from its output p (1-D): J[i, j] = d p_i / d s_j = p_i (delta_ij - p_j)."""
    p = np.asarray(p, dtype=float)
    return np.diag(p) - np.outer(p, p)


print(softmax_jacobian([0.5, 0.5]))

# %% [markdown]
# Raising one of two equal scores raises its own weight at the rate `0.25` and lowers the other
# at the same rate: the diagonal is positive, the rest negative.
#
# Is the formula right? A derivation on paper can hide a slip. The next sections build a tool
# that checks any gradient by measuring it.

# %% [markdown]
# ## 2. Measure a slope
#
# A derivative is a slope, and a slope can be *measured*: move the input a little, see how
# far the output moves, divide. For a function `f` of one number, the **one-sided difference**
# `(f(x + h) - f(x)) / h` is the slope of the chord from `x` to `x + h`. The **central
# difference** `(f(x + h) - f(x - h)) / 2h` takes the chord from `x - h` to `x + h`, centred on
# `x`.
#
# The centred one is far better. Expand `f` around `x` (Taylor):
# `f(x ± h) = f(x) ± h f'(x) + h²/2 f''(x) ± h³/6 f'''(x) + …`. The one-sided difference keeps the
# `h²/2 f''` term, so it is off by about `h/2 · f''`: an error that shrinks like `h`. In the
# central difference the `h²` terms cancel (they have the same sign on both sides), and what is
# left is `h²/6 · f'''`: an error that shrinks like `h²`.
#
# **Predict.** For `f(x) = x³` at `x = 1` (slope 3), each time `h` gets 10 times smaller, how
# much smaller does each error get?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
def cube(x):
    return x**3


for step in (1e-1, 1e-2, 1e-3, 1e-4, 1e-5):
    one_sided = (cube(1 + step) - cube(1)) / step
    central = (cube(1 + step) - cube(1 - step)) / (2 * step)
    print(f"h = {step:.0e}: one-sided {one_sided:.10f} (off by {abs(one_sided - 3):.1e}), "
          f"central {central:.10f} (off by {abs(central - 3):.1e})")

# %% [markdown]
# The one-sided error falls 10 times per row, `3h` (here `f''/2 = 3`); the central error falls
# 100 times, `h²` (here `f'''/6 = 1`), down to `9.7e-11` at `h = 1e-5`, where the one-sided
# difference is still off by `3.0e-05`.
#
# **Predict.** Does a still smaller `h` keep helping?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
steps = np.logspace(-12, -1, 45)
one_sided_error = np.abs((cube(1 + steps) - cube(1)) / steps - 3)
central_error = np.abs((cube(1 + steps) - cube(1 - steps)) / (2 * steps) - 3)
best = steps[np.argmin(central_error)]
print(f"central: smallest error {central_error.min():.1e}, at h = {best:.1e}")
print(f"at h = 1e-12: one-sided off by {one_sided_error[0]:.1e}, central by {central_error[0]:.1e}")

fig, ax = plt.subplots(figsize=(7, 3.8))
ax.loglog(steps, one_sided_error, "o-", color=PALETTE[3], markersize=3, label="one-sided: (f(1 + h) - f(1)) / h")
ax.loglog(steps, central_error, "s--", color=PALETTE[0], markersize=3, label="central: (f(1 + h) - f(1 - h)) / 2h")
ax.set(title="Measuring the slope of x³ at 1: the error against the step h",
       xlabel="step h (log scale)", ylabel="|measured slope - 3| (log scale)")
ax.legend(frameon=False)
ax.grid(True, which="major", alpha=0.3)
show(fig, alt="Log-log chart of the error of two measured slopes of x cubed at 1 against the step h, from 1e-12 "
              "to 0.1. The one-sided error (vermillion circles) falls along a line of slope 1 from 0.3 at h = 0.1 "
              "to about 4e-9 near h = 1e-8; the central error (blue squares, dashed) falls twice as steeply, along "
              "a line of slope 2, to about 5e-12 near h = 3e-6. Below those steps both rise again, jagged, to about "
              "1e-4 at h = 1e-12.")

# %% [markdown]
# No: below a few millionths the error climbs again. `f(x + h)` and `f(x - h)` are rounded to
# about 16 digits, and dividing their difference by a tiny `2h` magnifies that rounding, by
# `1 / h`. The central difference is best near `h = 3.2e-06`, off by `5.0e-12`; by
# `h = 1e-12` both are off by about `1e-4`. For functions of moderate size, `h = 1e-5` sits
# near the bottom and measures slopes to about 10 digits.
#
# A function of many numbers has one slope per number, its **gradient**: entry `j` is the
# slope when only entry `j` moves, the others held still. Measure each one in turn.

# %% [markdown]
# ### Exercise: `numerical_gradient`
#
# Write `numerical_gradient(f, x, h=1e-5)`, the gradient of `f` at `x`, measured.
#
# - `f` takes an array shaped like `x` and returns a number; `x` is a float or integer NumPy
#   array of any shape with at least one axis (a vector, a matrix of weights);
# - return a float array **shaped like `x`**, whose entry `j` is the central difference along
#   entry `j` alone: `f` at `x` with entry `j` raised by `h`, minus `f` at `x` with entry `j`
#   lowered by `h`, over `2h`. Every other entry stays where it is;
# - use the `h` you are given;
# - leave `x` exactly as it was, bit for bit: `f` is called on nudged copies, never on the
#   caller's own array left nudged. (Nudging an entry up and then down again does not always
#   bring it back to the same float.) An integer `x` holds no `x + 1e-5`: measure at float copies.
#
# Hint: `np.ndindex`, given an array's shape, runs over every index of an array of that shape,
# and an index it gives reads or sets one entry. What must each call to `f` see, and how do
# you build it without touching `x`?

# %% nbgrader="solution" grade_id="numerical_gradient"
def numerical_gradient(f, x, h=1e-5):
    """The gradient of f at x, measured: entry j is (f(x + h e_j) - f(x - h e_j)) / 2h, one entry at a time."""
    ### BEGIN SOLUTION
    x = np.asarray(x, dtype=np.float64)
    gradient = np.empty(x.shape)
    for j in np.ndindex(x.shape):
        nudged = x.copy()
        nudged[j] = x[j] + h
        up = f(nudged)
        nudged[j] = x[j] - h
        down = f(nudged)
        gradient[j] = (up - down) / (2 * h)
    return gradient
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_numerical_gradient_public" points=1 function="numerical_gradient"
from grader.learner.streams import Formula  # a function of an array from a fixed list, which checks can hand over

_x = np.array([1.0, -2.0, 0.5])
_cube_sum = Formula("cubic", (3,), 1.0, 0.0, 0.0)  # f(x) = sum(x**3): its gradient is 3 x**2
check_call(numerical_gradient, _cube_sum, _x, expect=3 * _x**2, within=1e-8)  # central: within 1e-8
_sum_squared = Formula("square_of_sum", (3,), 1.0)  # f(x) = sum(x)**2: every entry of its gradient is 2 sum(x)
check_call(numerical_gradient, _sum_squared, _x, expect=np.full(3, 2 * _x.sum()), within=1e-8)
# the h given: for sum(x**3) the central difference is exactly 3 x**2 + h**2
check_call(numerical_gradient, _cube_sum, _x, h=0.1, expect=3 * _x**2 + 0.01, within=1e-9)
_m = np.array([[1.0, 2.0], [-1.0, 0.5]])  # a matrix: the gradient is shaped like it
check_call(numerical_gradient, Formula("cubic", (2, 2), 1.0, 0.0, 0.0), _m, expect=3 * _m**2, within=1e-8)
passed("numerical_gradient")

# %% nbgrader="tests" grade_id="test_numerical_gradient_value" points=2 function="numerical_gradient"
### BEGIN HIDDEN TESTS
# property value: entry j is the slope of f along entry j of x: within 1e-8 (relative and absolute) of the true gradient for smooth functions of moderate size, with h = 1e-5
# property central: the central difference (f(x + h e_j) - f(x - h e_j)) / 2h, whose error shrinks like h^2; a one-sided difference is off by about h f''/2, some 1e-5 here
from grader.learner.streams import Formula

_x = np.array([0.3, -1.2, 2.0, 0.75])
_a, _b, _c = np.array([1.0, -0.5, 0.25, 2.0]), np.array([0.5, 1.0, -1.0, 0.0]), np.array([1.0, 0.0, 2.0, -3.0])
check_call(numerical_gradient, Formula("cubic", (4,), _a, _b, _c), _x, expect=3 * _a * _x**2 + 2 * _b * _x + _c,
           within=1e-8)
_w = np.array([0.5, -0.25, 0.1, 0.3])
check_call(numerical_gradient, Formula("exp_dot", (4,), _w), _x, expect=_w * np.exp(_w @ _x), within=1e-8)
check_call(numerical_gradient, Formula("sin_sum", (4,), 1.5, np.array([1.0, 2.0, 3.0, 0.5])), _x,
           expect=1.5 * np.array([1.0, 2.0, 3.0, 0.5]) * np.cos(np.array([1.0, 2.0, 3.0, 0.5]) * _x), within=1e-8)
for _seed in (1, 2, 3):
    _rng = np.random.default_rng(_seed)
    _shape = ((5,), (2, 3), (3, 1))[_seed - 1]
    _xs = _rng.normal(size=_shape)
    _ws = _rng.uniform(1.0, 3.0, size=_shape)
    check_call(numerical_gradient, Formula("cubic", _shape, _ws, 0.0, 0.0), _xs, expect=3 * _ws * _xs**2, within=1e-8)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_numerical_gradient_step" points=1 function="numerical_gradient"
### BEGIN HIDDEN TESTS
# property step: the h given is the step, up and down, and the difference is divided by 2h (the distance between the two points), never by h
from grader.learner.streams import Formula

_x = np.array([1.0, -0.5, 2.0])
_a = np.array([1.0, 2.0, -1.0])
for _h in (0.1, 0.01, 0.003):
    check_call(numerical_gradient, Formula("cubic", (3,), _a, 0.0, 0.0), _x, h=_h, expect=3 * _a * _x**2 + _a * _h**2,
               within=1e-9)
_w = np.array([2.0, -1.0, 0.5])
check_call(numerical_gradient, Formula("exp_dot", (3,), _w), _x, h=0.05,
           expect=_w * np.exp(_w @ _x) * np.sinh(_w * 0.05) / (_w * 0.05), within=1e-9)
check_call(numerical_gradient, Formula("quadratic_form", (3,), np.diag([2.0, 4.0, 6.0])), _x, h=0.5,
           expect=np.array([2.0, 4.0, 6.0]) * _x, within=1e-9)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_numerical_gradient_one_at_a_time" points=1 function="numerical_gradient"
### BEGIN HIDDEN TESTS
# property one_at_a_time: entry j moves x's entry j alone, every other entry held where it is, in vectors and matrices alike
from grader.learner.streams import Formula

_x = np.array([0.5, -1.0, 2.0])
_w = np.array([1.0, 2.0, -1.0])
check_call(numerical_gradient, Formula("square_of_sum", (3,), _w), _x, expect=2 * (_w @ _x) * _w, within=1e-8)
_A = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, -1.0], [0.0, -1.0, 1.0]])
check_call(numerical_gradient, Formula("quadratic_form", (3,), _A), _x, expect=_A @ _x, within=1e-8)
_X = np.array([[0.5, -1.0], [2.0, 0.25]])
_B = np.array([[1.0, 0.5, 0.0, -1.0], [0.5, 2.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.5], [-1.0, 0.0, 0.5, 3.0]])
check_call(numerical_gradient, Formula("quadratic_form", (2, 2), _B), _X, expect=(_B @ _X.ravel()).reshape(2, 2),
           within=1e-8)
_W = np.array([[1.0, -2.0], [0.5, 3.0]])
check_call(numerical_gradient, Formula("square_of_sum", (2, 2), _W), _X, expect=2 * np.sum(_W * _X) * _W, within=1e-8)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_numerical_gradient_shapes" points=1 function="numerical_gradient"
### BEGIN HIDDEN TESTS
# property shapes: the result has x's shape and f is called on arrays of that shape, for vectors (one entry included), matrices, columns (n, 1) and rows (1, n)
from grader.learner.streams import Formula

for _shape in ((1,), (2,), (3, 4), (4, 1), (1, 5), (2, 2, 2)):
    _x = np.linspace(-1.0, 1.5, num=int(np.prod(_shape))).reshape(_shape)
    _w = np.linspace(0.5, 2.0, num=_x.size).reshape(_shape)
    check_call(numerical_gradient, Formula("cubic", _shape, _w, 0.0, 1.0), _x, expect=3 * _w * _x**2 + 1.0, within=1e-8)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_numerical_gradient_unchanged" points=1 function="numerical_gradient"
### BEGIN HIDDEN TESTS
# property unchanged: x comes back bit for bit as it was (nudging it in place and stepping back leaves rounding in entries such as 0.1 and 0.7)
from grader.learner.streams import Formula

for _x in (np.array([0.1, 0.7, 1.1]), np.array([[0.2, 1.7], [0.1, -0.7]]), np.array([0.1])):
    check_call(numerical_gradient, Formula("cubic", _x.shape, 1.0, 0.0, 0.0), _x, expect=3 * _x**2, within=1e-8)
_x = np.array([0.1, 0.7, 1.1])
check_call(numerical_gradient, Formula("square_of_sum", (3,), np.ones(3)), _x, expect=np.full(3, 2 * _x.sum()),
           within=1e-8)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_numerical_gradient_details" points=1 function="numerical_gradient"
### BEGIN HIDDEN TESTS
# property dtype: an integer x of any width gives the float gradient, measured at float points (a nudge of 1e-5 written into an integer array vanishes)
from grader.learner.streams import Formula

for _dtype in (np.int64, np.int32, np.int8):
    _x = np.array([1, -2, 3], dtype=_dtype)
    check_call(numerical_gradient, Formula("cubic", (3,), 1.0, 0.25, 0.0), _x,
               expect=3 * _x.astype(float) ** 2 + 0.5 * _x.astype(float), within=1e-8)
_X = np.array([[2, 0], [1, -1]])
check_call(numerical_gradient, Formula("square_of_sum", (2, 2), np.ones((2, 2))), _X, expect=np.full((2, 2), 4.0),
           within=1e-8)
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Check the Jacobian by measuring it
#
# Row `i` of `J` holds the slopes of one weight, `p_i`, with respect to every score: it is the
# gradient of the function `s ↦ softmax(s)[i]`. Your `numerical_gradient` measures it.
#
# **Predict.** With `h = 1e-5`, how close will the measured slopes come to the formula at
# the journey scores of lessons 01 and 03: 1e-2? 1e-6? 1e-10?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
journey_scores = np.array([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
journey_weights = stable_softmax(journey_scores)
J = softmax_jacobian(journey_weights)
measured = np.array([numerical_gradient(lambda s: stable_softmax(s)[i], journey_scores) for i in range(6)])

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
# slope stays moderate, as in attention, where the weights only average value vectors, a
# vanishing Jacobian means a vanishing gradient and the scores stop learning: that is why lesson
# 07 divides attention's scores by `√d_k`, which keeps their spread near 1 at any width.
# When the slope grows as a weight shrinks, as cross-entropy's `-1 / p_y` does, only the
# product tells: the next sections work it out.
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
# ## 6. The backward pass never builds `J`
#
# Section 5 wrote what reaches the scores: `∂L/∂s = Jᵀ g`, where `g = ∂L/∂p`, one number per
# weight, is the slope of the loss with respect to each weight, handed back by whatever the
# weights feed into. That uses `J` only through its product with one vector. Building `J` to
# get it costs `n²` numbers: for a language model's vocabulary, too many.

# %%
vocabulary = 50_257  # GPT-2's vocabulary
entries = vocabulary**2
print(f"a Jacobian over {vocabulary:,} tokens: {entries:,} entries, {entries * 8 / 1e9:.1f} GB in float64")
print(f"p and g together: {2 * vocabulary:,} numbers, {2 * vocabulary * 8 / 1e6:.1f} MB")

# %% [markdown]
# Twenty gigabytes for one row of scores, and every token of every sequence of a batch has its
# row. Frameworks never build it. Each operation's backward pass computes the
# **vector–Jacobian product** `Jᵀ g` straight from what the forward pass kept, here `p`, in
# about as many steps as there are weights. (Softmax's `J` is symmetric, so `Jᵀ g = J g`.)

# %% [markdown]
# ### Exercise: `softmax_vjp`
#
# Write `softmax_vjp(p, g)`: the product `Jᵀ g` for `J = diag(p) - p pᵀ`, without building `J`.
#
# - `p` holds weights along the last axis, shape `(..., n)` (each row sums to 1, the output of a
#   softmax); `g` has the same shape and holds any real numbers. Each row of `p` goes with the
#   same row of `g`: a batch is many products, one per row;
# - return a float array **shaped like `g`**; build no `n × n` matrix: the work and the memory
#   grow like `n` per row;
# - lists and integer arrays give float64; float32 `p` and `g` give float32; never change the
#   inputs.
#
# Hint: split `J g` into `diag(p) g` and `(p pᵀ) g`. The first multiplies entry by entry. For
# the second, group the product the other way, `p (pᵀ g)`: what kind of thing is `pᵀ g`, and
# how many of them does a batch have?

# %% nbgrader="solution" grade_id="softmax_vjp"
def softmax_vjp(p, g):
    """J^T g for the Jacobian J = diag(p) - p p^T of each row of p, without building J."""
    ### BEGIN SOLUTION
    p, g = np.asarray(p), np.asarray(g)
    if p.dtype.kind != "f":
        p = p.astype(np.float64)
    if g.dtype.kind != "f":
        g = g.astype(np.float64)
    return p * (g - np.sum(p * g, axis=-1, keepdims=True))
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_softmax_vjp_public" points=1 function="softmax_vjp"
_p = np.array([0.2, 0.3, 0.5])
_J = np.diag(_p) - np.outer(_p, _p)
check_call(softmax_vjp, _p, np.array([1.0, 0.0, 0.0]), expect=_J.T @ [1.0, 0.0, 0.0])
check_call(softmax_vjp, _p, np.array([0.5, -2.0, 1.0]), expect=_J.T @ [0.5, -2.0, 1.0])
# a batch: each row of p with the same row of g
check_call(softmax_vjp, np.array([[0.5, 0.5], [0.9, 0.1]]), np.array([[1.0, 0.0], [2.0, -1.0]]),
           expect=[[0.25, -0.25], [0.27, -0.27]])
passed("softmax_vjp")

# %% nbgrader="tests" grade_id="test_softmax_vjp_values" points=2 function="softmax_vjp"
### BEGIN HIDDEN TESTS
# property value: J^T g with J = diag(p) - p p^T, for any probability vector p (spread out, peaked, with zeros, one-hot) and any g
from grader.learner.checks import check_generated


def _by_jacobian(p, g):
    """Reference: the Jacobian built entry by entry for each row, times g."""
    p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
    rows, gs = p.reshape(-1, p.shape[-1]), g.reshape(-1, g.shape[-1])
    out = []
    for _q, _v in zip(rows, gs):
        _n = len(_q)
        _jac = np.array([[_q[i] * ((i == j) - _q[j]) for j in range(_n)] for i in range(_n)])
        out.append(_jac.T @ _v)
    return np.array(out).reshape(g.shape)


def _draw_pair(rng, size):
    """A probability vector of 1 to `size` weights (spread out, peaked, with exact zeros, or one-hot) and a g."""
    n = int(rng.integers(1, size + 2))
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
    return w / w.sum(), rng.normal(scale=10.0 ** rng.uniform(-1, 2), size=n)


_journey = np.exp([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
_journey = _journey / _journey.sum()
for _k in range(6):
    check_call(softmax_vjp, _journey, np.eye(6)[_k], expect=_by_jacobian(_journey, np.eye(6)[_k]))
check_call(softmax_vjp, _journey, np.arange(6.0) - 2.5, expect=_by_jacobian(_journey, np.arange(6.0) - 2.5))
check_call(softmax_vjp, np.array([0.0, 1.0, 0.0]), np.array([3.0, -1.0, 2.0]), expect=np.zeros(3))
check_generated(softmax_vjp, _draw_pair, reference=_by_jacobian, seed=951, examples=16)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_vjp_batch" points=1 function="softmax_vjp"
### BEGIN HIDDEN TESTS
# property batch: each row of p goes with the same row of g, its own product: square batches (as many rows as weights) and more leading axes included
def _by_jacobian(p, g):
    """Reference: the Jacobian built entry by entry for each row, times g."""
    p, g = np.asarray(p, dtype=float), np.asarray(g, dtype=float)
    rows, gs = p.reshape(-1, p.shape[-1]), g.reshape(-1, g.shape[-1])
    out = []
    for _q, _v in zip(rows, gs):
        _n = len(_q)
        _jac = np.array([[_q[i] * ((i == j) - _q[j]) for j in range(_n)] for i in range(_n)])
        out.append(_jac.T @ _v)
    return np.array(out).reshape(g.shape)


_rng = np.random.default_rng(95)
for _shape in ((3, 3), (2, 3), (4, 2), (2, 3, 4), (5, 5)):
    _e = np.exp(_rng.normal(size=_shape))
    _p = _e / _e.sum(axis=-1, keepdims=True)
    _g = _rng.normal(size=_shape)
    check_call(softmax_vjp, _p, _g, expect=_by_jacobian(_p, _g))
_p = np.array([[0.5, 0.5], [0.5, 0.5]])
check_call(softmax_vjp, _p, np.array([[1.0, 0.0], [0.0, 1.0]]), expect=[[0.25, -0.25], [-0.25, 0.25]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_vjp_sums" points=1 function="softmax_vjp"
### BEGIN HIDDEN TESTS
# property sums_to_zero: every row of the product sums to 0, whatever g (the columns of J sum to 0)
# property offset: adding one number to every entry of a row of g changes nothing in that row's product
_p = np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]])
_g = np.array([[1.0, -1.0, 2.0, 0.5], [3.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
_expected = _p * (_g - np.sum(_p * _g, axis=-1, keepdims=True))
check_call(softmax_vjp, _p, _g, expect=_expected)
check_call(softmax_vjp, _p, _g + np.array([[10.0], [-3.0], [0.5]]), expect=_expected)
check_call(softmax_vjp, _p, np.full((3, 4), 7.0), expect=np.zeros((3, 4)))
check_call(softmax_vjp, np.array([0.6, 0.4]), np.array([100.0, 100.0]), expect=[0.0, 0.0])
check_call(softmax_vjp, np.array([0.6, 0.4]), np.array([1.0, 0.0]), expect=[0.24, -0.24])
check_call(softmax_vjp, np.array([0.6, 0.4]), np.array([1001.0, 1000.0]), expect=[0.24, -0.24])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_vjp_shapes" points=1 function="softmax_vjp"
### BEGIN HIDDEN TESTS
# property shapes: the result is shaped like g: one row (n,), one weight (n = 1, product 0), a batch of one row (1, n), rows of one weight (k, 1) and leading axes of length 1
check_call(softmax_vjp, np.array([1.0]), np.array([4.0]), expect=[0.0])
check_call(softmax_vjp, np.array([[0.5, 0.5]]), np.array([[1.0, 0.0]]), expect=[[0.25, -0.25]])
check_call(softmax_vjp, np.ones((3, 1)), np.array([[1.0], [2.0], [3.0]]), expect=np.zeros((3, 1)))
check_call(softmax_vjp, np.array([[[0.2, 0.8]], [[0.5, 0.5]]]), np.array([[[1.0, 0.0]], [[0.0, 2.0]]]),
           expect=[[[0.16, -0.16]], [[-0.5, 0.5]]])
_p = np.full(300, 1 / 300)
_g = np.linspace(-1.0, 1.0, 300)
check_call(softmax_vjp, _p, _g, expect=_p * (_g - np.mean(_g)))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_vjp_unchanged" points=1 function="softmax_vjp"
### BEGIN HIDDEN TESTS
# property unchanged: neither p nor g is changed, read-only arrays and views included
_p = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
_g = np.array([[1.0, -1.0, 0.5], [0.0, 2.0, -2.0]])
_expected = _p * (_g - np.sum(_p * _g, axis=-1, keepdims=True))
check_call(softmax_vjp, _p, _g, expect=_expected)
_p_read, _g_read = _p.copy(), _g.copy()
_p_read.flags.writeable = False
_g_read.flags.writeable = False
check_call(softmax_vjp, _p_read, _g_read, expect=_expected)
_wide = np.array([[1.0, -1.0, 0.5, 9.0], [0.0, 2.0, -2.0, 9.0]])
check_call(softmax_vjp, _p, _wide[:, :3], expect=_expected)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_vjp_details" points=1 function="softmax_vjp"
### BEGIN HIDDEN TESTS
# property dtype: float32 p and g give float32, float64 give float64; lists and integer arrays give float64
_p, _g = [[0.25, 0.75], [0.5, 0.5]], [[1.0, 0.0], [0.0, 3.0]]
_expected = [[0.1875, -0.1875], [-0.75, 0.75]]
check_call(softmax_vjp, np.array(_p, dtype=np.float32), np.array(_g, dtype=np.float32), expect=_expected,
           dtype=np.float32)
check_call(softmax_vjp, np.array(_p), np.array(_g), expect=_expected, dtype=np.float64)
check_call(softmax_vjp, _p, _g, expect=_expected, dtype=np.float64)
check_call(softmax_vjp, np.array(_p), np.array([[1, 0], [0, 3]]), expect=_expected, dtype=np.float64)
check_call(softmax_vjp, np.array([0, 1, 0]), np.array([1, 2, 3]), expect=[0.0, 0.0, 0.0], dtype=np.float64)
### END HIDDEN TESTS

# %% [markdown]
# <details><summary>The formula (open it once your function passes)</summary>
#
# `diag(p) g` is `p ⊙ g`, entry by entry. `(p pᵀ) g = p (pᵀ g)`, and `pᵀ g = ⟨p, g⟩ = Σ_k p_k g_k`
# is one number per row: the weights' average of the slopes. So
#
# $$J^\top g = p \odot \bigl(g - \langle p, g\rangle\bigr)$$
#
# Each weight times how far its own slope sits above the weighted average slope: two
# multiplications, a sum and a subtraction per entry, and nothing of size `n²`. PyTorch's
# softmax backward computes this same expression (`output * (grad - (grad * output).sum(dim,
# keepdim=True))`).
#
# </details>

# %%
rng = np.random.default_rng(0)
g = rng.normal(size=6)
by_matrix = softmax_jacobian(journey_weights).T @ g
print("softmax_vjp matches the Jacobian times g:",
      bool(np.allclose(softmax_vjp(journey_weights, g), by_matrix, rtol=1e-12, atol=1e-15)))
print(f"sum of the product: {softmax_vjp(journey_weights, g).sum():.1e}")

# %% [markdown]
# **Predict.** Every weight's slope the same, `g = [5, 5, 5, 5, 5, 5]`: what does the
# product give? And does adding 5 to every entry of the `g` above change its product?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
print("g of all 5s gives:", softmax_vjp(journey_weights, np.full(6, 5.0)))
print("g and g + 5 give the same product:",
      bool(np.allclose(softmax_vjp(journey_weights, g + 5), softmax_vjp(journey_weights, g), atol=1e-15)))

# %% [markdown]
# Zero, and no change: a slope shared by every weight asks to raise them all at once, and the
# weights sum to 1 whatever the scores, so no score can answer it. Only how the slopes differ
# from their weighted average reaches the scores, and what reaches them sums to 0 (section 4).

# %% [markdown]
# ## 7. The gradient that training uses
#
# Training does not stop at the weights. A classifier, or a language model choosing its next
# token, scores its logits `z` with lesson 08's cross-entropy against the right class `y`:
# `L = -log p_y` with `p = softmax(z)`. To learn, it needs `∂L/∂z`, one number per logit.
#
# The loss depends on one weight only, `p_y`, so its slope on the weights is 0 everywhere but
# at the target, where it is the slope of `-log p_y`:
#
# $$g = \frac{\partial L}{\partial p} = -\frac{e_y}{p_y}$$
#
# (`e_y` is the vector with a 1 at `y` and 0 elsewhere). The backward pass hands `g` to
# softmax's vector–Jacobian product, your `softmax_vjp`. Computed as it stands, that fails
# exactly when learning matters most: a confidently wrong model gives its target a weight that
# rounds to 0 (lesson 08), and `-1 / 0` is `-inf`.

# %%
confident = np.array([1000.0, 0.0])  # sure of class 0; the right answer is class 1
weights = stable_softmax(confident)
with np.errstate(divide="ignore", invalid="ignore"):
    slope = np.zeros(2)
    slope[1] = -1 / weights[1]  # the slope of -log p_y, at the target only
    print("weights:", weights, "  g:", slope, "  through softmax_vjp:", softmax_vjp(weights, slope))

# %% [markdown]
# `0 · (-inf)` is `nan`, and `nan` spreads to every entry. So do the chain rule on paper
# first. Put `g = -e_y / p_y` into `p ⊙ (g - ⟨p, g⟩)`: work out `⟨p, g⟩` (only one term of its
# sum is not 0), then entry `j` for `j ≠ y` and for `j = y`. Simplify until nothing divides by
# `p_y`. What is left needs only the weights and the target.

# %% [markdown]
# ## 8. Exercise: `cross_entropy_grad`
#
# Write `cross_entropy_grad(logits, target)`: for every row, the gradient of that row's own
# cross-entropy loss with respect to its logits, in the form you simplified in section 7.
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
# Hint: compute the weights from the logits as lesson 05 does, never from a loss. The new piece
# is the target for a whole batch at once: for each row, a mark in the target's column and
# nothing elsewhere. It is a grid of answers to one comparison, like lesson 06's padding mask:
# what is compared with what?

# %% nbgrader="solution" grade_id="cross_entropy_grad"
def cross_entropy_grad(logits, target):
    """Gradient of each row's cross-entropy with respect to its logits, from the logits alone."""
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
check_values(cross_entropy_grad, np.array([2.0, 0.0, -1.0]), 0,
             expect=[-0.15620526551866054, 0.11419519938459449, 0.04201006613406605])
check_values(cross_entropy_grad, np.array([[2.0, 0.0, -1.0], [0.0, 0.0, 0.0]]), [2, 1],
             expect=[[0.8437947344813395, 0.11419519938459449, 0.04201006613406605 - 1.0], [1 / 3, 1 / 3 - 1.0, 1 / 3]])
# confidently wrong: about +1 and -1, never nan
check_values(cross_entropy_grad, np.array([1000.0, 0.0]), 1, expect=[1.0, -1.0])
# rows far apart
check_values(cross_entropy_grad, np.array([[0.0, 0.0], [-1000.0, -1000.0]]), [0, 0], expect=[[-0.5, 0.5], [-0.5, 0.5]])
check_values(cross_entropy_grad, np.array([1.0, 1.0], dtype=np.float32), 0, expect=np.array([-0.5, 0.5], dtype=np.float32))
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
    check_values(cross_entropy_grad, _journey, _k, expect=_grad_rows(_journey, _k))
_logits = np.random.default_rng(9).normal(scale=3.0, size=(4, 5))
_targets = np.array([4, 0, 2, 2])
check_values(cross_entropy_grad, _logits, _targets, expect=_grad_rows(_logits, _targets))
# property shift
_base = np.array([0.5, -1.0, 2.0, 0.0])
_shifts = np.array([0.0, 1000.0, -1000.0, 4096.5, -123456.25])
check_values(cross_entropy_grad, _base + _shifts[:, None], np.array([0, 1, 2, 3, 1]),
             expect=_grad_rows(np.broadcast_to(_base, (5, 4)), [0, 1, 2, 3, 1]))
check_generated(cross_entropy_grad, _draw_batch, reference=_grad_rows, seed=931, examples=14, values_only=True)
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
check_values(cross_entropy_grad, _same, np.array([0, 1, 2]), expect=_grad_rows(_same, [0, 1, 2]))
_sq = np.array([[3.0, 1.0], [0.0, 2.0]])
check_values(cross_entropy_grad, _sq, [1, 1], expect=_grad_rows(_sq, [1, 1]))
_tall = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [0.0, 5.0, 0.0], [1.0, 1.0, 1.0], [-2.0, 0.0, 2.0]])
check_values(cross_entropy_grad, _tall, np.array([2, 2, 0, 1, 0]), expect=_grad_rows(_tall, [2, 2, 0, 1, 0]))
_cube = np.random.default_rng(93).normal(scale=2.0, size=(2, 3, 4))
check_values(cross_entropy_grad, _cube, np.array([[0, 3, 1], [2, 2, 0]]), expect=_grad_rows(_cube, [[0, 3, 1], [2, 2, 0]]))
_vocabulary = np.random.default_rng(94).normal(scale=4.0, size=(2, 300))
check_values(cross_entropy_grad, _vocabulary, np.array([257, 3]), expect=_grad_rows(_vocabulary, [257, 3]))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_confident" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property confidently_wrong: a confidently wrong row gives about +1 on the class it favours and -1 on the target, the largest gradient a row can have, never nan, 0 or inf; a confidently right row gives about 0
# property signs: the target's entry lies between -1 and 0 and every other entry between 0 and 1, so that a step against the gradient raises the target's logit and lowers the others
check_values(cross_entropy_grad, np.array([20.0, 0.0]), 1, expect=[0.9999999979388463, 2.0611536181902033e-09 - 1.0])
check_values(cross_entropy_grad, np.array([20.0, 0.0]), 0, expect=[0.9999999979388463 - 1.0, 2.0611536181902033e-09])
check_values(cross_entropy_grad, np.array([[1000.0, 0.0], [0.0, 1000.0]]), np.array([1, 1]), expect=[[1.0, -1.0], [0.0, 0.0]])
check_values(cross_entropy_grad, np.array([0.0, 800.0, 0.0]), 2, expect=[0.0, 1.0, -1.0])
check_values(cross_entropy_grad, np.array([[4.0, 1.0, 0.0, 1.0]]), np.array([2]),
             expect=[[0.8945425763836083, 0.044536652408375864, 0.016384118799640083 - 1.0, 0.044536652408375864]])
check_values(cross_entropy_grad, np.array([0.5, 0.25]), 0, expect=[0.5621765008857981 - 1.0, 0.4378234991142019])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_extremes" points=1 function="cross_entropy_grad"
### BEGIN HIDDEN TESTS
# property extremes: logits up to about ±1e300, rows far apart from each other, rows far from zero (near ±1e12) with gaps of about 1, and -inf logits of other classes (gradient 0 there) give the right gradient, never inf or nan
_inf = np.inf
check_values(cross_entropy_grad, np.array([[1000.0, 1001.0], [-1000.0, -1001.0]]), [0, 0],
             expect=[[-0.7310585786300049, 0.7310585786300049], [-0.2689414213699951, 0.2689414213699951]])
check_values(cross_entropy_grad, np.array([[1e300, 0.0, -1e300]] * 3), np.array([0, 1, 2]),
             expect=[[0.0, 0.0, 0.0], [1.0, -1.0, 0.0], [1.0, 0.0, -1.0]])
_masked = np.array([[-_inf, 2.0, 0.0, -_inf], [5.0, -_inf, -_inf, -_inf], [-1e12, -_inf, 1e12, 0.0]])
check_values(cross_entropy_grad, _masked, np.array([1, 0, 0]),
             expect=[[0.0, 0.8807970779778823 - 1.0, 0.11920292202211755, 0.0], [0.0, 0.0, 0.0, 0.0],
                   [-1.0, 0.0, 1.0, 0.0]])
_huge32 = np.array([[1e30, 0.0, -1e30], [-1e30, -_inf, -2e30]], dtype=np.float32)
check_values(cross_entropy_grad, _huge32, [2, 0], expect=np.array([[1.0, 0.0, -1.0], [0.0, 0.0, 0.0]], dtype=np.float32))
check_values(cross_entropy_grad, np.array([-1e300, -_inf, -1e300 * 1.5]), 2, expect=[1.0, 0.0, -1.0])
check_values(cross_entropy_grad, np.array([[-1e12, -1e12 - 1.0], [3.0, 1e12]]), np.array([1, 0]),
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


check_values(cross_entropy_grad, np.array([[2.0, 0.0, -1.0]]), np.array([0]), expect=_grad_rows([[2.0, 0.0, -1.0]], [0]))
check_values(cross_entropy_grad, np.array([[[2.0, 0.0, -1.0]], [[0.0, 0.0, 0.0]]]), np.array([[0], [1]]),
             expect=_grad_rows([[[2.0, 0.0, -1.0]], [[0.0, 0.0, 0.0]]], [[0], [1]]))
check_values(cross_entropy_grad, np.array([[5.0], [-3.0], [0.25]]), np.zeros(3, dtype=int), expect=[[0.0], [0.0], [0.0]])
check_values(cross_entropy_grad, np.array([7.0]), 0, expect=[0.0])
check_values(cross_entropy_grad, np.array([1.0, 3.0]), 1, expect=_grad_rows([1.0, 3.0], 1))
_four = np.arange(24.0).reshape(1, 2, 3, 4) / 8
check_values(cross_entropy_grad, _four, np.array([[[0, 1, 2], [3, 3, 0]]]),
             expect=_grad_rows(_four, [[[0, 1, 2], [3, 3, 0]]]))
check_generated(cross_entropy_grad, _draw_shapes, reference=_grad_rows, seed=932, examples=10, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_cross_entropy_grad_details" points=1 function="cross_entropy_grad"
# details: lists give float64, float32 stays float32, and the answer is a NumPy array
check_call(cross_entropy_grad, [2.0, 0.0, -1.0], 0, expect=[-0.15620526551866054, 0.11419519938459449, 0.04201006613406605],
           dtype=np.float64)
check_call(cross_entropy_grad, [[2.0, 0.0, -1.0], [0.0, 0.0, 0.0]], [2, 1],
           expect=[[0.8437947344813395, 0.11419519938459449, 0.04201006613406605 - 1.0], [1 / 3, 1 / 3 - 1.0, 1 / 3]],
           dtype=np.float64)
check_call(cross_entropy_grad, [1000.0, 0.0], 1, expect=[1.0, -1.0], dtype=np.float64)
check_call(cross_entropy_grad, [[0.0, 0.0], [-1000.0, -1000.0]], [0, 0], expect=[[-0.5, 0.5], [-0.5, 0.5]], dtype=np.float64)
check_call(cross_entropy_grad, np.array([1.0, 1.0], dtype=np.float32), 0, expect=[-0.5, 0.5], dtype=np.float32)
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
# the meaning cells' calls with their dtype pinned, or with lists
check_call(cross_entropy_grad, np.array([[1e30, 0.0, -1e30], [-1e30, -np.inf, -2e30]], dtype=np.float32), [2, 0],
           expect=[[1.0, 0.0, -1.0], [0.0, 0.0, 0.0]], dtype=np.float32)
check_call(cross_entropy_grad, [20.0, 0.0], 1, expect=[0.9999999979388463, 2.0611536181902033e-09 - 1.0], dtype=np.float64)
check_call(cross_entropy_grad, [7.0], 0, expect=[0.0], dtype=np.float64)
check_call(cross_entropy_grad, [[1000.0, 1001.0], [-1000.0, -1001.0]], [0, 0],
           expect=[[-0.7310585786300049, 0.7310585786300049], [-0.2689414213699951, 0.2689414213699951]],
           dtype=np.float64)
# no warning on any input the contract allows
from grader.learner.checks import check_quiet

check_quiet(cross_entropy_grad, [[1000.0, 0.0], [-1000.0, -1001.0]], [1, 0])
check_quiet(cross_entropy_grad, np.array([[1e300, 0.0, -1e300], [-np.inf, 1.0, -np.inf]]), np.array([0, 1]))
check_quiet(cross_entropy_grad, np.array([[200.0, 0.0], [-np.inf, -1e30]], dtype=np.float32), [1, 1])
check_quiet(cross_entropy_grad, np.array([[-1e300, -np.inf], [-1e12, 1e12]]), np.array([0, 0]))
check_quiet(cross_entropy_grad, [0.0, -1000.0, 1000.0], 1)
### END HIDDEN TESTS

# %% [markdown]
# <details><summary>The derivation (open it once your function passes)</summary>
#
# With `g = -e_y / p_y`, the sum `⟨p, g⟩ = Σ_k p_k g_k` has one term that is not 0:
# `p_y · (-1 / p_y) = -1`. So entry `j` of `p ⊙ (g - ⟨p, g⟩) = p ⊙ (g + 1)` is
#
# - for `j ≠ y`: `p_j (0 + 1) = p_j`;
# - for `j = y`: `p_y (-1 / p_y + 1) = p_y - 1`.
#
# The gradient of the loss is the weights minus the answer:
#
# $$\frac{\partial L}{\partial z} = \operatorname{softmax}(z) - \operatorname{onehot}(y)$$
#
# The factor `p_y` cancelled: the Jacobian shrinks with `p_y` exactly as fast as the loss's
# slope grows. Every wrong class gets `p_j`, positive: lower its logit by as much weight as it
# took. The target gets `p_y - 1`, negative: raise its logit by as much weight as it still
# lacks. Like every gradient that passes through softmax, it sums to 0 over the logits.
#
# The same answer without the Jacobian: `L = LSE(z) - z_y`, the derivative of log-sum-exp is
# softmax (`∂ LSE / ∂z_j = exp(z_j) / Σ_k exp(z_k) = p_j`), and `∂z_y / ∂z_j` is 1 at `j = y`,
# 0 elsewhere. Frameworks fuse softmax and cross-entropy and compute `p - onehot(y)` from the
# logits, never `-1 / p_y`: one more reason PyTorch's `cross_entropy` takes logits.
#
# </details>

# %% [markdown]
# ## 9. Check it against finite differences
#
# Measure the slope of the loss with your `numerical_gradient`: the function is
# `z ↦ cross_entropy(z, target)`. Take the journey scores as logits, and say that the right
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
measured = numerical_gradient(lambda z: cross_entropy(z, target), journey_scores)
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
# moderate. A squared error on the weights, `Σ (p - onehot(y))²`, is such a loss: its slope on
# the weights is `g = 2 (p - onehot(y))`, a vector of at most 2, and what reaches the logits is
# `softmax_vjp(p, g)`, as small as the Jacobian.
#
# </details>

# %%
def squared_error(logits, target):
    """sum((p - onehot)**2): a loss on the weights whose slope stays moderate."""
    p = stable_softmax(logits)
    return np.sum((p - np.eye(len(p))[target]) ** 2)


def squared_error_grad(logits, target):
    """Gradient of sum((p - onehot)**2) with respect to the logits: the slope 2 (p - onehot) through softmax_vjp."""
    p = stable_softmax(logits)
    return softmax_vjp(p, 2 * (p - np.eye(len(p))[target]))


p = stable_softmax(journey_scores)
slope = 2 * (p - np.eye(6)[target])
by_vjp = squared_error_grad(journey_scores, target)
print("squared error's gradient at the journey scores:", by_vjp)
print("softmax_vjp matches the Jacobian times the slope:",
      bool(np.allclose(by_vjp, softmax_jacobian(p).T @ slope, rtol=1e-12, atol=1e-15)))
print(f"largest difference from numerical_gradient: "
      f"{np.abs(by_vjp - numerical_gradient(lambda z: squared_error(z, target), journey_scores)).max():.1e}")
print("at [20, 0] with target 1:", ", ".join(f"{v:.1e}" for v in squared_error_grad(confidently_wrong, 1)))

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
# returns. Its softmax's backward pass is a vector–Jacobian product like yours. (Without
# PyTorch installed, this cell prints one line saying how to add it.)

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
    scores = torch.tensor(journey_scores, dtype=torch.float64, requires_grad=True)
    torch.softmax(scores, dim=-1).backward(torch.tensor(g))
    print("autograd's softmax backward matches softmax_vjp:",
          np.allclose(scores.grad.numpy(), softmax_vjp(journey_weights, g), rtol=1e-12, atol=1e-15))

# %% [markdown]
# ## 11. One number that learns
#
# So far the scores were simply given, and the walks above moved the scores themselves. A
# model does not own its scores: it **makes** them from what it sees, with numbers of its own,
# its **parameters**, and training moves the parameters. Start with the smallest model there
# is, one number.
#
# Each example shows the model one fixed number per choice, its **features** `x` (what it
# sees), and the model's scores are `z = w · x`. The one parameter `w` is an inverse
# temperature (lesson 04: `T = 1 / w`): `w = 0` makes every choice equal, a large `w` makes the
# largest feature win. Here is a world whose answers are drawn from `softmax(2 · x)`: 500
# examples of 4 choices, and the right choice of each is the one the world picked.
#
# How does the loss change with `w`? Every score depends on it, `z_j = w · x_j`, so by the
# chain rule `∂L/∂w = Σ_j ∂L/∂z_j · ∂z_j/∂w = Σ_j ∂L/∂z_j · x_j`: the gradient with respect to
# the scores (your `cross_entropy_grad`) times the features, added up. The training loss is
# the mean over the examples, so its slope is the mean of theirs.

# %%
world_rng = np.random.default_rng(4)
features = world_rng.standard_normal((500, 4))        # 500 examples, one feature per choice
answers = np.array([world_rng.choice(4, p=weights) for weights in stable_softmax(2.0 * features)])


def mean_loss(w):
    """The training loss of the model whose scores are w * features: the mean cross-entropy."""
    return cross_entropy(w * features, answers).mean()


def slope_of_w(w):
    """d mean_loss / d w by the chain rule: each row's gradient on its scores times its features, summed."""
    return (cross_entropy_grad(w * features, answers) * features).sum(axis=-1).mean()


print(f"slope at w = 1 by the chain rule: {slope_of_w(1.0):.10f}")
print(f"measured by numerical_gradient:   {numerical_gradient(lambda v: mean_loss(v[0]), np.array([1.0]))[0]:.10f}")
print(f"the largest feature is the world's answer in {(features.argmax(axis=-1) == answers).mean():.1%} of the examples")

# %% [markdown]
# The chain rule and the measurement agree to ten digits. The largest feature is the right
# answer only 69.8% of the time: the world is noisy, as `softmax(2 · x)` is.
#
# **Predict.** Start from `w = 0` and take 100 steps downhill, `w ← w - 1.0 · slope`. Where
# does `w` end: near 0, near 2, or does it keep growing?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
w, path = 0.0, [0.0]
for step in range(100):
    w = w - 1.0 * slope_of_w(w)
    path.append(w)
print("w after 0, 1, 5, 10, 20, 50, 100 steps:", np.round([path[k] for k in (0, 1, 5, 10, 20, 50, 100)], 4))
print(f"loss: {mean_loss(0.0):.4f} at w = 0 (log 4 = {np.log(4):.4f}), {mean_loss(path[-1]):.4f} at the end")
print(f"slope at the end: {slope_of_w(path[-1]):.1e}")

# %% [markdown]
# `w` climbs fast, then settles at 2.1326, where the slope is all but 0: close to the 2 that made the
# world (500 examples are a finite sample of it, so not exactly 2). The loss falls from
# `log 4 = 1.3863`, the loss of four equal weights, to 0.7337. The model has learned how sure
# to be: a larger `w` would be more confident than the world is right, and the loss of the
# 30% it gets wrong would grow faster than it saves on the rest.
#
# When the largest feature is **always** right, nothing stops it:

# %%
always_right = features.argmax(axis=-1)
w = 0.0
for step in range(1, 10_001):
    w = w - 1.0 * (cross_entropy_grad(w * features, always_right) * features).sum(axis=-1).mean()
    if step in (10, 100, 1_000, 10_000):
        print(f"after {step:6,} steps: w = {w:5.2f}, loss {cross_entropy(w * features, always_right).mean():.4f}")

# %% [markdown]
# Every tenfold more steps roughly doubles `w`, and the loss keeps shrinking toward 0 without
# reaching it: on answers it always gets right, a sharper softmax always costs less. This is
# why trained classifiers tend to be overconfident, and why training adds a brake (fewer steps,
# or a penalty on large parameters).

# %% [markdown]
# ## 12. A small `W` that makes the scores
#
# Real models have many parameters. The next smallest: each example is a point `x` in the
# plane (two numbers), and a matrix `W` of shape `(2, 3)` turns it into three scores,
# `z = x @ W`, one per class. For a batch `X` of shape `(N, 2)` the scores are `X @ W`, of
# shape `(N, 3)`.
#
# The chain rule once more: score `z_ik = Σ_a X_ia W_ak` depends on `W_ak` with slope `X_ia`,
# so `∂L/∂W_ak = (1/N) Σ_i X_ia ∂L_i/∂z_ik`. In matrices, with `G = cross_entropy_grad(X @ W, y)`
# (one row per example):
#
# $$\frac{\partial L}{\partial W} = \frac{1}{N} X^\top G$$
#
# **Predict.** What shape does that gradient have? What does each of its rows sum to?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
blob_rng = np.random.default_rng(7)
angles = np.deg2rad([90, 210, 330])
centres = 2.0 * np.stack([np.cos(angles), np.sin(angles)], axis=1)   # one centre per class
labels = np.repeat(np.arange(3), 100)                                # 100 points of each class
points = centres[labels] + blob_rng.normal(size=(300, 2))


def loss_of_W(W):
    return cross_entropy(points @ W, labels).mean()


def gradient_of_W(W):
    """The chain rule: X transposed times each example's gradient on its scores, over the batch size."""
    return points.T @ cross_entropy_grad(points @ W, labels) / len(points)


some_W = np.array([[0.3, -0.2, 0.1], [0.5, 0.0, -0.4]])
print("gradient at W = 0:", gradient_of_W(np.zeros((2, 3))).shape)
print(gradient_of_W(np.zeros((2, 3))))
print(f"row sums: {np.abs(gradient_of_W(some_W).sum(axis=1)).max():.1e} at most")
print(f"largest difference from numerical_gradient: {np.abs(gradient_of_W(some_W) - numerical_gradient(loss_of_W, some_W)).max():.1e}")

# %% [markdown]
# The gradient has `W`'s own shape, `(2, 3)`: one slope per parameter, always. Each row sums to
# 0 (up to rounding), because every row of `G` does (section 4): raising all three scores of
# an input together changes nothing, so the gradient never asks for it. Your
# `numerical_gradient` agrees on every one of the six entries.
#
# **Predict.** Start from `W = 0` (every class at weight 1/3 for every point) and take 100
# steps, `W ← W - 1.0 · ∂L/∂W`. What share of the 300 points will end with their own class
# on top?
# (Not graded: write your guess in the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
W = np.zeros((2, 3))
losses = [loss_of_W(W)]
for step in range(100):
    W = W - 1.0 * gradient_of_W(W)
    losses.append(loss_of_W(W))
right = (points @ W).argmax(axis=-1) == labels
print(f"loss: {losses[0]:.4f} at W = 0 (log 3 = {np.log(3):.4f}), {losses[10]:.4f} after 10 steps, "
      f"{losses[-1]:.4f} after 100")
print(f"own class on top: {right.sum()} of {len(points)} points ({right.mean():.1%})")
print("W after 100 steps:")
print(W)
print(f"row sums of W: {np.abs(W.sum(axis=1)).max():.1e} at most")

# %%
grid = np.linspace(-5, 5, 201)
gx, gy = np.meshgrid(grid, grid)
regions = (np.stack([gx, gy], axis=-1) @ W).argmax(axis=-1)
markers = ("o", "s", "^")
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.contourf(gx, gy, regions, levels=[-0.5, 0.5, 1.5, 2.5], colors=[PALETTE[0], PALETTE[1], PALETTE[2]], alpha=0.18)
for k in range(3):
    left.scatter(*points[labels == k].T, s=14, marker=markers[k], color=PALETTE[k], label=f"class {k}")
left.set(title="Where each class wins after 100 steps", xlabel="first input x₁", ylabel="second input x₂",
         xlim=(-5, 5), ylim=(-5, 5), aspect="equal")
left.legend(frameon=False, loc="lower left", fontsize=8)
right.plot(range(len(losses)), losses, color=PALETTE[0], linewidth=2)
right.axhline(np.log(3), color=PALETTE[3], linestyle=":", linewidth=1, label="log 3: three equal weights")
right.set(title="Measure wrong, walk downhill", xlabel="gradient-descent step (learning rate 1.0)",
          ylabel="mean cross-entropy", ylim=(0, 1.2))
right.legend(frameon=False)
show(fig, alt="Left: 300 points in the plane in three classes (blue circles at the top, orange squares at "
              "the lower left, green triangles at the lower right), over shaded regions showing which class "
              "the learned W puts on top: three wedges meeting near the origin, each around its own class. "
              "Right: the mean cross-entropy against the step, falling from log 3 = 1.10 at W = 0 to 0.16 "
              "after 10 steps and 0.12 after 100, far below the dotted line at log 3.")

# %% [markdown]
# The loss falls from `log 3 = 1.0986` (three equal weights everywhere) to 0.1629 in 10 steps
# and 0.1216 after 100, and 284 of the 300 points (94.7%) end with their own class on top: the
# ones left are the points the noise carried into a neighbour's wedge. Each row of `W` still
# sums to 0, as it did at the start: the gradient moves weight between the classes and never
# raises every score at once.
#
# That is training, whatever the size of the model: measure how wrong the weights are with
# cross-entropy, take the gradient on the scores, `softmax(z) - onehot(y)`, carry it back to
# the parameters by the chain rule, and step downhill. A language model does the same with a
# vocabulary of tens of thousands of choices and billions of parameters.

# %% [markdown]
# ## What carries forward
#
# - Softmax's Jacobian is `diag(p) - p pᵀ`: positive on the diagonal, negative elsewhere, and
#   every row and column sums to zero because the weights always sum to 1 (and a common shift
#   of the scores changes nothing).
# - A slope can be measured: the central difference `(f(x + h e_j) - f(x - h e_j)) / 2h`, one
#   entry at a time, is off by about `h²`, and checks any gradient you derive.
# - When one score dominates, every entry goes to zero. That stalls learning where the slope
#   after the softmax stays moderate, as in attention (lesson 07's `1 / √d_k` keeps its scores'
#   spread near 1 at any width).
# - The backward pass never builds `J`: `Jᵀ g = p ⊙ (g - ⟨p, g⟩)` costs as much as `p` itself.
# - It does not stall cross-entropy: the gradient of `LSE(z) - z_y` is `softmax(z) - onehot(y)`,
#   largest when the model is confidently wrong and 0 only when it is right and sure.
# - Training moves parameters, not scores: the chain rule carries `softmax(z) - onehot(y)` back to
#   them (`Σ_j ∂L/∂z_j · x_j` for one number `w`, `Xᵀ G / N` for a matrix `W`), and each step
#   goes downhill. A single `w` learns how sure to be (2.13 in a world made with 2); a small
#   `W` puts 284 of 300 points in their own class. Measure wrong, walk downhill: that is training.
#
# Lesson 10 turns to the forward pass again: softmax over a row too long to hold at once.
