# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 04 — Temperature: divide the scores by T before softmax
#
# **By the end of this lesson you will be able to**
# - say what dividing the scores by a temperature `T` does to softmax weights: `T < 1`
#   sharpens them, `T > 1` flattens them, and the order of the choices never changes;
# - write `softmax_with_temperature`, and explain why it must refuse `T = 0`, a negative `T`
#   and a `T` that is not a finite number;
# - explain why "temperature 0", in the many text generators that accept it, means "take the
#   largest score", a rule of decoding and not a value of softmax, and write `sample_next_token`.
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

from grader.learner.checks import check_call, check_frequencies, check_values, check_own_generator, check_raises, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.stubs import point_at_stubs
from grader.learner.widgets import temperature_explorer

np.set_printoptions(precision=4, suppress=True)
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# ## 1. One knob before the exponential
#
# Lesson 03 turned scores into weights with softmax: exponentiate every score, then divide
# by the total evidence of its row. Here it is again, so that this lesson can use it before
# you write your own version.

# %%
# << reference softmax from 03_shared_denominator >>


# %% [markdown]
# A **temperature** `T` is a positive number that divides every score before the
# exponential:
#
# $$\text{weights} = \operatorname{softmax}(\text{scores} / T).$$
#
# Why would that matter? Because $e^{s/T} = \left(e^{s}\right)^{1/T}$: dividing the scores by
# `T` raises every piece of evidence to the power `1/T`. With `T = 1` nothing changes.

# %% [markdown]
# ## 2. What does a small temperature do?
#
# In lesson 02 the scores `[0, log 2, log 3]` had evidence `[1, 2, 3]` (up to float64's
# rounding) and weights `[1/6, 2/6, 3/6]`.
#
# **Predict (graded).** At `T = 0.5` the scores double. What does that do to the evidence,
# and will the top weight (now 0.5) go up, go down, or stay? Write "up", "down" or "stay".

