"""Lesson 05_stable_softmax: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "05_stable_softmax"

MISCONCEPTIONS = [
    Misconception(
        "stable_global_max",
        "stable_softmax",
        "subtracted the global max of the whole array instead of each row's own max",
        "the rows are separate distributions, so each needs its own max",
        breaks=("value", "rows", "extremes", "shift"),
    ),
    Misconception(
        "stable_no_shift",
        "stable_softmax",
        "did not shift the scores before exp: exp of a huge score overflows to inf, exp of a very "
        "negative one underflows to 0, and the division gives nan",
        "subtract each row's max before exp, so the largest shifted score is 0",
        breaks=("extremes", "quiet", "shift"),
    ),
    Misconception(
        "stable_divides_after_exp",
        "stable_softmax",
        "divided the evidence by its largest value after exp instead of subtracting the max before: "
        "exp has already overflowed by then",
        "shift the scores before exp, not the evidence after it: by then the overflow has happened",
        breaks=("extremes", "quiet", "shift"),
    ),
    Misconception(
        "stable_min_shift",
        "stable_softmax",
        "shifted each row by its minimum instead of its maximum, so the largest score can still overflow exp",
        "subtract the max, so the largest shifted score is 0 and every evidence value is at most 1",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "stable_no_exp",
        "stable_softmax",
        "shifted the scores but divided them by their sum without exp",
        "the shifted scores are still scores: they must become evidence before you divide by the row's total",
        breaks=("value",),
    ),
    Misconception(
        "stable_sums_axis0",
        "stable_softmax",
        "summed down the first axis (axis 0) instead of along each row",
        "the choices lie along the last axis: total the evidence there",
        breaks=("value", "rows"),
    ),
    Misconception(
        "stable_sums_whole_array",
        "stable_softmax",
        "normalised the whole array at once, so unrelated rows competed for one total",
        "each row is a distribution of its own, so each row needs its own total",
        breaks=("value", "rows"),
    ),
    Misconception(
        "stable_max_without_keepdims",
        "stable_softmax",
        "took each row's max without keepdims=True, so the row maxima were subtracted along the wrong axis",
        "the row maxima must keep a place for the last axis, so that each is subtracted from its own row, not a column",
        breaks=("rows", "shapes"),
    ),
    Misconception(
        "stable_shift_in_place",
        "stable_softmax",
        "subtracted the max in place (x -= ...), which changed the caller's array",
        "the shift must go into a new array: a change in place alters the caller's scores",
        breaks=("unchanged",),
    ),
    Misconception(
        "stable_fails_on_ints",
        "stable_softmax",
        "copied integer scores as integers and divided in place (x /= temperature), which NumPy refuses",
        "integer input must become floats before any division, and the quotient needs a new array",
        breaks=("dtype",),
    ),
    Misconception(
        "stable_fails_on_lists",
        "stable_softmax",
        "used the input as an array without converting it, which fails for a Python list",
        "a list has no dtype and no rows to take a max of: make an array first, keeping a float input's dtype",
        breaks=("dtype",),
    ),
    Misconception(
        "stable_returns_list",
        "stable_softmax",
        "returned a Python list (built with math.exp) instead of a NumPy array",
        "the contract promises a NumPy array, in the input's own float dtype",
        breaks=("dtype", "shapes"),
    ),
    Misconception(
        "stable_float32_becomes_float64",
        "stable_softmax",
        "turned float32 scores into float64 (np.asarray(scores, dtype=float) converts every input)",
        "convert only input that is not floating already: float32 must stay float32",
        breaks=("dtype",),
    ),
    Misconception(
        "stable_python_floats_lose_float32",
        "stable_softmax",
        "computed each row with Python floats (math.exp) and rebuilt the array without a dtype, "
        "so float32 scores came back as float64",
        "Python floats are float64: give the rebuilt array the input's own float dtype",
        breaks=("dtype",),
    ),
    Misconception(
        "stable_always_float32",
        "stable_softmax",
        "converted every input to float32, so integer and float64 scores lost precision",
        "keep a float input's own dtype, and turn only non-float input into float64",
        breaks=("dtype", "extremes"),
    ),
    Misconception(
        "stable_multiplies_temperature",
        "stable_softmax",
        "multiplied the scores by the temperature instead of dividing by it",
        "a small T should sharpen the weights, so the scores must grow as T shrinks",
        breaks=("temperature",),
    ),
    Misconception(
        "stable_ignores_temperature",
        "stable_softmax",
        "ignored the temperature argument",
        "divide the scores by temperature before the shift and exp",
        breaks=("temperature",),
    ),
    Misconception(
        "stable_squeezes",
        "stable_softmax",
        "squeezed away the size-1 axes (np.squeeze), so a batch of one row, shape (1, n), or rows of one "
        "choice, shape (n, 1), came back with another shape",
        "keep the scores' own shape, axes of length 1 included",
        breaks=("shapes",),
    ),
    Misconception(
        "stable_axis_one",
        "stable_softmax",
        "took the max and the sum over axis=1, which is the choices' axis only for 2-D scores: with more "
        "leading axes the rows are normalised over the wrong axis",
        "the choices sit on the last axis whatever the number of dimensions: count it from the end, for max and sum",
        breaks=("shapes",),
    ),
    Misconception(
        "stable_sorted_scores",
        "stable_softmax",
        "sorted each row (np.sort) to find its max, and returned the weights in sorted order instead of "
        "the choices' own order",
        "the max of each row is all you need: the scores must stay in their own order",
        breaks=("permutation",),
    ),
    Misconception(
        "stable_shift_by_first_score",
        "stable_softmax",
        "shifted each row by its first score instead of its max: a later score far above the first one "
        "still overflows exp",
        "any shift cancels, but only the row's max keeps every shifted score at or below 0",
        breaks=("permutation", "extremes"),
    ),
    Misconception(
        "stable_shift_by_mean",
        "stable_softmax",
        "shifted each row by its mean instead of its max: a score far above the mean still overflows exp, "
        "and a -inf score makes the mean -inf",
        "shift by the row's max, so the largest shifted score is exactly 0",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "stable_fixes_nan_rows",
        "stable_softmax",
        "computed the plain exp / sum first and redid only the rows that came out nan with the shift: "
        "exp still overflows (NumPy warns), and a row whose total alone overflows comes back as zeros",
        "subtract each row's max before the first exp, for every row; then nothing needs fixing afterwards",
        breaks=("extremes", "quiet"),
    ),
    Misconception(
        "stable_divides_in_place",
        "stable_softmax",
        "divided the caller's array by the temperature in place (x /= temperature), which changes the "
        "caller's scores whenever the temperature is not 1",
        "dividing in place changes the caller's scores: let the division make a new array",
        breaks=("unchanged",),
    ),
]

# Inputs on which the misconceptions differ from each other (see grader.learner.hints.probes).
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "stable_softmax": [
        ((np.array([[1000.0, 1001.0], [3.0, 4.0]]),), {}),
        (([[1, 3, 2], [-3, -1, -2]],), {}),
        ((np.array([[2.0, 0.0, -1.0]], dtype=np.float32),), {"temperature": 0.5}),
        ((np.array([[[1.0, 3.0, 2.0]], [[0.0, 5.0, 1.0]]]),), {}),
        (([0.0, 800.0, -5.0],), {}),
        (([-1000.0, -1001.0, -np.inf],), {}),
        (([709.0, 709.0, 709.0],), {}),
        (([1e300, 0.0],), {}),
        (([3.0, 1.0, 2.0],), {"temperature": 2.0}),
        ((np.zeros((0, 3), dtype=np.float32),), {}),  # no rows at all: row by row in Python, there is no row to map
    ],
}
