"""Lesson 01_naive_division: misconceptions and correct alternatives."""
from grader.catalogue import Alternative, Misconception

LESSON = "01_naive_division"

MISCONCEPTIONS = [
    # naive_normalize
    Misconception(
        "naive_sums_whole_array", "naive_normalize",
        "divided by the total of the whole array instead of each row's own total",
        "sum over the last axis only: x.sum(axis=-1, keepdims=True)", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum()
'''),
    Misconception(
        "naive_sums_axis0", "naive_normalize",
        "summed down the columns (axis 0) instead of along each row",
        "the choices are along the last axis: x.sum(axis=-1, keepdims=True)", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=0)
'''),
    Misconception(
        "naive_drops_keepdims", "naive_normalize",
        "summed each row but dropped the summed axis, so the row totals no longer line up with the rows",
        "keep the summed axis with length 1 so it broadcasts row by row: keepdims=True", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1)
'''),
    Misconception(
        "naive_in_place", "naive_normalize",
        "divided the caller's array in place (x /= total on the input itself)",
        "return a new array: x / total, not x /= total", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    x /= x.sum(axis=-1, keepdims=True)
    return x
'''),
    Misconception(
        "naive_returns_list", "naive_normalize",
        "returned a Python list (a list comprehension) instead of a NumPy array",
        "convert the scores with np.asarray(scores, dtype=float) and divide the whole array at once", '''
def naive_normalize(scores):
    return [s / sum(scores) for s in scores]
'''),
    Misconception(
        "naive_fails_on_ints", "naive_normalize",
        "kept the integer dtype of the input, so dividing in place into it fails (an int array cannot hold fractions)",
        "convert to floats first: np.asarray(scores, dtype=float), then divide into a new array", '''
def naive_normalize(scores):
    x = np.array(scores)
    x /= x.sum(axis=-1, keepdims=True)
    return x
'''),
    Misconception(
        "naive_fails_on_lists", "naive_normalize",
        "called array methods on the input directly, so a Python list fails (a list has no .sum(axis=...))",
        "convert first: x = np.asarray(scores, dtype=float)", '''
def naive_normalize(scores):
    return scores / scores.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "naive_takes_abs", "naive_normalize",
        "changed the scores (abs or clipping) before dividing; this function is meant to break on negative scores",
        "just divide by the plain sum: lesson 02 fixes negative scores properly", '''
def naive_normalize(scores):
    x = np.abs(np.asarray(scores, dtype=float))
    return x / x.sum(axis=-1, keepdims=True)
'''),
    Misconception(
        "naive_guards_zero_sum", "naive_normalize",
        "guarded against a zero sum; this function is meant to break there, giving inf and nan",
        "just divide by the plain sum, zero or not: the failure is the lesson", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    total = x.sum(axis=-1, keepdims=True)
    return x / np.where(total == 0, 1.0, total)
'''),
    # is_distribution
    Misconception(
        "dist_ignores_negatives", "is_distribution",
        "only checked the sums, so negative entries slipped through",
        "also require every entry to be >= 0", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.abs(w.sum(axis=-1) - 1) <= atol))
'''),
    Misconception(
        "dist_ignores_nan", "is_distribution",
        "looked for entries below 0 and sums off by more than atol, but every comparison with nan is False, "
        "so nan slipped through",
        "require np.isfinite for every entry and ask for what must hold (w >= 0, |sum - 1| <= atol)", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return not (w < 0).any() and not (np.abs(w.sum(axis=-1) - 1) > atol).any()
'''),
    Misconception(
        "dist_first_row_only", "is_distribution",
        "checked only the first row",
        "check every entry and every row's sum (sum over axis=-1, then np.all)", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    row = w.reshape(-1, w.shape[-1])[0]
    return bool(np.all(np.isfinite(row)) and np.all(row >= 0) and abs(row.sum() - 1) <= atol)
'''),
    Misconception(
        "dist_sums_whole_array", "is_distribution",
        "summed the whole array instead of each row",
        "each row must sum to 1: sum over axis=-1", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and abs(w.sum() - 1) <= atol)
'''),
    Misconception(
        "dist_exact_sum", "is_distribution",
        "compared the sum with 1 exactly; rounding makes a computed sum like 0.7 + 0.2 + 0.1 miss 1.0",
        "allow a small difference: |sum - 1| <= atol", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(w.sum(axis=-1) == 1))
'''),
    Misconception(
        "dist_ignores_atol", "is_distribution",
        "ignored the atol argument and used a fixed tolerance",
        "compare |sum - 1| with the atol that was passed in", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(np.abs(w.sum(axis=-1) - 1) <= 1e-8))
'''),
    Misconception(
        "dist_allclose_rtol", "is_distribution",
        "used np.allclose (or np.isclose) with its default rtol=1e-05, which allows far more than atol",
        "pass rtol=0, or compare np.abs(sum - 1) <= atol yourself", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.allclose(w.sum(axis=-1), 1.0, atol=atol))
'''),
    Misconception(
        "dist_per_row", "is_distribution",
        "returned one True/False per row instead of one answer for the whole input",
        "combine the rows' answers with np.all(...) and return a single bool", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return np.all(np.isfinite(w), axis=-1) & np.all(w >= 0, axis=-1) & (np.abs(w.sum(axis=-1) - 1) <= atol)
'''),
    Misconception(
        "dist_fails_on_lists", "is_distribution",
        "compared the input with numbers directly, so a Python list fails (a list cannot be compared with 0)",
        "convert first: w = np.asarray(weights, dtype=float)", '''
def is_distribution(weights, atol=1e-8):
    if np.any(weights < 0) or not np.all(np.isfinite(weights)):
        return False
    return bool(np.all(np.abs(np.sum(weights, axis=-1) - 1) <= atol))
'''),
]

ALTERNATIVES = [
    # naive_normalize
    Alternative("naive_loop_over_rows", "naive_normalize", "divides one row at a time in a 2-D view", '''
def naive_normalize(scores):
    x = np.array(scores, dtype=float)
    rows = x.reshape(-1, x.shape[-1])
    for i in range(len(rows)):
        rows[i] = rows[i] / rows[i].sum()
    return x
'''),
    Alternative("naive_apply_along_axis", "naive_normalize", "np.apply_along_axis over the last axis", '''
def naive_normalize(scores):
    return np.apply_along_axis(lambda row: row / row.sum(), -1, np.asarray(scores, dtype=float))
'''),
    Alternative("naive_times_reciprocal", "naive_normalize", "multiplies by 1 / total, the total's axis added back with None", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x * (1.0 / np.sum(x, axis=-1)[..., None])
'''),
    # is_distribution
    Alternative("dist_python_loops", "is_distribution", "checks each row with plain Python loops", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    for row in w.reshape(-1, w.shape[-1]).tolist():
        for value in row:
            if not 0 <= value < float("inf"):  # False for negatives, inf and nan
                return False
        if abs(sum(row) - 1) > atol:
            return False
    return True
'''),
    Alternative("dist_isclose_no_rtol", "is_distribution", "np.isclose with rtol=0 on the row sums", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    ok = np.isfinite(w).all() and (w >= 0).all()
    return bool(ok and np.isclose(w.sum(axis=-1), 1.0, rtol=0.0, atol=atol).all())
'''),
    Alternative("dist_min_and_max_error", "is_distribution", "smallest entry and largest row-sum error, nan checked first", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    if np.isnan(w).any() or np.isinf(w).any():
        return False
    return bool(w.min() >= 0 and np.max(np.abs(w.sum(axis=-1) - 1)) <= atol)
'''),
]
