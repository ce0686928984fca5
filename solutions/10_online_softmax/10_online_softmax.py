# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 10 — Online softmax: a row too long to hold, and FlashAttention
#
# **By the end of this lesson you will be able to**
# - compute the max and the sum of a long row in **one pass** over its chunks, with a running
#   max and a running sum rescaled by `exp(m_old - m_new)`, and say why the factor never overflows;
# - name the two ways to get the rescaling wrong, and why a generator of chunks can be read
#   only once;
# - write `online_softmax`, and say what it saves: two passes over the row instead of three;
# - show that in attention, where the weights are used at once, one pass is enough and no
#   weight is stored, as FlashAttention does tile by tile.
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
# Lesson 05's `stable_softmax`, given: we compare everything in this lesson with it.

# %%
# << reference stable_softmax from 05_stable_softmax >>


# %% [markdown]
# ## 1. How do you sum a row too long to hold at once?
#
# Lesson 05's stable softmax needs the row's max *before* it can start
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
# **Predict (graded).** The row `[1, 2, 5, 0, 3, 4]` arrives in three chunks: `[1, 2]`,
# `[5, 0]`, `[3, 4]`. By what factor is `s` multiplied when the second chunk arrives?
# (a) `exp(3)`, (b) `exp(-3)`, (c) 1, (d) `exp(-5)`. Write the letter.

# %% nbgrader="guess" grade_id="guess_rescale_factor" prediction="predict_rescale_factor"
guess_rescale_factor = ""  # your guess: "a", "b", "c" or "d"
### BEGIN SOLUTION
guess_rescale_factor = "b"
### END SOLUTION

# %% nbgrader="tests" grade_id="predict_rescale_factor" points=1
check_guess("predict_rescale_factor", guess_rescale_factor, choices=["a", "b", "c", "d"])
### BEGIN HIDDEN TESTS
from grader.learner.predictions import check_prediction

check_prediction("predict_rescale_factor", guess_rescale_factor, "1357cc8abad7c61d")
### END HIDDEN TESTS

# %%
reveal("predict_rescale_factor", guess_rescale_factor)
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
# <details><summary>Why (open it once you have answered)</summary>
#
# (b) `exp(-3)`: the second chunk raises the max from 2 to 5, so the sum so far, 1.3679, is
# multiplied by `exp(2 - 5) = 0.0498` before the new chunk's evidence is added. The first chunk
# is rescaled by `exp(-inf) = 0` (there is nothing to rescale yet), and the third does not raise
# the max: factor 1. The final `m` and `s` are exactly the max and the total of the whole row,
# found in one pass. The weights themselves are not written yet: that needs the final `m` and
# `s` (section 3).
#
# </details>

# %% [markdown]
# ## 2. Two ways to get the rescaling wrong
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
# ## 3. Can a chunk be read twice?
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
# Section 6 shows the one case where it goes away.

# %% [markdown]
# ## 4. Exercise: `online_softmax`
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
check_values(online_softmax, [np.array([1.0, 2.0]), np.array([3.0, 0.0])], expect=_w)
check_values(online_softmax, [np.array([1.0, 2.0, 3.0, 0.0])], expect=_w)
check_values(online_softmax, _Stream([1.0, 2.0], [3.0, 0.0]), expect=_w)
# a later score far above the first
check_values(online_softmax, [np.array([0.0]), np.array([1000.0])], expect=[0.0, 1.0])
# far below 0
check_values(online_softmax, [np.array([-1000.0, -1001.0])], expect=[0.7310585786300049, 0.2689414213699951])
# -inf first
check_values(online_softmax, [np.array([-np.inf, -np.inf]), np.array([0.0, 0.0])], expect=[0.0, 0.0, 0.5, 0.5])
# -inf is below even -1e12
check_values(online_softmax, [np.array([-1e12]), np.array([-np.inf])], expect=[1.0, 0.0])
passed("online_softmax")