# %% nbgrader="guess" grade_id="guess_top_weight" prediction="predict_top_weight"
guess_top_weight = ""  # your guess: "up", "down" or "stay"
### BEGIN SOLUTION
guess_top_weight = "up"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_top_weight" points=1
check_guess("predict_top_weight", guess_top_weight, choices=["up", "down", "stay"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_top_weight", guess_top_weight, "1e37b656bc099574")
### END HIDDEN TESTS

# %%
reveal("predict_top_weight", guess_top_weight)
thirds = np.array([0.0, np.log(2), np.log(3)])
print("T = 1   evidence:", np.exp(thirds / 1.0), "weights:", softmax(thirds / 1.0))
print("T = 0.5 evidence:", np.exp(thirds / 0.5), "weights:", softmax(thirds / 0.5))
print("T = 0.5 evidence, every digit:", np.exp(thirds / 0.5).tolist())
print("T = 0.5 weights x 14:", softmax(thirds / 0.5) * 14)
print("top weight:", round(softmax(thirds)[2], 3), "->", round(softmax(thirds / 0.5)[2], 3))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Up. Halving `T` **squares** the evidence: `[1, 2, 3]` becomes `[1, 4, 9]` (float64 gives
# 9.000000000000002, since log 3 is stored rounded), with total 14, so the weights are
# `[1/14, 4/14, 9/14]`. Squaring helps the large values most, and the
# top weight rises from 0.5 to 9/14 = **0.643**. A temperature below 1 makes the weights
# *sharper*: the leader gains, the rest lose.
#
# </details>

# %% [markdown]
# ## 3. Three choices, two temperatures
#
# Take three choices A, B, C with scores `[2, 0, -1]`.
#
# **Predict (graded).** At `T = 1` choice A gets about 84%. At `T = 0.3`, roughly how much
# is left for C? Write "a" for about 1%, "b" for about 0.1%, "c" for less than that.

# %% nbgrader="guess" grade_id="guess_c_share" prediction="predict_c_share"
guess_c_share = ""  # your guess: "a", "b" or "c"
### BEGIN SOLUTION
guess_c_share = "c"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_c_share" points=1
check_guess("predict_c_share", guess_c_share, choices=["a", "b", "c"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_c_share", guess_c_share, "251b65a796bad41d")
### END HIDDEN TESTS

# %%
reveal("predict_c_share", guess_c_share)
choices = ["A", "B", "C"]
abc = np.array([2.0, 0.0, -1.0])
at_1, at_03 = softmax(abc / 1.0), softmax(abc / 0.3)
print(f"T = 1  : A {at_1[0]:.4f}  B {at_1[1]:.4f}  C {at_1[2]:.4f}")
print(f"T = 0.3: A {at_03[0]:.5f}  B {at_03[1]:.5f}  C {at_03[2]:.7f}")
print(f"A has {np.exp(2 / 1.0):.2f} times B's evidence at T = 1, {np.exp(2 / 0.3):.0f} times at T = 0.3")
print(f"at T = 0.3 C keeps one part in {1 / at_03[2]:,.0f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Less ("c"). At `T = 0.3` the gap of 2 between A and B becomes a gap of 6.67, so A's
# evidence is 786 times B's instead of 7.39 times. C keeps **0.0000453**, about one part in
# 22,000: far less than 1% or 0.1%. The scores did not change, only the temperature.
#
# </details>

# %%
fig, axes = plt.subplots(1, 2, figsize=(8, 3.2), sharey=True)
for ax, weights, title, labels in [
        (axes[0], at_1, "T = 1", [f"{w:.4f}" for w in at_1]),
        (axes[1], at_03, "T = 0.3", [f"{at_03[0]:.5f}", f"{at_03[1]:.5f}", f"{at_03[2]:.7f}"])]:
    ax.bar_label(ax.bar(choices, weights, color=[PALETTE[0], PALETTE[1], PALETTE[2]]), labels=labels, fontsize=8)
    ax.set(title=f"softmax([2, 0, -1] / T) at {title}", xlabel="choice", ylim=(0, 1.1))
axes[0].set_ylabel("weight")
show(fig, alt="Two bar charts of the weights of choices A, B, C with scores 2, 0, -1. At T = 1 the "
              "weights are 0.8438, 0.1142 and 0.0420; at T = 0.3 A takes 0.99868 and the bars of B "
              "(0.00127) and C (0.0000453) are too small to see.")

# %% [markdown]
# ## 4. The two ends: very hot and very cold
#
# **Predict.** As `T` grows without bound, where do the weights of `[2, 0, -1]` go? And as
# `T` shrinks towards 0?

# %%
# Your guess (not graded):

# %%
for T in [1, 3, 10, 100, 1000]:
    print(f"T = {T:<6}: {softmax(abc / T)}")
print()
for T in [1, 0.3, 0.1, 0.03]:
    print(f"T = {T:<6}: {softmax(abc / T)}")

# %% [markdown]
# - **Hot (`T → ∞`)**: every `score / T` shrinks towards 0, every piece of evidence towards
#   `e^0 = 1`, so the weights move toward **uniform**, 1/3 each.
# - **Cold (`T → 0⁺`)**: the gaps between scores grow without bound, and the weights put
#   all their mass on the **maximum**.
#
# **Predict.** What if two scores share the maximum? Try `[1, 1, 0]` at a very low `T`.

# %%
# Your guess (not graded):

# %%
ties = np.array([1.0, 1.0, 0.0])
print("[1, 1, 0] at T = 0.1 :", softmax(ties / 0.1))
print("[1, 1, 0] at T = 0.01:", softmax(ties / 0.01))

# %% [markdown]
# Tied maxima stay tied: the mass splits **equally** between them (`[0.5, 0.5, 0]`). Dividing
# by the same `T` cannot make two equal scores unequal, so no temperature ever picks one of
# them for you.
#
# One picture for the whole range (the horizontal axis is logarithmic):

# %%
temperatures = np.geomspace(0.05, 50, 200)
curves = softmax(abc / temperatures[:, None])
fig, ax = plt.subplots(figsize=(7, 3.4))
for index, (choice, style) in enumerate(zip(choices, ["-", "--", ":"])):
    ax.plot(temperatures, curves[:, index], style, color=PALETTE[index], linewidth=2,
            label=f"{choice} (score {abc[index]:g})")
ax.axhline(1 / 3, color="grey", linewidth=0.8)
ax.axvline(1, color="grey", linewidth=0.8, linestyle="--")
ax.text(0.055, 1 / 3 + 0.02, "uniform: 1/3", color="dimgrey", fontsize=8)
ax.set_xscale("log")
ax.set_xticks([0.05, 0.1, 0.3, 1, 3, 10, 50], labels=["0.05", "0.1", "0.3", "1", "3", "10", "50"])
ax.set(xlabel="temperature T (log scale)", ylabel="weight", ylim=(0, 1.02),
       title="softmax([2, 0, -1] / T): cold on the left, hot on the right")
ax.legend()
show(fig, alt="Line chart of the weights of A, B and C (scores 2, 0, -1) against the temperature "
              "from 0.05 to 50 on a log scale. On the left A's weight is 1 and the others 0; at T = 1 "
              "they are 0.84, 0.11, 0.04; on the right all three lines approach the grey line at 1/3.")

# %% [markdown]
# ## 5. Play with it: a temperature slider
#
# A language model ends with a row of **logits**, one score per symbol of its vocabulary, and
# softmax turns them into next-token weights. Here is a toy vocabulary of five tokens whose
# weights at `T = 1` are 3.7%, 29.8%, 13.9%, 16.6% and 35.9%. Their logits are the natural
# logs of these weights (any common shift would do: adding one number to every logit
# multiplies every evidence value by one factor, lesson 02, and the factor cancels).

# %%
next_tokens = ["I", "am", "learning", "to", "Delhi"]
next_logits = np.log([0.037, 0.298, 0.139, 0.166, 0.359])
print("logits:", next_logits)
for token, weight in zip(next_tokens, softmax(next_logits)):
    print(f"{token:>9}: {weight:.1%}")
print("predicted token at T = 1:", next_tokens[int(np.argmax(next_logits))])

# %% [markdown]
# ### Over which choices?
#
# Lesson 01 said that weights mean something only over a **stated set of choices**. Here the
# set is the vocabulary: 35.9% for "Delhi" is its share among these five tokens, on the
# understanding that the next token is one of them. A real model's vocabulary has tens of
# thousands of tokens, and every weight is a share of the total over all of them.
#
# **Predict (graded).** Add a sixth token, "Paris", with the same logit as "Delhi". No logit
# of the five changes. What happens to Delhi's 35.9%? Write "up", "down" or "same".

# %% nbgrader="guess" grade_id="guess_paris" prediction="predict_paris"
guess_paris = ""  # your guess: "up", "down" or "same"
### BEGIN SOLUTION
guess_paris = "down"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_paris" points=1
check_guess("predict_paris", guess_paris, choices=["up", "down", "same"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_paris", guess_paris, "506e48c97595f141")
### END HIDDEN TESTS

# %%
reveal("predict_paris", guess_paris)
bigger_vocabulary = next_tokens + ["Paris"]
bigger_logits = np.append(next_logits, next_logits[-1])
for token, weight in zip(bigger_vocabulary, softmax(bigger_logits)):
    print(f"six tokens, {token:>9}: {weight:.1%}")
print(f"the five weights as written sum to {np.exp(next_logits).sum():.3f}, the six to "
      f"{np.exp(bigger_logits).sum():.3f}: Delhi keeps 0.359 / {np.exp(bigger_logits).sum():.3f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Down. Delhi drops from 35.9% to **26.4%** (0.359 / 1.358: the five numbers as written
# sum to 0.999, and Paris adds another 0.359), and every other token loses
# the same fraction of its weight: the new token's evidence joins the shared total. A weight
# is always a weight *within* its set of choices; change the set and every weight changes,
# even though no score did.
#
# </details>

# %% [markdown]
# ### The explorer
#
# Run the next cell in JupyterLab and drag the slider (its scale is logarithmic, from
# `T ≈ 0.04` to `T ≈ 5`). The bars are the five weights, printed beside them; the most likely
# token is orange and named underneath. Each token's logit sits in a field of its own: type
# a new number and press Enter, and the bars follow. Where widgets cannot run, the cell
# shows the weights at three fixed temperatures instead.
#
# **Predict** before you drag: at the cold end, which token is the last to give up its
# share to "Delhi"? At the hot end, how close to 20% each do the bars get? Then make "I"
# the most likely token by changing one logit only: how large must it be?

# %%
# Your guess (not graded):

# %%
temperature_explorer(next_tokens, next_logits)

# %% [markdown]
# The same weights, computed at the slider's two ends and at `T = 0.05`:

# %%
from grader.learner.widgets import HIGHEST_EXPONENT, LOWEST_EXPONENT

coldest, hottest = 10**LOWEST_EXPONENT, 10**HIGHEST_EXPONENT
for label, T in [("slider's cold end", coldest), ("", 0.05), ("slider's hot end", hottest)]:
    weights = softmax(next_logits / T)
    shares = "  ".join(f"{token} {w:.1%}" for token, w in zip(next_tokens, weights))
    print(f"T = {T:.2f} {label:>17}: {shares}")
print(f"at T = {hottest:.2f} the bars lie between {softmax(next_logits / hottest).min():.1%} "
      f"and {softmax(next_logits / hottest).max():.1%}")
print(f"'I' becomes the most likely token once its logit passes {next_logits.max():.3f}, Delhi's")

# %% [markdown]
# At the cold end "Delhi" takes almost everything (97.6% at `T = 0.05`, 99.1% at the end of
# the slider), and "am", the runner-up, is the last to fade. At `T = 5.01` every bar lies
# between 14.8% and 23.3%. And the predicted token is "Delhi" at **every** temperature:
# dividing by a positive number never changes the order of the scores. Temperature changes
# how sure the weights are, not which choice comes first. Only a change of the logits
# themselves changes the order: "I" needs a logit above Delhi's -1.024 to lead.

# %% [markdown]
# ## 6. Zero, negative and infinite temperatures
#
# **Predict.** What does `softmax(scores / T)` give at `T = 0`? At `T = -1`? At `T = inf`?
#
# (NumPy would warn about the division by zero; `np.errstate` silences it so that only the
# results speak.)

# %%
# Your guess (not graded):

# %%
with np.errstate(divide="ignore", invalid="ignore"):
    print("T = 0  :", softmax(abc / 0.0))
at_minus_1 = softmax(abc / -1.0)
print(f"T = -1 : A {at_minus_1[0]:.4f}  B {at_minus_1[1]:.4f}  C {at_minus_1[2]:.4f}")
print("T = inf:", softmax(abc / np.inf))
print("T = nan:", softmax(abc / np.nan))

# %% [markdown]
# - `T = 0` divides by zero: `2/0 = inf`, `0/0 = nan`, and the nan spreads to every weight.
# - `T = -1` **reverses the ranking**: C, the worst score, now gets the most weight (0.7054)
#   and A the least. That is not a cooler or hotter version of the same choice; it is a
#   different choice.
# - `T = inf` silently returns uniform weights, and `T = nan` returns nan. Either way the
#   scores no longer matter, which almost always means a bug upstream.
#
# So a temperature must be a **finite number greater than 0**. Anything else is a mistake,
# and the right answer to a mistake is an error, raised at once, not a row of nan that
# surfaces three functions later.

# %% [markdown]
# ## 7. Exercise: `softmax_with_temperature`
#
# Write `softmax_with_temperature(scores, temperature=1.0)`: softmax of `scores / T` over
# the **last axis**, for a row or a batch of rows of any shape. Raise a `ValueError` when
# the temperature is not a finite number greater than 0 (`0`, negative, `inf`, `nan`).
# Accept lists and integer arrays, return a new float NumPy array, and never change the
# array you were given.
#
# Hint: decide what a temperature *is* and test for exactly that, rather than listing what it
# is not: `nan` fails every comparison, so a test for "too small" alone lets it through. You
# do not need to protect `exp` from overflow yet (that is lesson 05).

# %% nbgrader="solution" grade_id="softmax_with_temperature"
def softmax_with_temperature(scores, temperature=1.0):
    """softmax(scores / T) over the last axis; ValueError unless T is a finite number > 0."""
    ### BEGIN SOLUTION
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"the temperature must be a finite number > 0, got {temperature}")
    evidence = np.exp(np.asarray(scores, dtype=float) / temperature)
    return evidence / evidence.sum(axis=-1, keepdims=True)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_softmax_with_temperature_public" points=2 function="softmax_with_temperature"
check_values(softmax_with_temperature, np.array([0.0, np.log(2), np.log(3)]), expect=[1 / 6, 2 / 6, 3 / 6])
check_values(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), expect=[0.8437947344813395, 0.11419519938459446, 0.04201006613406605])
check_values(softmax_with_temperature, np.array([0.0, np.log(2), np.log(3)]), 0.5, expect=[1 / 14, 4 / 14, 9 / 14])
check_values(softmax_with_temperature, np.array([[0.0, np.log(4), np.log(9)], [np.log(9), np.log(9), 0.0]]),
           temperature=2, expect=[[1 / 6, 2 / 6, 3 / 6], [3 / 7, 3 / 7, 1 / 7]])
# a batch of one row stays a batch
check_values(softmax_with_temperature, np.array([[0.0, np.log(3)]]), expect=[[0.25, 0.75]])
check_values(softmax_with_temperature, np.array([[-700.0, -700.0 + np.log(3)], [700.0, 700.0 + np.log(3)]]),
           expect=[[0.25, 0.75], [0.25, 0.75]])  # rows far apart: each row on its own
# large scores: no clipping
check_values(softmax_with_temperature, np.array([100.0, 100.0 + np.log(3)]), expect=[0.25, 0.75])
# -inf gets weight 0
check_values(softmax_with_temperature, np.array([0.0, np.log(3), -np.inf]), expect=[0.25, 0.75, 0.0])
# divide first
check_values(softmax_with_temperature, np.array([800.0, 0.0]), 1000, expect=[0.6899744811276125, 0.3100255188723875])
# a NumPy T
check_values(softmax_with_temperature, np.array([0.0, np.log(3)]), np.int64(2), expect=[0.36602540378443865, 0.6339745962155614])
check_raises(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), 0, why="T = 0 divides by zero: it is not a temperature.")
check_raises(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), -1, why="T < 0 is not a temperature: it would reverse the ranking.")
check_raises(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), np.nan, why="T = nan is not a temperature.")
passed("softmax_with_temperature")

# %% nbgrader="tests" grade_id="test_softmax_with_temperature_divides" points=1 function="softmax_with_temperature"
### BEGIN HIDDEN TESTS
# property value: the weights are softmax(scores / T) over the last axis, for every T > 0
# property scale: multiplying the scores and T by the same factor changes no weight
# property shift: adding a constant to every score of a row changes none of its weights
# property limits: a small T puts the weight on the largest score (tied maxima share it), a huge T makes it uniform
# property accepts: every finite T > 0 is a temperature, whatever its type: int, float, NumPy scalars, tiny or huge
# property minus_inf: a score of -inf gets weight exactly 0 (its row still needs a finite score)
from grader.learner.checks import check_generated


def _reference(x, t):
    _x = np.asarray(x, dtype=float) / float(t)
    _e = np.exp(_x - _x.max(axis=-1, keepdims=True))
    return _e / _e.sum(axis=-1, keepdims=True)


_rows = np.array([[2.0, 0.0, -1.0], [0.5, 1.5, -0.5]])
for _t in (0.3, 0.5, 1.0, 2.0, 7.0):
    check_values(softmax_with_temperature, _rows, _t, expect=_reference(_rows, _t))
_batch = np.linspace(-2.0, 2.0, 24).reshape(2, 3, 4)
check_values(softmax_with_temperature, _batch, 0.4, expect=_reference(_batch, 0.4))
check_values(softmax_with_temperature, np.array([[3.0, 1.0, 2.0], [0.0, 0.0, 4.0]]), 2, expect=_reference([[3, 1, 2], [0, 0, 4]], 2))
check_values(softmax_with_temperature, np.array([1.0, 2.0, 3.0, 4.0]), 0.25, expect=_reference([1, 2, 3, 4], 0.25))
check_values(softmax_with_temperature, np.array([[5.0, 5.0, 5.0, 5.0]]), 0.1, expect=[[0.25, 0.25, 0.25, 0.25]])
# property scale
for _factor in (0.1, 3.0, 40.0):
    check_values(softmax_with_temperature, _rows * _factor, 0.5 * _factor, expect=_reference(_rows, 0.5))
_large = np.array([[800.0, 790.0, -800.0], [-800.0, -790.0, -795.0]])  # exp(800) overflows, exp(800 / 10) does not
check_values(softmax_with_temperature, _large, 10.0, expect=_reference(_large, 10.0))
# property shift
_offsets = np.array([[100.0], [-300.0]])
for _t in (1.0, 2.5):
    check_values(softmax_with_temperature, _rows + _offsets, _t, expect=_reference(_rows, _t))
_shifted = _batch + np.array([[[250.0], [-40.0], [0.5]], [[-600.0], [30.0], [600.0]]])
check_values(softmax_with_temperature, _shifted, 2.0, expect=_reference(_batch, 2.0))
# property limits
check_values(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), 0.01, expect=[1.0, 0.0, 0.0])
check_values(softmax_with_temperature, np.array([[1.0, 1.0, 0.0], [-3.0, 4.0, 4.0]]), 0.01, expect=[[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]])
check_values(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), 1e6, expect=_reference([2.0, 0.0, -1.0], 1e6))
check_values(softmax_with_temperature, np.array([[2.0, 0.0, -1.0], [300.0, 0.0, -300.0]]), 1e300, expect=np.full((2, 3), 1 / 3))
# property minus_inf
check_values(softmax_with_temperature, np.array([[1.0, -np.inf, 0.5], [-np.inf, 2.0, 2.0]]), 0.7,
           expect=_reference([[1.0, -np.inf, 0.5], [-np.inf, 2.0, 2.0]], 0.7))
check_values(softmax_with_temperature, np.array([-np.inf, 0.0]), 3.0, expect=[0.0, 1.0])
# property accepts
for _t in (np.float32(0.5), np.int64(3), np.float64(0.25), 2, 0.05):
    check_values(softmax_with_temperature, np.array([1.5, -0.25, 3.0]), _t, expect=_reference([1.5, -0.25, 3.0], _t))


def _draw_scores(rng, size):
    """A row or a batch with up to two leading dimensions; scores of any size up to 300 T."""
    _shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3))) + (int(rng.integers(1, 3 + size // 4)),)
    _t = float(10 ** rng.uniform(-0.7, 1.0))
    _size = min(float(10 ** rng.uniform(-1.0, 2.3)), 300 * _t)
    _x = rng.uniform(-_size, _size, _shape)
    _form = size % 3
    return (_x.tolist() if _form == 1 else np.round(_x).astype(int) if _form == 2 else _x), _t


def _draw_score_arrays(rng, size):
    """_draw_scores's scores, a list or an int array as the float64 array of its values: their type is a detail."""
    _x, _t = _draw_scores(rng, size)
    return np.asarray(_x, dtype=float), _t


check_generated(softmax_with_temperature, _draw_score_arrays, reference=_reference, seed=404, examples=24,
                values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_with_temperature_shapes" points=1 function="softmax_with_temperature"
### BEGIN HIDDEN TESTS
# property shapes: a row or a batch with any number of leading dimensions and axes of length 1: (1, n), (k, 1, n), (n, 1)
# property rows: each row is normalised on its own, whatever the other rows hold (rows far apart too)
# property value
from grader.learner.checks import check_generated


def _reference(x, t):
    _x = np.asarray(x, dtype=float) / float(t)
    _e = np.exp(_x - _x.max(axis=-1, keepdims=True))
    return _e / _e.sum(axis=-1, keepdims=True)


for _shape in [(5,), (1, 5), (3, 1, 4), (1, 1, 3), (2, 1, 1, 3), (4, 1), (1, 1), (1,), (2, 3, 2, 3)]:
    _x = 2.0 * np.sin(1.3 * np.arange(int(np.prod(_shape)))).reshape(_shape)
    check_values(softmax_with_temperature, _x, 0.7, expect=_reference(_x, 0.7))
# property rows
_far = np.array([[-700.0, -699.5, -701.0], [40.0, 41.0, 39.0]])
check_values(softmax_with_temperature, _far, 1.0, expect=_reference(_far, 1.0))
check_values(softmax_with_temperature, _far / 100, 0.01, expect=_reference(_far / 100, 0.01))
check_values(softmax_with_temperature, _far[:, None, :], 1.0, expect=_reference(_far[:, None, :], 1.0))
_columns = np.asfortranarray(np.linspace(-1.0, 2.0, 12).reshape(4, 3))  # rows that are not contiguous in memory
check_values(softmax_with_temperature, _columns, 0.6, expect=_reference(_columns, 0.6))
check_values(softmax_with_temperature, _columns.T, 0.6, expect=_reference(_columns.T, 0.6))


def _draw_far_rows(rng, size):
    """Batches (with axes of length 1) whose rows lie far apart: some near +50, some near -700 (scores / T)."""
    _shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(1, 3))) + (int(rng.integers(1, 5)),)
    _t = float(rng.uniform(0.5, 1.0))
    _level = np.where(rng.random(_shape[:-1] + (1,)) < 0.5, rng.uniform(-695.0, -685.0), rng.uniform(20.0, 60.0))
    return (_level + rng.uniform(-2.0, 2.0, _shape)) * _t, _t


check_generated(softmax_with_temperature, _draw_far_rows, reference=_reference, seed=4040, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_with_temperature_rejects_nonpositive" points=1 function="softmax_with_temperature"
### BEGIN HIDDEN TESTS
# property rejects_nonpositive: T = 0 (of any type, -0.0 too) and every negative T raise ValueError
_abc = np.array([2.0, 0.0, -1.0])
for _zero in (0, 0.0, -0.0, np.float32(0.0), np.int64(0)):
    check_raises(softmax_with_temperature, _abc, _zero, why="T = 0 divides by zero: it is not a temperature.")
check_raises(softmax_with_temperature, np.array([[1.0, 2.0], [3.0, 3.0]]), 0.0, why="T = 0 divides by zero.")
for _t in (-1.0, -0.5, -3, -1e-300, np.float32(-2.0), np.int64(-1)):
    check_raises(softmax_with_temperature, _abc, _t, why="A negative T reverses the ranking: it is not a temperature.")
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_with_temperature_rejects_nonfinite" points=1 function="softmax_with_temperature"
### BEGIN HIDDEN TESTS
# property rejects_nonfinite: T = inf, -inf and nan (of any float type) raise ValueError
check_raises(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), np.inf,
             why="T = inf is not a finite number: it would flatten any scores to uniform.")
check_raises(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), float("inf"), why="T = inf is not a finite number.")
check_raises(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), -np.inf, why="T = -inf is not a temperature.")
check_raises(softmax_with_temperature, np.array([2.0, 0.0, -1.0]), np.nan,
             why="T = nan is not a number (and nan <= 0 is False, so a test for <= 0 alone lets it through).")
