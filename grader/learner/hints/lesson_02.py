"""Lesson 02_exp_evidence: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "02_exp_evidence"

MISCONCEPTIONS = [
    # evidence
    Misconception(
        "evidence_returns_list",
        "evidence",
        "returned a Python list (a list comprehension) instead of a NumPy array",
        "use np.exp on the whole array: np.exp(np.asarray(scores, dtype=float))",
        """
def evidence(scores):
    return [np.exp(s) for s in scores]
""",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_in_place",
        "evidence",
        "wrote the exponentials into the caller's array (np.exp(x, out=x))",
        "let np.exp return a new array: return np.exp(x)",
        """
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    np.exp(x, out=x)
    return x
""",
        breaks=("unchanged",),
    ),
    Misconception(
        "evidence_keeps_int_dtype",
        "evidence",
        "converted the result back to the scores' integer dtype, so the evidence was cut down to whole numbers",
        "the result must be floats: convert with dtype=float, not to the input's dtype",
        """
def evidence(scores):
    x = np.asarray(scores)
    return np.exp(x).astype(x.dtype)
""",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_fails_on_ints",
        "evidence",
        "kept the integer dtype of the input, so writing exp into it fails (an int array cannot hold e = 2.718...)",
        "convert to floats first: np.asarray(scores, dtype=float), and let np.exp return a new array",
        """
def evidence(scores):
    x = np.array(scores)
    np.exp(x, out=x)
    return x
""",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_fails_on_lists",
        "evidence",
        "used np.e ** scores on the input directly, so a Python list fails (a list cannot be a power)",
        "convert first: np.asarray(scores, dtype=float), or call np.exp, which accepts lists",
        """
def evidence(scores):
    return np.e ** scores
""",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_normalised",
        "evidence",
        "normalised the evidence; dividing by the total is a later step",
        "evidence is just the exponential of each score, nothing more",
        """
