# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 07 — Attention: softmax at work inside a transformer
#
# **By the end of this lesson you will be able to**
# - compute self-attention on a six-token sentence by hand: scores, weights, context vectors;
# - say what queries, keys and values are, how a layer makes them from the tokens with
#   the matrices W_q, W_k, W_v, and which axis the softmax runs over;
# - explain why attention divides its scores by √d_k, and show what goes wrong without it;
# - write `attention_weights` and `attend`, with an optional mask;
# - read a causal self-attention layer as "each token mixes the tokens up to itself", and
#   say why training needs that;
# - match your functions with PyTorch's, whose two masks mean opposite things.
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

from grader.learner.checks import check_call, check_quiet, check_raises, check_values, passed
from grader.learner.figures import PALETTE, show
from grader.learner.predictions import check_guess, reveal
from grader.learner.pytorch import torch_or_none
from grader.learner.stubs import point_at_stubs

np.set_printoptions(precision=4, suppress=True, floatmode="fixed")
point_at_stubs()  # a cell that fails while an exercise above is unfinished says which one

# %% [markdown]
# ## 1. What you bring from lesson 06
#
# This lesson builds on two functions you wrote in lesson 06: `masked_softmax` (softmax
# over the last axis, forbidden choices weight exactly 0, an error for a row with nothing
# allowed) and `causal_mask`. The next cell holds the course's reference versions, locked.
# They are *given* rather than pasted from your lesson 06 so that this lesson's grade
# depends only on what you write here: if your lesson 06 versions are correct, they behave
# the same.

# %% nbgrader="readonly" grade_id="given_from_lesson_06"
# << reference masked_softmax from 06_masking >>


# << reference causal_mask from 06_masking >>


# %% [markdown]
# ## 2. Scores: every token against every token
#
# The sentence *Your journey starts with one step* has six tokens, and each token has a
# vector of three numbers, one row of `X` (these toy vectors and this sentence follow
# chapter 3 of Sebastian Raschka's *Build a Large Language Model (From Scratch)*).
# Self-attention asks, for each token, how much every token of the sentence (itself
# included) matters to it. The raw answer is a dot product: `X[i] @ X[j]` is the length of
# one vector times the length of the other times the cosine of the angle between them, so
# it is large when the two vectors point the same way *and* are long. All 36 of them at
# once are the matrix `X @ X.T`, where row *i* holds token *i*'s scores against every
# token *j*.
#
# **Predict.** Which token does "journey" (row 1) score highest? Does every token score
# itself highest? Is the matrix symmetric?

# %%
# Your guess (not graded):

# %%
tokens = ["Your", "journey", "starts", "with", "one", "step"]
X = np.array([[0.43, 0.15, 0.89],   # Your
              [0.55, 0.87, 0.66],   # journey
              [0.57, 0.85, 0.64],   # starts
              [0.22, 0.58, 0.33],   # with
              [0.77, 0.25, 0.10],   # one
              [0.05, 0.80, 0.55]])  # step
scores = X @ X.T
print("scores shape:", scores.shape)
print("scores of 'journey' (row 1):", scores[1])
print("symmetric:", np.array_equal(scores, scores.T))
print("the token each token scores highest:", [tokens[j] for j in scores.argmax(axis=1)])
print(f"'with' (row 3) scores itself {scores[3, 3]:.4f} and 'journey' {scores[3, 1]:.4f}")
print("vector lengths:", np.linalg.norm(X, axis=1))

# %% [markdown]
# "journey" scores itself highest (1.4950), with "starts" (1.4754), whose vector is
# almost the same, close behind. But a token need not score itself highest: "with" scores
# "journey" 0.8434 and itself only 0.4937, because the vector of "journey" (length 1.2227)
# is much longer than its own (0.7026) and points roughly the same way. Only "Your" and
# "journey" score themselves highest. The matrix is symmetric because
# `X[i] @ X[j] = X[j] @ X[i]`; that changes as soon as queries and keys differ (section 4).

# %% [markdown]
# ## 3. Weights and context vectors
#
# Each row of scores becomes a row of weights with a softmax **along the row**: token *i*
# spreads one unit of attention over the six tokens it looks at. No token is forbidden
# yet, so the mask is all True.
#
# **Predict (graded).** Do the *columns* of the weights sum to 1 as well? Write "yes" or "no".