check_raises(softmax_with_temperature, np.array([[0.5, 1.0], [2.0, -2.0]]), np.float32(np.nan), why="T = nan is not a number.")
check_raises(softmax_with_temperature, np.array([[0.5, 1.0], [2.0, -2.0]]), np.float32(np.inf), why="T = inf is not finite.")
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_softmax_with_temperature_details" points=1 function="softmax_with_temperature"
# details: a list of integers gives float64, and the answer is a NumPy array
check_call(softmax_with_temperature, [2, 0, -1], expect=[0.8437947344813395, 0.11419519938459446, 0.04201006613406605],
           dtype=np.float64)
check_call(softmax_with_temperature, [[0.0, np.log(3)]], expect=[[0.25, 0.75]], dtype=np.float64)
check_call(softmax_with_temperature, [800.0, 0.0], 1000, expect=[0.6899744811276125, 0.3100255188723875], dtype=np.float64)
check_raises(softmax_with_temperature, [2, 0, -1], 0, why="T = 0 divides by zero: it is not a temperature.")
### BEGIN HIDDEN TESTS
# property unchanged: the caller's scores are never changed: float and int arrays, lists, read-only arrays, views
# property dtype: int arrays, lists and float64 scores give float64 weights; float32 and float16 scores give the right float weights
# property returns_array: the weights come back as a plain NumPy array, for a list too
def _reference(x, t):
    _x = np.asarray(x, dtype=float) / float(t)
    _e = np.exp(_x - _x.max(axis=-1, keepdims=True))
    return _e / _e.sum(axis=-1, keepdims=True)


