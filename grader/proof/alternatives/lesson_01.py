"""Lesson 01_naive_division: correct alternatives, and the mutants equivalent to the reference."""

from grader.proof.alternatives import Alternative

LESSON = "01_naive_division"

ALTERNATIVES = [
    # naive_normalize
    Alternative(
        "naive_loop_over_rows",
        "naive_normalize",
        "divides one row at a time in a 2-D view",
        """
def naive_normalize(scores):
    x = np.array(scores, dtype=float)
    rows = x.reshape(-1, x.shape[-1])
    for i in range(len(rows)):
        rows[i] = rows[i] / rows[i].sum()
    return x
""",
    ),
    Alternative(
        "naive_apply_along_axis",
        "naive_normalize",
        "np.apply_along_axis over the last axis",
        """
def naive_normalize(scores):
    return np.apply_along_axis(lambda row: row / row.sum(), -1, np.asarray(scores, dtype=float))
""",
    ),
    Alternative(
        "naive_times_reciprocal",
        "naive_normalize",
        "multiplies by 1 / total, the total's axis added back with None",
        """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x * (1.0 / np.sum(x, axis=-1)[..., None])
""",
    ),
    Alternative(
        "naive_keeps_float32",
        "naive_normalize",
        "keeps a float input's dtype (float32 stays float32), makes other input float64",
        """
def naive_normalize(scores):
    x = np.asarray(scores)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    return x / x.sum(axis=-1, keepdims=True)
""",
    ),
    Alternative(
        "naive_einsum_total",
        "naive_normalize",
        "row totals with np.einsum, their axis added back with None",
        """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / np.einsum("...i->...", x)[..., None]
""",
    ),
    # is_distribution
    Alternative(
        "dist_python_loops",
        "is_distribution",
        "checks each row with plain Python loops",
        """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    for row in w.reshape(-1, w.shape[-1]).tolist():
        for value in row:
            if not 0 <= value < float("inf"):  # False for negatives, inf and nan
                return False
        if abs(sum(row) - 1) > atol:
            return False
    return True
""",
    ),
    Alternative(
        "dist_isclose_no_rtol",
        "is_distribution",
        "np.isclose with rtol=0 on the row sums",
        """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    ok = np.isfinite(w).all() and (w >= 0).all()
    return bool(ok and np.isclose(w.sum(axis=-1), 1.0, rtol=0.0, atol=atol).all())
""",
    ),
    Alternative(
        "dist_min_and_max_error",
        "is_distribution",
        "smallest entry and largest row-sum error, nan checked first",
        """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    if np.isnan(w).any() or np.isinf(w).any():
        return False
    return bool(w.min() >= 0 and np.max(np.abs(w.sum(axis=-1) - 1)) <= atol)
""",
    ),
    Alternative(
        "dist_keeps_float_dtype",
        "is_distribution",
        "works in the input's own float dtype (float32 stays float32), integers as float64",
        """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights)
    if w.dtype.kind != "f":
        w = w.astype(np.float64)
    finite_and_nonnegative = np.isfinite(w).all() and (w >= 0).all()
    return bool(finite_and_nonnegative and (np.abs(w.sum(axis=-1) - 1) <= atol).all())
""",
    ),
]
