"""Lesson 03_shared_denominator: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "03_shared_denominator"

MISCONCEPTIONS = [
    Misconception(
        "softmax_no_exp",
        "softmax",
        "divided the raw scores by their sum, without exp",
        "turn every score into evidence with np.exp before you divide",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1, keepdims=True)
""",
        breaks=("value", "shift"),
    ),
    Misconception(
        "softmax_divides_by_raw_total",
        "softmax",
        "took exp of the scores but divided by the sum of the raw scores",
        "divide by the total evidence: the sum of the exp values",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    return np.exp(x) / x.sum(axis=-1, keepdims=True)
""",
        breaks=("value", "shift"),
    ),
    Misconception(
        "softmax_whole_array",
        "softmax",
        "divided by the total evidence of the whole array instead of each row's own total",
        "sum over the last axis only: .sum(axis=-1, keepdims=True)",
        """
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum()
""",
        breaks=("value", "shapes", "compete"),
    ),
    Misconception(
        "softmax_axis0",
        "softmax",
        "summed down the first axis (axis 0) instead of along each row",
        "the choices are along the last axis: .sum(axis=-1, keepdims=True)",
        """
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / np.sum(evidence, axis=0)
""",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "softmax_axis1",
        "softmax",
        "summed over axis 1, which is the last axis only for 2-D input",
        "use axis=-1, the last axis, whatever the number of dimensions",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    if evidence.ndim == 1:
        return evidence / evidence.sum()
    return evidence / evidence.sum(axis=1, keepdims=True)
""",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_no_keepdims",
        "softmax",
        "summed each row but dropped keepdims=True, so the row totals were spread across the columns",
        "keep the summed axis: .sum(axis=-1, keepdims=True)",
        """
def softmax(scores):
    evidence = np.exp(scores)
    return evidence / evidence.sum(axis=-1)
""",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "softmax_shift_without_keepdims",
        "softmax",
        "subtracted each row's max without keepdims=True, so the row maxima were spread across the columns",
        "keep the reduced axis: x.max(axis=-1, keepdims=True) has shape (rows, 1)",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    evidence = np.exp(x - x.max(axis=-1))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "softmax_loops_first_axis",
        "softmax",
        "looped over the first axis only, so in a 3-D batch each whole 2-D block shared one total",
        "normalise every row along the last axis: .sum(axis=-1, keepdims=True) works for any number of dimensions",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    if x.ndim == 1:
        return np.exp(x) / np.exp(x).sum()
    out = np.empty_like(x)
    for i, row in enumerate(x):
        evidence = np.exp(row)
        out[i] = evidence / evidence.sum()
    return out
""",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_in_place",
        "softmax",
        "wrote the evidence and the weights into the caller's array (np.exp(x, out=x), x /= total)",
        "compute into a new array: evidence = np.exp(x), then return evidence / total",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
        breaks=("unchanged",),
    ),
    Misconception(
        "softmax_returns_list",
        "softmax",
        "returned a Python list (built with math.exp) instead of a NumPy array",
        "work with NumPy arrays (np.exp, .sum), or wrap the finished list in np.array(...)",
        """
import math

def softmax(scores):
    evidence = [math.exp(s) for s in scores]
    total = sum(evidence)
    return [e / total for e in evidence]
""",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_fails_on_ints",
        "softmax",
        "kept integer scores as integers and wrote float results into them, which NumPy refuses",
        "convert first: np.asarray(scores, dtype=float), then compute into new arrays",
        """
def softmax(scores):
    x = np.array(scores)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_int_output_array",
        "softmax",
        "filled an output made with np.zeros_like(scores): for integer scores it is an integer array, "
        "so every weight was cut down to a whole number",
        "make the output a float array: np.asarray(scores, dtype=float) first, then np.zeros_like of that",
        """
def softmax(scores):
    x = np.asarray(scores)
    out = np.zeros_like(x)
    evidence = np.exp(x)
    out[...] = evidence / evidence.sum(axis=-1, keepdims=True)
    return out
""",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_fails_on_lists",
        "softmax",
        "called array methods such as .max() on the input, which fails for a Python list",
        "convert the input first: x = np.asarray(scores, dtype=float)",
        """
def softmax(scores):
    evidence = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_squeezes",
        "softmax",
        "squeezed the size-1 axes away first, so a batch of one row (1, n) came back as (n,) and a column of "
        "one-score rows (n, 1) was normalised as one row",
        "keep the input's shape (no np.squeeze): .sum(axis=-1, keepdims=True) already works for rows of any shape",
        """
def softmax(scores):
    evidence = np.exp(np.squeeze(np.asarray(scores, dtype=float)))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_transposes",
        "softmax",
        "divided the transposed evidence by the row totals and transposed back: .T reverses every axis, so in a "
        "3-D batch rows met other rows' totals",
        "no transposes: .sum(axis=-1, keepdims=True) lines each total up with its own row in any number of dimensions",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return (evidence.T / evidence.sum(axis=-1)).T
""",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_flattens_batches",
        "softmax",
        "flattened a batch into rows (x.reshape(-1, n)) and returned those rows without the batch's shape: "
        "a 3-D batch came back 2-D",
        "reshape the result back to the input's shape, or skip the reshape: .sum(axis=-1, keepdims=True) handles any "
        "shape",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    rows = np.exp(x.reshape(-1, x.shape[-1]))
    weights = rows / rows.sum(axis=1, keepdims=True)
    return weights[0] if x.ndim == 1 else weights
""",
        breaks=("shapes",),
    ),
    Misconception(
        "softmax_float32",
        "softmax",
        "computed in float32 (the deep-learning default): only about 7 correct digits, and exp overflows past "
        "a score of about 88.7, so rows near 100 come out nan",
        "convert with dtype=float (float64), which holds exp up to a score of about 709",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=np.float32))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("dtype", "shift"),
    ),
    Misconception(
        "softmax_exp_of_small_ints",
        "softmax",
        "called np.exp on integer scores without converting them: NumPy gives int8 scores float16 weights and "
        "int16 scores float32, with only 3 or 7 correct digits",
        "convert to float64 first: np.exp(np.asarray(scores, dtype=float))",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("dtype",),
    ),
    Misconception(
        "softmax_clips_scores",
        "softmax",
        "clipped the scores to [-50, 50] before exp to avoid overflow, which flattens every row whose scores lie "
        "beyond that range",
        "no clipping: only differences matter, and exp of scores up to 100 fits in float64 (lesson 05 shifts instead)",
        """
def softmax(scores):
    evidence = np.exp(np.clip(np.asarray(scores, dtype=float), -50.0, 50.0))
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("shift",),
    ),
    Misconception(
        "softmax_sorted",
        "softmax",
        "sorted each row to find its largest score (x.sort()), which also reordered the scores: the weights came "
        "back in sorted order, not the scores' order",
        "take the largest with x.max(axis=-1, keepdims=True): sorting moves the scores",
        """
def softmax(scores):
    x = np.array(scores, dtype=float)
    x.sort(axis=-1)
    evidence = np.exp(x - x[..., -1:])
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("permutation", "value"),
    ),
    Misconception(
        "softmax_total_skips_first",
        "softmax",
        "started the loop that adds up the evidence at index 1, so the first score's evidence was left out of the "
        "total",
        "add up the evidence of every score: evidence.sum(axis=-1, keepdims=True), or a loop over range(n)",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    evidence = np.exp(x)
    total = np.zeros(x.shape[:-1] + (1,))
    for j in range(1, x.shape[-1]):
        total[..., 0] += evidence[..., j]
    return evidence / total
""",
        breaks=("permutation", "value"),
    ),
    Misconception(
        "softmax_cumsum_total",
        "softmax",
        "divided by np.cumsum (a running total) instead of np.sum: only the last weight of a row saw the whole total",
        "the total is one number per row: evidence.sum(axis=-1, keepdims=True)",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / np.cumsum(evidence, axis=-1)
""",
        breaks=("permutation", "value"),
    ),
    Misconception(
        "softmax_shift_in_place",
        "softmax",
        "subtracted each row's max in place (x -= ...) from np.asarray(scores), which is the caller's own array "
        "when it is already float64",
        "np.asarray does not copy a float64 array: compute x - m into a new array instead of x -= m",
        """
def softmax(scores):
    x = np.asarray(scores, dtype=float)
    x -= x.max(axis=-1, keepdims=True)
    evidence = np.exp(x)
    return evidence / evidence.sum(axis=-1, keepdims=True)
""",
        breaks=("unchanged",),
    ),
    Misconception(
        "softmax_eps_total",
        "softmax",
        "added a small epsilon to the total to avoid dividing by zero: the weights no longer sum to 1, and rows "
        "of low scores (all -100, say) come out near 0",
        "the total evidence is never 0 for scores in this lesson's range: divide by the plain total",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / (evidence.sum(axis=-1, keepdims=True) + 1e-9)
""",
        breaks=("value", "shift"),
    ),
    Misconception(
        "softmax_sigmoid",
        "softmax",
        "gave every score its own sigmoid, exp(x) / (1 + exp(x)): the weights share no denominator, so they do "
        "not compete and do not sum to 1",
        "divide each evidence by the total evidence of its row, which every choice shares",
        """
def softmax(scores):
    evidence = np.exp(np.asarray(scores, dtype=float))
    return evidence / (1.0 + evidence)
""",
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