_x = np.array([[2.0, 0.0, -1.0], [0.5, 1.5, -0.5]])
for _t in (0.5, 1.0):
    check_call(softmax_with_temperature, _x, _t, expect=_reference(_x, _t), dtype=np.float64)
check_call(softmax_with_temperature, np.array([1.0, 2.0, 3.0]), 1.0, expect=_reference([1.0, 2.0, 3.0], 1.0),
           dtype=np.float64)
check_call(softmax_with_temperature, _x.astype(np.float32), 0.5, expect=_reference(_x.astype(np.float32), 0.5))
_half = np.array([[12.0, 10.0, 0.0], [-12.0, 0.0, 11.5]], dtype=np.float16)  # exp overflows float16 above 11.1
check_call(softmax_with_temperature, _half, 1.0, expect=_reference(_half, 1.0))
check_call(softmax_with_temperature, np.array([[3, 1, 2], [0, 0, 4]]), 2, expect=_reference([[3, 1, 2], [0, 0, 4]], 2),
           dtype=np.float64)
check_call(softmax_with_temperature, np.array([3, 1, 2], dtype=np.int32), 0.5, expect=_reference([3, 1, 2], 0.5),
           dtype=np.float64)
check_call(softmax_with_temperature, [[1, 2], [3.5, 4]], 0.5, expect=_reference([[1, 2], [3.5, 4]], 0.5),
           dtype=np.float64)
