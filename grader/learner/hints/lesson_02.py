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
        "the answer must be an array like the scores: exp can work on the whole array at once, no loop needed",
        breaks=("dtype", "shapes"),
    ),
    Misconception(
        "evidence_in_place",
        "evidence",
        "wrote the exponentials into the caller's array (np.exp(x, out=x))",
        "the caller's scores must survive the call: put the exponentials in a new array",
        breaks=("unchanged",),
    ),
    Misconception(
        "evidence_keeps_int_dtype",
        "evidence",
        "converted the result back to the scores' integer dtype, so the evidence was cut down to whole numbers",
        "evidence such as e = 2.718... is not a whole number: the result must be floats, whatever the scores' dtype",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_fails_on_ints",
        "evidence",
        "kept the integer dtype of the input, so writing exp into it fails (an int array cannot hold e = 2.718...)",
        "an integer array cannot hold e = 2.718...: work on a float copy of the scores, not in the integer array",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_fails_on_lists",
        "evidence",
        "used np.e ** scores on the input directly, so a Python list fails (a list cannot be a power)",
        "a Python list is not a NumPy array: make the scores an array of floats before any arithmetic",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_normalised",
        "evidence",
        "normalised the evidence; dividing by the total is a later step",
        "evidence is only the exponential of each score; dividing by the total is the job of normalize_evidence",
        breaks=("value",),
    ),
    Misconception(
        "evidence_returns_scalar",
        "evidence",
        "returned the total evidence (one number) instead of the evidence of each score",
        "each score has its own evidence: the answer has the scores' shape, nothing is added up",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "evidence_float32",
        "evidence",
        "computed the evidence in float32 (the deep-learning default): only about 7 correct digits, and exp "
        "overflows to inf past a score of about 88.7",
        "float32 holds exp only up to a score of about 88.7 and keeps about 7 digits: stay in float64",
        breaks=("dtype", "extremes"),
    ),
    Misconception(
        "evidence_exp_of_small_ints",
        "evidence",
        "called np.exp on integer scores without converting them: NumPy gives int8 scores float16 evidence and "
        "int16 scores float32, with only 3 or 7 correct digits",
        "NumPy picks a small float type for small integers: make the scores float64 before exp",
        breaks=("dtype",),
    ),
    Misconception(
        "evidence_clips",
        "evidence",
        "clipped the scores to [-100, 100] before exp to avoid overflow, so larger scores got far too little evidence",
        "exp of any score up to about 709 fits in float64: leave the scores as they are (section 11 shows the limit)",
        breaks=("extremes",),
    ),
    Misconception(
        "evidence_flat_list",
        "evidence",
        "took exp of each score in a flat list and returned it flat: a batch of rows lost its shape, and a single "
        "number came back as an array of one",
        "the evidence keeps the scores' shape, a single number included: a flat list loses it",
        breaks=("shapes",),
    ),
    Misconception(
        "evidence_at_least_1d",
        "evidence",
        "made every input at least 1-D (np.atleast_1d), so a single number came back as an array of one "
        "instead of a number",
        "a single score has a single number as evidence: leave the shape as it came",
        breaks=("shapes",),
    ),
    Misconception(
        "evidence_flushes_tiny",
        "evidence",
        "set the evidence of very low scores (below -700) to 0 to avoid tiny numbers, but exp of any score is positive",
        "exp of a very low score is tiny but positive, down to about -745 in float64: leave it to exp",
        breaks=("extremes",),
    ),
    # evidence_ratio
    Misconception(
        "ratio_reversed",
        "evidence_ratio",
        "swapped the two scores: that is how many times more evidence b has than a",
        "the question is how many times more evidence a has than b: a's evidence goes on top",
        breaks=("value",),
    ),
    Misconception(
        "ratio_no_exp",
        "evidence_ratio",
        "returned the difference of the scores, without exp",
        "a difference of scores becomes a ratio of evidence only through exp (section 6)",
        breaks=("value",),
    ),
    Misconception(
        "ratio_of_raw_scores",
        "evidence_ratio",
        "divided the raw scores; scores are not evidence",
        "scores are not evidence: the ratio of two evidence values depends only on the difference of the scores",
        breaks=("value", "shift"),
    ),
    Misconception(
        "ratio_exp_quotient_overflows",
        "evidence_ratio",
        "computed exp(a) / exp(b): for large scores each exp overflows to inf (or underflows to 0), "
        "and inf / inf or 0 / 0 is nan",
        "each exp on its own can overflow or underflow; the ratio depends only on a - b, which stays moderate",
        breaks=("shift",),
    ),
    Misconception(
        "ratio_fails_on_lists",
        "evidence_ratio",
        "subtracted the inputs directly, so Python lists fail (a list cannot be subtracted from a list)",
        "Python lists cannot be subtracted: make both inputs float arrays first",
        breaks=("dtype",),
    ),
    Misconception(
        "ratio_converts_to_float",
        "evidence_ratio",
        "converted the answer with float(), which works only for single numbers, so arrays of scores fail",
        "arrays of scores need an array of ratios: return the result as NumPy gives it, a number only for numbers",
        breaks=("shapes",),
    ),
    Misconception(
        "ratio_in_place",
        "evidence_ratio",
        "subtracted b from the caller's array a in place (a -= b on the input itself)",
        "the caller's a must survive the call: put the difference in a new array",
        breaks=("unchanged",),
    ),
    Misconception(
        "ratio_int_difference",
        "evidence_ratio",
        "subtracted integer scores as integers: int8 differences wrap around (100 - (-100) is -56) and NumPy gives "
        "small integer types float16 or float32 evidence",
        "small integer types wrap around when they subtract, and NumPy gives them small float types: subtract "
        "as float64",
        breaks=("dtype",),
    ),
    Misconception(
        "ratio_float32",
        "evidence_ratio",
        "computed the ratio in float32 (the deep-learning default), so it came back as float32 with only about "
        "7 correct digits",
        "float32 keeps about 7 digits: compute the ratio in float64",
        breaks=("dtype", "shift"),
    ),
    Misconception(
        "ratio_flat_list",
        "evidence_ratio",
        "computed each ratio in a flat loop with math.exp and returned the flat list as an array: two numbers gave "
        "an array of one, and a 2-D input lost its shape",
        "the ratios keep the shape of the scores, a single number for two numbers: a flat loop loses it",
        breaks=("shapes",),
    ),
    # normalize_evidence
    Misconception(
        "normalize_plain_total",
        "normalize_evidence",
        "divided by the plain total, as lesson 01 did: when a row's total overflows float64 (evidence near 1e308) "
        "it is inf, and every share comes out 0",
        "a row's shares do not change when you multiply the whole row by one factor above 0: pick one that keeps "
        "the total within float64",
        breaks=("scale",),
    ),
    Misconception(
        "normalize_by_max_only",
        "normalize_evidence",
        "divided each row by its largest value only: the largest choice got 1 and the row no longer sums to 1",
        "scaling by the largest value only makes the total fit; the shares still come from dividing by that total",
        breaks=("value",),
    ),
    Misconception(
        "normalize_global_max",
        "normalize_evidence",
        "scaled the whole array by its one largest value: a row of tiny evidence next to a row of huge evidence "
        "underflowed to 0, and 0 / 0 is nan",
        "rows do not share anything: each row needs its own factor",
        breaks=("scale",),
    ),
    Misconception(
        "normalize_applies_exp_again",
        "normalize_evidence",
        "applied exp again: the input is already evidence",
        "exp was the evidence step; here you only divide",
        breaks=("value", "scale"),
    ),
    Misconception(
        "normalize_whole_array",
        "normalize_evidence",
        "divided by the total of the whole array instead of each row's own total",
        "each row is its own set of choices and sums to 1 on its own",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "normalize_axis0",
        "normalize_evidence",
        "summed down the columns (axis 0) instead of along each row",
        "the choices of a row lie along the last axis, whatever the number of dimensions",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "normalize_drops_keepdims",
        "normalize_evidence",
        "summed each row but dropped the summed axis, so the row totals were lined up with the columns",
        "each row's total must line up with its own row when you divide: keep the summed axis, with length 1",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "normalize_in_place",
        "normalize_evidence",
        "divided the caller's array in place (x /= ... on the input itself)",
        "the caller's evidence must survive the call: divide into a new array",
        breaks=("unchanged",),
    ),
    Misconception(
        "normalize_fails_on_lists",
        "normalize_evidence",
        "called array methods on the input directly, so a Python list fails (a list has no .max(axis=...))",
        "a Python list is not a NumPy array: make the evidence an array of floats first",
        breaks=("dtype",),
    ),
    Misconception(
        "normalize_fails_on_ints",
        "normalize_evidence",
        "kept the integer dtype of the input, so dividing in place into it fails (an int array cannot hold fractions)",
        "shares are fractions: work on a float copy of the evidence, not in the integer array",
        breaks=("dtype",),
    ),
    Misconception(
        "normalize_returns_list",
        "normalize_evidence",
        "returned a Python list (a list comprehension) instead of a NumPy array",
        "the answer must be a NumPy array, and NumPy divides a whole array at once",
        breaks=("dtype", "shapes"),
    ),
    Misconception(
        "normalize_adds_epsilon",
        "normalize_evidence",
        "added a small epsilon to the total to be safe: the weights no longer sum to 1",
        "positive evidence has a total above 0, so there is nothing to guard: divide by the total itself",
        breaks=("value",),
    ),
    Misconception(
        "normalize_float32",
        "normalize_evidence",
        "converted the evidence to float32 (the deep-learning default): float64 came back as float32, evidence "
        "above 3.4e38 became inf and tiny evidence (1e-300) became 0, so their rows were nan",
        "float32 holds numbers only from about 1e-45 to 3.4e38: stay in float64",
        breaks=("dtype", "scale"),
    ),
    Misconception(
        "normalize_int_sum_wraps",
        "normalize_evidence",
        "summed integer evidence as integers: NumPy's int64 sum wraps around past 9.2e18 without a warning, so huge "
        "integer evidence got a wrong total",
        "integers that big wrap around when added: make the evidence floats before anything is added up",
        breaks=("dtype", "scale"),
    ),
    Misconception(
        "normalize_squeezes",
        "normalize_evidence",
        "squeezed the size-1 axes away first, so a batch of one row (1, n) came back as (n,) and a column (n, 1) "
        "was divided as one row",
        "keep the input's shape: a row of one value is still a row, and a batch of one is still a batch",
        breaks=("shapes",),
    ),
    Misconception(
        "normalize_transposes",
        "normalize_evidence",
        "divided the transpose by the row totals and transposed back: .T reverses every axis, so in a 3-D batch "
        "rows met other rows' totals",
        "a transpose reverses every axis, not only the last two: line each total up with its own row instead",
        breaks=("shapes",),
    ),
    Misconception(
        "ratio_clips_difference",
        "evidence_ratio",
        "clipped the difference a - b to a range such as [-700, 700] to keep exp from overflowing, so ratios near "
        "exp's limits come out wrong",
        "the difference itself is the exponent of the answer: clipping it changes ratios that float64 can hold",
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
        ((800.0, 0.0), {}),  # exp(800) is inf: the ratio too
    ],
    "normalize_evidence": [
        (([1, 3],), {}),
        ((np.exp(np.full(3, 709.0)),), {}),
        ((np.array([[1e-300, 3e-300], [1e300, 3e300]]),), {}),
        ((np.array([3, 1]),), {}),
        ((np.array([[1.0, 3.0], [2.0, 6.0]]),), {}),
        ((np.arange(1.0, 13.0).reshape(2, 2, 3),), {}),
        ((np.array([[[1.0, 3.0]], [[2.0, 2.0]]]),), {}),
        ((np.array([4 * 10**18, 4 * 10**18, 8 * 10**18]),), {}),
    ],
}