# %% nbgrader="guess" grade_id="guess_columns_sum" prediction="predict_columns_sum"
guess_columns_sum = ""  # your guess: "yes" or "no"
### BEGIN SOLUTION
guess_columns_sum = "no"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_columns_sum" points=1
check_guess("predict_columns_sum", guess_columns_sum, choices=["yes", "no"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_columns_sum", guess_columns_sum, "ecd3029951c74cc1")
### END HIDDEN TESTS

# %%
reveal("predict_columns_sum", guess_columns_sum)
everything = np.ones((6, 6), dtype=bool)
weights = masked_softmax(scores, everything)
print("weights of 'journey':", weights[1])
print("row sums:   ", weights.sum(axis=1))
print("column sums:", weights.sum(axis=0))

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# Every row sums to 1 (each token's attention is a distribution over the positions it
# reads); the columns do not, and need not: a column says how much attention a token
# *receives*, and popular tokens receive more. "journey" gets the weights of lesson 03,
# `[0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]`.
#
# </details>

# %% [markdown]
# **A distribution over what?** Lesson 01 said that weights only mean something over a
# stated set of choices. **Predict.** What does the third entry of the "journey" row mean:
# 0.2333 of what, shared among which choices?

# %%
# Your guess (not graded):

# %% [markdown]
# The choices of row *i* are the **source positions** (the keys) that query *i* may read:
# here all six tokens of the sentence. So 0.2333 says that 23.33% of the mixture
# "journey" builds comes from position 2, "starts". It is not a 23% chance that the next
# word is "starts": the next-token distribution of lesson 04 is over the *vocabulary*, a
# different set of choices. A mask (lesson 06) changes the set: under the causal mask, row
# *i* chooses among positions 0..*i* only.

# %% [markdown]
# Now the point of the weights. Token *i*'s **context vector** is the weighted average of
# all the token vectors, with its own row of weights: `sum over j of weights[i, j] * X[j]`.
# For all tokens at once that is one matrix product, `weights @ X`.
#
# **Predict.** The context vector of "journey" is an average of six vectors whose first
# entries lie between 0.05 and 0.77. Roughly where will its first entry land?

# %%
# Your guess (not graded):

# %%
journey_by_hand = sum(weights[1, j] * X[j] for j in range(6))
context = weights @ X
print("context vector of 'journey', by hand:", journey_by_hand)
print("context vector of 'journey', weights @ X:", context[1])
print("all context vectors, shape:", context.shape)

# %% [markdown]
# The context vector of "journey" is **[0.4419, 0.6515, 0.5683]**: mostly its own vector
# and that of "starts" (the two largest weights), with a little of everything else. This
# is what an attention layer hands on: each token replaced by a mixture of the tokens it
# attends to. The softmax is what makes it a mixture: weights that are nonnegative and sum
# to 1 give an average that stays among the vectors being averaged (each entry lies
# between the smallest and the largest value of that entry over the six vectors).

# %% [markdown]
# ## 4. Queries, keys and values
#
# Above, `X` played three roles at once. A transformer gives each role its own vectors,
# made from `X` by three learned matrices:
#
# - the **query** of token *i* says what it is looking for (a row of `Q`);
# - the **key** of token *j* says what it offers to be found by (a row of `K`);
# - the **value** of token *j* is what it passes on when attended to (a row of `V`).
#
# The score of query *i* against key *j* is `Q[i] @ K[j]`, so the scores are `Q @ K.T`
# (shape: number of queries × number of keys), the softmax runs along each row (**over the
# keys**), and the output is `weights @ V`. Queries and keys must have the same width,
# written **d_k**; values may have another width, and so may the output.
#
# **Predict.** 2 queries of width 4 and 5 keys of width 4, with values of width 7. What
# are the shapes of the scores, the weights and the output?

# %%
# Your guess (not graded):

# %%
rng = np.random.default_rng(0)
q_demo, k_demo, v_demo = rng.normal(size=(2, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 7))
demo_scores = q_demo @ k_demo.T
demo_weights = masked_softmax(demo_scores, np.ones(demo_scores.shape, dtype=bool))
print("scores:", demo_scores.shape, "| weights:", demo_weights.shape, "| output:", (demo_weights @ v_demo).shape)
print("weight rows sum to:", demo_weights.sum(axis=-1))

# %% [markdown]
# `K.T` turns the keys' rows into columns, so that each entry of `Q @ K.T` is a query
# row times a key row. Forget the transpose and `Q @ K` is `(2, 4) @ (5, 4)`, which NumPy
# refuses; worse, when the shapes happen to fit (as many keys as their width) it runs and
# computes something meaningless.

# %% [markdown]
# ### Where do queries, keys and values come from?
#
# In a self-attention layer all three are made from the same token vectors, each by its
# own matrix: `Q = X @ W_q`, `K = X @ W_k`, `V = X @ W_v`. The matrices `W_q`, `W_k`, `W_v`
# are the layer's trainable weights, learned in training (one row per feature of a token
# vector, one column per feature of a query, key or value). Here fixed random matrices
# (seed 3) stand in for trained ones. They are 3 × 3, so d_k = d_v = 3, as in PyTorch's
# one-head `nn.MultiheadAttention` on vectors of width 3 (section 10).
#
# **Predict (graded).** With different matrices for queries and keys, is `Q @ K.T` still
# symmetric? Write "yes" or "no". (And, not graded: does "journey" still score itself
# highest?)

# %% nbgrader="guess" grade_id="guess_projected_symmetric" prediction="predict_projected_symmetric"
guess_projected_symmetric = ""  # your guess: "yes" or "no"
### BEGIN SOLUTION
guess_projected_symmetric = "no"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_projected_symmetric" points=1
check_guess("predict_projected_symmetric", guess_projected_symmetric, choices=["yes", "no"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_projected_symmetric", guess_projected_symmetric, "735573c65712d8dd")
### END HIDDEN TESTS

# %%
reveal("predict_projected_symmetric", guess_projected_symmetric)
rng = np.random.default_rng(3)
W_q, W_k, W_v = (rng.normal(size=(3, 3)) for _ in range(3))
Q, K, V = X @ W_q, X @ W_k, X @ W_v   # one query, one key and one value per token
projected_scores = Q @ K.T
print("Q, K, V:", Q.shape, K.shape, V.shape)
print("symmetric:", np.array_equal(projected_scores, projected_scores.T))
print("scores of 'journey' (row 1):", projected_scores[1])
print(f"'journey' asks about 'starts': {projected_scores[1, 2]:.4f} | 'starts' asks about 'journey':"
      f" {projected_scores[2, 1]:.4f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# The scores are no longer symmetric: what "journey" looks for (its query) differs from
# what it offers (its key), so its score for "starts" (-0.0737) is not that of "starts" for
# it (0.0985), and with these matrices "journey" scores "step" highest (1.2218). Training
# moves `W_q`, `W_k` and `W_v` until the scores pick out the tokens worth reading; the rest
# of the computation, the part this lesson is about, stays the same. Sections 2 and 3 used
# `X` itself in all three roles, which is the same as taking the identity for every matrix.
#
# </details>

# %% [markdown]
# ## 5. Why divide by √d_k?
#
# Real models use keys of width 64 or 128, not 3. Suppose the entries of a query and a key
# are independent random numbers with mean 0 and variance 1 (an illustration, not a claim
# about trained models). Their dot product is a sum of d_k products, each with mean 0 and
# variance 1, some positive and some negative. So it does not simply grow with d_k: its
# average stays 0, while its variance is d_k and its **spread (standard deviation) grows
# like √d_k**.
# This is the argument of Vaswani et al., *Attention Is All You Need* (2017), footnote 4.
#
# **Predict.** For d_k = 1024, how far apart will typical scores be? And what happens to
# the largest of 8 softmax weights?

# %%
# Your guess (not graded):

# %%
rng = np.random.default_rng(2017)
widths = [1, 4, 16, 64, 256, 1024]
n_keys, trials = 8, 1000
mean_score, spread, spread_scaled, top_weight, top_weight_scaled, top_gap = [], [], [], [], [], []
for d_k in widths:
    q = rng.standard_normal((trials, 1, d_k))        # one query per trial
    k = rng.standard_normal((trials, n_keys, d_k))   # eight keys per trial
    dots = (q * k).sum(axis=-1)                      # (trials, n_keys) scores: sums of d_k products
    allowed = np.ones(dots.shape, dtype=bool)
    mean_score.append(dots.mean())
    spread.append(dots.std())
    spread_scaled.append((dots / np.sqrt(d_k)).std())
    top_weight.append(masked_softmax(dots, allowed).max(axis=-1).mean())
    top_weight_scaled.append(masked_softmax(dots / np.sqrt(d_k), allowed).max(axis=-1).mean())
    two_largest = np.sort(dots, axis=-1)[:, -2:]
    top_gap.append(two_largest[:, 1] - two_largest[:, 0])   # largest score minus the runner-up

print("  d_k | sqrt(d_k) | std of q @ k | std scaled | mean top weight | scaled | mean of q @ k")
for row in zip(widths, spread, spread_scaled, top_weight, top_weight_scaled, mean_score):
    d_k, s, s_scaled, top, top_scaled, m = row
    print(f"{d_k:5d} | {np.sqrt(d_k):9.1f} | {s:12.2f} | {s_scaled:10.2f} | {top:15.3f} | {top_scaled:6.3f} | {m:13.2f}")

# %% [markdown]
# The average of the scores stays near 0 at every width (0.52 at most, the last column),
# while their spread follows √d_k (about 32 at d_k = 1024). But a softmax cares only about
# *differences* between scores, and the one that decides the top weight is the gap between
# the largest score of a row and the runner-up, which is smaller than the spread and varies
# from row to row. **Predict.** At d_k = 1024, how large is that gap in a typical row?

# %%
# Your guess (not graded):

# %%
gap_1024 = top_gap[widths.index(1024)]
print(f"d_k = 1024, gap between the two largest scores: median {np.median(gap_1024):.1f}"
      f" (about {np.median(gap_1024):.0f}), mean {gap_1024.mean():.1f}")
print(f"evidence of the top key over the runner-up at the median gap: e^{np.median(gap_1024):.1f}"
      f" = {np.exp(np.median(gap_1024)):.1e}")

# %% [markdown]
# In a typical row the top score leads by about **15** (the median; a few rows with wide
# gaps pull the mean up to 19.1), so the top key has e^15.1 ≈ 3.7 million times the evidence
# of the next one. That is why, without scaling, the largest of 8 weights averages
# **0.973** at d_k = 1024, a nearly one-hot row, and it keeps climbing toward 1 as d_k
# grows. Dividing by √d_k brings the spread back to about 1 at every width in the table,
# and the top weight stays between 0.308 and 0.367.
#
# The factor 1/√d_k is mathematically a temperature T = √d_k (lesson 04), but a fixed one:
# set by the width as part of the architecture, the model is trained with it and nobody
# tunes it, unlike the temperature turned while decoding.

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
left.plot(widths, spread, "o-", color=PALETTE[1], label="unscaled q @ k")
left.plot(widths, spread_scaled, "s--", color=PALETTE[0], label="scaled (q @ k) / √d_k")
left.plot(widths, np.sqrt(widths), ":", color="black", label="√d_k")
left.set(xscale="log", yscale="log", xlabel="key width d_k (log scale)",
         ylabel="standard deviation of the scores (log scale)", title="The spread of dot products grows like √d_k")
left.legend(frameon=False)
right.plot(widths, top_weight, "o-", color=PALETTE[1], label="unscaled")
right.plot(widths, top_weight_scaled, "s--", color=PALETTE[0], label="scaled by 1/√d_k")
right.axhline(1 / n_keys, linestyle=":", color="black", label="uniform (1/8)")
right.set(xscale="log", ylim=(0, 1.05), xlabel="key width d_k (log scale)",
          ylabel="mean largest weight of 8", title="Unscaled scores saturate the softmax")
right.legend(frameon=False, loc="center right")
show(fig, alt="Two line charts against the key width d_k from 1 to 1024 on a log axis. Left: the "
              "standard deviation of unscaled dot products of random vectors rises along the √d_k line, "
              "from about 1 to about 32, while the scaled scores stay at about 1. Right: the mean "
              "largest of 8 softmax weights climbs from 0.31 to 0.97 without scaling, and stays between "
              "0.31 and 0.37 with scaling, above the uniform level of 0.125.")

# %% [markdown]
# One row makes it concrete. **Predict.** One query and 8 keys of width 512: how many of
# the 8 unscaled weights are visibly above 0?

# %%
# Your guess (not graded):

# %%
rng = np.random.default_rng(7)
q512, k512 = rng.standard_normal((1, 512)), rng.standard_normal((8, 512))
row512 = q512 @ k512.T
unscaled_row = masked_softmax(row512, np.ones((1, 8), dtype=bool))[0]
scaled_row = masked_softmax(row512 / np.sqrt(512), np.ones((1, 8), dtype=bool))[0]
print("unscaled weights:", unscaled_row)
print("scaled weights:  ", scaled_row)

# %% [markdown]
# Unscaled, a single key takes 0.9963 of the weight and the query all but copies that
# key's value; scaled by 1/√512, all eight keys take part.
#
# Why is a nearly one-hot row bad? The query copies one value instead of mixing several,
# and its weights barely respond to its scores. How much the weights move when the scores
# move is the softmax's Jacobian, `diag(p) - p pᵀ` (lesson 09); training's gradient reaches
# the scores only through it. **Predict.** How large is its largest entry for each of the
# two rows above?

# %%
# Your guess (not graded):

# %%
for name, p in [("unscaled", unscaled_row), ("scaled", scaled_row)]:
    jacobian = np.diag(p) - np.outer(p, p)
    print(f"{name}: largest entry of the Jacobian {np.abs(jacobian).max():.4f}")

# %% [markdown]
# The saturated row's Jacobian is tiny (0.0036 at most, against 0.2080 for the scaled row):
# whatever the loss asks of these weights, hardly any of it gets through to the scores and
# on to `W_q` and `W_k`, so training barely moves them. (This holds for a softmax inside
# the network, as here. The last softmax of a language model, paired with cross-entropy,
# is a different story: lesson 09 shows that its gradient stays large when it is
# confidently wrong.)

# %% [markdown]
# ## 6. Exercise: `attention_weights`
#
# Write `attention_weights(queries, keys, mask=None, scale=True)`:
#
# - `queries` has shape `(n_queries, d_k)` and `keys` has shape `(n_keys, d_k)`; accept
#   lists and integer arrays too;
# - the scores are `queries @ keys.T`; when `scale` is True, divide them by √d_k, where
#   d_k is the width of the keys (their last axis), **not** the number of keys;
# - the weights are the softmax of each row of scores, over the **keys**: the result has
#   shape `(n_queries, n_keys)` and every row sums to 1;
# - `mask` (optional) is boolean with **True = allowed**, of shape `(n_queries, n_keys)`
#   or one that broadcasts to it (a single row shared by every query, say); a forbidden
#   key gets weight exactly 0, and a row with no allowed key raises `ValueError`. `None`
#   means every key is allowed;
# - return a new float NumPy array and never change the arrays you were given.
#
# `masked_softmax` from section 1 does the softmax, the masking and the error for you;
# what is left is to decide which scores it gets, and what it should be told when no
# mask was given.
# The lesson (and every test) uses one sequence at a time, 2-D arrays. Real models add
# leading axes for batches and heads; if you write `np.swapaxes(keys, -1, -2)` instead of
# `keys.T` (which reverses *every* axis), your function handles those too. That is a plus,
# not graded.

# %% nbgrader="solution" grade_id="attention_weights"
def attention_weights(queries, keys, mask=None, scale=True):
    """Softmax over the keys of queries @ keys.T (divided by sqrt(d_k) when scale); mask True = allowed."""
    ### BEGIN SOLUTION
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    scores = q @ np.swapaxes(k, -1, -2)
    if scale:
        scores = scores / np.sqrt(k.shape[-1])
    if mask is None:
        mask = np.ones(scores.shape, dtype=bool)
    return masked_softmax(scores, mask)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_attention_weights_public" points=2 function="attention_weights"
check_values(attention_weights, np.array([[1.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]), scale=False,
           expect=[[1 / (1 + np.exp(-1)), 1 / (1 + np.exp(1))]])
check_values(attention_weights, np.array([[2.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 2.0]]),
           expect=[[1 / (1 + np.exp(-4 / np.sqrt(2))), 1 / (1 + np.exp(4 / np.sqrt(2)))]])
check_values(attention_weights, np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([[0.0, 1.0], [1.0, 0.0]]),
           mask=np.array([[True, False], [True, True]]), scale=False,
           expect=[[1.0, 0.0], [1 / (1 + np.e), np.e / (1 + np.e)]])
_low, _high = 1 / (1 + np.e), np.e / (1 + np.e)  # the weights of two scores 1 apart
# 2 queries, 3 keys of width 4: the scores are divided by sqrt(4)
check_values(attention_weights, 2 * np.eye(2, 4), np.eye(3, 4), expect=np.array([[np.e, 1, 1], [1, np.e, 1]]) / (np.e + 2))
check_values(attention_weights, np.zeros((2, 2)), np.ones((3, 2)), mask=[True, False, True],
           expect=[[0.5, 0.0, 0.5], [0.5, 0.0, 0.5]])  # one mask row shared by every query
check_values(attention_weights, np.array([[1.0], [-1.0]]), np.array([[1000.0], [1001.0]]), scale=False,
           expect=[[_low, _high], [_high, _low]])  # large scores, queries far apart
check_values(attention_weights, np.array([[1.0]]), np.array([[-1000.0], [-1001.0], [5.0]]), mask=[True, True, False], scale=False,
           expect=[[_high, _low, 0.0]])  # allowed scores far below zero, a forbidden one above
check_raises(attention_weights, np.zeros((2, 2)), np.ones((3, 2)), mask=[[True, True, True], [False, False, False]],
             why="query 1 has no allowed key: it has no distribution.")
passed("attention_weights")

# %% nbgrader="tests" grade_id="test_attention_weights_scaling" points=1 function="attention_weights"
### BEGIN HIDDEN TESTS
# property value: the weights are the softmax over the keys of queries @ keys.T (divided by sqrt(d_k) when scale), as the reference computes them
# property scaling: scale=True divides the scores by sqrt(d_k), the width of the keys (not their number); scale=False leaves them as they are
# property wide_keys: with wide keys (d_k = 4096) the scaled weights are right, also where the unscaled scores' weights underflow to 0
def _weights(q, k, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


_rng = np.random.default_rng(70)
_q, _k = _rng.normal(size=(2, 5)), _rng.normal(size=(4, 5))   # 2 queries, 4 keys, d_k = 5
check_values(attention_weights, _q, _k, expect=_weights(_q, _k))
check_values(attention_weights, _q, _k, scale=False, expect=_weights(_q, _k, scale=False))
_x = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
               [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
check_values(attention_weights, _x, _x, scale=False, expect=_weights(_x, _x, scale=False))
check_values(attention_weights, _x, _x, scale=True, expect=_weights(_x, _x))
# d_k = 4096: integer entries make every score exact; unscaled, the scores of a query lie up to ~1400 apart
_rng = np.random.default_rng(4096)
_q, _k = _rng.integers(-4, 5, size=(3, 4096)).astype(float), _rng.integers(-4, 5, size=(8, 4096)).astype(float)
check_values(attention_weights, _q, _k, expect=_weights(_q, _k))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attention_weights_over_keys" points=1 function="attention_weights"
### BEGIN HIDDEN TESTS
# property value
def _weights(q, k, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


_rng = np.random.default_rng(71)
_q, _k = 2 * _rng.normal(size=(3, 4)), 2 * _rng.normal(size=(5, 4))   # 3 queries, 5 keys
check_values(attention_weights, _q, _k, expect=_weights(_q, _k))
_sq, _sk = _rng.normal(size=(4, 4)), _rng.normal(size=(4, 4))         # as many keys as their width
check_values(attention_weights, _sq, _sk, expect=_weights(_sq, _sk))
check_values(attention_weights, _sq, _sk, scale=False, expect=_weights(_sq, _sk, scale=False))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attention_weights_mask" points=1 function="attention_weights"
### BEGIN HIDDEN TESTS
# property value
# property forbidden: a forbidden key gets weight exactly 0 and changes nothing else, whatever its score: forbidden scores of 1e300 and allowed scores far below zero (-1e12) give no nan and the same weights as any other forbidden scores
def _weights(q, k, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


_rng = np.random.default_rng(72)
_q = _rng.normal(size=(4, 3))
_causal = np.tril(np.ones((4, 4), dtype=bool))
check_values(attention_weights, _q, _q, mask=_causal, expect=_weights(_q, _q, _causal))
_negative = -np.abs(_rng.normal(size=(3, 2)))
_keys = np.abs(_rng.normal(size=(5, 2)))
_pattern = np.array([[True, False, True, False, False], [False, True, True, True, False],
                     [True, True, False, False, True]])
check_values(attention_weights, _negative, _keys, mask=_pattern, expect=_weights(_negative, _keys, _pattern))
_padding = np.array([True, True, True, False, False])   # one row shared by every query
check_values(attention_weights, _negative, _keys, mask=_padding, scale=False,
           expect=_weights(_negative, _keys, _padding, scale=False))
# with the identity as keys, each query's scores are its own entries (halved when scaled: sqrt(4) = 2)
_eye = np.eye(4)
_q = np.array([[1e300, 2.0, -1.0, 1e300],          # forbidden keys far above the allowed ones
               [-1e12, 3.0, -1e12 - 80, 1e300]])   # allowed keys far below zero, forbidden ones not
_allowed = np.array([[False, True, True, False], [True, False, True, False]])
check_values(attention_weights, _q, _eye, mask=_allowed, scale=False, expect=_weights(_q, _eye, _allowed, scale=False))
check_values(attention_weights, _q, _eye, mask=_allowed, expect=_weights(_q, _eye, _allowed))
_other = np.where(_allowed, _q, -5.0)   # the same allowed scores, other forbidden ones: the same weights
check_values(attention_weights, _other, _eye, mask=_allowed, expect=_weights(_q, _eye, _allowed))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attention_weights_no_allowed_key" points=1 function="attention_weights"
### BEGIN HIDDEN TESTS
# property all_forbidden: a query with no allowed key raises ValueError, whatever the other queries and the forbidden scores are, and whatever the mask's shape
_why = "A query with no allowed key has no distribution over the keys."
_q = np.array([[1.0, 0.5], [0.0, 2.0]])
check_raises(attention_weights, _q, _q, mask=np.array([[True, False], [False, False]]), why=_why)
check_raises(attention_weights, _q, np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
             mask=np.array([False, False, False]), why=_why)
check_raises(attention_weights, _q, _q, mask=np.array([[True], [False]]), why=_why)   # (n_queries, 1)
check_raises(attention_weights, np.array([[2.0, 1e300], [1e300, 3.0]]), np.eye(2),
             mask=np.array([[True, False], [False, False]]), why=_why)
check_raises(attention_weights, _q, _q, mask=np.zeros((2, 2), dtype=bool), why=_why)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attention_weights_details" points=1 function="attention_weights"
# details: lists of integers give float64 weights as a NumPy array, and a huge forbidden score neither overflows nor
# warns
_low, _high = 1 / (1 + np.e), np.e / (1 + np.e)  # the weights of two scores 1 apart
check_call(attention_weights, [[1, 0]], [[1, 0], [0, 1]], scale=False, expect=[[_high, _low]], dtype=np.float64)
check_quiet(attention_weights, [[1.0]], [[0.0], [1000.0]], mask=[True, False], scale=False)
### BEGIN HIDDEN TESTS
# property dtype: lists, integer arrays and float64 arrays give float64 weights; float32 gives float weights as accurate as float32 allows
# property returns_array: the weights come back as a NumPy array
# property unchanged: the queries, keys and mask given are never changed
def _weights(q, k, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


check_call(attention_weights, [[1, 0], [0, 0]], [[1, 0], [0, 1], [1, 1]], scale=False, dtype=np.float64,
           expect=[[np.e / (2 * np.e + 1), 1 / (2 * np.e + 1), np.e / (2 * np.e + 1)], [1 / 3, 1 / 3, 1 / 3]])
check_call(attention_weights, np.array([[3, 4]]), np.array([[3, 4], [4, 3], [0, 0], [3, 4]]), mask=[True, True, False, True],
           scale=False, dtype=np.float64,
           expect=[[np.exp(1) / (2 * np.exp(1) + 1), 1 / (2 * np.exp(1) + 1), 0.0, np.exp(1) / (2 * np.exp(1) + 1)]])
# large scores (2500 and 2400): exp of them overflows unless each row is shifted by its max
check_call(attention_weights, np.array([[30.0, 40.0]]), np.array([[30.0, 40.0], [40.0, 30.0], [30.0, 40.0]]),
           dtype=np.float64, expect=[[0.5, 0.0, 0.5]])
_rng = np.random.default_rng(76)
_q, _k = _rng.normal(size=(3, 4)), _rng.normal(size=(5, 4))
_mask = np.array([[True, True, False, True, False], [False, True, True, True, True], [True, False, False, False, True]])
check_call(attention_weights, _q, _k, mask=_mask, dtype=np.float64, expect=_weights(_q, _k, _mask))
_q32, _k32 = _q.astype(np.float32), _k.astype(np.float32)
# float32: judged as float32 (a float32 answer is as good as its dtype allows)
check_call(attention_weights, _q32, _k32, expect=_weights(_q32, _k32).astype(np.float32))
check_call(attention_weights, _q32, _k32, mask=_mask, scale=False,
           expect=_weights(_q32, _k32, _mask, scale=False).astype(np.float32))
# property quiet: no warning (overflow, invalid value, divide by zero) on scores as large as 1e300 in size, with or without forbidden keys
_eye = np.eye(4)
_q = np.array([[1e300, 0.0, -1e300, 3.0], [1.0, 2.0, 1.0, 0.0], [-1e12, -1e12 - 60, -1e12 - 5e5, -2e12],
               [7e5, 7e5 - 1, 7e5 - 2, -7e5]])
_big_q = np.array([[1e150, 1.0], [-1e150, 1.0]])
_big_k = np.array([[1e150, 0.0], [0.0, 1.0], [-1e150, 2.0]])
check_quiet(attention_weights, _q, _eye)
check_quiet(attention_weights, _big_q, _big_k, scale=False)
check_quiet(attention_weights, _q, _eye, mask=np.array([[False, True, True, True], [True, True, False, True],
                                                        [True, False, False, True], [False, True, True, False]]))
check_call(attention_weights, [[1.0], [-1.0]], [[1000.0], [1001.0]], scale=False, expect=[[_low, _high], [_high, _low]],
           dtype=np.float64)
check_call(attention_weights, _big_q, _big_k, expect=[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], dtype=np.float64)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attention_weights_extremes" points=1 function="attention_weights"
### BEGIN HIDDEN TESTS
# property extremes: scores as large as 1e300 in size, queries whose scores lie far apart and scores far below zero all give the exact weights (each row shifted by its own max)
def _weights(q, k, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# with the identity as keys, each query's scores are its own entries (halved when scaled: sqrt(4) = 2)
_eye = np.eye(4)
_q = np.array([[1e300, 0.0, -1e300, 3.0],                  # one score far above the rest
               [1.0, 2.0, 1.0, 0.0],                       # an ordinary query beside it
               [-1e12, -1e12 - 60, -1e12 - 5e5, -2e12],    # every score far below zero
               [7e5, 7e5 - 1, 7e5 - 2, -7e5]])             # small differences at a large offset
check_values(attention_weights, _q, _eye, scale=False, expect=_weights(_q, _eye, scale=False))
check_values(attention_weights, _q, _eye, expect=_weights(_q, _eye))
# dot products of 1e150 with 1e150: scores of 1e300 and -1e300
_big_q = np.array([[1e150, 1.0], [-1e150, 1.0]])
_big_k = np.array([[1e150, 0.0], [0.0, 1.0], [-1e150, 2.0]])
check_values(attention_weights, _big_q, _big_k, expect=[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attention_weights_shapes" points=1 function="attention_weights"
### BEGIN HIDDEN TESTS
# property shapes: the weights have shape (n_queries, n_keys) for one query, one key, d_k = 1 and any numbers of queries and keys; a mask may be any shape that broadcasts to the scores: (n_keys,), (1, n_keys), (n_queries, 1), a list
def _weights(q, k, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


_rng = np.random.default_rng(75)
_one, _k = _rng.normal(size=(1, 3)), _rng.normal(size=(4, 3))
check_values(attention_weights, _one, _k, expect=_weights(_one, _k))                 # one query: shape (1, 4)
check_values(attention_weights, _k, _one, expect=[[1.0]] * 4)                         # one key: weight 1
_q, _k = _rng.normal(size=(3, 1)), _rng.normal(size=(5, 1))                        # d_k = 1
check_values(attention_weights, _q, _k, expect=_weights(_q, _k))
_q, _k = _rng.normal(size=(3, 2)), _rng.normal(size=(5, 2))
_row = np.array([True, False, True, True, False])
check_values(attention_weights, _q, _k, mask=_row, expect=_weights(_q, _k, _row))            # (n_keys,)
check_values(attention_weights, _q, _k, mask=_row[None, :], expect=_weights(_q, _k, _row))   # (1, n_keys)
check_values(attention_weights, _q, _k, mask=np.ones((3, 1), dtype=bool), expect=_weights(_q, _k))   # (n_queries, 1)
_sq = _rng.normal(size=(5, 2))                                                     # as many queries as keys
check_values(attention_weights, _sq, _k, mask=_row, scale=False, expect=_weights(_sq, _k, _row, scale=False))
check_values(attention_weights, _one[:, :2], _k, mask=[[False, True, True, False, True]],
           expect=_weights(_one[:, :2], _k, [[False, True, True, False, True]]))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attention_weights_generated" points=1 function="attention_weights"
### BEGIN HIDDEN TESTS
# property value
# property shapes
# property all_forbidden
from grader.learner.checks import check_generated


def _weights(q, k, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _draw(rng, size):
    """Queries, keys, a mask and scale; sizes and magnitudes vary, every mask shape turns up."""
    n_q, n_k, d = (int(rng.integers(1, 2 + size // grow)) for grow in (4, 3, 4))
    q = rng.normal(size=(n_q, d)) * 10 ** rng.uniform(-1, 0.5)
    k = rng.normal(size=(n_k, d)) / np.sqrt(d)
    allowed = rng.random((n_q, n_k)) < 0.6
    allowed[np.arange(n_q), rng.integers(0, n_k, size=n_q)] = True
    if size in (11, 16):
        allowed[rng.integers(n_q)] = False   # a query with no allowed key
    if size % 6 == 5:
        q, k = q.tolist(), k.tolist()
    masks = [None, allowed, allowed[0], allowed[:1], np.ones((n_q, 1), dtype=bool)]
    return q, k, masks[size % 5], bool(rng.integers(2))


def _draw_arrays(rng, size):
    """_draw's inputs, list queries and keys as arrays: their type is a detail."""
    q, k, mask, scale = _draw(rng, size)
    return np.asarray(q, dtype=float), np.asarray(k, dtype=float), mask, scale


check_generated(attention_weights, _draw_arrays, reference=_weights, seed=707, examples=16, values_only=True)
### END HIDDEN TESTS

# %% [markdown]
# ## 7. Exercise: `attend`
#
# Write `attend(queries, keys, values, mask=None, scale=True)`: each query's context
# vector, as in section 3 but with separate values. `values` has shape
# `(n_keys, d_v)`, one row per key (d_v need not equal d_k), and the result has shape
# `(n_queries, d_v)`: row *i* is query *i*'s context vector, the average of the value
# rows weighted by query *i*'s weights. Pass `mask` and `scale` on; accept lists and
# integer arrays, return a new float NumPy array.

# %% nbgrader="solution" grade_id="attend"
def attend(queries, keys, values, mask=None, scale=True):
    """Each query's context vector: its attention weights times the values."""
    ### BEGIN SOLUTION
    weights = attention_weights(queries, keys, mask=mask, scale=scale)
    return weights @ np.asarray(values, dtype=float)
    ### END SOLUTION


# %% nbgrader="tests" grade_id="test_attend_public" points=2 function="attend"
check_values(attend, np.array([[0.0, 0.0]]), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
           np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]]), expect=[[3.0, 6.0]])
check_values(attend, np.array([[1.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[10.0, 0.0], [0.0, 10.0]]),
           scale=False, expect=[[10 / (1 + np.exp(-1)), 10 / (1 + np.exp(1))]])
check_values(attend, np.array([[0.0, 0.0]]), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
           np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]]), mask=np.array([[True, False, False]]), expect=[[1.0, 2.0]])
_low, _high = 1 / (1 + np.e), np.e / (1 + np.e)  # the weights of two scores 1 apart
# 2 queries, 3 keys of width 4: the scores are divided by sqrt(4)
check_values(attend, 2 * np.eye(2, 4), np.eye(3, 4), np.eye(3),
           expect=np.array([[np.e, 1, 1], [1, np.e, 1]]) / (np.e + 2))
check_values(attend, np.zeros((2, 2)), np.ones((3, 2)), np.eye(3), mask=[True, False, True],
           expect=[[0.5, 0.0, 0.5], [0.5, 0.0, 0.5]])  # one mask row shared by every query
check_values(attend, np.array([[1.0], [-1.0]]), np.array([[1000.0], [1001.0]]), np.eye(2), scale=False,
           expect=[[_low, _high], [_high, _low]])  # large scores, queries far apart
check_values(attend, np.array([[1.0]]), np.array([[-1000.0], [-1001.0], [5.0]]), np.eye(3), mask=[True, True, False], scale=False,
           expect=[[_high, _low, 0.0]])  # allowed scores far below zero, a forbidden one above
check_raises(attend, np.zeros((2, 2)), np.ones((3, 2)), np.eye(3), mask=[[True, True, True], [False, False, False]],
             why="query 1 has no allowed key: it has no distribution.")
passed("attend")

# %% nbgrader="tests" grade_id="test_attend_values" points=1 function="attend"
### BEGIN HIDDEN TESTS
# property value: each context vector is its query's attention weights times the values, as the reference computes it
# property scaling: scale=True divides the scores by sqrt(d_k), the width of the keys, also for wide keys (d_k = 4096); scale=False leaves them as they are
# property shapes
from grader.learner.checks import check_generated


def _attend(q, k, v, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(v, dtype=float)


_rng = np.random.default_rng(73)
_q, _k, _v = _rng.normal(size=(2, 3)), _rng.normal(size=(4, 3)), _rng.normal(size=(4, 5))
check_values(attend, _q, _k, _v, expect=_attend(_q, _k, _v))
check_values(attend, _q, _k, _v, scale=False, expect=_attend(_q, _k, _v, scale=False))
_x = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
               [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
_v6 = _rng.normal(size=(6, 3))
check_values(attend, _x, _x, _v6, expect=_attend(_x, _x, _v6))
check_values(attend, _x[1:2], _x, _x, scale=False, expect=_attend(_x[1:2], _x, _x, scale=False))
# d_k = 4096: integer entries make every score exact; unscaled, the scores of a query lie up to ~1400 apart
_rng = np.random.default_rng(4096)
_q, _k = _rng.integers(-4, 5, size=(3, 4096)).astype(float), _rng.integers(-4, 5, size=(8, 4096)).astype(float)
_v = np.arange(16.0).reshape(8, 2)
check_values(attend, _q, _k, _v, expect=_attend(_q, _k, _v))


def _draw(rng, size):
    """Queries, keys, values, a mask and scale; sizes and magnitudes vary, every mask shape turns up."""
    n_q, n_k, d, d_v = (int(rng.integers(1, 2 + size // grow)) for grow in (4, 3, 4, 5))
    q = rng.normal(size=(n_q, d)) * 10 ** rng.uniform(-1, 0.5)
    k = rng.normal(size=(n_k, d)) / np.sqrt(d)
    v = rng.normal(size=(n_k, d_v)) * 10 ** rng.uniform(-1, 1)
    allowed = rng.random((n_q, n_k)) < 0.6
    allowed[np.arange(n_q), rng.integers(0, n_k, size=n_q)] = True
    if size in (11, 16):
        allowed[rng.integers(n_q)] = False   # a query with no allowed key
    masks = [None, allowed, allowed[0], allowed[:1], np.ones((n_q, 1), dtype=bool)]
    return q, k, v, masks[size % 5], bool(rng.integers(2))


check_generated(attend, _draw, reference=_attend, seed=737, examples=16, values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attend_mask" points=1 function="attend"
### BEGIN HIDDEN TESTS
# property value
# property forbidden: a forbidden key adds nothing to the context vector, whatever its score or value: forbidden scores of 1e300, allowed scores far below zero (-1e12) and forbidden values of 1e300 give no nan and the same output as any other forbidden keys
# property all_forbidden: a query with no allowed key raises ValueError, whatever the mask's shape
def _attend(q, k, v, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(v, dtype=float)


_rng = np.random.default_rng(74)
_x, _v = _rng.normal(size=(5, 3)), _rng.normal(size=(5, 2))
_causal = np.tril(np.ones((5, 5), dtype=bool))
check_values(attend, _x, _x, _v, mask=_causal, expect=_attend(_x, _x, _v, _causal))
check_values(attend, _x, _x, _v, mask=_causal, scale=False, expect=_attend(_x, _x, _v, _causal, scale=False))
# with the identity as keys, each query's scores are its own entries (halved when scaled: sqrt(4) = 2)
_eye = np.eye(4)
_q = np.array([[1e300, 2.0, -1.0, 1e300],          # forbidden keys far above the allowed ones
               [-1e12, 3.0, -1e12 - 80, 1e300]])   # allowed keys far below zero, forbidden ones not
_allowed = np.array([[False, True, True, False], [True, False, True, False]])
_values = np.array([[1.0, -2.0], [1.0, 2.0], [3.0, -4.0], [1e300, -1e300]])
check_values(attend, _q, _eye, _values, mask=_allowed, scale=False, expect=_attend(_q, _eye, _values, _allowed, scale=False))
check_values(attend, _q, _eye, _values, mask=_allowed, expect=_attend(_q, _eye, _values, _allowed))
_other = np.where(_allowed, _q, -5.0)   # the same allowed scores, other forbidden ones: the same output
check_values(attend, _other, _eye, _values, mask=_allowed, expect=_attend(_q, _eye, _values, _allowed))
_why = "A query with no allowed key has no context vector."
check_raises(attend, _x[:2], _x[:2], _v[:2], mask=np.array([[True, False], [False, False]]), why=_why)
check_raises(attend, _x[:2], _x[:3], _v[:3], mask=np.array([False, False, False]), why=_why)
check_raises(attend, _x[:2], _x, _v, mask=np.array([[True], [False]]), why=_why)
check_raises(attend, np.array([[2.0, 1e300], [1e300, 3.0]]), np.eye(2), _v[:2],
             mask=np.array([[True, False], [False, False]]), why=_why)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attend_extremes" points=1 function="attend"
### BEGIN HIDDEN TESTS
# property extremes: scores as large as 1e300 in size, queries whose scores lie far apart, scores far below zero and values as large as 1e300 all give the exact context vectors
def _attend(q, k, v, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(v, dtype=float)


# with the identity as keys, each query's scores are its own entries (halved when scaled: sqrt(4) = 2)
_eye = np.eye(4)
_q = np.array([[1e300, 0.0, -1e300, 3.0],                  # one score far above the rest
               [1.0, 2.0, 1.0, 0.0],                       # an ordinary query beside it
               [-1e12, -1e12 - 60, -1e12 - 5e5, -2e12],    # every score far below zero
               [7e5, 7e5 - 1, 7e5 - 2, -7e5]])             # small differences at a large offset
_v = np.array([[1.0, -2.0], [4.0, 3.0], [-5.0, 0.5], [2.0, 2.0]])
check_values(attend, _q, _eye, _v, scale=False, expect=_attend(_q, _eye, _v, scale=False))
check_values(attend, _q, _eye, _v, expect=_attend(_q, _eye, _v))
# dot products of 1e150 with 1e150, and values of 1e300: each query takes one key's value
_big_q = np.array([[1e150, 1.0], [-1e150, 1.0]])
_big_k = np.array([[1e150, 0.0], [0.0, 1.0], [-1e150, 2.0]])
_big_v = np.array([[1e300, -3.0], [2.0, 1e300], [-1e300, 5.0]])
check_values(attend, _big_q, _big_k, _big_v, expect=[[1e300, -3.0], [-1e300, 5.0]])
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_attend_details" points=1 function="attend"
# details: float64 context vectors as a NumPy array, and a huge forbidden score neither overflows nor warns
check_call(attend, 2 * np.eye(2, 4), np.eye(3, 4), np.eye(3), dtype=np.float64,
           expect=np.array([[np.e, 1, 1], [1, np.e, 1]]) / (np.e + 2))
check_quiet(attend, [[1.0]], [[0.0], [1000.0]], np.eye(2), mask=[True, False], scale=False)
### BEGIN HIDDEN TESTS
# property dtype: lists, integer arrays and float64 arrays give a float64 output; float32 gives a float output as accurate as float32 allows
# property returns_array: the context vectors come back as a NumPy array
# property unchanged: the queries, keys, values and mask given are never changed
# property shapes: the output has shape (n_queries, d_v) for one query, one key, d_v = 1 and d_v unlike d_k; a mask may be any shape that broadcasts to the scores: (n_keys,), (1, n_keys), (n_queries, 1), a list
def _attend(q, k, v, mask=None, scale=True):
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    s = q @ k.T
    s = s / np.sqrt(k.shape[-1]) if scale else s
    allowed = np.broadcast_to(np.asarray(True if mask is None else mask, dtype=bool), s.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no allowed key")
    s = np.where(allowed, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ np.asarray(v, dtype=float)


check_call(attend, [[0, 0]], [[1, 2], [3, 4]], [[2, 4], [6, 0]], dtype=np.float64, expect=[[4.0, 2.0]])
check_call(attend, np.array([[1, 0]]), np.array([[1, 0], [0, 1]]), np.array([[3], [1]]), scale=False,
           dtype=np.float64, expect=[[(3 * np.e + 1) / (np.e + 1)]])
_rng = np.random.default_rng(77)
_q, _k, _v = _rng.normal(size=(3, 4)), _rng.normal(size=(5, 4)), _rng.normal(size=(5, 2))
_mask = np.array([[True, True, False, True, False], [False, True, True, True, True], [True, False, False, False, True]])
check_call(attend, _q, _k, _v, mask=_mask, dtype=np.float64, expect=_attend(_q, _k, _v, _mask))
_q32, _k32, _v32 = _q.astype(np.float32), _k.astype(np.float32), _v.astype(np.float32)
# float32: judged as float32 (a float32 answer is as good as its dtype allows)
check_call(attend, _q32, _k32, _v32, expect=_attend(_q32, _k32, _v32).astype(np.float32))
check_call(attend, _q[:1], _k, _v, expect=_attend(_q[:1], _k, _v))                     # one query: shape (1, 2)
check_call(attend, _q, _k[:1], _v[:1], expect=np.repeat(_v[:1], 3, axis=0))             # one key: its value
check_call(attend, _q, _k, _v[:, :1], scale=False, expect=_attend(_q, _k, _v[:, :1], scale=False))   # d_v = 1
_row = np.array([True, False, True, True, False])
check_call(attend, _q, _k, _v, mask=_row, expect=_attend(_q, _k, _v, _row))              # (n_keys,)
check_call(attend, _q, _k, _v, mask=_row[None, :], expect=_attend(_q, _k, _v, _row))     # (1, n_keys)
check_call(attend, _q, _k, _v, mask=np.ones((3, 1), dtype=bool), expect=_attend(_q, _k, _v))   # (n_queries, 1)
check_call(attend, _q[:1], _k, _v, mask=[[False, True, True, False, True]],
           expect=_attend(_q[:1], _k, _v, [[False, True, True, False, True]]))
# property quiet: no warning (overflow, invalid value, divide by zero) on scores as large as 1e300 in size and values as large as 1e300, with or without forbidden keys
_far_q = np.array([[1e300, 0.0, -1e300, 3.0], [1.0, 2.0, 1.0, 0.0], [-1e12, -1e12 - 60, -1e12 - 5e5, -2e12],
                   [7e5, 7e5 - 1, 7e5 - 2, -7e5]])
_far_v = np.array([[1.0, -2.0], [4.0, 3.0], [-5.0, 0.5], [2.0, 2.0]])
_big_q = np.array([[1e150, 1.0], [-1e150, 1.0]])
_big_k = np.array([[1e150, 0.0], [0.0, 1.0], [-1e150, 2.0]])
_big_v = np.array([[1e300, -3.0], [2.0, 1e300], [-1e300, 5.0]])
check_quiet(attend, _far_q, np.eye(4), _far_v)
check_quiet(attend, _big_q, _big_k, _big_v, scale=False)
check_quiet(attend, _far_q, np.eye(4), _far_v, mask=np.array([[False, True, True, True], [True, True, False, True],
                                                              [True, False, False, True], [False, True, True, False]]))
check_call(attend, _big_q, _big_k, _big_v, expect=[[1e300, -3.0], [-1e300, 5.0]], dtype=np.float64)
### END HIDDEN TESTS
# %% [markdown]
# ## 8. The journey sentence, scaled
#
# Back to the sentence, now with your functions. With `scale=False` they reproduce
# section 3; with the default `scale=True` the scores are divided by √3.
#
# **Predict.** Will the scaled weights of "journey" be flatter or sharper than the
# unscaled ones? Which way will its context vector move?

# %%
# Your guess (not graded):

# %%
print("context of 'journey', unscaled:", attend(X, X, X, scale=False)[1])
print("weights of 'journey', scaled:  ", attention_weights(X, X)[1])
print("context of 'journey', scaled:  ", attend(X, X, X)[1])
print("plain average of all six rows: ", X.mean(axis=0))
for label, flag in [("unscaled", False), ("scaled", True)]:
    distance = np.linalg.norm(attend(X, X, X, scale=flag)[1] - X.mean(axis=0))
    print(f"distance of the {label} context from the average: {distance:.4f}")

# %% [markdown]
# Dividing by √3 shrinks the differences between scores, so the weights move toward
# uniform (the largest drops from 0.2379 to 0.2070) and the context vector moves toward
# the plain average of the six vectors (from 0.0797 away to 0.0464). With d_k = 3 the
# effect is mild; with d_k = 512 it is the difference between the two rows printed at
# the end of section 5.

# %% [markdown]
# ## 9. Causal self-attention
#
# Why must a token not look at the tokens after it? Not because they do not exist yet. A
# language model is trained on whole sentences at once: every position goes through the
# layer together, and position *i* is trained to predict token *i* + 1. If position *i*
# could read token *i* + 1, it could copy the answer instead of predicting it. Lesson 06's
# causal mask, passed to `attend`, forbids exactly those reads.
#
# **Predict.** What is the context vector of "Your", the first token, under the causal
# mask? And which tokens make up the context vector of "journey"?

# %%
# Your guess (not graded):

# %%
causal_weights = attention_weights(X, X, mask=causal_mask(6))
causal_context = attend(X, X, X, mask=causal_mask(6))
print(causal_weights)
print("context of 'Your':   ", causal_context[0], "| its own vector:", X[0])
print("context of 'journey':", causal_context[1])
print("context of 'step':   ", causal_context[5], "| unmasked:", attend(X, X, X)[5])

# %% [markdown]
# "Your" may attend only to itself, so its weight is 1 and its context vector is its own
# vector, unchanged. "journey" mixes "Your" (0.4226) and itself (0.5774). The last token,
# "step", sees the whole sentence, so its row and context vector are the same as without
# the mask. Each row is a distribution over the tokens up to it, with exactly 0 for every
# later token: nothing about the future leaks into the context vectors.

# %%
fig, ax = plt.subplots(figsize=(6.4, 5.2))
image = ax.imshow(causal_weights, cmap="viridis", vmin=0, vmax=1)
ax.set_xticks(range(6), tokens, rotation=45, ha="right")
ax.set_yticks(range(6), tokens)
ax.set(title="Causal self-attention weights (scaled by 1/√3)", xlabel="key: attended-to token",
       ylabel="query: attending token")
for (i, j), w in np.ndenumerate(causal_weights):
    ax.text(j, i, f"{w:.2f}" if j <= i else "0", ha="center", va="center", fontsize=8,
            color="black" if w > 0.6 else "white")
fig.colorbar(image, ax=ax, label="weight")
show(fig, alt="Heatmap of the scaled causal self-attention weights of the six journey tokens. "
              "Above the diagonal every weight is 0. 'Your' puts 1.00 on itself, 'journey' 0.42 "
              "on 'Your' and 0.58 on itself, and each later row spreads its weight more evenly, "
              "down to 'step', whose six weights lie between 0.12 and 0.20.")

# %% [markdown]
# The mask also makes training match generation, where the model writes one token at a
# time.
#
# **Predict (graded).** Take the projected `Q`, `K`, `V` of section 4 and cut the
# sentence after "starts". With the causal mask, do the context vectors of the first three
# tokens change? Write "yes" or "no". (And, not graded: without the mask?)

# %% nbgrader="guess" grade_id="guess_causal_prefix" prediction="predict_causal_prefix"
guess_causal_prefix = ""  # your guess: "yes" or "no"
### BEGIN SOLUTION
guess_causal_prefix = "no"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_causal_prefix" points=1
check_guess("predict_causal_prefix", guess_causal_prefix, choices=["yes", "no"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_causal_prefix", guess_causal_prefix, "41de4df914473566")
### END HIDDEN TESTS

# %%
reveal("predict_causal_prefix", guess_causal_prefix)
causal_full = attend(Q, K, V, mask=causal_mask(6))
causal_prefix = attend(Q[:3], K[:3], V[:3], mask=causal_mask(3))
print("causal: the first three context vectors are the same without the rest of the sentence:",
      np.allclose(causal_full[:3], causal_prefix))
moved = np.abs(attend(Q, K, V)[:3] - attend(Q[:3], K[:3], V[:3])).max()
print(f"no mask: cutting the sentence moves them by up to {moved:.4f}")

# %% [markdown]
# <details><summary>Why (open it once you have answered)</summary>
#
# With the causal mask, position *i*'s output depends only on tokens 0..*i*, so computing
# all positions at once in training gives exactly what generation computes later, one
# token at a time. Without the mask every output depends on the whole sentence, future
# included.
#
# </details>

# %% [markdown]
# ## 10. The same in PyTorch
#
# PyTorch has attention built in, and it is worth checking it against your own functions,
# because its two mask arguments mean opposite things:
#
# - `torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=...)` takes a
#   boolean mask with **True = take part**, this course's convention (it divides by √d_k
#   by itself);
# - `torch.nn.MultiheadAttention(...)(query, key, value, key_padding_mask=...)` takes a
#   boolean mask with **True = ignore** (a padding position), the opposite.
#
# It is lesson 06's polarity trap: pass the wrong one and the code still runs. PyTorch is
# an optional extra of this course; without it the next cells say how to add it.
#
# **Predict.** What comes out when each function is handed the mask the other one expects?

# %%
# Your guess (not graded):

# %%
torch = torch_or_none()
if torch:
    import torch.nn.functional as F

    def tensor(array):
        return torch.from_numpy(np.asarray(array))

    allowed = causal_mask(6)
    ours = attend(Q, K, V, mask=allowed)
    theirs = F.scaled_dot_product_attention(tensor(Q), tensor(K), tensor(V), attn_mask=tensor(allowed)).numpy()
    flipped = F.scaled_dot_product_attention(tensor(Q), tensor(K), tensor(V), attn_mask=tensor(~allowed)).numpy()
    print("scaled_dot_product_attention, attn_mask = allowed: same as attend:", np.allclose(theirs, ours))
    print("scaled_dot_product_attention, attn_mask = ~allowed: same as attend:", np.allclose(flipped, ours))
    print(f"  and in PyTorch {torch.__version__} the last token, with every key flipped to forbidden, gets:",
          flipped[5])

# %%
if torch:
    lengths = [6, 2, 3]
    real = np.arange(6) < np.array(lengths)[:, None]   # (3, 6), True = a real word: this course's polarity
    sentences = tensor(np.stack([X, X, X]))            # what padding positions hold does not matter
    layer = torch.nn.MultiheadAttention(3, num_heads=1, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        layer.in_proj_weight.copy_(tensor(np.concatenate([W_q.T, W_k.T, W_v.T])))   # torch computes x @ W.T
        layer.out_proj.weight.copy_(torch.eye(3, dtype=torch.float64))             # no output projection
        theirs, their_weights = layer(sentences, sentences, sentences, key_padding_mask=tensor(~real))
        trapped, _ = layer(sentences, sentences, sentences, key_padding_mask=tensor(real))
    ours = np.stack([attend(Q, K, V, mask=row) for row in real])
    our_weights = np.stack([attention_weights(Q, K, mask=row) for row in real])
    print("MultiheadAttention, key_padding_mask = ~real: same as attend:", np.allclose(theirs.numpy(), ours),
          "| same weights:", np.allclose(their_weights.numpy(), our_weights))
    print("MultiheadAttention, key_padding_mask = real: same as attend:", np.allclose(trapped.numpy(), ours),
          "| nan in the full sentence:", bool(np.isnan(trapped.numpy()[0]).any()))

# %% [markdown]
# Handed the right masks, both PyTorch functions compute what your `attend` computes. Handed
# the mask meant for the other one, neither complains: `scaled_dot_product_attention`
# attends to the future only, and gives the query whose keys are all forbidden no error.
# What it gives that query depends on the version: torch 2.13.0, which this course pins,
# gives a row of zeros; older releases gave `nan` (the cell names your version).
# `MultiheadAttention` ignores exactly the real words, so the full sentence, which has no
# padding, comes back as nan. Check which polarity a mask argument expects before you pass
# it.

# %% [markdown]
# ## 11. Optional: batches
#
# Real models attend over many sentences (and several heads) at once, with arrays of
# shape `(batch, n, d_k)`. Not graded; this cell only tells you whether your
# `attention_weights` already handles such a batch.

# %%
batch = np.stack([X, X[::-1]])   # the sentence, and the sentence reversed
try:
    batched = attention_weights(batch, batch)
    print("batch of 2 works:", np.allclose(batched[0], attention_weights(X, X)))
except Exception as error:   # any failure here only means "2-D only", which is all the lesson asks
    print("not for batches (fine for this lesson):", type(error).__name__, error)

# %% [markdown]
# ## What carries forward
#
# Attention is softmax put to work. A layer makes queries, keys and values from the same
# tokens with its trainable matrices `W_q`, `W_k`, `W_v`. Scores are dot products of
# queries with keys, `Q @ K.T`; each row is a softmax **over the keys**, the source
# positions that query may read, optionally masked (lesson 06); and each output is the
# weighted average of the value rows, `weights @ V`. The scores are divided by √d_k because
# the spread of dot products grows like √d_k, and unscaled scores push the softmax toward
# one-hot rows that pass back almost no gradient. The causal mask keeps each position from
# reading the token it is trained to predict.
#
# Lesson 08 takes the log of a softmax without losing the tiny weights (log-sum-exp and
# cross-entropy). Lesson 09 computes the softmax's gradient, where saturation hurts and
# where it does not; lesson 10 shows how attention reads a long row of keys in one pass
# without ever storing its weights.