check_call(softmax_with_temperature, [0.5, 2, -1], 2.0, expect=_reference([0.5, 2, -1], 2.0), dtype=np.float64)
_locked = np.array([[0.25, -1.0, 2.0]])
_locked.flags.writeable = False
check_call(softmax_with_temperature, _locked, 0.5, expect=_reference(_locked, 0.5), dtype=np.float64)
_grid = np.arange(12.0).reshape(3, 4) / 4
check_call(softmax_with_temperature, _grid[1:], 0.7, expect=_reference(_grid[1:], 0.7), dtype=np.float64)
check_call(softmax_with_temperature, _grid[:, ::2], 0.7, expect=_reference(_grid[:, ::2], 0.7), dtype=np.float64)
check_call(softmax_with_temperature, [[1, 2, 3, 4]], 0.25, expect=_reference([[1, 2, 3, 4]], 0.25), dtype=np.float64)
check_call(softmax_with_temperature, [[1.0, -np.inf, 0.5], [-np.inf, 2.0, 2.0]], 0.7,
           expect=_reference([[1.0, -np.inf, 0.5], [-np.inf, 2.0, 2.0]], 0.7), dtype=np.float64)
for _t in (np.float32(0.5), np.int64(3), 2):
    check_call(softmax_with_temperature, [1.5, -0.25, 3.0], _t, expect=_reference([1.5, -0.25, 3.0], _t), dtype=np.float64)
