# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 06 — Masking: forbidden choices get -inf before softmax
#
# **By the end of this lesson you will be able to**
# - say what a *mask* is (True = allowed) and why a forbidden choice must get weight
#   exactly 0;
# - explain why setting a forbidden score to 0 does not remove it, and why `-inf` does;
# - refuse a row with no allowed choice instead of returning nan or a uniform row;
# - write `causal_mask`, `padding_mask` and `masked_softmax`;
# - say why training a language model needs the causal mask, and read the causally
#   masked attention weights of the journey sentence.
#
# Work from top to bottom. Cells marked **Predict** ask you to write down a guess
# *before* you run the cell that computes the answer, in the one-line cell under the question.
# Those marked **Predict (graded)** earn a point each: write the guess in the cell under the
# question, run it and its check, and only then run on. The check says your guess is written
# down, not whether it is right; that counts when your work is graded. Each explanation is
# folded under the answer: open it once you have answered.

# %% nbgrader="readonly" grade_id="setup"
import numpy as np
import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap

from grader.learner.checks import check_call, check_generated, check_quiet, check_raises, check_values, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.stubs import point_at_stubs

np.set_printoptions(precision=4, suppress=True, floatmode="fixed")
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# ## 1. Some choices are not allowed
#
# So far every score in a row took part in the softmax. Often some choices must not:
#
# - a language model is trained on whole sentences at once: all the tokens go in together,
#   and position *i* is trained to predict token *i* + 1. If position *i* could attend to
#   token *i* + 1, it would read the very answer it is meant to predict, so it may attend
#   only to tokens 0..*i*;
# - sentences in a batch have different lengths, so short ones are filled up with
#   *padding* positions that hold no word at all;
# - a decoder may ban some vocabulary symbols outright.
#
# A **mask** says which choices are allowed. Here it is a boolean array with one entry per
# score: **True = allowed**, False = forbidden. Libraries disagree on this convention
# (PyTorch's `scaled_dot_product_attention` reads True as "takes part", while the
# `key_padding_mask` of its `nn.MultiheadAttention` reads True as "ignore"), so always
# check which one you are holding.
#
# First we build the two masks that attention uses most; then we make a softmax obey them.

# %% [markdown]
# ## 2. The causal mask
#
# Take the six tokens of *Your journey starts with one step*. While training, the model
# reads all six at once, and each position learns to predict the token after it: "Your"
# predicts "journey", "journey" predicts "starts", and so on. So token *i* may attend to
# tokens 0, 1, …, *i* (itself and everything before it), never to a later one: the next
# token is its answer, and the ones after that give the answer away too.
#
# As a mask, row *i* is the query token and column *j* the token it attends to:
# **True where j ≤ i**. Row 0 ("Your") allows only itself; the last row ("step") allows
# all six. Everything above the diagonal is forbidden.
#
# Masks should be **booleans**, not 0/1 numbers. **Predict.** `~` means "not". What do
# you get from `~` on the numbers 1 and 0, and on the booleans True and False?

# %%
# Your guess (not graded):

# %%
as_numbers = np.array([1, 0])
as_booleans = np.array([True, False])
print("~ on the numbers [1, 0]:", ~as_numbers, "| ~ on [True, False]:", ~as_booleans)
print("read as conditions, ~1 and ~0 are:", bool(~1), bool(~0))

# %% [markdown]
# On a boolean array `~` swaps True and False, but on integers it is bitwise not:
# `~1 == -2` and `~0 == -1`, and both of those count as true. A 0/1 mask turned around
# with `~` allows everything.
#
# ## Exercise: `causal_mask`
#
# Write `causal_mask(n)`: an `(n, n)` boolean array, True where column ≤ row.
#
# Hint: think of the mask as a comparison between two numbers, the row index and the
# column index, made for every cell at once; or of the shape the True entries form.

# %% nbgrader="solution" grade_id="causal_mask"
def causal_mask(n):
    """(n, n) boolean mask: True where column <= row (a token sees itself and earlier tokens)."""
    ### BEGIN SOLUTION
    return np.tril(np.ones((n, n), dtype=bool))
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_causal_mask_public" points=1 function="causal_mask"
_expected4 = [[True, False, False, False],
              [True, True, False, False],
              [True, True, True, False],
              [True, True, True, True]]
check_values(causal_mask, 4, expect=np.array(_expected4))
passed("causal_mask")

# %% nbgrader="tests" grade_id="test_causal_mask_sizes" points=1 function="causal_mask"
### BEGIN HIDDEN TESTS
# property value: True exactly where column <= row: each token sees itself and the tokens before it
# property shapes: shape (n, n) for every n from 1 up, a sequence longer than 512 tokens included
def _lower(n):
    return np.arange(int(n))[None, :] <= np.arange(int(n))[:, None]


for _n in (1, 2, 6, 17, 520):  # 520: past 512, and a list of lists of that size still comes back to be compared
    check_values(causal_mask, _n, expect=_lower(_n))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_causal_mask_details" points=0.5 function="causal_mask"
# details: the mask is a boolean NumPy array
check_call(causal_mask, 4, expect=np.array(_expected4))
### BEGIN HIDDEN TESTS
# property dtype: a boolean NumPy array, for n given as a Python int, a NumPy int64 or int32, or a 0-d integer array
# property unchanged: never changes its input: an n given as a 0-d array stays as it was
for _n in (np.int64(3), np.int32(5), 4, np.array(4)):
    check_call(causal_mask, _n, expect=_lower(_n))
check_call(causal_mask, np.array(1), expect=[[True]])
for _n in (1, 2, 6, 600):
    check_call(causal_mask, _n, expect=_lower(_n))
### END HIDDEN TESTS

