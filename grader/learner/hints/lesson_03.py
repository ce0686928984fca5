"""Lesson 03_shared_denominator: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "03_shared_denominator"

MISCONCEPTIONS = [
    Misconception(
        "softmax_no_exp",
        "softmax",
        "divided the raw scores by their sum, without exp",
        "scores can be negative or cancel out: each score becomes evidence first (lesson 02), then the evidence "
        "is divided",
        breaks=("value", "shift"),
    ),
    Misconception(
        "softmax_divides_by_raw_total",
        "softmax",
        "took exp of the scores but divided by the sum of the raw scores",
        "the bottom of the fraction is the total evidence, the same kind of number as the top",
        breaks=("value", "shift"),
    ),
    Misconception(
        "softmax_whole_array",
        "softmax",
        "divided by the total evidence of the whole array instead of each row's own total",
        "each row is its own set of choices with its own total: rows of a batch do not compete",
        breaks=("value", "shapes", "compete"),
    ),
    Misconception(
        "softmax_axis0",
        "softmax",
        "summed down the first axis (axis 0) instead of along each row",
        "the choices of a row lie along the last axis (section 3), whatever the number of dimensions",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "softmax_axis1",
        "softmax",
        "summed over axis 1, which is the last axis only for 2-D input",
        "axis 1 is the last axis only for 2-D input: a negative axis counts from the end (section 3)",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_no_keepdims",
        "softmax",
        "summed each row but dropped keepdims=True, so the row totals were spread across the columns",
        "each row's total must line up with its own row when you divide: keep the summed axis, with length 1 "
        "(section 3)",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "softmax_shift_without_keepdims",
        "softmax",
        "subtracted each row's max without keepdims=True, so the row maxima were spread across the columns",
        "a shift by each row's max must line up with its own row: keep the reduced axis, with length 1 (section 3)",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "softmax_loops_first_axis",
        "softmax",
        "looped over the first axis only, so in a 3-D batch each whole 2-D block shared one total",
        "in a 3-D batch, one step along the first axis is a whole block of rows: every row needs its own total",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_in_place",
        "softmax",
        "wrote the evidence and the weights into the caller's array (np.exp(x, out=x), x /= total)",
        "the caller's scores must survive the call: put the evidence and the weights in new arrays",
        breaks=("unchanged",),
    ),
    Misconception(
        "softmax_returns_list",
        "softmax",
        "returned a Python list (built with math.exp) instead of a NumPy array",
        "the answer must be a NumPy array: NumPy takes exp and divides a whole array at once",
        breaks=("dtype", "shapes"),
    ),
    Misconception(
        "softmax_fails_on_ints",
        "softmax",
        "kept integer scores as integers and wrote float results into them, which NumPy refuses",
        "an integer array cannot hold weights such as 0.25: work on a float copy of the scores",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_int_output_array",
        "softmax",
        "filled an output made with np.zeros_like(scores): for integer scores it is an integer array, "
        "so every weight was cut down to a whole number",
        "an output made like integer scores holds only whole numbers: the weights need a float array",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_fails_on_lists",
        "softmax",
        "called array methods such as .max() on the input, which fails for a Python list",
        "a Python list is not a NumPy array: make the scores an array of floats before any arithmetic",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_squeezes",
        "softmax",
        "squeezed the size-1 axes away first, so a batch of one row (1, n) came back as (n,) and a column of "
        "one-score rows (n, 1) was normalised as one row",
        "keep the input's shape: a row of one score is still a row, and a batch of one is still a batch",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_transposes",
        "softmax",
        "divided the transposed evidence by the row totals and transposed back: .T reverses every axis, so in a "
        "3-D batch rows met other rows' totals",
        "a transpose reverses every axis, not only the last two: line each total up with its own row instead",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_flattens_batches",
        "softmax",
        "flattened a batch into rows (x.reshape(-1, n)) and returned those rows without the batch's shape: "
        "a 3-D batch came back 2-D",
        "the weights have the scores' shape: whatever you reshape on the way in, give the answer that shape",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_float32",
        "softmax",
        "computed in float32 (the deep-learning default): only about 7 correct digits, and exp overflows past "
        "a score of about 88.7, so rows near 100 come out nan",
        "float32 holds exp only up to a score of about 88.7 and keeps about 7 digits: stay in float64",
        breaks=("dtype", "shift"),
    ),
    Misconception(
        "softmax_exp_of_small_ints",
        "softmax",
        "called np.exp on integer scores without converting them: NumPy gives int8 scores float16 weights and "
        "int16 scores float32, with only 3 or 7 correct digits",
        "NumPy picks a small float type for small integers: make the scores float64 before exp",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_clips_scores",
        "softmax",
        "clipped the scores to [-50, 50] before exp to avoid overflow, which flattens every row whose scores lie "
        "beyond that range",
        "only differences between scores matter, and exp of every score in this lesson fits in float64: leave "
        "the scores as they are",
        breaks=("shift",),
    ),
    Misconception(
        "softmax_sorted",
        "softmax",
        "sorted each row to find its largest score (x.sort()), which also reordered the scores: the weights came "
        "back in sorted order, not the scores' order",
        "the weights must come back in the order of the scores: finding the largest score must not move the scores",
        breaks=("permutation", "value"),
    ),
    Misconception(
        "softmax_total_skips_first",
        "softmax",
        "started the loop that adds up the evidence at index 1, so the first score's evidence was left out of the "
        "total",
        "the total evidence includes every choice of the row, the first one too",
        breaks=("permutation", "value"),
    ),
    Misconception(
        "softmax_cumsum_total",
        "softmax",
        "divided by np.cumsum (a running total) instead of np.sum: only the last weight of a row saw the whole total",
        "the total is one number per row, shared by every choice of the row (a running total is not)",
        breaks=("permutation", "value"),
    ),
    Misconception(
        "softmax_shift_in_place",
        "softmax",
        "subtracted each row's max in place (x -= ...) from np.asarray(scores), which is the caller's own array "
        "when it is already float64",
        "np.asarray does not copy an array that is already float64: a shift done in place changes the caller's scores",
        breaks=("unchanged",),
    ),
    Misconception(
        "softmax_eps_total",
        "softmax",
        "added a small epsilon to the total to avoid dividing by zero: the weights no longer sum to 1, and rows "
        "of low scores (all -100, say) come out near 0",
        "the total evidence is never 0 for scores in this lesson's range: there is nothing to guard, divide by "
        "the total itself",
        breaks=("value", "shift"),
    ),
    Misconception(
        "softmax_sigmoid",
        "softmax",
        "gave every score its own sigmoid, exp(x) / (1 + exp(x)): the weights share no denominator, so they do "
        "not compete and do not sum to 1",
        "the weights of a row share one denominator, the total evidence of the row: that is what makes them compete",
        breaks=("compete", "value"),
    ),
]

# Inputs on which the misconceptions above behave differently from each other (see grader.learner.hints).
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "softmax": [
        (([1, 2, 3],), {}),
        ((np.array([[1.0, 3.0], [2.0, 0.0]]),), {}),
        ((np.array([[0.5, -1.0, 2.0]]),), {}),
        ((np.arange(12.0).reshape(2, 2, 3) / 4,), {}),
        ((np.array([1, -2, 3], dtype=np.int8),), {}),
        ((np.array([60.0, 61.0, 90.0]),), {}),
        ((np.full(3, -100.0),), {}),
        ((np.array([[3.0], [-1.0]]),), {}),
        ((np.array([[-1.0, 0.0], [0.0, -2.0]]),), {}),  # each row's max is 0: x -= max changes nothing
    ],
}