check_raises(softmax_with_temperature, [[1.0, 2.0], [3.0, 3.0]], 0.0, why="T = 0 divides by zero.")
check_raises(softmax_with_temperature, [2.0, 0.0, -1.0], np.nan, why="T = nan is not a number.")
check_generated(softmax_with_temperature, _draw_scores, reference=_reference, seed=404, examples=24)
### END HIDDEN TESTS
# %% [markdown]
# With your function, the very cold end from section 4, and a tie:

# %%
print("[2, 0, -1] at T = 0.05:", softmax_with_temperature(abc, 0.05))
print("[1, 1, 0] at T = 0.05:", softmax_with_temperature(ties, 0.05))

# %% [markdown]
# Attention (lesson 07) divides its scores by √d_k, where d_k is the width of its query and key
# vectors: a temperature in form, but a fixed scale of the architecture, not one you tune.
# Lesson 07 shows why it is there.

# %% [markdown]
# ## 8. Decoding: "temperature 0" means "take the largest score"
#
# To generate text, a model turns its logits into weights and then picks one token. Picking
# at random with those weights is **sampling**; temperature decides how adventurous it is.
#
# Many text-generation APIs also accept `temperature=0`, and read it as "skip the dice, take
# the largest score" (**greedy decoding**); some refuse it instead (Hugging Face
# `transformers` raises an error for a temperature that is not strictly positive and points
# you to greedy decoding). Either way it is a special case of *decoding*, not of softmax:
# section 6 showed that softmax at `T = 0` does not exist. Greedy decoding looks
# like the limit `T → 0⁺` when one logit is the largest, but it always returns one index,
# even when two logits tie (the limit splits the weight between them instead).
#
# NumPy's random numbers come from a **generator**: `rng = np.random.default_rng(seed)`.
# The same seed gives the same draws, which makes experiments repeatable. A generator can
# draw an index with weights you give it: look up the `p` argument of its `choice` method
# (`help(rng.choice)`).

# %% [markdown]
# ## 9. Exercise: `sample_next_token`
#
# Write `sample_next_token(logits, temperature, rng)` for one row of logits (a 1-D list or
# array):
# - `temperature == 0`: return the index of the largest logit, as an `int`, without
#   drawing anything;
# - `temperature > 0`: draw an index with the generator `rng` from
#   `softmax(logits / temperature)` (your `softmax_with_temperature` is welcome here);
# - `temperature < 0`: raise a `ValueError`.
#
# Use the `rng` you are given, not `np.random` directly, so that a seed makes your results
# repeatable. The checks test your sampler by the frequencies of many draws, so any correct
# way of drawing passes.
#
# Hint: three cases, and only one of them needs the dice. Ask yourself which case must be
# decided before anything is divided, and what kind of number the greedy case hands back.

# %% nbgrader="solution" grade_id="sample_next_token"
def sample_next_token(logits, temperature, rng):
    """Next-token index: argmax when T == 0, else a draw with rng from softmax(logits / T)."""
    ### BEGIN SOLUTION
    if temperature < 0:
        raise ValueError(f"the temperature must be >= 0, got {temperature}")
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        return int(np.argmax(logits))
    weights = softmax_with_temperature(logits, temperature)
    return int(rng.choice(len(weights), p=weights))
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_sample_next_token_public" points=2 function="sample_next_token"
check_frequencies(sample_next_token, np.array([0.5, 2.0, -1.0]), 0, np.random.default_rng(2024), expect=[0, 1, 0], draws=200,
                  why="T = 0: greedy decoding, no dice")
check_frequencies(sample_next_token, np.array([0.0, np.log(2), np.log(3)]), 0.5, np.random.default_rng(2025),
                  expect=[1 / 14, 4 / 14, 9 / 14], why="logits [0, log 2, log 3] at T = 0.5: weights 1/14, 4/14, 9/14")
check_frequencies(sample_next_token, np.array([0.0, 1.0]), 1, np.random.default_rng(2026), expect=[0.2689414213699951, 0.7310585786300049],
                  why="logits [0, 1] at T = 1")