# %% [markdown]
# ## 3. The padding mask
#
# To process several sentences at once we stack them into one array, so the short ones
# are filled up to a common length `n` with padding positions that hold no word. Here
# are three sentences padded to 6 positions:
#
# | sentence | length | positions 0–5 |
# |---|---|---|
# | Your journey starts with one step | 6 | all real |
# | one step | 2 | 0–1 real, 2–5 padding |
# | Your journey starts | 3 | 0–2 real, 3–5 padding |
#
# No token may attend to a padding position: for a sentence of length L, **position
# p is allowed when p < L** (positions count from 0, so the last real one is L - 1).
#
# ## Exercise: `padding_mask`
#
# Write `padding_mask(lengths, n)`: a boolean array of shape `(len(lengths), n)`, one row
# per sentence, True where the position is less than that sentence's length. Accept a
# list or an array of lengths.
#
# Hint: each row is the comparison "position < length" for one sentence. One comparison
# can answer it for every sentence and every position at once, if broadcasting pairs each
# length with each position: which shapes make it do that?

# %% nbgrader="solution" grade_id="padding_mask"
def padding_mask(lengths, n):
    """(len(lengths), n) boolean mask: True where position < that sequence's length."""
    ### BEGIN SOLUTION
    return np.arange(n) < np.asarray(lengths)[:, None]
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_padding_mask_public" points=1 function="padding_mask"
_pad_expected = np.array([[True, True, True, False], [True, False, False, False]])
# an array of lengths, left unchanged
check_values(padding_mask, np.array([3, 1]), 4, expect=_pad_expected)
passed("padding_mask")

# %% nbgrader="tests" grade_id="test_padding_mask_batches" points=1 function="padding_mask"
### BEGIN HIDDEN TESTS
# property value: True exactly where the position is less than that sequence's length
# property shapes: shape (len(lengths), n): one sequence gives (1, n), n = 1 works, and lengths 0 and n give all-False and all-True rows
def _positions_below(lengths, n):
    return np.arange(int(n)) < np.asarray(lengths)[:, None]


for _lengths, _n in [(np.array([6, 2, 3]), 6), ((1,), 3), ([0, 4], 4), ([5, 5], 5), ([2, 2, 2, 2, 1], 3),
                     ([3], 5), ([0, 1, 1], 1), ([0, 0], 3), ([4], 4), ([1, 7, 3, 0], 9)]:
    check_values(padding_mask, np.array(_lengths), _n, expect=_positions_below(_lengths, _n))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_padding_mask_details" points=0.5 function="padding_mask"
# details: lengths given as a list work, and the mask is a boolean NumPy array
check_call(padding_mask, [3, 1], 4, expect=_pad_expected)
### BEGIN HIDDEN TESTS
# property dtype: a boolean NumPy array, for lengths given as a list, a tuple, or an int64, int32 or uint8 array, and n as a Python or a NumPy integer
# property unchanged: never changes the caller's lengths
for _lengths, _n in [(np.array([3, 1, 4]), 4), (np.array([2, 0, 5], dtype=np.int32), np.int64(5)),
                     (np.array([1, 3], dtype=np.uint8), 3), ((2, 4, 0), 4), ([np.int64(2), np.int64(1)], np.int32(3)),
                     (np.array([0, 6]), 6)]:
    check_call(padding_mask, _lengths, _n, expect=_positions_below(_lengths, _n))
for _lengths, _n in [((1,), 3), ([0, 4], 4), ([2, 2, 2, 2, 1], 3), ([1, 7, 3, 0], 9)]:
    check_call(padding_mask, _lengths, _n, expect=_positions_below(_lengths, _n))
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Picture the masks
#
# **Predict (graded).** How many entries of the causal mask of the six journey tokens
# are allowed? Write a whole number. (And, not graded: how many in the padding mask of
# the three sentences above?)

# %% nbgrader="guess" grade_id="guess_causal_count" prediction="predict_causal_count"
guess_causal_count = ""  # your guess: a whole number, such as 0
### BEGIN SOLUTION
guess_causal_count = 21
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_causal_count" points=1
check_guess("predict_causal_count", guess_causal_count, choices=range(0, 37))
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_causal_count", guess_causal_count, "5f1906c69613087d")
### END HIDDEN TESTS

# %%
reveal("predict_causal_count", guess_causal_count)
causal6 = causal_mask(6)
tokens = ["Your", "journey", "starts", "with", "one", "step"]
lengths = [6, 2, 3]
padding = padding_mask(lengths, 6)
print("allowed in the causal mask:", causal6.sum(), "of", causal6.size)
print("allowed in the padding mask:", padding.sum(), "of", padding.size)
print(padding.astype(int))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# The causal mask allows 1 + 2 + … + 6 = 21 of the 36 pairs; the padding mask allows
# 6 + 2 + 3 = 11 of the 18 positions.
#
# </details>

# %%
mask_colours = ListedColormap(["#EEEEEE", PALETTE[0]])
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4), gridspec_kw={"width_ratios": [1, 1.1], "wspace": 0.45})
left.imshow(causal6, cmap=mask_colours, vmin=0, vmax=1)
left.set_xticks(range(6), tokens, rotation=45, ha="right")
left.set_yticks(range(6), tokens)
left.set(title="Causal mask: token i sees tokens 0..i", xlabel="attended-to token (column j)",
         ylabel="query token (row i)")
right_image = right.imshow(padding, cmap=mask_colours, vmin=0, vmax=1)
right.set_xticks(range(6), [f"{p}" for p in range(6)])
right.set_yticks(range(3), [f"length {n}" for n in lengths])
right.set(title="Padding mask: position < length", xlabel="position", ylabel="sentence in the batch")
for ax, mask in [(left, causal6), (right, padding)]:
    for (i, j), ok in np.ndenumerate(mask):
        ax.text(j, i, "✓" if ok else "✗", ha="center", va="center", fontsize=11,
                color="white" if ok else "#555555")
bar = fig.colorbar(right_image, ax=[left, right], ticks=[0.25, 0.75], shrink=0.6, boundaries=[0, 0.5, 1])
bar.ax.set_yticklabels(["False:\nforbidden", "True:\nallowed"])
show(fig, alt="Two mask heatmaps. Left: the 6 by 6 causal mask of the journey tokens, allowed (blue, "
              "tick) on and below the diagonal and forbidden (light grey, cross) above it. Right: the padding mask "
              "of three sentences of lengths 6, 2 and 3 over positions 0 to 5, allowed up to each "
              "length and forbidden after it.")

