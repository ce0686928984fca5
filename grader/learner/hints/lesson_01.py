"""Lesson 01_naive_division: its misconceptions (what learners write, a description, a hint) and the probes."""

import numpy as np

from grader.learner.hints import Misconception

LESSON = "01_naive_division"

MISCONCEPTIONS = [
    # naive_normalize
    Misconception(
        "naive_sums_whole_array",
        "naive_normalize",
        "divided by the total of the whole array instead of each row's own total",
        "sum over the last axis only, where each row's choices are, one total per row",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "naive_sums_axis0",
        "naive_normalize",
        "summed down the columns (axis 0) instead of along each row",
        "the choices are along the last axis: give each row a total of its own",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "naive_drops_keepdims",
        "naive_normalize",
        "summed each row but dropped the summed axis, so the row totals no longer line up with the rows",
        "keep the summed axis, with length 1, so that each total lines up with its row",
        breaks=("value", "shapes"),
    ),
    Misconception(
        "naive_in_place",
        "naive_normalize",
        "divided the caller's array in place (x /= total on the input itself)",
        "return a new array: let the division make one instead of dividing into the caller's array",
        breaks=("unchanged",),
    ),
    Misconception(
        "naive_returns_list",
        "naive_normalize",
        "returned a Python list (a list comprehension) instead of a NumPy array",
        "make a float NumPy array of the scores first (np.asarray and its dtype argument), then divide the whole "
        "array at once",
        breaks=("dtype", "value"),
    ),
    Misconception(
        "naive_fails_on_ints",
        "naive_normalize",
        "kept the integer dtype of the input, so dividing in place into it fails (an int array cannot hold fractions)",
        "an integer array cannot hold fractions: make a float array of the scores first, then divide into a new array",
        breaks=("dtype",),
    ),
    Misconception(
        "naive_fails_on_lists",
        "naive_normalize",
        "called array methods on the input directly, so a Python list fails (a list has no .sum(axis=...))",
        "a Python list has no .sum of its own: turn the scores into a float NumPy array first",
        breaks=("dtype",),
    ),
    Misconception(
        "naive_takes_abs",
        "naive_normalize",
        "changed the scores (abs or clipping) before dividing; this function is meant to break on negative scores",
        "just divide by the plain sum: lesson 02 fixes negative scores properly",
        breaks=("meant_to_break",),
    ),
    Misconception(
        "naive_guards_zero_sum",
        "naive_normalize",
        "guarded against a zero sum; this function is meant to break there, giving inf and nan",
        "just divide by the plain sum, zero or not: the failure is the lesson",
        breaks=("meant_to_break",),
    ),
    Misconception(
        "naive_squeezes",
        "naive_normalize",
        "squeezed the size-1 axes away first, so a batch of one row (1, n) came back as (n,) and a column (n, 1) "
        "was divided as one row",
        "keep the input's shape (no np.squeeze): a sum over the last axis that keeps that axis already works for "
        "rows of any shape",
        breaks=("shapes",),
    ),
    Misconception(
        "naive_float32",
        "naive_normalize",
        "converted the scores to float32 (the deep-learning default), so float64 and integer scores came back "
        "as float32 with only about 7 correct digits",
        "convert to Python's float, which NumPy makes float64 and which keeps every digit",
        breaks=("dtype",),
    ),
    Misconception(
        "naive_int_sum_wraps",
        "naive_normalize",
        "summed integer scores as integers: NumPy's int64 sum wraps around past 9.2e18 without a warning, "
        "so huge integer scores got a wrong total",
        "make the scores floats before you add them up: a float64 sum cannot wrap around",
        breaks=("dtype",),
    ),
    Misconception(
        "naive_divides_by_max",
        "naive_normalize",
        "divided each row by its largest score instead of its total, so the top score became 1",
        "weights must add up to 1: divide each row by its own sum, not by its largest score",
        breaks=("value",),
    ),
    Misconception(
        "naive_l2_norm",
        "naive_normalize",
        "divided each row by its length (the L2 norm, root of the sum of squares) instead of its sum",
        "weights must add up to 1: divide by the plain sum, not by np.linalg.norm",
        breaks=("value",),
    ),
    Misconception(
        "naive_min_max",
        "naive_normalize",
        "rescaled each row to run from 0 to 1 (min-max scaling) instead of dividing it by its sum",
        "no shifting: divide the scores as they are by their row's sum",
        breaks=("value", "meant_to_break"),
    ),
    Misconception(
        "naive_transposes",
        "naive_normalize",
        "divided the transpose by the row totals and transposed back: .T reverses every axis, so in a 3-D batch "
        "rows met other rows' totals",
        "no transposes: a sum over the last axis that keeps that axis lines each total up with its own row in any "
        "number of dimensions",
        breaks=("shapes", "value"),
    ),
    Misconception(
        "naive_loops_first_axis",
        "naive_normalize",
        "looped over the first axis only, so in a 3-D batch each whole 2-D block shared one total",
        "divide every row along the last axis: one sum over the last axis, keeping it, works for any number of "
        "dimensions",
        breaks=("shapes", "value"),
    ),
    Misconception(
        "naive_loop_rows_in_place",
        "naive_normalize",
        "divided the rows one at a time into np.asarray(scores), which is the caller's own array when it is "
        "already float64, so the input was overwritten",
        "np.asarray does not copy a float64 array: start from a copy (np.array makes one) or write into a new output",
        breaks=("unchanged",),
    ),
    # is_distribution
    Misconception(
        "dist_ignores_negatives",
        "is_distribution",
        "only checked the sums, so negative entries slipped through",
        "also require every entry to be >= 0",
        breaks=("negatives", "value"),
    ),
    Misconception(
        "dist_ignores_nan",
        "is_distribution",
        "looked for entries below 0 and sums off by more than atol, but every comparison with nan is False, "
        "so nan slipped through",
        "require every entry to be finite (np.isfinite), and test for what must hold rather than for what must not: "
        "nan fails every comparison",
        breaks=("finite", "value"),
    ),
    Misconception(
        "dist_first_row_only",
        "is_distribution",
        "checked only the first row",
        "check every entry and every row's sum (sum over the last axis, then combine the answers with np.all)",
        breaks=("every_row", "value"),
    ),
    Misconception(
        "dist_sums_whole_array",
        "is_distribution",
        "summed the whole array instead of each row",
        "each row must sum to 1: sum over the last axis only",
        breaks=("every_row", "shapes", "value"),
    ),
    Misconception(
        "dist_exact_sum",
        "is_distribution",
        "compared the sum with 1 exactly; rounding makes a computed sum like 0.7 + 0.2 + 0.1 miss 1.0",
        "allow a small difference: a row's sum may be off from 1 by at most atol",
        breaks=("atol",),
    ),
    Misconception(
        "dist_ignores_atol",
        "is_distribution",
        "ignored the atol argument and used a fixed tolerance",
        "measure how far each row's sum is from 1 against the atol that was passed in",
        breaks=("atol",),
    ),
    Misconception(
        "dist_allclose_rtol",
        "is_distribution",
        "used np.allclose (or np.isclose) with its default rtol=1e-05, which allows far more than atol",
        "np.isclose also allows a difference relative to the size (its rtol argument): turn that off, or compare the "
        "distance from 1 with atol yourself",
        breaks=("atol",),
    ),
    Misconception(
        "dist_per_row",
        "is_distribution",
        "returned one True/False per row instead of one answer for the whole input",
        "combine the rows' answers into one (np.all does) and return a single bool",
        breaks=("dtype", "every_row"),
    ),
    Misconception(
        "dist_fails_on_lists",
        "is_distribution",
        "compared the input with numbers directly, so a Python list fails (a list cannot be compared with 0)",
        "a Python list cannot be compared with a number: turn the weights into a float NumPy array first",
        breaks=("dtype",),
    ),
    Misconception(
        "dist_returns_numpy_bool",
        "is_distribution",
        "answered with a NumPy bool (np.True_ or np.False_, which np.all gives, or an array of them) "
        "instead of a plain Python bool",
        "NumPy's comparisons and np.all give NumPy bools: turn the final answer into Python's own bool",
        breaks=("dtype",),
    ),
    Misconception(
        "dist_strict_atol",
        "is_distribution",
        "required each row sum to be strictly closer to 1 than atol, so a sum exactly atol away was rejected",
        "within atol includes atol itself: compare with <=",
        breaks=("atol",),
    ),
    Misconception(
        "dist_no_finite_check",
        "is_distribution",
        "left out the finiteness check, counting on the row sum to catch inf: with a loose atol (atol=inf) "
        "an infinite entry slipped through",
        "check np.isfinite for every entry yourself, whatever atol is",
        breaks=("finite",),
    ),
    Misconception(
        "dist_int_sum_wraps",
        "is_distribution",
        "summed integer weights as integers: NumPy's int64 sum wraps around without a warning, so huge integers "
        "could seem to add up to 1",
        "make the weights floats before you add them up: a float64 sum cannot wrap around",
        breaks=("dtype",),
    ),
    Misconception(
        "dist_marks_nan_in_place",
        "is_distribution",
        "wrote -1 over the nan and inf entries of the caller's array (to make the >= 0 test reject them), "
        "which changed the input",
        "do not write into the input: ask np.isfinite about the entries, which gives a new array, instead of "
        "overwriting them",
        breaks=("unchanged",),
    ),
    Misconception(
        "dist_batch_as_one_row",
        "is_distribution",
        "handled 1-D and 2-D input but treated any other shape as one long row, so a 3-D batch of rows "
        "never counted as distributions",
        "sum over the last axis only: it gives every row's total in any number of dimensions",
        breaks=("every_row", "shapes"),
    ),
    Misconception(
        "dist_total_equals_rows",
        "is_distribution",
        "checked that all the entries add up to the number of rows: a row above 1 and another below 1 cancel out",
        "check each row's own sum against 1, within atol, for every row: rows must not make up for each other",
        breaks=("every_row",),
    ),
    Misconception(
        "dist_tolerates_tiny_negatives",
        "is_distribution",
        "let entries slightly below 0 pass (w >= -atol, for rounding): a weight can never be negative, however little",
        "atol is for the row sums only: every entry must be >= 0",
        breaks=("negatives",),
    ),
]