check_own_generator(sample_next_token, np.array([0.0, np.log(3)]), 1.0, np.random.default_rng(7), why="it draws from rng alone")
check_raises(sample_next_token, np.array([0.5, 2.0, -1.0]), -1.0, np.random.default_rng(0),
             why="T < 0 is not a temperature: dividing by it would reverse the ranking.")
passed("sample_next_token")

# %% nbgrader="tests" grade_id="test_sample_next_token_greedy" points=1 function="sample_next_token"
### BEGIN HIDDEN TESTS
# property greedy: at T == 0 (0, 0.0, -0.0, a NumPy zero) it returns the index of the largest logit, every time
# property no_draw_at_zero: at T == 0 it draws nothing: the generator is left as it was
# property shapes
import copy as _copy

from grader.learner.checks import catalogued_mistake, check_generated, describe_call, failure

for _seed, (_logits, _top) in enumerate([([0.1, 0.3, 0.2], 1), (np.array([-3.0, -1.0, -2.0, -1.5]), 1),
                                         (np.array([1, 4, 2]), 1), ([2.0, 0.0, -1.0], 0),
                                         ([0.0, 0.5, 1.0, 1.2, 1.1], 3), (np.array([0.5, 2.5, -1.0], dtype=np.float32), 1),
                                         ((4.0, -2.0), 0), ([7.5], 0)]):
    for _zero in (0, 0.0):
        check_frequencies(sample_next_token, _logits, _zero, np.random.default_rng(70 + _seed),
                          expect=np.eye(len(_logits))[_top], draws=200, why="T = 0: greedy decoding, no dice")
for _zero in (-0.0, np.float64(0.0), np.int64(0)):
    check_frequencies(sample_next_token, np.array([0.2, -1.0, 0.9, 0.4]), _zero, np.random.default_rng(90),
                      expect=[0.0, 0.0, 1.0, 0.0], draws=50, why="T = 0 of another type: still greedy decoding")


def _draw_logits(rng, size):
    """One row of distinct logits (a list, an int array, a float32 or float64 array) and a zero temperature."""
    _n = int(rng.integers(1, 2 + 3 * size))
    _row = rng.permutation(_n) * float(10 ** rng.uniform(-1.0, 2.0)) - float(rng.uniform(-50.0, 50.0))
    _form = size % 4
    _row = (_row.tolist() if _form == 1 else rng.permutation(_n) - _n // 2 if _form == 2
            else _row.astype(np.float32) if _form == 3 else _row)
    return _row, (0, 0.0, -0.0)[size % 3], np.random.default_rng(size)


check_generated(sample_next_token, _draw_logits, reference=lambda logits, t, rng: int(np.argmax(np.asarray(logits))),
                seed=4004, examples=20)
# property no_draw_at_zero


def _fail_naming(message):
    """Fail with `message`, naming the catalogued mistake whose fingerprint the learner's function matches, if one."""
    _entry = catalogued_mistake(sample_next_token)
    raise failure([message], [] if _entry is None else [(_entry.description, _entry.hint)])


def _draws_at_zero(fn, logits):
    _rng = np.random.default_rng(11)
    fn(_copy.deepcopy(logits), 0, _rng)
    return _rng.bit_generator.state != np.random.default_rng(11).bit_generator.state


for _logits in ([0.1, 0.3, 0.2], np.array([1, 4, 2]), np.array([0.5, 2.5, -1.0], dtype=np.float32), np.array([-1.0, -2.0])):
    _call = describe_call(sample_next_token, (_logits, 0, np.random.default_rng(1)), {})
    if _draws_at_zero(sample_next_token, _logits):
        _fail_naming(f"{_call} drew from rng: at T = 0 greedy decoding takes the largest logit without drawing "
                     "anything, so the generator must be left as it was.")
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_sample_next_token_temperature" points=1 function="sample_next_token"
### BEGIN HIDDEN TESTS
# property value: for T > 0 each index is drawn as often as softmax(logits / T) weighs it
# property shapes: one row of any length (one logit, two, a long vocabulary), as an array; one index back
# property unchanged: the caller's logits are never changed
def _weights(logits, t):
    _e = np.exp(np.asarray(logits, dtype=float) / t)
    return _e / _e.sum()


for _seed, (_logits, _t) in enumerate([(np.array([2.0, 0.0, -1.0]), 1.0), (np.array([2.0, 0.0, -1.0]), 2.5),
                                       (np.array([1.0, 0.2, 0.6, -0.4]), 0.5), (np.array([3.0, 1.0, 2.0]), 2),
                                       (np.array([0.3, 0.0, -0.2, 0.1, 0.4]), 4.0)]):
    check_frequencies(sample_next_token, _logits, _t, np.random.default_rng(110 + _seed),
                      expect=_weights(_logits, _t))
for _seed, (_logits, _t) in enumerate([(np.array([0.5, -0.5]), 1.0), (np.array([1.0, 0.2, 0.6, -0.4], dtype=np.float32), 0.5),
                                       (np.array([0.7]), 0.5), (3.0 * np.sin(0.7 * np.arange(40)), 1.5),
                                       (np.array([1.0, -np.inf, 0.5, 0.2]), 0.7), (np.array([2.0, 0.0, -1.0]), 50.0),
                                       (np.array([1.5, -0.25, 3.0]), np.float32(0.5))]):
    check_frequencies(sample_next_token, _logits, _t, np.random.default_rng(120 + _seed),
                      expect=_weights(_logits, _t), draws=2000 if len(_logits) > 10 else 1000)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_sample_next_token_own_generator" points=1 function="sample_next_token"
### BEGIN HIDDEN TESTS
# property own_generator: it draws only from the generator it is given: the same state gives the same draws, another state other draws, and NumPy's global random state and Python's random are left alone
from grader.learner.checks import check_own_generator

