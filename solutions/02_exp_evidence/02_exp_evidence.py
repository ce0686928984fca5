# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 02 — exp turns any score into positive evidence
#
# **By the end of this lesson you will be able to**
# - say what we need from a map that turns scores into *evidence*, and why `abs` is not it;
# - turn any score, negative ones included, into positive evidence with `exp` (`evidence`);
# - say how many times more evidence one score has than another (`evidence_ratio`);
# - explain why adding the same number to every score multiplies all the evidence by one factor;
# - turn evidence into weights by dividing by its total (`normalize_evidence`), even when that
#   total is too large for float64, and use it on lesson 01's two troublemakers;
# - show where `exp` runs out of room in float64, at the top and at the bottom.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess
# *before* you run the cell that computes the answer, in the cell under the question.
# Three of them are graded, a point each: write the guess, run its check (it says only
# that your guess is written down, not whether it is right), and then run on. Their
# explanations are folded: open one once you have answered.

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
# ## 1. What do we need before dividing?
#
# Lesson 01 ended with two failures of "divide by the sum": the scores `[-2, 0, 3]` came
# back as a weight of -2, and `[1, -1]` divided by zero. Both come from the sign of the
# scores. So before dividing, we want to turn each score into a number we will call its
# **evidence**, with three properties:
#
# 1. evidence is **positive** for every real score, so no weight can be negative and the
#    total can never be zero (in exact arithmetic: section 11 shows where float64 falls short);
# 2. a higher score always gets **more** evidence (the map keeps the order);
# 3. it works for **any** score, however large or small.
#
# **Predict (graded).** A first idea: take the absolute value. Does `abs` keep the order of
# the three choices of `[-2, 0, 3]`, so that a higher score still gets more evidence? Write
# "yes" or "no".