# %% nbgrader="tests" grade_id="test_online_softmax_growing_max" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property value: the weights are the softmax of the whole row, the numbers stable_softmax(np.concatenate(chunks)) gives
# property unchanged: never changes the chunks it is given
# property chunking
def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


_rng = np.random.default_rng(90)
_rising = [_rng.normal(size=5) + 1.5 * _k for _k in range(6)]
check_values(online_softmax, _rising, expect=_softmax_of_row(_rising))
_late = [_rng.normal(size=50) for _ in range(19)] + [np.r_[_rng.normal(size=49), 9.0]]
check_values(online_softmax, _late, expect=_softmax_of_row(_late))
_uneven = [np.array([0.5]), np.array([-1.0, 2.0, 0.0]), np.array([4.0, 3.5]), np.array([1.0, 6.0, -2.0, 5.0])]
check_values(online_softmax, _uneven, expect=_softmax_of_row(_uneven))
_short = [np.array([0.5, 2.0]), np.array([-1.0]), np.array([3.0, 1.0, 2.5])]
check_values(online_softmax, _short, expect=_softmax_of_row(_short))
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_generated" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property value
# property chunking: the weights do not depend on how the row is cut into chunks (one chunk, a chunk per score, chunks of any sizes)
# property masked
# property one_pass
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


def _row_as_arrays(rng, size):
    """_row_in_chunks's rows, chunks given as lists as arrays and a reused buffer as a plain one-pass stream: how the
    chunks arrive is a detail (the details cell draws them as they come)."""
    (chunks,) = _row_in_chunks(rng, size)
    if isinstance(chunks, OnePass):
        return (OnePass(chunks.chunks),)
    return ([np.asarray(_c, dtype=float) for _c in chunks],)


