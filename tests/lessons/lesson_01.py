"""Lesson 01_naive_division: printed numbers and known-wrong implementations."""
from tests.lessons import Wrong

NUMBERS = ["sum of the scores: 6.5617", "weight on 'journey': 0.2278",
           "naive weights: [-2.  0.  3.]", "0.9999999999999999 | equal to 1.0? False",
           "is it a distribution? False", "[1, -1]    -> [ inf -inf]", "[1, -1, 0] -> [ inf -inf  nan]"]

WRONG = [
    Wrong("naive_sums_whole_array", "naive_normalize", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum()
''', ("test_naive_normalize_public", "test_naive_normalize_rows"), "total of the whole array"),
    Wrong("naive_sums_axis0", "naive_normalize", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    return x / x.sum(axis=0)
''', ("test_naive_normalize_rows",), "down the columns"),
    Wrong("naive_in_place", "naive_normalize", '''
def naive_normalize(scores):
    x = np.asarray(scores, dtype=float)
    x /= x.sum(axis=-1, keepdims=True)
    return x
''', ("test_naive_normalize_public", "test_naive_normalize_rows", "test_naive_normalize_inputs"),
        "changed its input in place"),
    Wrong("naive_returns_list", "naive_normalize", '''
def naive_normalize(scores):
    return [s / sum(scores) for s in scores]
''', ("test_naive_normalize_public", "test_naive_normalize_rows"), "expected a NumPy array"),
    Wrong("naive_fails_on_ints", "naive_normalize", '''
def naive_normalize(scores):
    x = np.array(scores)
    x /= x.sum(axis=-1, keepdims=True)
    return x
''', ("test_naive_normalize_public", "test_naive_normalize_inputs"), "raised"),
    Wrong("naive_fails_on_lists", "naive_normalize", '''
def naive_normalize(scores):
    return scores / scores.sum(axis=-1, keepdims=True)
''', ("test_naive_normalize_public", "test_naive_normalize_inputs"), "AttributeError"),
    Wrong("naive_takes_abs", "naive_normalize", '''
def naive_normalize(scores):
    x = np.abs(np.asarray(scores, dtype=float))
    return x / x.sum(axis=-1, keepdims=True)
''', ("test_naive_normalize_breaks",), "abs or clipping"),
    Wrong("dist_ignores_negatives", "is_distribution", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.abs(w.sum(axis=-1) - 1) <= atol))
''', ("test_is_distribution_public", "test_is_distribution_rejects"), "negative entries slipped through"),
    Wrong("dist_ignores_nan", "is_distribution", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return not (w < 0).any() and not (np.abs(w.sum(axis=-1) - 1) > atol).any()
''', ("test_is_distribution_rejects",), "nan or inf"),
    Wrong("dist_first_row_only", "is_distribution", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    row = w.reshape(-1, w.shape[-1])[0]
    return bool(np.all(np.isfinite(row)) and np.all(row >= 0) and abs(row.sum() - 1) <= atol)
''', ("test_is_distribution_rejects",), "only the first row"),
    Wrong("dist_sums_whole_array", "is_distribution", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and abs(w.sum() - 1) <= atol)
''', ("test_is_distribution_rows_and_atol",), "summed the whole array"),
    Wrong("dist_exact_sum", "is_distribution", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(w.sum(axis=-1) == 1))
''', ("test_is_distribution_public", "test_is_distribution_rows_and_atol"), "exactly"),
    Wrong("dist_ignores_atol", "is_distribution", '''
def is_distribution(weights, atol=1e-8):
    w = np.asarray(weights, dtype=float)
    return bool(np.all(np.isfinite(w)) and np.all(w >= 0) and np.all(np.abs(w.sum(axis=-1) - 1) <= 1e-8))
''', ("test_is_distribution_rows_and_atol",), "ignored the atol argument"),
]