# %% [markdown]
# ## 5. Does a score of 0 remove a choice?
#
# A mask says *which* choices are forbidden; now we need weights that are exactly 0 on
# those choices and still sum to 1 over the allowed ones. Here is the stable softmax of
# lesson 05 to experiment with.

# %%
# << reference stable_softmax from 05_stable_softmax >>


# %% [markdown]
# Three choices score `[0.5, 1, 2]`, and the last one is forbidden. An obvious idea: set
# its score to 0 (or, the same thing, multiply the scores by the mask, since False
# counts as 0).
#
# **Predict (graded).** After setting the forbidden score to 0, how much weight does the
# forbidden choice get: (a) exactly 0, (b) about 0.19, (c) about 0.33, (d) about 0.5?
# Write a letter. (And, not graded: what does it get with `-inf` in its place instead?)

# %% nbgrader="guess" grade_id="guess_zero_weight" prediction="predict_zero_weight"
guess_zero_weight = ""  # your guess: "a", "b", "c" or "d"
### BEGIN SOLUTION
guess_zero_weight = "b"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_zero_weight" points=1
check_guess("predict_zero_weight", guess_zero_weight, choices=["a", "b", "c", "d"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_zero_weight", guess_zero_weight, "d495cbe68df0ed95")
### END HIDDEN TESTS

# %%
reveal("predict_zero_weight", guess_zero_weight)
scores = np.array([0.5, 1.0, 2.0])
allowed = np.array([True, True, False])   # the last choice is forbidden

zeroed = stable_softmax(np.where(allowed, scores, 0.0))
removed = stable_softmax(np.where(allowed, scores, -np.inf))
print("forbidden score set to 0:   ", zeroed)
print("forbidden score set to -inf:", removed)
print("scores * mask is the same as setting 0:", np.array_equal(scores * allowed, np.where(allowed, scores, 0.0)))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# A score of 0 is an ordinary score, not "nothing": its evidence is exp(0) = 1, which
# competes with the evidence of the two allowed scores; the next cell does the sum.
#
# </details>

# %%
allowed_evidence = np.exp([0.5, 1.0])
print(f"exp(0.5) = {allowed_evidence[0]:.4f} | exp(1) = {allowed_evidence[1]:.4f}")
print(f"the forbidden choice keeps 1 / ({allowed_evidence[0]:.4f} + {allowed_evidence[1]:.4f} + 1)"
      f" = {1 / (allowed_evidence.sum() + 1):.4f}")

# %% [markdown]
# The forbidden choice keeps **0.1863** of the weight.
#
# With `-inf`, its evidence is exp(-inf) = 0 *exactly*, so it drops out of the shared
# denominator and the allowed pair splits the weight as if the third choice never
# existed:

# %%
print("exp(0) =", np.exp(0.0), "| exp(-inf) =", np.exp(-np.inf))
print("the allowed pair on its own:", stable_softmax([0.5, 1.0]))

# %% [markdown]
# **Predict (graded).** Now every score is negative: `[-3, -2, -1]`, last one forbidden.
# After setting the forbidden score to 0, which choice gets the most weight: A, B or C?

# %% nbgrader="guess" grade_id="guess_negative_zero" prediction="predict_negative_zero"
guess_negative_zero = ""  # your guess: "a", "b" or "c"
### BEGIN SOLUTION
guess_negative_zero = "c"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_negative_zero" points=1
check_guess("predict_negative_zero", guess_negative_zero, choices=["a", "b", "c"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_negative_zero", guess_negative_zero, "792783f351aa7070")
### END HIDDEN TESTS

# %%
reveal("predict_negative_zero", guess_negative_zero)
negative = np.array([-3.0, -2.0, -1.0])
print("forbidden score set to 0:   ", stable_softmax(np.where(allowed, negative, 0.0)))
print("forbidden score set to -inf:", stable_softmax(np.where(allowed, negative, -np.inf)))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Here 0 is the *largest* score in the row, so the forbidden choice gets **0.8438**, most
# of the weight. "Set it to 0" can only be right by luck; `-inf` is right for every row.
#
# </details>

# %%
fig, ax = plt.subplots(figsize=(6.5, 3.2))
positions = np.arange(3)
for offset, weights, colour, label in [(-0.2, zeroed, PALETTE[3], "forbidden score set to 0"),
                                       (0.2, removed, PALETTE[0], "forbidden score set to -inf")]:
    bars = ax.bar(positions + offset, weights, width=0.4, color=colour, label=label)
    ax.bar_label(bars, fmt="%.4f", fontsize=8)
ax.set_xticks(positions, ["A (score 0.5)", "B (score 1)", "C (score 2, forbidden)"])
ax.set(title="Forbidding choice C of [0.5, 1, 2]", xlabel="choice", ylabel="weight", ylim=(0, 0.75))
ax.legend(frameon=False)
show(fig, alt="Grouped bar chart of the weights of choices A, B and C. With C's score set to 0, "
              "C still gets 0.1863; with C's score set to -inf, C gets exactly 0 and A and B get "
              "0.3775 and 0.6225.")

# %% [markdown]
# ## 6. A row with no allowed choice
#
# `-inf` works as long as the row keeps at least one allowed choice with a finite score:
# the row's max is then that finite number, and shifting by it is safe.
#
# **Predict.** What happens when every choice in the row is forbidden? (NumPy prints a
# warning here on purpose.)

# %%
# Your guess (not graded):

# %% tags=["expect-warning"]
nothing_allowed = np.array([False, False, False])
print("every score -inf:", stable_softmax(np.where(nothing_allowed, scores, -np.inf)))

# %% [markdown]
# The max of the row is `-inf`, and `-inf - (-inf)` is not a number: nan everywhere.
#
# Some code fills forbidden scores with a large *finite* negative number instead of `-inf`,
# to avoid exactly this nan. The number must fit the scores' dtype: `-1e9` is finite in
# float64 and float32, but float16 stops at -65504 and rounds `-1e9` to `-inf`, so code that
# may run in float16 fills with the dtype's own lowest number, `np.finfo(dtype).min`.
# Look at what `-1e9` does to the same float64 row:

# %%
with np.errstate(over="ignore"):  # NumPy warns when a cast to float16 overflows
    print("-1e9 in float32:", np.float32(-1e9), "| in float16:", np.float16(-1e9),
          "| np.finfo(np.float16).min:", float(np.finfo(np.float16).min))
print("every score -1e9:", stable_softmax(np.where(nothing_allowed, scores, -1e9)))

# %% [markdown]
# A perfectly uniform row, with no warning at all: weights spread evenly over choices
# that were *all* forbidden. That looks like an answer and is not one. A row with no
# allowed choice has no distribution, so the honest response is an error that says which
# row it is. (Libraries that fill with a finite number do it on purpose, for padding rows
# whose output they throw away later; in this course we make the empty row an error so it
# cannot slip through unnoticed.)

# %% [markdown]
# ### Does `-1e9` fit every dtype?
#
# A finite fill has to be a number of the scores' dtype. Models often hold their scores in
# float16, whose largest number is 65504. **Predict.** What does `-1e9` become in float16?
# (Not graded.)

# %%
# Your guess (not graded):

# %%
with np.errstate(over="ignore"):  # NumPy warns when a cast overflows
    print("-1e9 as float16:", np.float16(-1e9), "| as float32:", np.float32(-1e9))
for dtype in (np.float16, np.float32, np.float64):
    print(f"np.finfo({dtype.__name__}).min = {np.finfo(dtype).min}")

# %% [markdown]
# In float16, `-1e9` is `-inf`: the fill that was meant to avoid `-inf` *is* `-inf`, and the
# row with nothing allowed is back to `nan`. The fill that fits is the most negative finite
# number of the dtype, `np.finfo(dtype).min` (PyTorch's `torch.finfo(dtype).min`): -65504 in
# float16. With it, a forbidden choice beside allowed ones still gets weight 0, because its
# shifted score is far below exp's range:

# %%
row16 = np.array([0.5, 1.0, 2.0], dtype=np.float16)
with np.errstate(over="ignore", invalid="ignore"):
    fill16 = np.float16(-1e9)
    print("float16, nothing allowed, filled with -1e9:", stable_softmax(np.where(nothing_allowed, row16, fill16)))
lowest16 = np.finfo(np.float16).min
print("float16, nothing allowed, filled with finfo.min:", stable_softmax(np.where(nothing_allowed, row16, lowest16)))
print("float16, last choice forbidden, filled with finfo.min:", stable_softmax(np.where(allowed, row16, lowest16)))

# %% [markdown]
# So a finite fill is written with its dtype, `np.finfo(scores.dtype).min`, never as a bare
# `-1e9`; in float32 or float64 `-1e9` happens to fit. (The allowed pair gets 0.3774 and
# 0.6226 rather than float64's 0.3775 and 0.6225: float16 rounds every step, as lesson 05
# showed.) This course's `masked_softmax` uses `-inf` and refuses the empty row, so
# it needs neither.

# %% [markdown]
# ## 7. Exercise: `masked_softmax`
#
# Write `masked_softmax(scores, mask, temperature=1.0)`:
#
# - `mask` is boolean, **True = allowed**. It has the shape of `scores`, or a shape that
#   broadcasts to it (one mask row shared by every row of scores, for example);
# - divide the scores by `temperature` (lesson 04), then take the softmax over the
#   **last axis**, shifted by each row's max (lesson 05);
# - every forbidden choice gets weight exactly `0.0`; the allowed ones share 1;
# - if any row has no allowed choice, raise a `ValueError` whose message names the row;
# - accept lists and integer arrays, return a new float NumPy array, and never change the
#   arrays you were given.
#
# Hints: section 5 showed which replacement score gives a forbidden choice no evidence at
# all. Find the empty rows *before* you compute anything, and remember that a mask may have
# fewer axes than the scores: a row is empty when none of the entries that apply to it is
# allowed. Build new arrays rather than writing into the ones you were given.

# %% nbgrader="solution" grade_id="masked_softmax"
def masked_softmax(scores, mask, temperature=1.0):
    """Softmax over the last axis in which choices where mask is False get weight exactly 0."""
    ### BEGIN SOLUTION
    x = np.asarray(scores, dtype=float) / temperature
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
    empty_rows = np.argwhere(np.atleast_1d(~allowed.any(axis=-1)))
    if len(empty_rows):
        row = ", ".join(str(i) for i in empty_rows[0])
        raise ValueError(f"row {row} has no allowed choice: its mask is all False")
    x = np.where(allowed, x, -np.inf)
    evidence = np.exp(x - x.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_masked_softmax_public" points=2 function="masked_softmax"
check_values(masked_softmax, np.array([0.5, 1, 2], dtype=float), np.array([True, True, False]), expect=[0.37754066879814546, 0.6224593312018546, 0.0])
check_values(masked_softmax, np.array([2.0, 2.0, 2.0, 2.0]), np.array([True, False, True, False]),
           expect=[0.5, 0.0, 0.5, 0.0])
check_values(masked_softmax, np.array([[1.0, 1.0], [0.0, 3.0]]), np.array([[True, True], [True, False]]), expect=[[0.5, 0.5], [1.0, 0.0]])
# one mask row for every row
check_values(masked_softmax, np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([True, False]), expect=[[1.0, 0.0], [1.0, 0.0]])
# a batch of one row stays a batch
check_values(masked_softmax, np.array([[1.0, 1.0]]), np.array([[True, True]]), expect=[[0.5, 0.5]])
# a forbidden first choice
check_values(masked_softmax, np.array([5.0, 1.0, 1.0]), np.array([False, True, True]), expect=[0.0, 0.5, 0.5])
# however low the allowed scores
check_values(masked_softmax, np.array([-2e9, 5.0]), np.array([True, False]), expect=[1.0, 0.0])
# rows far apart
check_values(masked_softmax, np.array([[0.0, 0.0], [1000.0, 1000.0]]), np.array([True, True]), expect=[[0.5, 0.5], [0.5, 0.5]])
check_values(masked_softmax, np.array([2.0, 4.0, 9.0]), [True, True, False], temperature=2,
           expect=[0.2689414213699951, 0.7310585786300049, 0.0])  # scores / T
check_raises(masked_softmax, np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[True, False], [False, False]]),
             why="row 1 has no allowed choice: it has no distribution.")
passed("masked_softmax")

# %% nbgrader="tests" grade_id="test_masked_softmax_rows" points=1 function="masked_softmax"
### BEGIN HIDDEN TESTS
# property unchanged: never changes the caller's scores or mask (arrays of any dtype, with or without a temperature)
# property shapes: the answer has the scores' shape for any leading axes, (n,), (1, n), (k, 1, n) and (k, m, n), and for any mask that broadcasts to them: the same shape, one shared row (n,) or (1, n), one entry per row (m, 1), one row per batch (k, 1, n)
def _softmax_rows(x):
    with np.errstate(all="ignore"):
        x = np.asarray(x, dtype=float)
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def _masked(scores, mask, temperature=1.0):
    """The masked weights computed in float64: forbidden scores become -inf, then a stable softmax."""
    _x = np.asarray(scores, dtype=np.float64) / temperature
    return _softmax_rows(np.where(np.broadcast_to(mask, _x.shape), _x, -np.inf))


_s = np.array([[0.5, 1.0, 2.0], [2.0, -1.0, 0.0], [-3.0, -2.0, -1.0]])
_m = np.array([[True, True, False], [False, True, True], [True, True, False]])
check_values(masked_softmax, _s, _m, expect=_softmax_rows(np.where(_m, _s, -np.inf)))
_m_shared = np.array([True, False, True])
check_values(masked_softmax, _s, _m_shared, expect=_softmax_rows(np.where(_m_shared, _s, -np.inf)))
_causal3 = np.array([[True, False, False], [True, True, False], [True, True, True]])
check_values(masked_softmax, _s, _causal3, expect=_softmax_rows(np.where(_causal3, _s, -np.inf)))
_batch = np.random.default_rng(6).normal(size=(2, 3, 3))
_pad = np.array([[[True, True, True]], [[True, True, False]]])
check_values(masked_softmax, _batch, _pad, expect=_softmax_rows(np.where(_pad, _batch, -np.inf)))
_one = np.array([[0.5, 1.0, 2.0]])
check_values(masked_softmax, _one, np.array([True, True, False]), expect=_masked(_one, [True, True, False]))
check_values(masked_softmax, _one, np.array([[False, True, True]]), temperature=0.5,
           expect=_masked(_one, [[False, True, True]], 0.5))
_k1n = np.array([[[0.5, -1.0, 2.0, 0.0]], [[3.0, 1.0, -2.0, 0.5]], [[1.0, 1.0, 4.0, -3.0]]])
_k1n_mask = np.array([[[True, False, True, True]], [[False, False, True, True]], [[True, True, False, False]]])
for _mask in (_k1n_mask, np.array([True, True, False, True]), np.array([[False, True, True, True]])):
    check_values(masked_softmax, _k1n, _mask, expect=_masked(_k1n, _mask))
_kmn = np.arange(24.0).reshape(2, 3, 4) % 5 - 2.0
for _mask in (np.array([[True], [True], [True]]), np.array([[True, False, True, True]]),
              np.array([[[True, True, False, False]], [[False, True, True, True]]])):
    check_values(masked_softmax, _kmn, _mask, expect=_masked(_kmn, _mask))
check_values(masked_softmax, np.array([[5.0], [-3.0], [1e300]]), np.array([[True], [True], [True]]),
           expect=[[1.0], [1.0], [1.0]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_masked_softmax_no_allowed_choice" points=1 function="masked_softmax"
### BEGIN HIDDEN TESTS
# property all_forbidden: a row with no allowed choice raises ValueError (a subclass counts), wherever the row is in a batch and however the mask broadcasts
_why = "A row with no allowed choice has no distribution."
check_raises(masked_softmax, np.array([1.0, 2.0, 3.0]), np.array([False, False, False]), why=_why)
check_raises(masked_softmax, np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[True, False], [False, False]]), why=_why)
check_raises(masked_softmax, np.ones((2, 3)), [False, False, False], why=_why)
check_raises(masked_softmax, np.zeros((2, 2, 3)), np.array([[[True, True, False]], [[False, False, False]]]),
             why=_why)
check_raises(masked_softmax, np.arange(12.0).reshape(4, 3), np.array([[True], [True], [True], [False]]), why=_why)
check_raises(masked_softmax, np.arange(12.0).reshape(4, 3),
             [[True, False, False], [False, False, False], [False, True, True], [True, True, True]], why=_why)
check_raises(masked_softmax, np.ones((2, 1, 3)), np.array([[False, False, False]]), temperature=0.5, why=_why)
check_raises(masked_softmax, np.array([[1e300, -1e300], [0.0, 1.0]]), [[False, False], [True, True]], why=_why)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_masked_softmax_forbidden" points=1 function="masked_softmax"
### BEGIN HIDDEN TESTS
# property forbidden: the weights do not depend on the forbidden scores at all: forbidden scores of 1e300, -1e300, -inf or any other value, beside allowed scores far below zero (-1e12, -1e300), give the weights of the allowed scores alone and exactly 0 for every forbidden choice
check_values(masked_softmax, np.array([-1e12, -3e12, 7.0]), np.array([True, True, False]), expect=[1.0, 0.0, 0.0])
check_values(masked_softmax, np.array([[-1e300, -1.5e300, -5.0], [-1e300, 1e300, -2e300]]), np.array([[True, True, False], [True, False, True]]),
           expect=[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
check_values(masked_softmax, np.array([1e300, 2.0, 3.0]), np.array([False, True, True]), expect=[0.0, *_masked([2.0, 3.0], True)])
check_values(masked_softmax, np.array([[1e300, -1e12, -3e12], [-1e300, 0.5, 1.5], [-np.inf, 4.0, 1e300], [-5e11, 0.0, -1e12]]),
           [[False, True, True], [False, True, True], [False, True, False], [True, False, True]],
           expect=[[0.0, 1.0, 0.0], [0.0, *_masked([0.5, 1.5], True)], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
check_values(masked_softmax, np.array([2.0, 800.0, 0.0, 1e5]), np.array([True, False, True, False]), expect=_masked([2.0, 800.0, 0.0, 1e5], [True, False, True, False]))


def _draw_forbidden(rng, size):
    """Moderate allowed scores beside forbidden ones drawn from anywhere, huge and -inf included."""
    shape = tuple(int(d) for d in rng.integers(1, 4, size=int(rng.integers(0, 3)))) + (int(rng.integers(2, 3 + size // 3)),)
    mask = rng.random(shape) < 0.5
    mask[..., 0] |= ~mask.any(axis=-1)
    x = rng.normal(size=shape) * 3.0
    wild = np.array([1e300, -1e300, 1e12, -1e12, 1e6, 800.0, -800.0, 0.0, -np.inf, 50.0])
    x = np.where(mask, x, wild[rng.integers(0, len(wild), size=shape)])
    return x, mask


check_generated(masked_softmax, _draw_forbidden, reference=_masked, seed=61, examples=12, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_masked_softmax_stable" points=1 function="masked_softmax"
### BEGIN HIDDEN TESTS
# property extremes: allowed scores of any magnitude up to about 1e300, rows far apart in one batch and -inf among the allowed scores give the right weights, never nan
# property shift: adding one constant to every score of a row (allowed or forbidden, a different constant for each row) leaves the row's weights as they were
_e123 = np.exp([1.0, 2.0, 3.0]) / np.exp([1.0, 2.0, 3.0]).sum()
check_values(masked_softmax, np.array([1000.0, 5.0, 3.0]), np.array([True, False, False]), expect=[1.0, 0.0, 0.0])
check_values(masked_softmax, np.array([-1000.0, -1003.0, -1005.0]), np.array([True, False, False]), expect=[1.0, 0.0, 0.0])
_far_apart = np.array([[1000.0, 5.0, 3.0], [1.0, 2.0, 3.0]])
check_values(masked_softmax, _far_apart, [[True, False, False], [True, True, True]],
           expect=np.array([[1.0, 0.0, 0.0], _e123]))
_huge = np.array([[1e300, 0.0, -1e300, 5.0], [1.0, 2.0, 3.0, 1e300], [-1e300, -5e299, 7.0, -1e300],
                  [5e5 + 1, 5e5, 5e5 - 1, 0.0], [-1e6 - 2, -1e6, -1e6 - 1, -1e6]])
_huge_mask = np.array([[True, True, True, False], [True, True, True, False], [True, True, False, True],
                       [True, True, True, False], [True, True, True, False]])
check_values(masked_softmax, _huge, _huge_mask, expect=[[1.0, 0.0, 0.0, 0.0], [*_e123, 0.0], [0.0, 1.0, 0.0, 0.0],
                                                      [*_masked([1.0, 0.0, -1.0], True), 0.0],
                                                      [*_masked([-2.0, 0.0, -1.0], True), 0.0]])
check_values(masked_softmax, np.array([[1e300, -1e300], [-1e300, 1e300]]), np.array([[True, True], [True, False]]), temperature=0.5,
           expect=[[1.0, 0.0], [1.0, 0.0]])
check_values(masked_softmax, np.array([-np.inf, 1.0, 2.0, 9.0]), np.array([True, True, True, False]), expect=[0.0, *_masked([1.0, 2.0], True), 0.0])
_shift_base = np.array([[0.5, -1.25, 2.0, 0.0], [3.0, 3.0, -2.5, 1.0], [-0.125, 0.25, 0.0, -4.0]])
_shift_mask = np.array([[True, False, True, True], [False, True, True, True], [True, True, False, True]])
for _c in ([[0.0], [2.0 ** 19], [-2.0 ** 19]], [[3.0 * 2 ** 17], [-1000.0], [745.0]]):
    check_values(masked_softmax, _shift_base + np.array(_c), _shift_mask, expect=_masked(_shift_base, _shift_mask))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_masked_softmax_temperature" points=1 function="masked_softmax"
### BEGIN HIDDEN TESTS
# property temperature: the scores are divided by the temperature before the softmax (T < 1 sharpens, T > 1 flattens), forbidden choices staying at 0
_t_scores = np.array([0.0, np.log(2), np.log(3), 5.0])
check_values(masked_softmax, _t_scores, [True, True, True, False], temperature=0.5,
           expect=[1 / 14, 4 / 14, 9 / 14, 0.0])
check_values(masked_softmax, np.array([[2.0, 2.0, 9.0], [1.0, 1.0, 1.0]]), np.array([[True, True, False], [True, True, True]]), temperature=4,
           expect=[[0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]])
check_values(masked_softmax, np.array([[0.5, 1.0, 2.0], [4.0, 1.0, 2.0]], dtype=np.float32),
           np.array([[True, True, False], [False, True, True]]), temperature=0.5,
           expect=_masked([[0.5, 1.0, 2.0], [4.0, 1.0, 2.0]], [[True, True, False], [False, True, True]], 0.5))
check_values(masked_softmax, np.array([[1.0, 3.0, 2.0]]), [[True, True, True]], 3.0, expect=_masked([[1.0, 3.0, 2.0]], True, 3.0))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_masked_softmax_generated" points=1 function="masked_softmax"
### BEGIN HIDDEN TESTS
# property value: equals the softmax of the allowed scores / temperature computed in float64, on inputs drawn at random: any leading axes, masks of the scores' shape or broadcasting to it, magnitudes up to about 1e5, rows far apart, -inf among the allowed scores, float64 and float32 arrays, several temperatures (int and list input: the details)
# property permutation: reordering the choices of a row, its scores and its mask together, reorders its weights the same way
# property shapes
_row = np.array([0.0, 800.0, -5.0, 2.0, 1e300])
_row_mask = np.array([True, True, False, True, False])
_orders = np.array([[0, 1, 2, 3, 4], [4, 0, 3, 2, 1], [2, 3, 1, 4, 0], [3, 2, 4, 0, 1], [1, 4, 2, 3, 0]])
check_values(masked_softmax, _row[_orders], _row_mask[_orders], expect=_masked(_row, _row_mask)[_orders])


def _draw(rng, size):
    full = tuple(int(d) for d in rng.integers(1, 4, size=int(rng.integers(0, 2 + size // 8)))) + (int(rng.integers(1, 3 + size // 3)),)
    kind = ("float64", "float32", "int", "list")[size % 4]
    top = 2.0 if kind == "float32" else min(1.0 + size / 5, 3.0)
    x = rng.normal(size=full) * 10.0 ** rng.uniform(-1, top)
    x = x + rng.normal(size=full[:-1] + (1,)) * 10.0 ** rng.uniform(0, top + 2)  # rows far apart: up to ~1e5
    shape = tuple(d if rng.random() < 0.7 else 1 for d in full[:-1]) + (full[-1] if rng.random() < 0.85 else 1,)
    mask = rng.random(shape) < 0.6
    mask[..., int(rng.integers(0, shape[-1]))] = True
    mask = mask[(0,) * int(rng.integers(0, len(shape)))] if rng.random() < 0.3 else mask
    if kind == "int":
        x = np.round(x).astype(rng.choice([np.int64, np.int32]))
    elif rng.random() < 0.5:
        allowed = np.broadcast_to(mask, full)
        keep = x == np.where(allowed, x, -np.inf).max(axis=-1, keepdims=True)
        x[(rng.random(full) < 0.3) & ~keep] = -np.inf
    temperature = float(rng.choice([1.0, 1.0, 0.5, 2.0, 0.25, 3.0]))
    if kind == "float32":
        x = x.astype(np.float32)
    elif kind == "list":
        x, mask = x.tolist(), mask.tolist()
    return x, mask, temperature


def _draw_arrays(rng, size):
    """_draw's inputs, int or list scores as the float64 array of their values and a list mask as an array."""
    x, mask, temperature = _draw(rng, size)
    x = np.asarray(x)
    return (x if x.dtype.kind == "f" else x.astype(np.float64)), np.asarray(mask), temperature


check_generated(masked_softmax, _draw_arrays, reference=_masked, seed=6, examples=24, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_masked_softmax_details" points=1 function="masked_softmax"
# details: lists of integer scores and of booleans work, the answer is a NumPy array, and a huge forbidden score
# neither overflows nor warns
check_call(masked_softmax, [0.5, 1, 2], [True, True, False], expect=[0.37754066879814546, 0.6224593312018546, 0.0])
check_call(masked_softmax, [[1, 2], [3, 4]], [True, False], expect=[[1.0, 0.0], [1.0, 0.0]])
check_quiet(masked_softmax, [0.0, 1000.0], [True, False])
### BEGIN HIDDEN TESTS
# property quiet: never warns, whatever the magnitude of the allowed and the forbidden scores, and whatever the temperature
# property dtype: lists, tuples and integer arrays of scores give float64, float64 stays float64, float32 gives a float array; the mask may be a list, a tuple or a boolean array; the answer is always a NumPy array
check_quiet(masked_softmax, [[1e300, 5.0, 3.0], [-1e12, -3e12, 1e300]], [[True, True, False], [True, True, False]])
check_quiet(masked_softmax, [[-np.inf, 0.0, 2.0], [1e300, -np.inf, 0.0]], [[True, True, False], [False, True, True]])
check_quiet(masked_softmax, np.array([[1e300, -1e300, 4.0]]), np.array([True, True, False]), temperature=0.25)
check_quiet(masked_softmax, np.array([[1000.0, 1001.0, 1e300]], dtype=np.float64), [True, True, False])
check_call(masked_softmax, np.array([[1, 2], [3, 4]]), np.array([[True, True], [False, True]]),
           expect=[[1 / (1 + np.e), np.e / (1 + np.e)], [0.0, 1.0]], dtype=np.float64)
check_call(masked_softmax, [2, 0, 2], (True, False, True), expect=[0.5, 0.0, 0.5], dtype=np.float64)
check_call(masked_softmax, np.array([[3, 1, 2]], dtype=np.int32), [True, False, True], temperature=2,
           expect=_masked([[3, 1, 2]], [True, False, True], 2), dtype=np.float64)
check_call(masked_softmax, (0.5, 1.0, 2.0), np.array([True, True, False]), expect=_masked([0.5, 1.0, 2.0], [True, True, False]),
           dtype=np.float64)
check_call(masked_softmax, [1000, 5, 3], [True, False, False], expect=[1.0, 0.0, 0.0], dtype=np.float64)
check_call(masked_softmax, [[2, 2, 9], [1, 1, 1]], [[True, True, False], [True, True, True]], temperature=4,
           expect=[[0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]], dtype=np.float64)
check_call(masked_softmax, np.array([[0.5, 1.0, 2.0], [4.0, 1.0, 2.0]], dtype=np.float32),
           np.array([[True, True, False], [False, True, True]]), temperature=0.5,
           expect=_masked([[0.5, 1.0, 2.0], [4.0, 1.0, 2.0]], [[True, True, False], [False, True, True]], 0.5))
check_generated(masked_softmax, _draw, reference=_masked, seed=6, examples=24)
### END HIDDEN TESTS
# %% [markdown]
# **Predict.** What does your function do with a batch whose second row has no allowed
# choice?

# %%
# Your guess (not graded):

# %%
try:
    masked_softmax([[0.5, 1.0, 2.0], [0.5, 1.0, 2.0]], [[True, True, False], [False, False, False]])
except ValueError as error:
    print("ValueError:", error)

# %% [markdown]
# An error that points at the broken row is far easier to debug than a nan (or a quietly
# uniform row) found three steps later.

# %% [markdown]
# ## 8. The journey sentence, causally masked
#
# Each token of the sentence has a 3-number vector (one row of `X`); the attention scores
# are all the dot products, `X @ X.T`. Row 1 is the "journey" row from lessons 01 and 03.

# %%
X = np.array([[0.43, 0.15, 0.89],   # Your
              [0.55, 0.87, 0.66],   # journey
              [0.57, 0.85, 0.64],   # starts
              [0.22, 0.58, 0.33],   # with
              [0.77, 0.25, 0.10],   # one
              [0.05, 0.80, 0.55]])  # step
journey_scores = X @ X.T
print("scores of 'journey' (row 1):", journey_scores[1])
print("its weights with no mask (lesson 03):", stable_softmax(journey_scores[1]))

# %% [markdown]
# **Predict.** Under the causal mask, what weight does "Your" (row 0) put on itself? And
# how will "journey" (row 1) split its weight?

# %%
# Your guess (not graded):

# %%
causal_weights = masked_softmax(journey_scores, causal_mask(6))
print(causal_weights)
print("row sums:", causal_weights.sum(axis=-1))

# %% [markdown]
# "Your" has only one allowed choice, itself, so it gets weight **1**. "journey" now
# chooses between "Your" and itself only: softmax([0.9544, 1.4950]) = **[0.3680, 0.6320]**,
# instead of 0.1385 and 0.2379 when it could see the whole sentence. Only the last row,
# "step", sees every token. Everything above the diagonal is exactly 0.
#
# **Predict.** In training, "journey" (position 1) is meant to predict "starts" (position 2).
# How much weight does it put on "starts" without the mask, and with it? And do the first
# three rows change if the model is given only the first three tokens?

# %%
# Your guess (not graded):

# %%
unmasked_weights = masked_softmax(journey_scores, np.ones((6, 6), dtype=bool))
print(f"weight of 'journey' on 'starts', the token it must predict: unmasked {unmasked_weights[1, 2]:.4f}"
      f" | causal {causal_weights[1, 2]:.4f}")
prefix_weights = masked_softmax(journey_scores[:3, :3], causal_mask(3))
print("first three rows from the three-token prefix alone, same as in the full sentence:",
      np.allclose(prefix_weights, causal_weights[:3, :3]))

# %% [markdown]
# Unmasked, "journey" puts 0.2333 of its weight on "starts", the very token it is being
# trained to predict: it could learn to copy the answer instead of predicting it. Causally
# masked, that weight is exactly 0. And because a row only ever reads tokens up to itself,
# the first rows are the same whether the sentence goes on or not: training on all
# positions at once computes exactly what the model computes later when it writes one token
# at a time, with no later token in sight.

# %%
fig, ax = plt.subplots(figsize=(6.4, 5.2))
image = ax.imshow(causal_weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xticks(range(6), tokens, rotation=45, ha="right")
ax.set_yticks(range(6), tokens)
ax.set(title="Causally masked attention weights", xlabel="attended-to token (column j)",
       ylabel="query token (row i)")
for (i, j), w in np.ndenumerate(causal_weights):
    ax.text(j, i, f"{w:.2f}" if j <= i else "0", ha="center", va="center", fontsize=8,
            color="black" if w > 0.6 else "white")
fig.colorbar(image, ax=ax, label="weight")
show(fig, alt="Heatmap of the causally masked attention weights of the six journey tokens. The upper "
              "triangle is 0; 'Your' puts weight 1.00 on itself, 'journey' splits 0.37 and 0.63 "
              "between 'Your' and itself, and each later row spreads its weight over more tokens, "
              "down to 'step' whose six weights lie between 0.10 and 0.22.")

# %% [markdown]
# ## 9. Masks combine with `&`
#
# In a batch of padded sentences both rules hold at once: a token may attend only to
# earlier-or-same positions **and** only to real words. Booleans combine with `&`, and
# broadcasting lines the shapes up: the causal mask `(6, 6)` is shared by every sentence,
# and each padding row `(3, 1, 6)` is shared by every query position of its sentence.

# %%
both = causal_mask(6) & padding_mask(lengths, 6)[:, None, :]
print("shape:", both.shape)
print("'Your journey starts' (length 3), allowed pairs:")
print(both[2].astype(int))

# %% [markdown]
# Query rows 3 to 5 are padding themselves, but they still have allowed choices (the three
# real words), so every row has a distribution. A sentence of length 0 would leave rows
# with nothing allowed, and `masked_softmax` rightly refuses it:

# %%
empty_sentence = causal_mask(6) & padding_mask([0], 6)   # one sentence of length 0
try:
    masked_softmax(journey_scores, empty_sentence)
except ValueError as error:
    print("ValueError:", error)

# %% [markdown]
# ## What carries forward
#
# A mask says which choices exist for each row. Forbidden scores become `-inf`, so their
# evidence is exactly 0 and the allowed choices share all of the weight; 0 is a real score
# and removes nothing, a finite fill (`-1e9` in float32 or float64, `np.finfo(dtype).min` in
# any dtype) hides rows that have no choice at all, and such a row deserves an error. The
# causal mask lets token *i* see tokens 0..*i*, so that a model
# trained on whole sentences cannot read the token it is asked to predict; the padding mask
# hides positions past a sentence's length; `&` combines them.
#
# In attention these weights **multiply value vectors**: each token's output is the sum
# over the tokens it attends to of weight × that token's value vector. A weight of exactly
# 0 means a future or padding token contributes nothing at all, not a little. Lesson 07
# puts scores, scaling, masking and this weighted sum together into attention end to end on
# the journey sentence.