check_own_generator(sample_next_token, np.array([2.0, 0.0, -1.0]), 1.0, np.random.default_rng(7))
check_own_generator(sample_next_token, np.array([0.3, 0.0, -0.2, 0.1, 0.4]), 4.0, np.random.default_rng(8))
check_own_generator(sample_next_token, np.array([0.5, 2.0, -1.0]), 0, np.random.default_rng(9), varies=False,
                    why="T = 0: greedy decoding needs no random numbers")
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_sample_next_token_rejects" points=1 function="sample_next_token"
### BEGIN HIDDEN TESTS
# property rejects_negative: every negative T (tiny ones, -inf, NumPy numbers) raises ValueError
for _t in (-1.0, -0.5, -0.01, -2, -1e-300, -np.inf, np.float32(-1.0), np.int64(-3)):
    check_raises(sample_next_token, np.array([0.5, 2.0, -1.0]), _t, np.random.default_rng(3),
                 why="T < 0 is not a temperature: dividing by it would reverse the ranking, "
                     "and only T = 0 has a meaning of its own (greedy).")
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_sample_next_token_details" points=1 function="sample_next_token"
# details: a list of integer logits works, and at T = 0 the index comes back as a Python int
check_frequencies(sample_next_token, [0, 1], 1, np.random.default_rng(2026), expect=[0.2689414213699951, 0.7310585786300049],
                  why="a list of integer logits at T = 1")
from grader.learner.checks import catalogued_mistake, failure

_index = sample_next_token([0.5, 2.0], 0, np.random.default_rng(0))
if type(_index) is not int:
    _entry = catalogued_mistake(sample_next_token)
    raise failure([f"sample_next_token([0.5, 2.0], 0, rng) returned {_index!r}, a {type(_index).__name__}: at T = 0 "
                   "return the index as a Python int."], [] if _entry is None else [(_entry.description, _entry.hint)])
### BEGIN HIDDEN TESTS
# property returns_int: at T == 0 the index comes back as a Python int, as the exercise asks
# property dtype: lists, tuples, int arrays, float32 and float64 arrays of logits all work
import copy as _copy

for _seed, (_logits, _t) in enumerate([([2.0, 0.0, -1.0], 1.0), (np.array([3, 1, 2]), 2), ((0.5, -0.5), 1.0),
                                       ([0.3, 0.0, -0.2, 0.1, 0.4], 4.0)]):
    check_frequencies(sample_next_token, _logits, _t, np.random.default_rng(130 + _seed), expect=_weights(_logits, _t))
check_own_generator(sample_next_token, [2.0, 0.0, -1.0], 1.0, np.random.default_rng(7))
for _logits in ([0.1, 0.3, 0.2], np.array([1, 4, 2]), np.array([0.5, 2.5, -1.0], dtype=np.float32), np.array([-1.0, -2.0])):
    _call = describe_call(sample_next_token, (_logits, 0, np.random.default_rng(1)), {})
    _got = sample_next_token(_copy.deepcopy(_logits), 0, np.random.default_rng(1))
    if type(_got) is not int:
        _entry = catalogued_mistake(sample_next_token)
        raise failure([f"{_call} returned {_got!r}, a {type(_got).__name__}: at T = 0 the index must come back as a "
                       "Python int."], [] if _entry is None else [(_entry.description, _entry.hint)])
### END HIDDEN TESTS
# %% [markdown]
# ## 10. Your sampler on A, B, C
#
# **Predict.** Out of 10,000 draws from `[2, 0, -1]`, about how many will be C at `T = 1`?
# At `T = 0.3`?

# %%
# Your guess (not graded):

# %%
rng = np.random.default_rng(4)
for T in (1.0, 0.3):
    draws = [sample_next_token(abc, T, rng) for _ in range(10_000)]
    print(f"T = {T}: A, B, C drawn {np.bincount(draws, minlength=3)} times, "
          f"expected about {np.round(10_000 * softmax(abc / T), 1)}")
print("greedy decoding (T = 0) picks:", choices[sample_next_token(abc, 0, rng)])

# %% [markdown]
# At `T = 1` C's weight is 0.0420, so it should come up about 420 times in 10,000. At
# `T = 0.3` its weight is 0.0000453: 10,000 draws expect 0.5 of it, so it shows up once or
# twice at most, often not at all. Greedy decoding never shows it, and never shows B either:
# it returns A every time.

# %% [markdown]
# ## 11. Your sampler on the five tokens
#
# Twelve draws from the five-token vocabulary of section 5, at four temperatures, with one
# seeded generator:

# %%
rng = np.random.default_rng(5)
for T in (0, 0.3, 1, 3):
    drawn = [next_tokens[sample_next_token(next_logits, T, rng)] for _ in range(12)]
    print(f"T = {T:<3}: {' '.join(drawn)}")
for T in (0.3, 3):
    shares = "  ".join(f"{token} {w:.0%}" for token, w in zip(next_tokens, softmax_with_temperature(next_logits, T)))
    print(f"weights at T = {T}: {shares}")

# %% [markdown]
# `T = 0` says "Delhi" every time. At `T = 0.3` sampling is mostly a duel between "Delhi"
# (60%) and "am" (32%), while "I" rounds to 0%; at `T = 3` even "I" has a 12% chance at every
# draw. The logits are the same in every row: only the temperature, and the dice, differ.

# %% [markdown]
# ## What carries forward
#
# Temperature divides the scores before softmax: `T < 1` sharpens, `T > 1` flattens, the
# order of the choices never changes, and `T` must be a finite number greater than 0.
# "Temperature 0" belongs to decoding: take the largest score.
#
# One problem is left. A small `T` makes `scores / T` **large**, and `exp` of a large number
# overflows float64 (lesson 02: `exp(710)` is already too big). **Predict** what
# `[2, 0, -1]` gives at `T = 0.002`, where the scores become `[1000, 0, -500]`. This cell
# shows NumPy's warning on purpose.

# %%
# Your guess (not graded):

# %% tags=["expect-warning"]
print("T = 0.002:", softmax(abc / 0.002))

# %% [markdown]
# `exp(1000)` is `inf`, the total is `inf`, and `inf / inf` is nan: A gets nan instead of
# 1, although the answer is plainly `[1, 0, 0]`. Your `softmax_with_temperature` does the
# same (unless you already shifted the scores). Lesson 05 fixes it without
# changing a single weight: subtract each row's largest score before `exp`.