# %% nbgrader="guess" grade_id="guess_abs_keeps_order" prediction="predict_abs_keeps_order"
guess_abs_keeps_order = ""  # your guess: "yes" or "no"
### BEGIN SOLUTION
guess_abs_keeps_order = "no"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_abs_keeps_order" points=1
check_guess("predict_abs_keeps_order", guess_abs_keeps_order, choices=["yes", "no"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_abs_keeps_order", guess_abs_keeps_order, "71d5188c7d605747")
### END HIDDEN TESTS

# %%
reveal("predict_abs_keeps_order", guess_abs_keeps_order)
troublemaker = np.array([-2.0, 0.0, 3.0])
print("scores:     ", troublemaker)
print("abs(scores):", np.abs(troublemaker))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# No. `abs` fails twice. The choice with score -2 now outranks the one with score 0,
# although the dot product liked it *less*; and the score 0 gets no evidence at all, so a
# row of zeros would still divide by zero. Squaring has the same two faults.
#
# </details>

# %% [markdown]
# ## 2. Is `exp` positive for every score?
#
# The exponential function e<sup>s</sup> (`np.exp`) has all three properties. In exact
# arithmetic it is never zero or negative, it always rises, and it is defined for every
# real number (a float64 holds only so many numbers; section 11 finds its limits).
# A score of 0 gives evidence 1; each extra unit of score multiplies the evidence by
# e ≈ 2.718; each unit *less* divides it by e.
#
# **Predict.** Is `np.exp(-100)` zero, negative, or positive? (Not graded: write your guess in
# the one-line cell below, then run on.)

# %%
# Your guess (not graded):

# %%
tiny = np.exp(-100.0)
print("e = exp(1) =", np.exp(1.0))
print("exp(-100) =", tiny)
print("positive?", tiny > 0)
print("exp of [-2, 0, 3]:", np.exp(troublemaker))

# %% [markdown]
# exp(-100) ≈ 3.7 × 10<sup>-44</sup>: far too small to matter next to a score of 0, but
# still **positive**. A very low score means "almost no evidence", never "negative
# evidence". The order is kept too: -2 → 0.1353, 0 → 1, 3 → 20.0855.

# %% [markdown]
# ## 3. Picture it
#
# The curve below is e<sup>s</sup>. Every score on the horizontal axis lands *above* the
# dashed zero line. The three orange points are the scores 0, log 2 and log 3, with
# evidence 1, 2 and 3; the vermillion point is the negative score -2.

# %%
_s = np.linspace(-3.5, 1.6, 300)
_marked = np.array([0.0, np.log(2), np.log(3)])
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(_s, np.exp(_s), color=PALETTE[0], linewidth=2, label="evidence = exp(score)")
ax.axhline(0, color="black", linestyle="--", linewidth=0.8)
ax.scatter(_marked, np.exp(_marked), color=PALETTE[1], s=60, zorder=3, label="scores 0, log 2, log 3")
for score, label in zip(_marked, ["0", "log 2", "log 3"]):
    ax.vlines(score, 0, np.exp(score), color=PALETTE[1], linestyle=":", linewidth=1)
    ax.annotate(f"exp({label}) = {np.exp(score):.0f}", (score, np.exp(score)),
                xytext=(10, -10), textcoords="offset points", fontsize=9)
ax.scatter([-2.0], [np.exp(-2.0)], color=PALETTE[3], s=60, zorder=3, label="a negative score, -2")
ax.annotate(f"exp(-2) = {np.exp(-2.0):.4f}: small, still > 0", (-2.0, np.exp(-2.0)),
            xytext=(0, 50), textcoords="offset points", fontsize=9, ha="center",
            arrowprops={"arrowstyle": "->", "color": PALETTE[3]})
ax.set(xlabel="score s", ylabel="evidence exp(s)", title="exp turns every score into positive evidence",
       xlim=(-3.6, 2.3), ylim=(-0.3, 5.2))
ax.legend(loc="upper left", fontsize=9)
show(fig, alt="Line plot of the exponential curve, evidence against score from -3.5 to 1.6. It stays above "
              "the dashed zero line everywhere and rises from left to right. Orange points mark scores 0, "
              "log 2 and log 3 at evidence 1, 2 and 3; a vermillion point marks score -2 at evidence 0.1353, "
              "small but above zero.")

# %% [markdown]
# ## 4. Exercise: `evidence`
#
# Write `evidence(scores)`: the exponential of every score. Accept lists and integer
# arrays, work for any shape, always return a new **float** NumPy array, and never change
# the array you were given.

# %% nbgrader="solution" grade_id="evidence"
def evidence(scores):
    """exp of every score, as a new float array."""
    ### BEGIN SOLUTION
    return np.exp(np.asarray(scores, dtype=float))
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_evidence_public" points=2 function="evidence"
check_values(evidence, np.array([0.0, 1.0]), expect=[1.0, 2.718281828459045])
check_values(evidence, np.array([-2.0, 0.0, 3.0]), expect=[0.1353352832366127, 1.0, 20.085536923187668])
check_values(evidence, np.array([[0.0, -1.0], [2.0, 0.0]]), expect=[[1.0, 0.36787944117144233], [7.38905609893065, 1.0]])
# a large score: its evidence is about 1e304, no clipping
check_values(evidence, np.array([700.0]), expect=[np.exp(700.0)])
check_answer(evidence, 0.0, expect=1.0)  # a single number gives a number
passed("evidence")

# %% nbgrader="tests" grade_id="test_evidence_details" points=1 function="evidence"
# details: a list of integers gives float64, and the answer is a NumPy array
check_call(evidence, [0, 1], expect=[1.0, 2.718281828459045], dtype=np.float64)
check_call(evidence, [[0, -1], [2, 0]], expect=[[1.0, 0.36787944117144233], [7.38905609893065, 1.0]], dtype=np.float64)
check_call(evidence, [700.0], expect=[np.exp(700.0)], dtype=np.float64)
### BEGIN HIDDEN TESTS
# property dtype: lists, tuples, integer arrays of any width and float64 give float64 evidence; float32 gives a float array
check_call(evidence, np.array([[1, 0, -1], [0, 3, 0]]),
           expect=[[2.718281828459045, 1.0, 0.36787944117144233], [1.0, 20.085536923187668, 1.0]], dtype=np.float64)
check_call(evidence, [2, -3], expect=[7.38905609893065, 0.049787068367863944], dtype=np.float64)
check_call(evidence, (0.5, -0.5), expect=[1.6487212707001282, 0.6065306597126334], dtype=np.float64)
for _ints in (np.array([1, -2, 3], dtype=np.int8), np.array([[100, -100]], dtype=np.int16), np.array([7, 0], dtype=np.uint8)):
    check_call(evidence, _ints, expect=np.exp(_ints.astype(float)), dtype=np.float64)
_floats = np.array([[0.5, -0.5], [1.5, 0.0]])
check_call(evidence, _floats, expect=[[1.6487212707001282, 0.6065306597126334], [4.4816890703380645, 1.0]],
           dtype=np.float64)
_single = np.array([0.5, -1.25, 3.0], dtype=np.float32)
check_call(evidence, _single, expect=np.exp(_single.astype(float)))
# property unchanged: the caller's array (float64 or float32, any shape) is never changed
for _scores in (np.array([0.5, -0.5]), _floats, np.linspace(-2.0, 2.0, 12).reshape(2, 3, 2), _single):
    check_call(evidence, _scores, expect=np.exp(_scores.astype(float)))
check_answer(evidence, -1, expect=0.36787944117144233)
check_call(evidence, [[0.0, 0.0], [-50.0, -50.0]], expect=[[1.0, 1.0], [1.9287498479639178e-22, 1.9287498479639178e-22]],
           dtype=np.float64)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_evidence_extremes" points=1 function="evidence"
### BEGIN HIDDEN TESTS
from grader.learner.checks import Mistake, shown_as

# property extremes: scores from -1000 to 709 get exp as float64 holds it: positive down to about -745, 0 below, up to 8.2e307 (no clipping, no float32)
check_values(evidence, np.array([-100.0, 0.0, 100.0]), expect=[3.720075976020836e-44, 1.0, 2.6881171418161356e+43])
check_values(evidence, np.array([[0.0, 0.0], [-50.0, -50.0]]), expect=[[1.0, 1.0], [1.9287498479639178e-22, 1.9287498479639178e-22]])
_far = np.array([[-1000.0, -745.0, -700.0], [300.0, 700.0, 709.0]])
check_values(evidence, _far, expect=np.exp(_far))


@shown_as("np.log(evidence({}))")
def _log_of_evidence(scores):
    """log(evidence(scores)): tiny evidence must be right to its last digits, not merely close to 0."""
    with np.errstate(divide="ignore"):
        return np.log(np.asarray(evidence(scores), dtype=float))


@shown_as("evidence({}) > 0")
def _is_positive(scores):
    return np.asarray(evidence(scores), dtype=float) > 0


check_values(_log_of_evidence, np.array([-700.0, -500.0, -300.0, -100.0, -50.0]), expect=[-700.0, -500.0, -300.0, -100.0, -50.0])
_flushed = Mistake("set the evidence of very low scores (below -700) to 0 to avoid tiny numbers, but exp of any score "
                   "is positive", "leave exp alone: float64 holds exp(s) > 0 down to s = -745", np.array([False] * 3))
check_values(_is_positive, np.array([-740.0, -720.0, -705.0]), expect=np.array([True, True, True]), mistakes=[_flushed])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_evidence_shapes" points=1 function="evidence"
### BEGIN HIDDEN TESTS
from grader.learner.checks import check_generated

# property shapes: any shape: a single number gives a number, one score, (1, n), (k, 1, n), (n, 1), any leading dimensions
check_answer(evidence, 0.0, expect=1.0)
check_answer(evidence, -1.0, expect=0.36787944117144233)
check_answer(evidence, np.float64(np.log(3)), expect=3.0)
for _scores in (np.array([4.0]), np.array([[0.5, -1.0, 2.0]]), np.array([[[1.0, 0.0]], [[-1.0, 2.0]]]),
                np.array([[3.0], [-3.0]]), np.linspace(-3.0, 3.0, 24).reshape(2, 1, 3, 4)):
    check_values(evidence, _scores, expect=np.exp(_scores))


# property value: the exp of every score (generated shapes and scores)
def _any_scores(rng, size):
    _shape = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(0, 2 + min(size, 6) // 3)))
    return rng.uniform(-30.0, 30.0, size=_shape) * rng.choice([0.01, 1.0, 20.0])


check_generated(evidence, _any_scores, reference=lambda x: np.exp(np.asarray(x, dtype=float)), seed=201, examples=10, values_only=True)
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Evidence you can read off: logs
#
# `log` undoes `exp`: exp(log 2) = 2. So if we *choose* the scores to be logarithms, we
# can predict their evidence, up to float64's rounding.
#
# **Predict.** The scores `[0, log 2, log 3]` are about `[0, 0.6931, 1.0986]`. What is their
# evidence? (Not graded.)

# %%
# Your guess (not graded):

# %%
log_scores = np.array([0.0, np.log(2), np.log(3)])
print("scores [0, log 2, log 3] ≈", log_scores)
print("evidence:", evidence(log_scores))
print("exp(log 2) =", evidence(np.log(2)))
print("exp(log 3), every digit float64 keeps:", float(evidence(log_scores)[2]))

# %% [markdown]
# The evidence is `[1, 2, 3]` to the four decimals printed: the third choice has three times
# the evidence of the first. Not exactly, though: float64 stores log 3 a hair too large,
# so the third comes out as 3.0000000000000004, one float64 step above 3.
# A *difference* of log 3 ≈ 1.0986 between two scores means a *factor* of 3 between their
# evidence. That is the language to think in: score differences become evidence ratios.

# %% [markdown]
# ## 6. What does a shift do to the evidence?
#
# **Predict.** Add c = 1.5 to every score. What happens to the evidence of each choice?
# Does every choice change by the same amount, or by the same factor? (Not graded.)

# %%
# Your guess (not graded):

# %%
c = 1.5
shifted = log_scores + c
print("evidence(scores + 1.5):                  ", evidence(shifted))
print("evidence(scores + 1.5) / evidence(scores):", evidence(shifted) / evidence(log_scores))
print(f"exp(1.5) = {np.exp(c):.4f}")
print(f"third / first: {evidence(log_scores)[2] / evidence(log_scores)[0]:.4f} before the shift, "
      f"{evidence(shifted)[2] / evidence(shifted)[0]:.4f} after")

# %% [markdown]
# Every evidence value is multiplied by the same factor exp(1.5) ≈ 4.4817, because
# e<sup>s + c</sup> = e<sup>s</sup> · e<sup>c</sup>. The *ratios* between choices do not
# move: the third choice still has 3 times the evidence of the first (the cell prints
# both ratios). How many times more
# evidence score `a` has than score `b` depends only on the difference:
#
# e<sup>a</sup> / e<sup>b</sup> = e<sup>a − b</sup>.

# %% [markdown]
# ### Why exp, and not another map?
#
# Section 1 asked for a map that is positive, keeps the order and takes any score. Other maps
# do that too: the logistic sigmoid σ(s) = 1 / (1 + e<sup>−s</sup>), for one, lies between 0
# and 1 and always rises. What singles out exp is the rule this section just used: it turns a
# **sum** of scores into a **product** of evidence, f(a + b) = f(a) · f(b). That is what makes
# a score *difference* an evidence *ratio*, whatever the level of the two scores. The cell
# compares two pairs of scores with the same gap of 1, at two levels:

# %%
def sigmoid(s):
    """The logistic sigmoid 1 / (1 + e^-s): positive, rising, defined for every score."""
    return 1.0 / (1.0 + np.exp(-np.asarray(s, dtype=float)))


for a, b in ((1.0, 0.0), (3.0, 2.0)):
    print(f"scores {a:g} and {b:g}: exp(a) / exp(b) = {np.exp(a) / np.exp(b):.4f} | "
          f"sigmoid(a) / sigmoid(b) = {sigmoid(a) / sigmoid(b):.4f}")

# %% [markdown]
# exp gives the ratio e ≈ 2.7183 at both levels; the sigmoid gives 1.4621 for the first pair
# and 1.0815 for the second, so its "ratio" depends on where the scores sit, not on their gap.
# Among continuous maps that are never 0, the only ones with f(a + b) = f(a) · f(b) are the
# exponentials c<sup>s</sup> = e<sup>s · ln c</sup> (a classic result about Cauchy's functional
# equation). Another base c only multiplies every score by ln c, the same as dividing the
# scores by a temperature 1 / ln c: lesson 04's idea, not a different map.
#
# The sigmoid is not lost: it is what exp gives for **two** choices. Their weights are
# e<sup>a</sup> / (e<sup>a</sup> + e<sup>b</sup>); dividing the top and the bottom by
# e<sup>a</sup> gives 1 / (1 + e<sup>−(a − b)</sup>) = σ(a − b), the sigmoid of the **gap**.
#
# **Predict.** Which pairs of scores give the first choice the same weight: `[2, 0.5]`,
# `[-1.5, -3]`, `[10, 8.5]`? (Not graded.)

# %%
# Your guess (not graded):

# %%
for pair in ([2.0, 0.5], [-1.5, -3.0], [10.0, 8.5], [-3.0, -1.0]):
    pair_evidence = np.exp(pair)
    two_weights = pair_evidence / pair_evidence.sum()
    gap = pair[0] - pair[1]
    print(f"scores {str(pair):>12}: weights {two_weights} | gap {gap:+.1f}, sigmoid(gap) = {sigmoid(gap):.4f}")

# %% [markdown]
# The first three pairs have the same gap, 1.5, and the same weights, `[0.8176 0.1824]`: with
# two choices only the gap matters, and the first weight is σ(1.5) = 0.8176. The last pair's
# gap is −2, and σ(−2) = 0.1192 is its first weight.
#
# Read the other way round, a gap is a **log-odds**. The *odds* of the first choice are its
# weight over the other's, p / (1 − p) = e<sup>a − b</sup>, so the gap is log(odds). Each unit
# added to the gap multiplies the odds by e:

# %%
for gap in (1.5, 2.5):
    p = sigmoid(gap)
    print(f"gap {gap}: weight {p:.4f}, odds p / (1 - p) = {p / (1 - p):.4f}, log(odds) = {np.log(p / (1 - p)):.4f}")
odds_ratio = (sigmoid(2.5) / (1 - sigmoid(2.5))) / (sigmoid(1.5) / (1 - sigmoid(1.5)))
print(f"adding 1 to the gap multiplied the odds by {odds_ratio:.4f}; e = {np.e:.4f}")

# %%
_gaps = np.linspace(-6.0, 6.0, 241)
_pairs = np.array([[2.0, 0.5], [-1.5, -3.0], [10.0, 8.5], [-3.0, -1.0], [0.0, 0.0], [4.0, 0.0]])
_pair_weights = np.exp(_pairs[:, 0]) / np.exp(_pairs).sum(axis=1)
fig, ax = plt.subplots(figsize=(7, 3.6))
ax.plot(_gaps, sigmoid(_gaps), color=PALETTE[0], linewidth=2, label="sigmoid(gap)")
ax.scatter(_pairs[:, 0] - _pairs[:, 1], _pair_weights, color=PALETTE[1], s=60, zorder=3, marker="D",
           label="first weight of a pair of scores")
for _gap in np.unique(_pairs[:, 0] - _pairs[:, 1]):  # pairs with the same gap share one point and one label
    _same = _pairs[_pairs[:, 0] - _pairs[:, 1] == _gap]
    ax.annotate("\n".join(f"[{a:g}, {b:g}]" for a, b in _same), (_gap, sigmoid(_gap)), xytext=(10, -6),
                textcoords="offset points", fontsize=8, va="top")
ax.set(xlabel="gap a − b between the two scores", ylabel="weight of the first choice",
       title="Two choices: the weight is the sigmoid of the gap", ylim=(-0.05, 1.05))
ax.legend(loc="upper left", fontsize=9)
show(fig, alt="S-shaped curve of the sigmoid of the gap, from near 0 at gap -6 through 0.5 at gap 0 to near 1 "
              "at gap 6. Orange diamonds mark the first weight of six pairs of scores; the pairs [2, 0.5], "
              "[-1.5, -3] and [10, 8.5] all sit on the same point, gap 1.5 and weight 0.8176, and every "
              "diamond lies on the curve.")

# %% [markdown]
# ## 7. Exercise: `evidence_ratio`
#
# Write `evidence_ratio(a, b)`: how many times more evidence score `a` has than score `b`,
# computed as **exp(a − b)**. `a` and `b` are numbers, or lists or arrays of the same
# shape (then compare them entry by entry and return a float array).
# For example `evidence_ratio(np.log(3), 0)` is 3.

# %% nbgrader="solution" grade_id="evidence_ratio"
def evidence_ratio(a, b):
    """How many times more evidence score a has than score b: exp(a - b)."""
    ### BEGIN SOLUTION
    return np.exp(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_evidence_ratio_public" points=2 function="evidence_ratio"
check_answer(evidence_ratio, 3, 1, expect=7.38905609893065)
check_answer(evidence_ratio, np.log(6), np.log(2), expect=3.0)
check_answer(evidence_ratio, -1, -1, expect=1.0)
check_values(evidence_ratio, np.array([2.0, 0.0]), np.array([0.0, 2.0]), expect=[7.38905609893065, 0.1353352832366127])
# neither array changes
check_values(evidence_ratio, np.array([1.0, 3.0]), np.array([1.0, 1.0]), expect=[1.0, np.exp(2.0)])
# only the difference matters, however large the scores
check_answer(evidence_ratio, 1000, 999, expect=np.e)
check_answer(evidence_ratio, 705, 0, expect=np.exp(705.0))  # a large difference: no clipping
passed("evidence_ratio")

# %% nbgrader="tests" grade_id="test_evidence_ratio_arrays" points=1 function="evidence_ratio"
### BEGIN HIDDEN TESTS
from grader.learner.checks import check_generated

# property shapes: two numbers give a number; lists or arrays of one shape give an array of that shape, (1, n), (k, 1, n) and (n, 1) included
check_values(evidence_ratio, np.array([[1, 0], [3, -1]]), np.array([[0, 0], [0, 0]]),
           expect=[[2.718281828459045, 1.0], [20.085536923187668, 0.36787944117144233]])
check_values(evidence_ratio, np.array([[0.5, 2.0, -1.0]]), np.array([[0.5, 1.0, 1.0]]),
           expect=[[1.0, 2.718281828459045, 0.1353352832366127]])
check_values(evidence_ratio, np.array([[[1.0, 0.5]], [[-1.0, 2.0]]]), np.array([[[0.0, 0.5]], [[1.0, 1.0]]]),
           expect=[[[2.718281828459045, 1.0]], [[0.1353352832366127, 2.718281828459045]]])
check_values(evidence_ratio, np.array([[0.25], [2.0]]), np.array([[0.25], [0.0]]), expect=[[1.0], [7.38905609893065]])
check_answer(evidence_ratio, 2.5, 0.5, expect=7.38905609893065)
check_answer(evidence_ratio, np.float64(0.0), -1, expect=2.718281828459045)


# property value: exp(a - b) entry by entry (generated numbers and arrays)
def _score_pairs(rng, size):
    if size % 4 == 1:
        return float(rng.uniform(-20.0, 20.0)), float(rng.uniform(-20.0, 20.0))
    _shape = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(1, 2 + min(size, 6) // 3)))
    return rng.uniform(-20.0, 20.0, size=_shape), rng.uniform(-20.0, 20.0, size=_shape)


check_generated(evidence_ratio, _score_pairs,
                reference=lambda a, b: np.exp(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)),
                seed=202, examples=10, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_evidence_ratio_large" points=1 function="evidence_ratio"
### BEGIN HIDDEN TESTS
from grader.learner.checks import shown_as
# property shift: only a - b matters: scores of any size with a moderate difference give the right ratio (no inf / inf, no 0 / 0)
check_answer(evidence_ratio, 1000, 999, expect=2.718281828459045)
check_answer(evidence_ratio, -1000.0, -1001.0, expect=2.718281828459045)
check_values(evidence_ratio, np.array([800.0, 5.0]), np.array([800.0, 4.0]), expect=[1.0, 2.718281828459045])
check_answer(evidence_ratio, 1e6 + 2.5, 1e6, expect=12.182493960703473)
check_answer(evidence_ratio, 1e300, 1e300, expect=1.0)
check_answer(evidence_ratio, -1e300, -1e300, expect=1.0)


@shown_as("np.log(evidence_ratio({}))")
def _log_of_ratio(a, b):
    """log(evidence_ratio(a, b)): tiny ratios must be right to their last digits, not merely close to 0."""
    with np.errstate(divide="ignore"):
        return np.log(np.asarray(evidence_ratio(a, b), dtype=float))


check_values(_log_of_ratio, np.array([0.0, 100.0, -250.0]), np.array([700.0, 400.0, -300.0]), expect=[-700.0, -300.0, 50.0])
check_values(evidence_ratio, np.array([705.0, 1.0]), np.array([0.0, 0.0]), expect=np.exp([705.0, 1.0]))  # near exp's limit
check_values(evidence_ratio, np.array([[700.0, 750.0], [-800.0, -745.0]]), np.array([[699.0, 752.0], [-801.0, -744.0]]),
           expect=[[2.718281828459045, 0.1353352832366127], [2.718281828459045, 0.36787944117144233]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_evidence_ratio_details" points=1 function="evidence_ratio"
# details: lists of integers give float64, and the answer is a NumPy array
check_call(evidence_ratio, [2, 0], [0, 2], expect=[7.38905609893065, 0.1353352832366127], dtype=np.float64)
check_call(evidence_ratio, [[0.25], [2.0]], [[0.25], [0.0]], expect=[[1.0], [7.38905609893065]], dtype=np.float64)
### BEGIN HIDDEN TESTS
# property dtype: lists, tuples, integer arrays of any width (differences taken as floats, so none wraps around) and float64 give float64; float32 gives a float array
check_call(evidence_ratio, [2, 0], [0, 2], expect=[7.38905609893065, 0.1353352832366127], dtype=np.float64)
check_call(evidence_ratio, (1.5, 0.5), (0.5, 0.5), expect=[2.718281828459045, 1.0], dtype=np.float64)
check_call(evidence_ratio, np.array([3, -1]), np.array([1, 1]), expect=[7.38905609893065, 0.1353352832366127],
           dtype=np.float64)
check_call(evidence_ratio, np.array([100, -100], dtype=np.int8), np.array([-100, 100], dtype=np.int8),
           expect=np.exp([200.0, -200.0]), dtype=np.float64)
check_call(evidence_ratio, np.array([[5, 2]], dtype=np.int16), np.array([[3, 2]], dtype=np.int16),
           expect=[[7.38905609893065, 1.0]], dtype=np.float64)
_a32, _b32 = np.array([1.5, -0.25], dtype=np.float32), np.array([0.5, 0.25], dtype=np.float32)
check_call(evidence_ratio, _a32, _b32, expect=np.exp(_a32.astype(float) - _b32.astype(float)))
# property unchanged: neither of the caller's arrays is changed
for _a, _b in ((np.array([2.0, 0.5]), np.array([1.0, 1.5])), (np.array([[1.0, -1.0], [0.0, 3.0]]), np.zeros((2, 2))),
               (_a32, _b32)):
    check_call(evidence_ratio, _a, _b, expect=np.exp(_a.astype(float) - _b.astype(float)))
check_call(evidence_ratio, [[0.5, 2.0, -1.0]], [[0.5, 1.0, 1.0]], expect=[[1.0, 2.718281828459045, 0.1353352832366127]],
           dtype=np.float64)
### END HIDDEN TESTS

# %% [markdown]
# ## 8. How large can the total get?
#
# Evidence is positive, so in exact arithmetic its total is positive too, and lesson 01's
# division by the total can no longer go negative or divide by zero. A float64 sets one more
# trap: every evidence value of a row can fit while their total does not. The largest float64
# is about 1.8 × 10<sup>308</sup> (section 11 comes back to it).
#
# **Predict (graded).** Three choices that each score 709 have evidence
# e<sup>709</sup> ≈ 8.2 × 10<sup>307</sup> each, which fits. What share does lesson 01's
# division by the total give each of them in float64? (a) 1/3 each, (b) 0 each, (c) `nan`,
# (d) `inf`. Write the letter.

# %% nbgrader="guess" grade_id="guess_huge_shares" prediction="predict_huge_shares"
guess_huge_shares = ""  # your guess: "a", "b", "c" or "d"
### BEGIN SOLUTION
guess_huge_shares = "b"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_huge_shares" points=1
check_guess("predict_huge_shares", guess_huge_shares, choices=["a", "b", "c", "d"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_huge_shares", guess_huge_shares, "f967871aa2d6574a")
### END HIDDEN TESTS

# %%
reveal("predict_huge_shares", guess_huge_shares)
huge_evidence = np.exp(np.full(3, 709.0))
with np.errstate(over="ignore"):  # the sum overflows; NumPy would warn
    huge_total = huge_evidence.sum()
print("evidence of [709, 709, 709]:", huge_evidence)
print("largest float64:", np.finfo(float).max)
print("their total:", huge_total)
print("evidence / total:", huge_evidence / huge_total)

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# (b). Each value fits, but three of them add up to more than a float64 holds: the total
# overflows to `inf`, and a finite number divided by `inf` is 0. Every share comes out 0,
# where the right answer is 1/3 each.
#
# </details>

# %% [markdown]
# The way out is in section 6, read backwards:
# multiplying every evidence value of a row by the same factor c > 0 changes no share,
# because c cancels between each value and the total.

# %% [markdown]
# ## 9. Exercise: `normalize_evidence`
#
# Write `normalize_evidence(ev)`: divide each row of positive evidence by its own total
# **over the last axis**, so that each row of choices sums to 1, and give the right shares
# **also when a row's total does not fit in a float64** (values up to the largest float64).
# The input is already evidence; do not exponentiate it again. Accept lists and integer arrays,
# return a new float array, and never change the array you were given.
#
# Hint: you may multiply a row by any factor above 0 before you add it up. Which factor makes
# the total small enough to fit, however large or small the row's values are? Each row may
# need its own.

# %% nbgrader="solution" grade_id="normalize_evidence"
def normalize_evidence(ev):
    """Positive evidence divided by its total over the last axis, rescaled first so the total fits."""
    ### BEGIN SOLUTION
    x = np.asarray(ev, dtype=float)
    x = x / x.max(axis=-1, keepdims=True)
    return x / x.sum(axis=-1, keepdims=True)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_normalize_evidence_public" points=2 function="normalize_evidence"
check_values(normalize_evidence, np.array([1.0, 2.0, 3.0]), expect=[1 / 6, 2 / 6, 3 / 6])
check_values(normalize_evidence, np.array([2.0, 6.0]), expect=[0.25, 0.75])
check_values(normalize_evidence, np.array([[1.0, 3.0], [1.0, 1.0]]), expect=[[0.25, 0.75], [0.5, 0.5]])
check_values(normalize_evidence, np.exp(np.full(3, 709.0)), expect=[1 / 3, 1 / 3, 1 / 3])
# rows far apart
check_values(normalize_evidence, np.array([[1e-300, 3e-300], [1e300, 1e300]], dtype=float), expect=[[0.25, 0.75], [0.5, 0.5]])
# a batch of one row stays a batch
check_values(normalize_evidence, np.array([[2.0, 6.0]]), expect=[[0.25, 0.75]])
# a batch of shape (2, 3, 4): 6 rows
check_values(normalize_evidence, np.ones((2, 3, 4)), expect=np.full((2, 3, 4), 0.25))
passed("normalize_evidence")

# %% nbgrader="tests" grade_id="test_normalize_evidence_rows" points=1 function="normalize_evidence"
### BEGIN HIDDEN TESTS
from grader.learner.checks import check_generated

# property value: each row is divided by its own total over the last axis (hand-picked and generated evidence)
_rows = np.array([[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]])
check_values(normalize_evidence, _rows, expect=[[0.125, 0.25, 0.625], [0.4, 0.4, 0.2]])
_square = np.array([[3.0, 1.0], [2.0, 2.0]])
check_values(normalize_evidence, _square, expect=[[0.75, 0.25], [0.5, 0.5]])


def _positive_evidence(rng, size):
    """Evidence of any shape, rows of up to 7 values whose sizes differ by up to 1e80 from row to row."""
    _shape = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(0, 1 + min(size, 9) // 3)))
    _shape += (int(rng.integers(1, 2 + min(size, 6))),)
    return np.exp(rng.uniform(-5.0, 5.0, size=_shape)) * 10.0 ** rng.integers(-40, 41, size=_shape[:-1] + (1,))


check_generated(normalize_evidence, _positive_evidence,
                reference=lambda ev: np.asarray(ev, dtype=float) / np.asarray(ev, dtype=float).sum(axis=-1, keepdims=True),
                seed=203, examples=10, values_only=True)
# property scale: multiplying a row's evidence by any c > 0 changes nothing, from tiny (1e-300) to the largest float64 evidence, whose plain total overflows to inf
for _factor in (1e-300, 3.720075976020836e-44, 1e-5, 7.0, 1e200):
    check_values(normalize_evidence, np.array([1.0, 2.0, 5.0]) * _factor, expect=[0.125, 0.25, 0.625])
check_values(normalize_evidence, np.array([[1e-300, 3e-300], [1e300, 3e300]], dtype=float), expect=[[0.25, 0.75], [0.25, 0.75]])
check_values(normalize_evidence, np.array([3.720075976020836e-44, 1.0], dtype=float), expect=[3.720075976020836e-44, 1.0])
# rows whose plain total overflows float64 (values up to the largest float64) still get the right shares
_largest = np.finfo(float).max
check_values(normalize_evidence, np.exp(np.full(3, 709.0)), expect=[1 / 3, 1 / 3, 1 / 3])
check_values(normalize_evidence, np.array([1.0, 0.5, 0.25, 0.25]) * _largest, expect=[0.5, 0.25, 0.125, 0.125])
check_values(normalize_evidence, np.array([[1e308, 1e308], [2.0, 6.0], [1.5e308, 0.5e308]]), expect=[[0.5, 0.5], [0.25, 0.75], [0.75, 0.25]])
check_values(normalize_evidence, np.array([[[1e-300, 3e-300]], [[1.2e308, 0.8e308]]]), expect=[[[0.25, 0.75]], [[0.6, 0.4]]])
# and rows whose values differ by more than float64 can span (1e400): the small one's share is 0
check_values(normalize_evidence, np.array([[1e200, 1e-200], [1e-200, 1e200]], dtype=float), expect=[[1.0, 0.0], [0.0, 1.0]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_normalize_evidence_details" points=1 function="normalize_evidence"
# details: a list of integers gives float64, and the answer is a NumPy array
check_call(normalize_evidence, [1, 2, 3], expect=[1 / 6, 2 / 6, 3 / 6], dtype=np.float64)
check_call(normalize_evidence, [[1, 3], [1, 1]], expect=[[0.25, 0.75], [0.5, 0.5]], dtype=np.float64)
check_call(normalize_evidence, [[1e-300, 3e-300], [1e300, 1e300]], expect=[[0.25, 0.75], [0.5, 0.5]], dtype=np.float64)
### BEGIN HIDDEN TESTS
# property dtype: lists, tuples, integer arrays of any width (summed as floats, so huge ones do not wrap around), Python integers past int64 and float64 give float64; float32 gives a float array
check_call(normalize_evidence, np.array([[1, 2], [5, 5]]), expect=[[1 / 3, 2 / 3], [0.5, 0.5]], dtype=np.float64)
check_call(normalize_evidence, [1, 3], expect=[0.25, 0.75], dtype=np.float64)
check_call(normalize_evidence, (2.0, 6.0), expect=[0.25, 0.75], dtype=np.float64)
check_call(normalize_evidence, np.array([3, 1], dtype=np.uint8), expect=[0.75, 0.25], dtype=np.float64)
check_call(normalize_evidence, np.array([4 * 10**18, 4 * 10**18, 8 * 10**18]), expect=[0.25, 0.25, 0.5],
           dtype=np.float64)
check_call(normalize_evidence, np.array([0.5, 1.5, 2.0]), expect=[0.125, 0.375, 0.5], dtype=np.float64)
check_call(normalize_evidence, [10**20, 3 * 10**20], expect=[0.25, 0.75], dtype=np.float64)
_single = np.array([[0.1, 0.3, 0.6]], dtype=np.float32)
check_call(normalize_evidence, _single,
           expect=_single.astype(float) / _single.astype(float).sum(axis=-1, keepdims=True))
# property unchanged: the caller's array (float64 or float32, any shape) is never changed
for _ev in (np.array([1.0, 3.0]), np.array([[1.0, 2.0, 5.0], [4.0, 4.0, 2.0]]), np.arange(1.0, 13.0).reshape(2, 2, 3),
            _single):
    check_call(normalize_evidence, _ev, expect=_ev.astype(float) / _ev.astype(float).sum(axis=-1, keepdims=True))
check_call(normalize_evidence, [[1e308, 1e308], [2.0, 6.0], [1.5e308, 0.5e308]],
           expect=[[0.5, 0.5], [0.25, 0.75], [0.75, 0.25]], dtype=np.float64)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_normalize_evidence_shapes" points=1 function="normalize_evidence"
### BEGIN HIDDEN TESTS
# property shapes: any number of leading dimensions, one value per row, a batch of one row (1, n) and (k, 1, n), a column (n, 1)
for _ev in (np.array([[2.0, 6.0]]), np.array([[[1.0, 3.0]], [[2.0, 2.0]]]), np.array([[4.0], [2.0], [5.0]]),
            np.array([7.0]), np.arange(1.0, 13.0).reshape(2, 2, 3), np.arange(1.0, 25.0).reshape(2, 1, 3, 4)):
    check_values(normalize_evidence, _ev, expect=_ev / _ev.sum(axis=-1, keepdims=True))
### END HIDDEN TESTS

# %% [markdown]
# Back to section 8: the three scores of 709, whose total does not fit.

# %%
print("normalize_evidence(evidence of [709, 709, 709]):", normalize_evidence(huge_evidence))

# %% [markdown]
# Put the two steps together on the scores of section 5.
#
# **Predict.** The evidence of `[0, log 2, log 3]` is `[1, 2, 3]`, up to rounding. What
# weights come out? (Not graded.)

# %%
# Your guess (not graded):

# %%
log_weights = normalize_evidence(evidence(log_scores))
print("weights:", log_weights)
print("weights × 6:", log_weights * 6, "| total:", log_weights.sum())

# %% [markdown]
# The weights are `[1/6, 2/6, 3/6]` ≈ `[0.1667, 0.3333, 0.5]`. Each choice's weight is its
# share of the total evidence, 1 + 2 + 3 = 6.

# %% [markdown]
# ## 10. Lesson 01's troublemakers, again
#
# **Predict.** `[-2, 0, 3]` gave a weight of -2 by plain division, and `[1, -1]` divided by
# zero. What do evidence + `normalize_evidence` give for them? (Not graded.)

# %%
# Your guess (not graded):

# %%
for scores in ([-2, 0, 3], [1, -1]):
    weights = normalize_evidence(evidence(scores))
    print(f"{str(scores):>10} -> {weights} | all positive? {bool(np.all(weights > 0))} | total: {weights.sum():.4f}")

# %% [markdown]
# Both are now real weights: positive, summing to 1, and in the same order as the scores.
# `[-2, 0, 3]` gives `[0.0064, 0.0471, 0.9465]`: the score 3 takes almost everything,
# because its evidence e<sup>3</sup> ≈ 20.0855 dwarfs 1 and 0.1353. `[1, -1]` gives
# `[0.8808, 0.1192]`: the evidence e and 1/e never cancel the way 1 and -1 did.

# %%
_names = ["A", "B", "C"]
_ev = evidence(troublemaker)
_w = normalize_evidence(_ev)
fig, axes = plt.subplots(1, 3, figsize=(10, 3.2))
panels = [(troublemaker, "scores", "score", "%g"), (_ev, "evidence = exp(score)", "evidence", "%.4f"),
          (_w, "weights = evidence / total", "weight", "%.4f")]
for ax, (values, title, ylabel, fmt) in zip(axes, panels):
    colours = [PALETTE[3] if v < 0 else PALETTE[0] for v in values]
    ax.bar_label(ax.bar(_names, values, color=colours), fmt=fmt, fontsize=8)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set(title=title, xlabel="choice", ylabel=ylabel)
    ax.margins(y=0.15)
fig.tight_layout()
show(fig, alt="Three bar charts for the choices A, B, C. Left: the scores -2, 0 and 3, with A's bar below zero. "
              "Middle: their evidence 0.1353, 1 and 20.0855, all above zero. Right: the weights 0.0064, "
              "0.0471 and 0.9465, all positive and summing to 1.")

# %% [markdown]
# ## 11. Where does `exp` run out of room?
#
# exp grows fast: every ln 10 ≈ 2.3026 added to a score multiplies its evidence by 10. float64
# stops at about 1.8 × 10<sup>308</sup>, which is e<sup>709.78</sup>.

# %%
print(f"ln 10 = {np.log(10.0):.4f}")
print(f"largest float64: {np.finfo(float).max:.1e} = e^{np.log(np.finfo(float).max):.2f}")

# %% [markdown]
# **Predict.** What is `np.exp(709)`? And `np.exp(710)`? NumPy will also print a warning
# below; read it. (Not graded.)

# %%
# Your guess (not graded):

# %% tags=["expect-warning"]
print("exp(709) =", np.exp(709.0))
print("exp(710) =", np.exp(710.0))

# %% [markdown]
# exp(709) ≈ 8.2 × 10<sup>307</sup> still fits; exp(710) does not, so it **overflows** to
# `inf` and NumPy warns `RuntimeWarning: overflow encountered in exp`. Scores in the
# hundreds are rare, but they happen (a large dot product, a tiny temperature).
#
# **Predict.** `1000 - 999 = 1`, so the evidence ratio is e ≈ 2.7183. What does dividing
# exp(1000) by exp(999) give? (We silence NumPy's warnings this time. Not graded.)

# %%
# Your guess (not graded):

# %%
with np.errstate(over="ignore", invalid="ignore"):
    print("exp(1000) / exp(999) =", np.exp(1000.0) / np.exp(999.0))
print(f"evidence_ratio(1000, 999) = {float(evidence_ratio(1000, 999)):.4f}")

# %% [markdown]
# `inf / inf` is `nan`: the quotient of two overflowed numbers says nothing. Working with the
# *difference* 1000 − 999 = 1 first gives the right ratio, e. Section 6 says that shifting
# every score changes no ratio, so we are free to shift scores down before taking exp;
# lesson 05 does exactly that.
#
# The bottom end is the reason section 1 said "in exact arithmetic". The smallest positive
# float64 is about 5 × 10<sup>-324</sup>, which is e<sup>-744.44</sup>; an exp closer to 0
# than to it (below a score of about −745.13) rounds to **exactly 0**.
#
# **Predict (graded).** Two choices score -800 and -801; their evidence ratio is still e, so
# their shares should be 0.7311 and 0.2689. What does dividing their float64 evidence by its
# total give? (a) `[0.7311, 0.2689]`, (b) `[0.5, 0.5]`, (c) `[0, 0]`, (d) `nan`. Write the letter.

# %% nbgrader="guess" grade_id="guess_zero_total" prediction="predict_zero_total"
guess_zero_total = ""  # your guess: "a", "b", "c" or "d"
### BEGIN SOLUTION
guess_zero_total = "d"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_zero_total" points=1
check_guess("predict_zero_total", guess_zero_total, choices=["a", "b", "c", "d"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_zero_total", guess_zero_total, "16ab95a5b70b1a8d")
### END HIDDEN TESTS

# %%
reveal("predict_zero_total", guess_zero_total)
smallest = np.finfo(float).smallest_subnormal
print(f"smallest positive float64: {smallest} = e^{np.log(smallest):.2f}")
print(f"exp rounds to 0 below a score of {np.log(smallest) - np.log(2.0):.2f}:")
print("  exp(-745.1332191019411) =", np.exp(-745.1332191019411))
print("  exp(-745.1332191019412) =", np.exp(-745.1332191019412))
low_evidence = np.exp([-800.0, -801.0])
print("evidence of [-800, -801]:", low_evidence, "| total:", low_evidence.sum())
with np.errstate(invalid="ignore"):  # 0 / 0; NumPy would warn
    print("evidence / total:", low_evidence / low_evidence.sum())
low_ratio = float(evidence_ratio(-800, -801))
print(f"evidence_ratio(-800, -801) = {low_ratio:.4f}: the shares should be "
      f"{low_ratio / (1 + low_ratio):.4f} and {1 / (1 + low_ratio):.4f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# (d). In float64 the total **can** be zero: both values underflow to 0, and 0 / 0 is `nan`.
#
# </details>

# %% [markdown]
# No factor applied to the evidence can bring those zeros back (0 times anything is 0),
# although `evidence_ratio` still finds e from the difference of the scores. So the cure has to come
# *before* `exp`: shift the scores so that the largest is 0, which lesson 05 does. Its
# evidence is then exactly 1, and the total is at least 1.

# %% [markdown]
# ## What carries forward
#
# - `exp` turns any score into positive evidence and keeps the order: higher score, more
#   evidence. A score of 0 has evidence 1; very negative scores have tiny, still positive
#   evidence.
# - A difference of scores is a ratio of evidence: exp(a − b). Adding the same c to every
#   score multiplies all evidence by exp(c) and leaves every ratio unchanged.
# - Dividing evidence by its total gives weights that are positive and sum to 1, even for
#   `[-2, 0, 3]` and `[1, -1]`. Multiplying a row's evidence by one factor first changes no
#   share, and keeps a total that would overflow float64 in range.
# - In float64, exp overflows to `inf` past a score of about 709.78 and rounds to exactly 0
#   below about -745.13, where even the total can be 0 (lesson 05 fixes both).
#
# Lesson 03 puts the two steps into one function, **softmax = evidence / total evidence**,
# and looks at how the choices compete through that shared denominator.