# Inputs on which the misconceptions above behave differently from each other (see grader.learner.hints).
PROBES: dict[str, list[tuple[tuple, dict]]] = {  # function -> [(args, kwargs), ...]
    "naive_normalize": [
        (([1, 2, 1],), {}),
        ((np.array([[1.0, 3.0], [2.0, 6.0]]),), {}),
        ((np.array([-2, 0, 3]),), {}),
        (([1, -1, 0],), {}),
        ((np.array([[[1.0, 3.0]], [[2.0, 2.0]]]),), {}),
        ((np.arange(1.0, 13.0).reshape(2, 2, 3),), {}),
        ((np.array([4 * 10**18, 4 * 10**18, 8 * 10**18]),), {}),
        ((np.array([[1.0], [3.0]]),), {}),
        (([],), {}),  # no scores: nothing to divide, and no row length to reshape by
    ],
    "is_distribution": [
        (([[0.5, 0.5], [1.5, -0.5]],), {}),
        (([1.0 + 1e-12, -1e-12],), {}),
        ((np.array([0.5, np.nan, 0.5]),), {}),
        (([np.inf, 0.0],), {"atol": np.inf}),
        (([[0.25, 0.25], [0.25, 0.25]],), {}),
        (([[0.5, 0.7], [0.5, 0.3]],), {}),
        ((np.full((2, 1, 2), 0.5),), {}),
        (([0.7, 0.2, 0.1],), {}),
        (([0.5, 0.5 + 1e-6],), {"atol": 1e-5}),
        (([0.25, 0.5],), {"atol": 0.25}),
        ((np.array([2**62, 2**62, 2**62, 2**62, 1]),), {}),
        (([0.5, 0.5 + 5e-6],), {}),
    ],
}