check_generated(online_softmax, _row_as_arrays, reference=_softmax_of_row, seed=2018, examples=24, values_only=True)
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
check_values(online_softmax, _jump, expect=_softmax_of_row(_jump))
_high_then_higher = [np.array([-1000.0, -1001.0, -999.5]), np.array([1000.0, 1001.0, 999.0])]
check_values(online_softmax, _high_then_higher, expect=_softmax_of_row(_high_then_higher))
_falling = [np.array([1000.0, 999.0]), np.array([998.0, 997.5]), np.array([0.0, -1000.0])]
check_values(online_softmax, _falling, expect=_softmax_of_row(_falling))
_below = [np.array([-1000.0, -1001.0]), np.array([-999.5, -1002.0]), np.array([-1000.25, -998.75])]
check_values(online_softmax, _below, expect=_softmax_of_row(_below))
_apart = [np.array([1e6, 1e6 - 1.0]), np.array([-1e6, -1e6 + 3.0])]
check_values(online_softmax, _apart, expect=_softmax_of_row(_apart))
_apart_rising = [np.array([-1e6, -1e6 + 2.0]), np.array([1e6 - 0.5, 1e6])]
check_values(online_softmax, _apart_rising, expect=_softmax_of_row(_apart_rising))
check_values(online_softmax, [np.array([-1e300, 0.0]), np.array([1e300]), np.array([3.0, -5.0, 1e299])],
           expect=[0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
check_values(online_softmax, [np.array([-1e12]), np.array([-1e12 - 1e4, -1e13])], expect=[1.0, 0.0, 0.0])
check_values(online_softmax, [np.array([-2e300]), np.array([-1e300, -3e300])], expect=[0.0, 1.0, 0.0])
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
    check_values(online_softmax, [_x + _c for _x in _base], expect=_expected)
check_values(online_softmax, OnePass([_x - 20.0 for _x in _base]), expect=_expected)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_details" points=1 function="online_softmax"
# details: chunks given as lists, float32 chunks give float64 weights (as accurate as float32), one NumPy array, no warning
check_call(online_softmax, [[1.0, 2.0], [3.0, 0.0]], expect=_w, dtype=np.float64)
check_call(online_softmax, [np.array([1.0, 2.0], dtype=np.float32)], dtype=np.float64,
           expect=np.array([0.2689414213699951, 0.7310585786300049], dtype=np.float32))
check_call(online_softmax, [np.array([1.0, 2.0]), np.array([3.0, 0.0])], expect=_w, dtype=np.float64)
check_quiet(online_softmax, [np.array([-np.inf]), np.array([0.0]), np.array([1000.0])])
### BEGIN HIDDEN TESTS
# property quiet: never warns (no overflow, invalid value or division by zero), on huge scores, scores far below zero and chunks of nothing but -inf
# property reused_buffer: right weights when every chunk arrives in one buffer that the next chunk overwrites (what is kept must be computed from a chunk, or a copy of it, never the chunk itself)
# property dtype: one float64 array for chunks of float64, float32 (judged to float32's accuracy), integers or Python lists, and for a tuple of chunks
# property returns_array: returns one NumPy array for the whole row, not a list of pieces
# no warning, on huge scores, scores far below zero and chunks of nothing but -inf
from grader.learner.checks import OnePass, check_generated, check_quiet

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
# the meaning cells' chunks as lists, and the generated rows as they come: lists, streams, reused buffers
_as_lists = [[0.5, 2.0], [-1.0], [3.0, 1.0, 2.5]]
check_call(online_softmax, _as_lists, expect=_softmax_of_row(_as_lists), dtype=np.float64)
check_generated(online_softmax, _row_in_chunks, reference=_softmax_of_row, seed=2018, examples=24, same_dtype=True)
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
check_values(online_softmax, OnePass(_parts), expect=_softmax_of_row(_parts))
_small = [[2.0, 1.0], [0.5], [3.0, -1.0, 2.5]]
check_values(online_softmax, OnePass(_small), expect=_softmax_of_row(_small))
check_values(online_softmax, OnePass([[4.0, -2.0, 1.0]]), expect=_softmax_of_row([[4.0, -2.0, 1.0]]))
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
check_values(online_softmax, _holes, expect=_softmax_of_row(_holes))
_masked_tile = [np.array([1.0, 0.0]), np.array([-_inf, -_inf]), np.array([0.5, 2.0])]
check_values(online_softmax, _masked_tile, expect=_softmax_of_row(_masked_tile))
_masked_first = [np.array([-_inf, -_inf, -_inf]), np.array([2.0, -_inf]), np.array([1.0, 3.0])]
check_values(online_softmax, _masked_first, expect=_softmax_of_row(_masked_first))
_runs = [[-_inf, -_inf], [-_inf], [1.0, -_inf], [-_inf, -_inf], [-_inf], [2.0, 0.5], [-_inf], [-_inf, -_inf]]
check_values(online_softmax, [np.array(_c) for _c in _runs], expect=_softmax_of_row(_runs))
check_values(online_softmax, OnePass(_runs), expect=_softmax_of_row(_runs))
check_values(online_softmax, [np.array([-_inf]), np.array([-_inf, 3.0]), np.array([-_inf])], expect=[0.0, 0.0, 1.0, 0.0])
check_values(online_softmax, [np.array([-_inf, -1e12]), np.array([-1e12 - 2e4])], expect=[0.0, 1.0, 0.0])
# any number of leading -inf scores, in chunks of any size: a row that begins with 70 of them, 64 in one chunk
check_values(online_softmax, [np.full(64, -_inf), np.full(6, -_inf), np.array([1.0, 2.0])],
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


check_generated(online_softmax, _leading_minus_inf, reference=_softmax_of_row, seed=2019, examples=16,
                values_only=True)
### END HIDDEN TESTS

# %% nbgrader="tests" grade_id="test_online_softmax_shapes" points=1 function="online_softmax"
### BEGIN HIDDEN TESTS
# property shapes: one 1-D array with a weight per score, in the row's order, for a single chunk, a single score, chunks of one score, chunks all of one size and uneven chunks
from grader.learner.checks import OnePass


def _softmax_of_row(chunks):
    _x = np.concatenate([np.array(c, dtype=float) for c in chunks])
    _e = np.exp(_x - _x.max())
    return _e / _e.sum()


check_values(online_softmax, [np.array([7.0])], expect=[1.0])
check_values(online_softmax, OnePass([[-3.0]]), expect=[1.0])
_equal = [np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([0.0, -1.0])]
check_values(online_softmax, _equal, expect=_softmax_of_row(_equal))
check_values(online_softmax, OnePass(_equal), expect=_softmax_of_row(_equal))
_singles = [[0.5], [1.5], [-1.0], [2.0], [0.0]]
check_values(online_softmax, [np.array(_c) for _c in _singles], expect=_softmax_of_row(_singles))
_long = [np.linspace(-3.0, 3.0, 300)]
check_values(online_softmax, _long, expect=_softmax_of_row(_long))
### END HIDDEN TESTS

# %% [markdown]
# ## 5. A long row, one pass
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

# %%
trace_max, trace_sum, m, total = [], [], -np.inf, 0.0
for chunk in chunks_of(long_row, 1024):
    m_new = max(m, chunk.max())
    total = total * np.exp(m - m_new) + np.exp(chunk - m_new).sum()
    m = m_new
    trace_max.append(m)
    trace_sum.append(total)
grew = [k for k in range(1, len(trace_max)) if trace_max[k] > trace_max[k - 1]]
print("the max grew at chunks", grew, f"(and was set at chunk 0, to {trace_max[0]:.2f})")
print(f"running sum before the last chunk {trace_sum[-2]:.4g}, after it {trace_sum[-1]:.4g}")

fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
left.step(range(len(trace_max)), trace_max, where="post", color=PALETTE[0], linewidth=2)
left.plot(grew, [trace_max[k] for k in grew], "o", color=PALETTE[3], label="the max grows: a rescale")
left.set(title="Running max", xlabel="chunk (1,024 scores each)", ylabel="running max m")
left.legend(frameon=False)
right.semilogy(range(len(trace_sum)), trace_sum, color=PALETTE[0], linewidth=2)
right.plot(grew, [trace_sum[k] for k in grew], "o", color=PALETTE[3])
right.set(title="Running sum, measured against m", xlabel="chunk (1,024 scores each)",
          ylabel="running sum s (log scale)")
show(fig, alt="Two line charts against the chunk number, 0 to 97, for 100,000 scores in chunks of 1,024. "
              "Left: the running max as a staircase, set at chunk 0 near 10.8, stepping up at chunks 27, 37, "
              "45 and 86 (vermillion dots) to about 13.3, then jumping to 40 at the last chunk, 97. Right: the "
              "running sum on a log scale, growing chunk by chunk between the steps, dropping at each step of "
              "the max, and falling at the last chunk from about 15 to 1.")

# %% [markdown]
# The running max grew in 6 chunks along the way (every chunk that held a new record, the
# last one among them). The first of them only set it, from `-inf`, when the sum was still
# empty; each of the other 5 rescaled the running sum, and the figure shows each rescale
# shrinking the sum kept so far. The last is the largest: against a max of 40, everything
# before it is almost nothing, and the sum falls from 15.11 to 1. The result matches
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
# ## 6. Per tile, as FlashAttention does
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
# - A running max and a running sum rescaled by `exp(m_old - m_new)` give softmax's
#   normaliser in one pass over the chunks of a row: two passes instead of three, with
#   evidence kept as large as the row.
# - Add a rescaled accumulator of value vectors and the weights are used as they are made:
#   one pass, nothing stored but `m`, `s` and `d_v` numbers per query, the inner loop of
#   FlashAttention.
#
# The same `m + log(s)` that the online pass ends with is the log-sum-exp of lesson 08: the
# log of the total evidence, found without ever forming a number that overflows.