def evidence(scores):
    e = np.exp(np.asarray(scores, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
""",
        breaks=("value",),
    ),
    Misconception(
        "evidence_returns_scalar",
        "evidence",
        "returned the total evidence (one number) instead of the evidence of each score",
        "return np.exp of every score, an array of the same shape as the scores; do not sum",
        """
def evidence(scores):
    return np.exp(np.asarray(scores, dtype=float)).sum()
""",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "evidence_float32",
        "evidence",
        "computed the evidence in float32 (the deep-learning default): only about 7 correct digits, and exp "
        "overflows to inf past a score of about 88.7",
        "convert with dtype=float (float64), which holds exp up to a score of about 709.78",
        """
def evidence(scores):
    return np.exp(np.asarray(scores, dtype=np.float32))
""",
        breaks=("dtype", "extremes"),
    ),
    Misconception(
        "evidence_exp_of_small_ints",
        "evidence",
        "called np.exp on integer scores without converting them: NumPy gives int8 scores float16 evidence and "
        "int16 scores float32, with only 3 or 7 correct digits",
        "convert to float64 first: np.exp(np.asarray(scores, dtype=float))",
        """
def evidence(scores):
    return np.exp(np.asarray(scores))
""",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_clips",
        "evidence",
        "clipped the scores to [-100, 100] before exp to avoid overflow, so larger scores got far too little evidence",
        "no clipping: exp of a score up to about 709 fits in float64, and the lesson shows what happens past it",
        """
def evidence(scores):
    return np.exp(np.clip(np.asarray(scores, dtype=float), -100.0, 100.0))
""",
        breaks=("extremes",),
    ),
    Misconception(
        "evidence_flat_list",
        "evidence",
        "took exp of each score in a flat list and returned it flat: a batch of rows lost its shape, and a single "
        "number came back as an array of one",
        "keep the scores' shape: np.exp works on a whole array of any shape (or .reshape(x.shape) at the end)",
        """
import math

def evidence(scores):
    x = np.asarray(scores, dtype=float)
    return np.array([math.exp(s) for s in x.ravel()])
""",
        breaks=("shapes",),
    ),
    Misconception(
        "evidence_at_least_1d",
        "evidence",
        "made every input at least 1-D (np.atleast_1d), so a single number came back as an array of one "
        "instead of a number",
        "leave the shape alone: np.exp of a single number is a single number",
        """
def evidence(scores):
    return np.exp(np.atleast_1d(np.asarray(scores, dtype=float)))
""",
        breaks=("shapes",),
    ),
    Misconception(
        "evidence_flushes_tiny",
        "evidence",
        "set the evidence of very low scores (below -700) to 0 to avoid tiny numbers, but exp of any score is positive",
        "leave exp alone: float64 holds exp(s) > 0 down to s = -745",
        """
def evidence(scores):
    x = np.asarray(scores, dtype=float)
    return np.where(x < -700.0, 0.0, np.exp(x))
""",
        breaks=("extremes",),
    ),
    # evidence_ratio
    Misconception(
        "ratio_reversed",
        "evidence_ratio",
        "swapped the two scores: that is how many times more evidence b has than a",
        "the ratio of a's evidence to b's evidence is exp(a - b)",
        """
def evidence_ratio(a, b):
    return np.exp(np.asarray(b, dtype=float) - np.asarray(a, dtype=float))
""",
        breaks=("value",),
    ),
    Misconception(
        "ratio_no_exp",
        "evidence_ratio",
        "returned the difference of the scores, without exp",
        "a score difference becomes an evidence ratio through exp: exp(a - b)",
        """
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
""",
        breaks=("value",),
    ),
    Misconception(
        "ratio_of_raw_scores",
        "evidence_ratio",
        "divided the raw scores; scores are not evidence",
        "take the exponential of the difference: exp(a - b)",
        """
def evidence_ratio(a, b):
    return np.asarray(a, dtype=float) / np.asarray(b, dtype=float)
""",
        breaks=("value", "shift"),
    ),
    Misconception(
        "ratio_exp_quotient_overflows",
        "evidence_ratio",
        "computed exp(a) / exp(b): for large scores each exp overflows to inf (or underflows to 0), "
        "and inf / inf or 0 / 0 is nan",
        "exponentiate the difference instead: exp(a - b) never sees the huge numbers",
        """
def evidence_ratio(a, b):
    return np.exp(np.asarray(a, dtype=float)) / np.exp(np.asarray(b, dtype=float))
""",
        breaks=("shift",),
    ),
    Misconception(
        "ratio_fails_on_lists",
        "evidence_ratio",
        "subtracted the inputs directly, so Python lists fail (a list cannot be subtracted from a list)",
        "convert both first: np.asarray(a, dtype=float) - np.asarray(b, dtype=float)",
        """
def evidence_ratio(a, b):
    return np.exp(a - b)
""",
        breaks=("dtype",),
    ),
    Misconception(
        "ratio_converts_to_float",
        "evidence_ratio",
        "converted the answer with float(), which works only for single numbers, so arrays of scores fail",
        "return np.exp(a - b) as it comes: a number for numbers, an array for arrays",
        """
def evidence_ratio(a, b):
    return float(np.exp(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)))
""",
        breaks=("shapes",),
    ),
    Misconception(
        "ratio_in_place",
        "evidence_ratio",
        "subtracted b from the caller's array a in place (a -= b on the input itself)",
        "compute the difference into a new array: d = a - b",
        """
def evidence_ratio(a, b):
    a = np.asarray(a, dtype=float)
    a -= np.asarray(b, dtype=float)
    return np.exp(a)
""",
        breaks=("unchanged",),
    ),
    Misconception(
        "ratio_int_difference",
        "evidence_ratio",
        "subtracted integer scores as integers: int8 differences wrap around (100 - (-100) is -56) and NumPy gives "
        "small integer types float16 or float32 evidence",
        "convert both to float64 before subtracting: np.asarray(a, dtype=float) - np.asarray(b, dtype=float)",
        """
def evidence_ratio(a, b):
    return np.exp(np.subtract(a, b))
""",
        breaks=("dtype",),
    ),
    Misconception(
        "ratio_float32",
        "evidence_ratio",
        "computed the ratio in float32 (the deep-learning default), so it came back as float32 with only about "
        "7 correct digits",
        "convert with dtype=float, which is float64",
        """
def evidence_ratio(a, b):
    return np.exp(np.asarray(a, dtype=np.float32) - np.asarray(b, dtype=np.float32))
""",
        breaks=("dtype",),
    ),
    Misconception(
        "ratio_flat_list",
        "evidence_ratio",
        "computed each ratio in a flat loop with math.exp and returned the flat list as an array: two numbers gave "
        "an array of one, and a 2-D input lost its shape",
        "work on whole arrays: np.exp(a - b) keeps the shape (a number for numbers)",
        """
import math

def evidence_ratio(a, b):
    pairs = zip(np.ravel(a).tolist(), np.ravel(b).tolist())
    return np.array([math.exp(x - y) for x, y in pairs])
""",
        breaks=("shapes",),
    ),
    # normalize_evidence
    Misconception(
        "normalize_applies_exp_again",
        "normalize_evidence",
        "applied exp again: the input is already evidence",
        "only divide by the total; exp was the evidence step",
        """
def normalize_evidence(ev):
    e = np.exp(np.asarray(ev, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)
""",
        breaks=("value", "scale"),
    ),
    Misconception(
        "normalize_whole_array",
        "normalize_evidence",
        "divided by the total of the whole array instead of each row's own total",
        "sum over the last axis only: x.sum(axis=-1, keepdims=True)",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum()
""",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "normalize_axis0",
        "normalize_evidence",
        "summed down the columns (axis 0) instead of along each row",
        "the choices are along the last axis: x.sum(axis=-1, keepdims=True)",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum(axis=0)
""",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "normalize_drops_keepdims",
        "normalize_evidence",
        "summed each row but dropped the summed axis, so the row totals were lined up with the columns",
        "keep the summed axis so each row is divided by its own total: keepdims=True",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / x.sum(axis=-1)
""",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "normalize_in_place",
        "normalize_evidence",
        "divided the caller's array in place (x /= total on the input itself)",
        "return a new array: x / total, not x /= total",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
        breaks=("unchanged",),
    ),
    Misconception(
        "normalize_fails_on_lists",
        "normalize_evidence",
        "called array methods on the input directly, so a Python list fails (a list has no .sum(axis=...))",
        "convert first: x = np.asarray(ev, dtype=float)",
        """
def normalize_evidence(ev):
    return ev / ev.sum(axis=-1, keepdims=True)
""",
        breaks=("dtype",),
    ),
    Misconception(
        "normalize_fails_on_ints",
        "normalize_evidence",
        "kept the integer dtype of the input, so dividing in place into it fails (an int array cannot hold fractions)",
        "convert to floats first: np.asarray(ev, dtype=float), then divide into a new array",
        """
def normalize_evidence(ev):
    x = np.array(ev)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
        breaks=("dtype",),
    ),
    Misconception(
        "normalize_returns_list",
        "normalize_evidence",
        "returned a Python list (a list comprehension) instead of a NumPy array",
        "convert with np.asarray(ev, dtype=float) and divide the whole array at once",
        """
def normalize_evidence(ev):
    total = sum(ev)
    return [e / total for e in ev]
""",
        breaks=("dtype",),
    ),
    Misconception(
        "normalize_adds_epsilon",
        "normalize_evidence",
        "added a small epsilon to the total to be safe: the weights no longer sum to 1, and rows of tiny evidence "
        "come out near 0",
        "evidence is positive, so its total is never 0: divide by the plain total",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return x / (x.sum(axis=-1, keepdims=True) + 1e-9)
""",
        breaks=("value", "scale"),
    ),
    Misconception(
        "normalize_float32",
        "normalize_evidence",
        "converted the evidence to float32 (the deep-learning default): float64 came back as float32, and tiny "
        "evidence (1e-300) became 0, so its row was 0 / 0",
        "convert with dtype=float (float64), which holds evidence from 1e-308 to 1e308",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=np.float32)
    return x / x.sum(axis=-1, keepdims=True)
""",
        breaks=("dtype", "scale"),
    ),
    Misconception(
        "normalize_int_sum_wraps",
        "normalize_evidence",
        "summed integer evidence as integers: NumPy's int64 sum wraps around past 9.2e18 without a warning, so huge "
        "integer evidence got a wrong total",
        "convert to floats before you sum: np.asarray(ev, dtype=float)",
        """
def normalize_evidence(ev):
    x = np.asarray(ev)
    return x / x.sum(axis=-1, keepdims=True)
""",
        breaks=("dtype",),
    ),
    Misconception(
        "normalize_squeezes",
        "normalize_evidence",
        "squeezed the size-1 axes away first, so a batch of one row (1, n) came back as (n,) and a column (n, 1) "
        "was divided as one row",
        "keep the input's shape (no np.squeeze): x.sum(axis=-1, keepdims=True) already works for rows of any shape",
        """
def normalize_evidence(ev):
    x = np.squeeze(np.asarray(ev, dtype=float))
    return x / x.sum(axis=-1, keepdims=True)
""",
        breaks=("shapes",),
    ),
    Misconception(
        "normalize_transposes",
        "normalize_evidence",
        "divided the transpose by the row totals and transposed back: .T reverses every axis, so in a 3-D batch "
        "rows met other rows' totals",
        "no transposes: x.sum(axis=-1, keepdims=True) lines each total up with its own row in any number of dimensions",
        """
def normalize_evidence(ev):
    x = np.asarray(ev, dtype=float)
    return (x.T / x.sum(axis=-1)).T
""",
        breaks=("shapes",),
    ),
    Misconception(
        "ratio_clips_difference",
        "evidence_ratio",
        "clipped the difference a - b to a range such as [-700, 700] to keep exp from overflowing, so ratios near "
        "exp's limits come out wrong",
        "return exp(a - b) of the difference as it is: exp overflows only past a difference of about 709",
        """
def evidence_ratio(a, b):
    gap = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return np.exp(np.clip(gap, -700, 700))
""",
        breaks=("shift",),
    ),
]

# Inputs on which the misconceptions above behave differently from each other (see grader.learner.hints).
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "evidence": [
        (([0, 1],), {}),
        ((np.array([[0.5, -1.0], [2.0, 0.0]]),), {}),
        ((np.array([1, -2, 3], dtype=np.int8),), {}),
        ((np.array([-1000.0, 0.0, 150.0]),), {}),
        ((np.array([-720.0, -100.0]),), {}),
        ((2.0,), {}),
    ],
    "evidence_ratio": [
        ((3, 1), {}),
        (([2, 0], [0, 2]), {}),
        ((np.array([2.0, 0.0]), np.array([0.0, 2.0])), {}),
        ((np.array([100, -100], dtype=np.int8), np.array([-100, 100], dtype=np.int8)), {}),
        ((1000.0, 999.0), {}),
        ((np.array([[1.0, -1.0], [0.5, 2.0]]), np.array([[0.0, 0.0], [1.0, 1.0]])), {}),
    ],
    "normalize_evidence": [
        (([1, 3],), {}),
        ((np.array([3, 1]),), {}),
        ((np.array([[1.0, 3.0], [2.0, 6.0]]),), {}),
        ((np.arange(1.0, 13.0).reshape(2, 2, 3),), {}),
        ((np.array([[[1.0, 3.0]], [[2.0, 2.0]]]),), {}),
        ((np.array([4 * 10**18, 4 * 10**18, 8 * 10**18]),), {}),
    ],
}
