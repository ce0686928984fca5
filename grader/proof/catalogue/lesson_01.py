"""Lesson 01_naive_division: the source of each catalogued misconception, by id (its description, hint and probes
are in grader/learner/hints/)."""

LESSON = "01_naive_division"

SOURCES = {
    "naive_sums_whole_array": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum()
""",
    "naive_sums_axis0": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=0)
""",
    "naive_drops_keepdims": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=-1)
""",
    "naive_in_place": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
    "naive_returns_list": """
def naive_normalize(scores):
    return [s / sum(scores) for s in scores]
""",
    "naive_fails_on_ints": """
def naive_normalize(scores):
    x = np.array(scores)
    x /= x.sum(axis=-1, keepdims=True)
    return x
""",
    "naive_fails_on_lists": """
def naive_normalize(scores):
    return scores / scores.sum(axis=-1, keepdims=True)
""",
    "naive_takes_abs": """
def naive_normalize(scores):
    x = np.abs(np.asarray(scores, dtype=float))
    return x / x.sum(axis=-1, keepdims=True)
""",
    "naive_guards_zero_sum": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    total = x.sum(axis=-1, keepdims=True)
    return x / np.where(total == 0, 1.0, total)
""",
    "naive_squeezes": """
def naive_normalize(scores):
    x = np.squeeze(np.asarray(scores, dtype=float))
    return x / x.sum(axis=-1, keepdims=True)
""",
    "naive_float32": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=np.float32)
    return x / x.sum(axis=-1, keepdims=True)
""",
    "naive_int_sum_wraps": """
def naive_normalize(scores):
    x = np.asarray(scores)
    return x / x.sum(axis=-1, keepdims=True)
""",
    "naive_divides_by_max": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.max(axis=-1, keepdims=True)
""",
    "naive_l2_norm": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / np.linalg.norm(x, axis=-1, keepdims=True)
""",
    "naive_min_max": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    low, high = x.min(axis=-1, keepdims=True), x.max(axis=-1, keepdims=True)
    return (x - low) / (high - low)
""",
    "naive_transposes": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return (x.T / x.sum(axis=-1)).T
""",
    "naive_loops_first_axis": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    if x.ndim == 1:
        return x / x.sum()
    out = np.empty_like(x)
    for i, row in enumerate(x):
        out[i] = row / row.sum(axis=-1, keepdims=True) if row.ndim == 1 else row / row.sum()
    return out
""",
    "naive_loop_rows_in_place": """
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    rows = x.reshape(-1, x.shape[-1])
    for i in range(len(rows)):
        rows[i] = rows[i] / rows[i].sum()
    return x
""",
    "dist_ignores_negatives": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.abs(w.sum(axis=-1) - 1) <= atol))
""",
    "dist_ignores_nan": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return not (w < 0).any() and not (np.abs(w.sum(axis=-1) - 1) > atol).any()
""",
    "dist_first_row_only": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    row = w.reshape(-1, w.shape[-1])[0]
    return bool(np.all(np.isfinite(row)) and np.all(row >= 0) and abs(row.sum() - 1) <= atol)
""",
    "dist_sums_whole_array": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and abs(w.sum() - 1) <= atol)
""",
    "dist_exact_sum": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(w.sum(axis=-1) == 1))
""",
    "dist_ignores_atol": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(np.abs(w.sum(axis=-1) - 1) <= 1e-8))
""",
    "dist_allclose_rtol": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.allclose(w.sum(axis=-1), 1.0, atol=atol))
""",
    "dist_per_row": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return np.all(np.isfinite(w), axis=-1) & np.all(w >= 0, axis=-1) & (np.abs(w.sum(axis=-1) - 1) <= atol)
""",
    "dist_fails_on_lists": """
def is_distribution(weights, atol=1e-8):
    if np.any(weights < 0) or not np.all(np.isfinite(weights)):
        return False
    return bool(np.all(np.abs(np.sum(weights, axis=-1) - 1) <= atol))
""",
    "dist_returns_numpy_bool": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return np.all(np.isfinite(w)) & np.all(w >= 0) & np.all(np.abs(w.sum(axis=-1) - 1) <= atol)
""",
    "dist_strict_atol": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        return False
    return bool(np.all(np.abs(w.sum(axis=-1) - 1) < atol))
""",
    "dist_no_finite_check": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(w >= 0) and np.all(np.abs(w.sum(axis=-1) - 1) <= atol))
""",
    "dist_int_sum_wraps": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        return False
    return bool(np.all(np.abs(w.sum(axis=-1) - 1) <= atol))
""",
    "dist_marks_nan_in_place": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    w[~np.isfinite(w)] = -1.0
    return bool(np.all(w >= 0) and np.all(np.abs(w.sum(axis=-1) - 1) <= atol))
""",
    "dist_batch_as_one_row": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        return False
    rows = w if w.ndim == 2 else w.reshape(1, -1)
    return bool(np.all(np.abs(rows.sum(axis=1) - 1) <= atol))
""",
    "dist_total_equals_rows": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        return False
    rows = w.size // w.shape[-1]
    return bool(abs(w.sum() - rows) <= atol * rows)
""",
    "dist_tolerates_tiny_negatives": """
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or np.any(w < -atol):
        return False
    return bool(np.all(np.abs(w.sum(axis=-1) - 1) <= atol))
""",
}
